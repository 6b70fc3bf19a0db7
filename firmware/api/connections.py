"""Keeping the API reachable: a cap on open connections and deadlines for the stalled
ones (accept errors are logged at most once a second: `firmware.api.log_limit`).

`Connections.protocol(inner)` wraps each of aiohttp's connection protocols before the
listening socket hands it a connection, so it sees every connection open and close:

* At most `limit` connections are open. One more arriving closes the connection that
  has waited longest without a request being handled (a silent socket, a half-sent
  header, an idle keep-alive); when every one of them is busy (`pinned`: a request at
  the table, an event stream), the newcomer is answered 503 and closed. So a crowd of
  idle or slowloris sockets costs the newest client nothing, and the daemon never
  holds more descriptors than the cap (no ``EMFILE``).
* A connection must send a complete request header within `header_timeout` of opening
  or of its last answer; `sweep()` (every second) closes those that did not.

The request body has its own deadline in the server (408).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
from collections import OrderedDict
from collections.abc import Iterator

from hal.clock import REAL_TIME, Clock

log = logging.getLogger(__name__)

BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        b"Connection: close\r\nContent-Length: %d\r\n\r\n%s")
BUSY_BODY = (b'{"error": "busy", "reason": "the table has too many open connections; '
             b'try again", "field": null}')


class _Connection(asyncio.Protocol):
    """One accepted connection: forwards everything to aiohttp's protocol."""

    def __init__(self, owner: Connections, inner: asyncio.Protocol) -> None:
        self.owner = owner
        self.inner = inner
        self.transport: asyncio.Transport | None = None
        self.deadline: float | None = None
        self.pinned = 0
        self.refused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        if self.owner._opened(self):
            self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if not self.refused:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return None if self.refused else self.inner.eof_received()

    def pause_writing(self) -> None:
        if not self.refused:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if not self.refused:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.owner._lost(self)
        if not self.refused:
            self.inner.connection_lost(exc)

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()


RESERVED_FILES = 64  # descriptors kept for the journal, serial ports, GPIO, logging
# The listen backlog, which is also how many connections asyncio accepts in one go
# before any of them reaches `Connections` (so the cap cannot close them yet).
ACCEPT_BURST = 128


def files_limit() -> int | None:
    """The process's soft limit on open descriptors (None if it cannot be read)."""
    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY else int(soft)


class Connections:
    def __init__(self, *, limit: int = 256, header_timeout: float = 10.0,
                 clock: Clock = REAL_TIME, files: int | None = None) -> None:
        """`limit` connections at most, and never more than `files` (the open-files
        limit, read from the process by default) allows besides `RESERVED_FILES` and
        one `ACCEPT_BURST`: asyncio's accept loop (Python 3.11) logs and reschedules
        itself once per waiting connection when it meets EMFILE, so the cap must keep
        it from ever meeting it."""
        if limit < 1 or header_timeout <= 0:
            raise ValueError("limit must be at least 1 and header_timeout positive")
        files = files_limit() if files is None else files
        if files is not None:
            limit = min(limit, max(8, files - RESERVED_FILES - ACCEPT_BURST))
        self.limit = limit
        self.header_timeout = header_timeout
        self.clock = clock
        self._open: OrderedDict[_Connection, None] = OrderedDict()  # oldest activity first
        self._by_transport: dict[asyncio.BaseTransport, _Connection] = {}
        self.evicted = 0
        self.timed_out = 0
        self.refused = 0

    def protocol(self, inner: asyncio.Protocol) -> asyncio.Protocol:
        """Wrap a protocol from aiohttp's factory (``loop.create_server(lambda: ...)``)."""
        return _Connection(self, inner)

    def __len__(self) -> int:
        return len(self._open)

    # -- what the server tells about a connection ----------------------------------------
    def request_started(self, transport: asyncio.BaseTransport | None) -> None:
        """A complete request header arrived: no header deadline while it is handled."""
        conn = self._by_transport.get(transport) if transport is not None else None
        if conn is not None:
            conn.deadline = None
            self._open.move_to_end(conn)

    def request_done(self, transport: asyncio.BaseTransport | None) -> None:
        """Answered: the next request header must arrive within `header_timeout`."""
        conn = self._by_transport.get(transport) if transport is not None else None
        if conn is not None:
            conn.deadline = self.clock.now() + self.header_timeout

    @contextlib.contextmanager
    def pinned(self, transport: asyncio.BaseTransport | None) -> Iterator[None]:
        """Never evict this connection while the block runs (a request at the table,
        an event stream)."""
        conn = self._by_transport.get(transport) if transport is not None else None
        if conn is not None:
            conn.pinned += 1
        try:
            yield
        finally:
            if conn is not None:
                conn.pinned -= 1

    # -- deadlines and the stop ----------------------------------------------------------
    def sweep(self) -> int:
        """Close every connection past its header deadline; how many were closed."""
        now = self.clock.now()
        late = [c for c in self._open if c.deadline is not None and c.deadline <= now and not c.pinned]
        for conn in late:
            conn.abort()
        self.timed_out += len(late)
        return len(late)

    def close_unpinned(self) -> int:
        """At a stop: close every connection that is not answering a request at the
        table or streaming events (idle, half-sent headers or bodies)."""
        idle = [c for c in self._open if not c.pinned]
        for conn in idle:
            conn.abort()
        return len(idle)

    # -- internals -----------------------------------------------------------------------
    def _opened(self, conn: _Connection) -> bool:
        assert conn.transport is not None
        if len(self._open) >= self.limit:
            victim = next((c for c in self._open if not c.pinned), None)
            if victim is None:
                conn.refused = True
                self.refused += 1
                conn.transport.write(BUSY % (len(BUSY_BODY), BUSY_BODY))
                conn.transport.close()
                return False
            self._forget(victim)
            victim.abort()
            self.evicted += 1
        conn.deadline = self.clock.now() + self.header_timeout
        self._open[conn] = None
        self._by_transport[conn.transport] = conn
        return True

    def _lost(self, conn: _Connection) -> None:
        self._forget(conn)

    def _forget(self, conn: _Connection) -> None:
        self._open.pop(conn, None)
        if conn.transport is not None:
            self._by_transport.pop(conn.transport, None)

    def __repr__(self) -> str:
        return (f"<Connections open={len(self._open)}/{self.limit} evicted={self.evicted} "
                f"timed_out={self.timed_out} refused={self.refused}>")
