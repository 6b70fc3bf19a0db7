"""A serial device another program holds, for the busy-port tests."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
from collections.abc import Iterator


@contextlib.contextmanager
def held_port() -> Iterator[str]:
    """A pty whose device is locked the way pyserial's exclusive open locks it (flock);
    yields its path. Root ignores a tty's exclusive mode (TIOCEXCL), never the lock."""
    controller, device = pty.openpty()
    fcntl.flock(device, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        yield os.ttyname(device)
    finally:
        os.close(device)
        os.close(controller)
