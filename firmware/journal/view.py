"""A journal as it is on disk, read without touching it: what every check reads.

`read_only_view(path)` opens the journal for reading only, so that a journal refused at
start is left byte for byte as it was: its file, its ``-wal`` and its ``-shm``. Without
a WAL (an orderly stop) the file is opened ``immutable``: no lock, no ``-shm``, nothing
written. With a WAL (a kill, a power cut) SQLite would rebuild its WAL index in the
``-shm`` and, at the close of a writer, checkpoint the WAL into the file and delete it
(taking another journal's entries into this one when the WAL is not its own), so the
file and its WAL are copied to a private temporary directory and read there. On a full
disk the copy goes to ``/dev/shm`` (memory) instead.
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from firmware.errors import JournalError

MEMORY_DIR = "/dev/shm"  # where a copy goes when the temporary directory is full


def has_wal(path: str | Path) -> bool:
    """Whether a WAL with content is beside the journal (the last writer did not close)."""
    wal = Path(f"{path}-wal")
    return wal.is_file() and wal.stat().st_size > 0


@contextmanager
def read_only_view(path: str | Path) -> Iterator[sqlite3.Connection]:
    """A connection that reads the journal at `path` (and its WAL) and cannot change
    them; `JournalError` when there is no journal. OSError when no copy can be made."""
    src = Path(path)
    if not src.is_file():
        raise JournalError(f"no journal at {src}")
    if not has_wal(src):
        conn = sqlite3.connect(f"{src.resolve().as_uri()}?mode=ro&immutable=1", uri=True,
                               isolation_level=None, check_same_thread=False)
        try:
            yield conn
        finally:
            conn.close()
        return
    with _copied(src) as copy:
        conn = sqlite3.connect(copy, isolation_level=None, check_same_thread=False)
        try:
            yield conn
        finally:
            conn.close()


@contextmanager
def _copied(src: Path) -> Iterator[Path]:
    """The journal and its WAL copied to a new private directory (memory on a full disk)."""
    try:
        tmp = _copy_into(src, None)
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        tmp = _copy_into(src, MEMORY_DIR)
    try:
        yield tmp / "journal.db"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _copy_into(src: Path, where: str | None) -> Path:
    tmp = Path(tempfile.mkdtemp(prefix="unotable-view-", dir=where))
    try:
        for suffix in ("", "-wal"):
            shutil.copyfile(f"{src}{suffix}", tmp / f"journal.db{suffix}")
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return tmp
