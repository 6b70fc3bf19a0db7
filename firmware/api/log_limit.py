"""Errors a client can cause as fast as it likes, logged at most once a second.

asyncio logs "socket.accept() out of system resource" (EMFILE, ENFILE, ...) with a
traceback every time accept fails, and aiohttp logs every malformed request with its
traceback: a flood of either would fill the disk. `accept_errors_rate_limited()`
lets one of each kind through per second, without its traceback, and says how many it
held back.
"""

from __future__ import annotations

import contextlib
import errno
import logging
from collections.abc import Callable, Iterator
from typing import Any

from hal.clock import REAL_TIME, Clock

RESOURCE_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


class OncePerInterval(logging.Filter):
    """Lets one record of a kind through per `interval` seconds; the next one that
    passes says how many were held back. `kind(record)` names the kind, or None for
    records this filter leaves alone."""

    def __init__(self, kind: Callable[[logging.LogRecord], str | None], *,
                 interval: float = 1.0, clock: Clock = REAL_TIME) -> None:
        super().__init__()
        self.kind = kind
        self.interval = interval
        self.clock = clock
        self._last: dict[str, float] = {}
        self.held: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        kind = self.kind(record)
        if kind is None:
            return True
        now = self.clock.now()
        last = self._last.get(kind)
        if last is not None and now - last < self.interval:
            self.held[kind] = self.held.get(kind, 0) + 1
            return False
        self._last[kind] = now
        held = self.held.pop(kind, 0)
        if held:
            record.msg = f"{record.msg} (and {held} more like it since the last one logged)"
        if record.exc_info:
            # the errno, or the client's malformed request, says it all: a traceback of the
            # parser a client can ask for once a second is noise in the table's log
            record.msg = f"{record.msg}: {record.exc_info[1]}"
            record.exc_info = None
            record.exc_text = None
        return True


def accept_error_kind(record: logging.LogRecord) -> str | None:
    """asyncio's "socket.accept() out of system resource" (EMFILE, ENFILE, ...) and
    aiohttp's "Error handling request" for malformed HTTP: both repeat as fast as a
    client can make them."""
    message = record.msg if isinstance(record.msg, str) else ""
    if record.name == "asyncio" and "accept" in message:
        exc = record.exc_info[1] if record.exc_info else None
        code = getattr(exc, "errno", None)
        if code in RESOURCE_ERRNOS or exc is None:
            return f"accept:{code}"
    if record.name == "aiohttp.server" and message.startswith("Error handling request"):
        return "bad-request"
    return None


@contextlib.contextmanager
def accept_errors_rate_limited(*, interval: float = 1.0,
                               clock: Clock = REAL_TIME) -> Iterator[OncePerInterval]:
    """While the block runs, accept errors and malformed-request errors are logged at
    most once per `interval` per kind."""
    limit = OncePerInterval(accept_error_kind, interval=interval, clock=clock)
    loggers: list[Any] = [logging.getLogger("asyncio"), logging.getLogger("aiohttp.server")]
    for logger in loggers:
        logger.addFilter(limit)
    try:
        yield limit
    finally:
        for logger in loggers:
            logger.removeFilter(limit)
