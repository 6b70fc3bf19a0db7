"""A serial port opened by URL that survives being unplugged.

`SerialLink` wraps `serial.serial_for_url` (so a test can hand it a pty path,
``loop://`` or ``socket://``) and opens the port exclusively (an flock on the device):
a second program on the same reader would steal half of its answers, so it gets
`PortBusy` instead. When the port disappears (USB unplug: the read or
write fails), the link closes and refuses I/O until a reopen succeeds; reopen
attempts are spaced by an exponential backoff measured on the injected clock, so a
missing reader costs the caller nothing between attempts.
"""

from __future__ import annotations

import contextlib
import errno
import termios
from collections.abc import Callable
from typing import Any

import serial

from hal.clock import REAL_TIME, Clock
from hal.errors import PortBusy, ReaderDisconnected
from hal.safety import ClosedOnExit

# termios.error is what a pty whose other end vanished raises from tcflush / tcsetattr
PORT_ERRORS = (serial.SerialException, OSError, termios.error)
# the lock (or the tty's exclusive mode) is held by another process
BUSY_ERRNOS = (errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK)

OpenPort = Callable[..., Any]


class SerialLink:
    def __init__(
        self,
        url: str,
        *,
        baudrate: int,
        read_slice_s: float = 0.005,
        backoff_min_s: float = 0.5,
        backoff_max_s: float = 10.0,
        clock: Clock = REAL_TIME,
        open_port: OpenPort = serial.serial_for_url,
    ) -> None:
        self.url = url
        self.baudrate = baudrate
        self._read_slice = read_slice_s
        self._backoff_min = backoff_min_s
        self._backoff_max = backoff_max_s
        self._clock = clock
        self._open_port = open_port
        self._port: Any = None
        self._next_attempt = float("-inf")
        self._backoff = backoff_min_s
        self._opened_once = False
        self.reconnects = 0
        self.bytes_written = 0
        self.bytes_read = 0
        self.last_error: str | None = None

    @property
    def connected(self) -> bool:
        return self._port is not None

    def open(self) -> bool:
        """Open the port if it is closed and the backoff allows.

        Returns True when this call (re)opened the port (the device behind it may
        have been power-cycled and need initialising), False when it was open.
        Raises ReaderDisconnected when it cannot open, or the backoff says wait.
        """
        if self._port is not None:
            return False
        now = self._clock.now()
        if now < self._next_attempt:
            raise ReaderDisconnected(self.url, f"not connected ({self.last_error})")
        try:
            self._port = self._open_port(self.url, baudrate=self.baudrate,
                                         timeout=self._read_slice, exclusive=True)
        except (*PORT_ERRORS, ValueError) as exc:
            self.last_error = str(exc) or type(exc).__name__
            self._next_attempt = now + self._backoff
            self._backoff = min(self._backoff * 2, self._backoff_max)
            if getattr(exc, "errno", None) in BUSY_ERRNOS:
                raise PortBusy(self.url,
                               f"busy: another program holds it ({self.last_error})") from exc
            raise ReaderDisconnected(self.url, f"cannot open: {self.last_error}") from exc
        if self._opened_once:
            self.reconnects += 1
        self._opened_once = True
        self._backoff = self._backoff_min
        self.last_error = None
        return True

    def _lost(self, exc: BaseException) -> ReaderDisconnected:
        self.last_error = str(exc) or type(exc).__name__
        self._drop()
        self._next_attempt = float("-inf")  # the first reopen may be tried at once
        self._backoff = self._backoff_min
        return ReaderDisconnected(self.url, f"lost: {self.last_error}")

    def _drop(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(*PORT_ERRORS):
                port.close()

    def _require(self) -> Any:
        if self._port is None:
            raise ReaderDisconnected(self.url, "not connected")
        return self._port

    def write(self, data: bytes) -> None:
        port = self._require()
        try:
            port.write(data)
            port.flush()
        except PORT_ERRORS as exc:
            raise self._lost(exc) from exc
        self.bytes_written += len(data)

    def read(self) -> bytes:
        """Whatever arrives within one short read slice (possibly nothing)."""
        port = self._require()
        try:
            data = bytes(port.read(port.in_waiting or 1))
        except PORT_ERRORS as exc:
            raise self._lost(exc) from exc
        self.bytes_read += len(data)
        return data

    def discard_input(self) -> None:
        port = self._require()
        try:
            port.reset_input_buffer()
        except PORT_ERRORS as exc:
            raise self._lost(exc) from exc

    def close(self) -> None:
        self._drop()
        self._next_attempt = float("-inf")

    def __repr__(self) -> str:
        state = "connected" if self.connected else "disconnected"
        return f"<SerialLink {self.url} {self.baudrate} baud {state} reconnects={self.reconnects}>"


class SerialReader(ClosedOnExit):
    """What both tag readers share (`hal.pn532.PN532`, `hal.rdm6300.RDM6300`): a port by
    URL through a `SerialLink` on the injected clock, the last tag seen and error, the
    status fields every reader reports, and close as a context manager."""

    driver: str

    def __init__(
        self,
        port: str,
        *,
        baudrate: int,
        backoff_min_s: float,
        backoff_max_s: float,
        clock: Clock,
        open_port: OpenPort,
    ) -> None:
        self.port = port
        self._clock = clock
        self._link = SerialLink(port, baudrate=baudrate, backoff_min_s=backoff_min_s,
                                backoff_max_s=backoff_max_s, clock=clock, open_port=open_port)
        self.last_seen: float | None = None
        self.last_error: str | None = None

    def _status(self, **driver_fields: Any) -> dict[str, Any]:
        """`get_status()`: the link's fields around the driver's own."""
        link = self._link
        return {"port": self.port, "driver": self.driver, "connected": link.connected,
                **driver_fields, "reconnects": link.reconnects, "last_seen": self.last_seen,
                "last_error": self.last_error, "bytes_written": link.bytes_written,
                "bytes_read": link.bytes_read}

    def close(self) -> None:
        self._link.close()
