"""Time as an injected object.

Everything in hal that waits (the launcher waiting for the next card, a reverse
pulse, the servo settling) asks a `Clock` instead of reading the wall clock, so a
test can run the same code on virtual time (`hal.sim.clock.VirtualClock`) and the
daemon runs it on `MonotonicClock`.

A clock offers:

- ``now()``: monotonic seconds;
- ``wait(event, timeout)``: block until ``event`` is set or ``timeout`` seconds
  pass, returning whether it was set (like ``threading.Event.wait``);
- ``sleep(seconds)``;
- ``call_later(delay, fn)``: run ``fn()`` once after ``delay`` seconds (used by the
  simulated twin to make things happen "later"); returns a handle with ``cancel()``.
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

    def wait(self, event: threading.Event, timeout: float) -> bool: ...

    def sleep(self, seconds: float) -> None: ...

    def call_later(self, delay: float, fn: Callable[[], object]) -> Cancellable: ...


class MonotonicClock:
    """Real time: ``time.monotonic``; ``call_later`` runs ``fn`` on a daemon timer thread."""

    def now(self) -> float:
        return time.monotonic()

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
