"""Reading a file a person names on the command line (a config, a scenario).

Only a regular file is read. The type is checked before the file is opened, because
opening a FIFO for reading waits for a writer (forever) and opening a device can act
on it; the open itself is non-blocking and the type is checked again on what was
opened, in case the path changed in between. Anything else is one `InputFileError`
line saying what the path is.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_BYTES = 1 << 20  # a config or scenario is a few KiB; more is not one
_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class InputFileError(Exception):
    """The file cannot be read as a text file; the message is one line without the path."""

    def __init__(self, message: str, cause: OSError | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.cause = cause  # the OSError behind "cannot read", for advice such as who may


def kind_of_file(mode: int) -> str:
    """What a file that is not a regular one is, as a person names it ("a directory")."""
    return next((what for test, what in _KINDS if test(mode)), "a special file")


def _refuse_unless_regular(mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise InputFileError(f"cannot read: it is {kind_of_file(mode)}, not a regular file")


def read_input_bytes(path: str | Path) -> bytes:
    """The bytes of the regular file at `path`; `InputFileError` for anything else."""
    try:
        _refuse_unless_regular(os.stat(path).st_mode)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise InputFileError(f"cannot read: {exc.strerror or exc}", exc) from None
    with os.fdopen(fd, "rb") as file:
        try:
            _refuse_unless_regular(os.fstat(fd).st_mode)
            data = file.read(MAX_BYTES + 1)
        except OSError as exc:
            raise InputFileError(f"cannot read: {exc.strerror or exc}", exc) from None
    if len(data) > MAX_BYTES:
        raise InputFileError(f"cannot read: larger than {MAX_BYTES // 1024} KiB, "
                             "too large for a config or scenario file")
    return data


def read_input_text(path: str | Path) -> str:
    """`read_input_bytes` decoded as UTF-8 (a byte that is not: one line naming its offset)."""
    data = read_input_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
