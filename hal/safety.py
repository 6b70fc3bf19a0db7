"""Outputs off on every way out of the process.

Python skips ``atexit`` and ``finally`` blocks when SIGTERM kills it, and on a Pi
a released output keeps its level: a daemon stopped by systemd could leave the
launcher motor running. ``install_signal_handlers(*devices)`` makes SIGTERM and
SIGINT close the given devices first (each one's ``close()`` turns its outputs
off before releasing the pins) and then leave with ``SystemExit(128 + signal)``,
so ``finally`` blocks and ``atexit`` hooks run too.

Call it from the main thread. The daemon's asyncio loop may instead call
``close_all(devices)`` from its own signal handling.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from types import FrameType
from typing import Any, Protocol, Self

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Closable(Protocol):
    def close(self) -> None: ...


class ClosedOnExit(ABC):
    """Base of a device that is its own context manager: ``with Launcher(...) as l:``
    closes it however the block ends. A subclass writes `close` (idempotent); one that
    does not cannot be made."""

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def close_all(devices: Iterable[Closable]) -> list[BaseException]:
    """Close every device even if some fail; returns the errors (already reported to stderr)."""
    errors: list[BaseException] = []
    for device in devices:
        try:
            device.close()
        except Exception as exc:  # one broken device must not keep a motor on
            errors.append(exc)
            print(f"hal.safety: closing {device!r} failed: {exc!r}", file=sys.stderr)
    return errors


def install_signal_handlers(
    *devices: Closable, signals: Iterable[int] = SIGNALS
) -> Callable[[int, FrameType | None], None]:
    """Make each signal close ``devices`` and exit; returns the handler (for tests)."""
    frozen = tuple(devices)

    def handler(signum: int, frame: FrameType | None) -> None:
        # A second signal while closing must not interrupt the closing.
        for sig in SIGNALS:
            with contextlib.suppress(ValueError):  # not the main thread
                signal.signal(sig, signal.SIG_IGN)
        close_all(frozen)
        raise SystemExit(128 + signum)

    for sig in signals:
        signal.signal(sig, handler)
    return handler


def restore_default_handlers(signals: Iterable[int] = SIGNALS) -> None:
    for sig in signals:
        previous: Any = signal.default_int_handler if sig == signal.SIGINT else signal.SIG_DFL
        signal.signal(sig, previous)
