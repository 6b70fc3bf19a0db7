"""Virtual time for the simulated twin and for tests.

`VirtualClock` implements the `hal.clock.Clock` protocol without ever sleeping.
Time only moves while someone waits: ``wait(event, timeout)`` runs the callbacks
scheduled with ``call_later`` in time order, advancing ``now()`` to each one, until
``event`` is set or the timeout is reached (then ``now()`` jumps to the deadline).
The twin schedules its physics (the next card reaching the exit sensor, the end
of a sensor pulse) with ``call_later``; the launcher waits for cards with
``wait``; both therefore share one deterministic timeline and a whole deal takes
microseconds of real time.

Callbacks run in the thread that waits. ``advance(seconds)`` moves time forward
from outside (a test pretending that time passes with nobody waiting).
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable


class _Scheduled:
    __slots__ = ("fn", "cancelled")

    def __init__(self, fn: Callable[[], object]) -> None:
        self.fn = fn
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class VirtualClock:
    """`wall()` is `now()` plus `epoch` (a date of your choosing; 0 by default)."""

    def __init__(self, start: float = 0.0, *, epoch: float = 0.0) -> None:
        self._now = float(start)
        self._epoch = float(epoch)
        self._queue: list[tuple[float, int, _Scheduled]] = []
        self._seq = itertools.count()
        self._lock = threading.RLock()

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._epoch + self._now

    def call_later(self, delay: float, fn: Callable[[], object]) -> _Scheduled:
        if delay < 0:
            raise ValueError(f"delay must not be negative, not {delay!r}")
        item = _Scheduled(fn)
        with self._lock:
            heapq.heappush(self._queue, (self._now + delay, next(self._seq), item))
        return item

    def pending(self) -> int:
        """Number of scheduled callbacks not yet run or cancelled."""
        with self._lock:
            return sum(1 for _, _, item in self._queue if not item.cancelled)

    def _run_until(self, deadline: float, event: threading.Event | None) -> bool:
        while True:
            if event is not None and event.is_set():
                return True
            with self._lock:
                while self._queue and self._queue[0][2].cancelled:
                    heapq.heappop(self._queue)
                if not self._queue or self._queue[0][0] > deadline:
                    self._now = max(self._now, deadline)
                    return event is not None and event.is_set()
                when, _, item = heapq.heappop(self._queue)
                self._now = max(self._now, when)
            item.fn()

    def wait(self, event: threading.Event, timeout: float) -> bool:
        return self._run_until(self._now + max(0.0, timeout), event)

    def sleep(self, seconds: float) -> None:
        self._run_until(self._now + max(0.0, seconds), None)

    def advance(self, seconds: float) -> None:
        self.sleep(seconds)

    def __repr__(self) -> str:
        return f"<VirtualClock now={self._now:.6f} pending={self.pending()}>"
