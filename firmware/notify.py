"""systemd's notify protocol (sd_notify) and the watchdog keep-alive, stdlib only.

Without ``NOTIFY_SOCKET`` in the environment every call is a harmless no-op, so the
daemon runs the same under systemd, in a terminal and in tests.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Awaitable, Callable, Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Sends state lines to the service manager over its unix datagram socket."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET") or None
        if address is not None and address.startswith("@"):
            address = "\0" + address[1:]  # abstract namespace socket
        self.address = address
        self._watchdog_usec = _watchdog_usec(env)
        self._sock: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *lines: str) -> bool:
        """Send ``KEY=value`` lines in one datagram. True when the manager got them."""
        if self.address is None:
            return False
        if self._sock is None:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        try:
            self._sock.sendto("\n".join(lines).encode(), self.address)
        except OSError as exc:
            log.warning("sd_notify to %r failed: %s", self.address, exc)
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={_one_line(text)}")

    def stopping(self, status: str | None = None) -> bool:
        return self.send("STOPPING=1", *([f"STATUS={_one_line(status)}"] if status else []))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def watchdog_interval(self) -> float | None:
        """Seconds between keep-alives (half of WATCHDOG_USEC), or None without a watchdog."""
        if self._watchdog_usec is None or not self.enabled:
            return None
        return self._watchdog_usec / 2 / 1_000_000

    async def keep_alive(
        self, *, sleep: Callable[[float], Awaitable[object]] = asyncio.sleep
    ) -> None:
        """Ping the watchdog forever from the event loop (a stuck loop stops the pings).

        Returns at once when no watchdog is configured; cancel the task to stop it.
        """
        interval = self.watchdog_interval()
        if interval is None:
            return
        while True:
            self.watchdog()
            await sleep(interval)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __repr__(self) -> str:
        return f"<Notifier address={self.address!r} watchdog={self.watchdog_interval()!r}>"


def _watchdog_usec(env: Mapping[str, str]) -> int | None:
    raw = env.get("WATCHDOG_USEC")
    if not raw:
        return None
    pid = env.get("WATCHDOG_PID")
    # The watchdog may be meant for another process of the unit (systemd sets the pid).
    if pid and pid.isdigit() and int(pid) != os.getpid():
        return None
    try:
        usec = int(raw)
    except ValueError:
        log.warning("ignoring WATCHDOG_USEC=%r: not a number", raw)
        return None
    return usec if usec > 0 else None


def _one_line(text: str) -> str:
    return " ".join(text.split())
