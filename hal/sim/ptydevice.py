"""A simulated serial device on a pty, reachable at a stable path that survives replug.

The device side runs in a thread on the pty master; a driver opens `port` (a
symlink to the pty slave) by URL exactly as it would open /dev/ttyUSB0. `unplug()`
closes the pty (the host's next read or write fails, as when a USB adapter is
pulled); `replug()` creates a fresh pty behind the same symlink and powers the
device up again from scratch.

When `baud` is set, every byte costs its wire time (10 bits: start, 8 data, stop)
in both directions, so a simulated exchange is never faster than the real line.

An idle device costs no CPU: the serving thread blocks until the host sends bytes,
the time the device asked for in its last `tick()` comes, or `wake()` is called (the
world changed: a tag placed, a fault injected, the cable pulled).
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import tempfile
import threading
import time
import tty
from collections import deque
from pathlib import Path

from hal.safety import ClosedOnExit

WIRE_BITS_PER_BYTE = 10


def wire_time(n_bytes: int, baud: int) -> float:
    return n_bytes * WIRE_BITS_PER_BYTE / baud


class PtyDevice(ClosedOnExit):
    """Base class: subclasses implement `received(data)` and may override `tick()`.
    A subclass names the kinds of fault it can play in `faults`; `inject` queues them
    in `_faults`, which the subclass consumes."""

    faults: tuple[str, ...] = ()

    def __init__(self, *, baud: int | None, name: str = "ttySIM") -> None:
        self._faults: deque[str] = deque()
        self.baud = baud
        self._dir = Path(tempfile.mkdtemp(prefix="unotable-sim-"))
        self.port = str(self._dir / name)
        self.lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self.plugged = False
        self.closed = False
        self._plug()

    def inject(self, kind: str, count: int = 1) -> None:
        """Damage the next `count` exchanges with `kind`, one of `faults`."""
        if kind not in self.faults:
            raise ValueError(f"unknown fault {kind!r}; choose from {', '.join(self.faults)}")
        with self.lock:
            self._faults.extend([kind] * count)

    def clear_faults(self) -> None:
        with self.lock:
            self._faults.clear()

    # -- life cycle --------------------------------------------------------------
    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        link = Path(self.port)
        tmp = link.with_name(link.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(link)
        self._master, self._slave = master, slave
        with self.lock:
            self.power_on()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=f"sim-{self.port}", daemon=True)
        self.plugged = True
        self._thread.start()

    def unplug(self) -> None:
        """Pull the cable: the pty and the path disappear."""
        if not self.plugged:
            return
        self.plugged = False
        self._stop.set()
        self.wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        Path(self.port).unlink(missing_ok=True)

    def replug(self) -> None:
        """Plug the cable back in: a new pty at the same path, the device freshly powered."""
        if self.closed:
            raise RuntimeError("simulated device is closed")
        self.unplug()
        self._plug()

    def close(self) -> None:
        if self.closed:
            return
        self.unplug()
        self.closed = True
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        shutil.rmtree(self._dir, ignore_errors=True)


    # -- the device's side of the line --------------------------------------------
    def power_on(self) -> None:
        """Reset to the state right after power-up."""

    def received(self, data: bytes) -> None:
        """Bytes the host sent (called in the serving thread, with `lock` held)."""

    def tick(self, now: float) -> float | None:
        """Called after bytes arrive, after `wake()`, and at the time the last call
        returned (serving thread, `lock` held). Returns the monotonic time of the
        next call it needs, or None when only the host or the world can change
        anything."""
        return None

    def wake(self) -> None:
        """The world changed: let the serving thread call `tick()` now."""
        if self.closed:
            return  # the pipe's descriptors are closed (and may be reused)
        with contextlib.suppress(BlockingIOError, OSError):  # already pending, or closed
            os.write(self._wake_w, b"\0")

    def send(self, data: bytes) -> None:
        """Put bytes on the line towards the host, taking their wire time first."""
        if not data or self._master is None:
            return
        self.spend_wire_time(len(data))
        with contextlib.suppress(OSError):  # nobody listening: bytes lost, as on a line
            os.write(self._master, data)

    def spend_wire_time(self, n_bytes: int) -> None:
        if self.baud:
            time.sleep(wire_time(n_bytes, self.baud))

    def _serve(self) -> None:
        master, stop = self._master, self._stop
        assert master is not None
        due: float | None = None
        while not stop.is_set():
            timeout = None if due is None else max(0.0, due - time.monotonic())
            try:
                ready, _, _ = select.select([master, self._wake_r], [], [], timeout)
                if self._wake_r in ready:
                    with contextlib.suppress(BlockingIOError):
                        os.read(self._wake_r, 4096)
                data = os.read(master, 4096) if master in ready else b""
            except OSError:
                if stop.wait(0.05):  # the pty is going away: wait for unplug() to finish
                    return
                continue
            with self.lock:
                if stop.is_set():
                    return
                if data:
                    self.received(data)
                due = self.tick(time.monotonic())
