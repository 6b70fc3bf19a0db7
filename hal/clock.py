"""Time as an injected object: the one clock type of hal and firmware.

Everything that waits or measures time (the launcher waiting for the next card, a
reverse pulse, the servo settling, a serial port's reopen backoff, a tag reader's
removal timeout, the tray's poll pace, the event loop's timers) and everything that
stamps time (the journal) asks a `Clock` instead of reading `time`, so a test runs the
same code on virtual time (`hal.sim.clock.VirtualClock`) and the daemon runs it on
`MonotonicClock`.

A clock offers:

- ``now()``: monotonic seconds, for deadlines and intervals;
- ``wall()``: seconds since the Unix epoch, for timestamps a person reads (the
  journal's ``started_at`` and ``at``). Kept apart from ``now()`` because the two
  answer different questions: a monotonic clock never jumps (NTP, a Pi without a
  real-time clock booting in 1970) but means nothing outside this boot, while a
  timestamp must still mean a date after a restart. Nothing measures an interval
  with ``wall()``;
- ``wait(event, timeout)``: block until ``event`` is set or ``timeout`` seconds
  pass, returning whether it was set (like ``threading.Event.wait``);
- ``sleep(seconds)``;
- ``call_later(delay, fn)``: run ``fn()`` once after ``delay`` seconds (used by the
  simulated twin to make things happen "later"); returns a handle with ``cancel()``.

Outside it on purpose: the simulated serial devices (`hal.sim.ptydevice`) pace their
bytes in real time, because the driver reads them through a real pty; and a test
harness waiting for another thread (`firmware.sim.testbed`) waits in real time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...

    def wall(self) -> float: ...

    def wait(self, event: threading.Event, timeout: float) -> bool: ...

    def sleep(self, seconds: float) -> None: ...

    def call_later(self, delay: float, fn: Callable[[], object]) -> Cancellable: ...


class MonotonicClock:
    """Real time: ``time.monotonic`` (``wall``: ``time.time``); ``call_later`` runs ``fn``
    on a daemon timer thread. It holds no state: `REAL_TIME` is the shared default."""

    def now(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def wait(self, event: threading.Event, timeout: float) -> bool:
        return event.wait(max(0.0, timeout))

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)

    def call_later(self, delay: float, fn: Callable[[], object]) -> Cancellable:
        timer = threading.Timer(max(0.0, delay), fn)
        timer.daemon = True
        timer.start()
        return timer

    def __repr__(self) -> str:
        return "<MonotonicClock>"


REAL_TIME: Clock = MonotonicClock()
