"""The table's own files in its state directory: opened no-follow, created exclusive.

Every file the daemon names itself (the journal's mark and lock, a rescued copy, the
table's identity, the twin's world) is opened here: a symbolic link or anything that
is not a regular file in its place is refused with one line (`UnsafeFile`) instead of
being followed or written through. A file that replaces another is written to
``NAME.tmp`` created exclusive, then renamed over it.

`check_state_directory` refuses a directory that others can write to, sticky or not:
SQLite opens the journal's ``-wal`` and ``-shm`` by name and follows a link planted
there, so no shared directory is safe for the journal (docs/operations.md).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from firmware.input_file import kind_of_file

_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK  # O_NONBLOCK: a FIFO never blocks


class UnsafeFile(OSError):
    """A file of the table's is a link, a directory or another non-regular file, or its
    directory can be written by others: the one-line reason is the message; `what` is
    what was found ("a symbolic link", "a directory", ...)."""

    def __init__(self, message: str, what: str = "") -> None:
        super().__init__(message)
        self.what = what


def refuse_unless_regular(path: str | Path) -> bool:
    """Whether a regular file is at `path` (False: nothing is); `UnsafeFile` for a link
    or anything else there."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(st.st_mode):
        raise _unsafe(path, st.st_mode)
    return True


def _unsafe(path: str | Path, mode: int) -> UnsafeFile:
    return UnsafeFile(f"{path} is {kind_of_file(mode)}, not a regular file: the table refuses to "
                      "follow or write through it; move it away", kind_of_file(mode))


def open_regular(path: str | Path, flags: int = os.O_RDONLY, mode: int = 0o600) -> int:
    """`os.open` that never follows a link and refuses anything but a regular file (with
    ``O_CREAT`` it may create one). Raises FileNotFoundError, `UnsafeFile`, OSError."""
    try:
        fd = os.open(path, flags | _NOFOLLOW, mode)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO):
            refuse_unless_regular(path)
        raise
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise _unsafe(path, st.st_mode)
    return fd


def create_new(path: str | Path, mode: int = 0o600) -> int:
    """A new regular file opened for reading and writing (``O_CREAT|O_EXCL``, no-follow);
    FileExistsError when a regular file is there, `UnsafeFile` for anything else."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW, mode)
    except FileExistsError:
        refuse_unless_regular(path)
        raise


def read_regular(path: str | Path) -> bytes | None:
    """The bytes of the regular file at `path`, None when there is none."""
    try:
        fd = open_regular(path)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as f:
        return f.read()


def replace_file(path: str | Path, data: bytes, *, sync: bool = False) -> None:
    """Write `data` to ``path.tmp`` (created exclusive: a stale regular one from a kill
    is removed first) and rename it over `path`; `sync`: durable when it returns."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    refuse_unless_regular(path)
    if refuse_unless_regular(tmp):
        tmp.unlink()
    fd = create_new(tmp, 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        if sync:
            f.flush()
            os.fsync(f.fileno())
    os.replace(tmp, path)
    if sync:
        fsync_directory(path.parent)


def fsync_directory(directory: str | Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def check_state_directory(directory: str | Path) -> None:
    """Refuse (`UnsafeFile`) a state directory that anyone but its owner (this user or
    root) can write to, a link to one included."""
    st = os.stat(directory)
    who = ("others" if st.st_mode & stat.S_IWOTH else "its group"
           if st.st_mode & stat.S_IWGRP else None)
    if who is None and st.st_uid not in (os.geteuid(), 0):
        who = f"its owner (uid {st.st_uid}), not this user"
    if who is not None:
        raise UnsafeFile(
            f"the state directory {directory} can be written by {who} (mode "
            f"{stat.S_IMODE(st.st_mode):04o}): another user could put links to other files "
            f"in it; use a directory only this user can write (chmod go-w {directory}, or "
            "[journal] path elsewhere)")
