"""When the journal cannot be written, or its file goes away while the table runs.

A failed write is classified (`write_cause`: disk-full, read-only, io) and worded for a
person (`cannot_write`); damage to the file (`is_corruption`) is told apart from a
failure to write it. A commit (`firmware.journal.format.Commit`, one durable
transaction, here by its name too) that fails rolls back and raises `JournalUnwritable`,
which `FaultWatch` keeps as the journal's `fault` and tells its listeners, until a
commit works again. Before every commit the files at the journal's path are checked
against the ones it writes (`FaultWatch.identity`); a journal deleted or replaced under
the daemon is rescued (`<journal>.rescued`) from the open connection. Nothing here runs
while commits work: a commit calls in only when one fails, or the first that works after.
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path

from firmware.errors import JournalCorrupt, JournalError, JournalRefused, JournalUnwritable
from firmware.journal.format import Commit
from firmware.journal.mark import MarkFile, MarkRead, load_mark, mark_path
from firmware.safe_files import create_new

__all__ = ["LOST_ADVICE", "Commit", "FaultWatch", "cannot_write", "check_writable",
           "is_corruption", "refusal", "refused_write", "write_cause"]

log = logging.getLogger(__name__)

# SQLite's primary result codes (the low byte of `sqlite_errorcode`).
_SQLITE_CORRUPT = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_SQLITE_CAUSE = {13: "disk-full", 8: "read-only", 3: "read-only", 14: "read-only", 23: "read-only"}
_SQLITE_EXTENDED_CAUSE = {4874: "disk-full"}  # SQLITE_IOERR_SHMSIZE: no room for the -shm
_OS_CAUSE = {errno.ENOSPC: "disk-full", errno.EDQUOT: "disk-full", errno.EROFS: "read-only",
             errno.EACCES: "read-only", errno.EPERM: "read-only"}
_CAUSE_TEXT = {"disk-full": "the disk is full", "read-only": "the file or its directory is "
               "read-only", "io": "an I/O error", "lost": "the file was deleted or replaced"}

LOST_ADVICE = ("nothing was changed. Restore the journal (and its -wal) from a backup, "
               "or keep what is readable: unotable journal recover {path} --out NEW")


def is_corruption(exc: sqlite3.Error) -> bool:
    """Damage to the file (as opposed to a failure to write it)."""
    return ((getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF) in _SQLITE_CORRUPT


def write_cause(exc: BaseException) -> str:
    """Why a write failed: disk-full, read-only or io."""
    if isinstance(exc, OSError):
        return _OS_CAUSE.get(exc.errno or 0, "io")
    code = getattr(exc, "sqlite_errorcode", 0) or 0
    return _SQLITE_EXTENDED_CAUSE.get(code) or _SQLITE_CAUSE.get(code & 0xFF, "io")


def cannot_write(path: str, cause: str, detail: object) -> str:
    return f"cannot write the journal {path}: {_CAUSE_TEXT[cause]} ({detail})"


def refused_write(path: str, cause: str, detail: object) -> JournalRefused:
    """The refusal to start on a journal that cannot be written."""
    advice = ("fix the permissions (the daemon's user must own it)" if cause == "read-only"
              else "free some space" if cause == "disk-full" else "fix that")
    return JournalRefused(f"{cannot_write(path, cause, detail)}: the journal itself may be "
                          f"fine; {advice}, then start again")


def refusal(exc: JournalError) -> str:
    """The one line `unotable run` prints when it does not start on a journal."""
    line = str(exc)
    if isinstance(exc, JournalCorrupt):
        line += (f": nothing was changed; `unotable journal check {exc.path}` shows what is "
                 f"readable, `unotable journal recover {exc.path} --out NEW` keeps it")
    return " ".join(line.split())


def check_writable(path: str) -> MarkRead:
    """The journal's mark, after checking that the journal can be written and is not
    missing while its mark says entries were committed, or is damaged (a mark file
    exists only beside a journal), before SQLite creates it."""
    target = Path(path)
    read = load_mark(mark_path(path))
    mark = read.mark
    if not target.exists() and (mark is not None and (mark.seq or mark.match) or (
            read.problem is not None and os.path.lexists(mark_path(path))
            and _nonempty(mark_path(path)))):
        rescued = f" ({path}.rescued is a copy the table saved)" if \
            Path(f"{path}.rescued").exists() else ""
        said = (f"entry {mark.seq} of match {mark.match} was committed to it (its mark "
                f"{mark_path(path)} says so)" if mark is not None else
                f"its mark {mark_path(path)} {read.problem}")
        raise JournalRefused(
            f"journal {path} is missing but {said}: restore it from a backup{rescued}; to "
            f"start a new journal knowingly, move {mark_path(path)} away")
    directory = target.parent if target.parent.exists() else _existing_parent(target)
    for name, writable in ((target, target.exists() and not os.access(target, os.W_OK)),
                           (directory, not os.access(directory, os.W_OK | os.X_OK))):
        if writable:
            raise refused_write(path, "read-only", f"no write access to {name}")
    return read


def _nonempty(path: Path) -> bool:
    """A mark file is there with something in it (one of 0 bytes: killed while made)."""
    st = os.lstat(path)
    return not stat.S_ISREG(st.st_mode) or st.st_size > 0


def _existing_parent(path: Path) -> Path:
    for parent in path.parents:
        if parent.exists():
            return parent
    return Path(".")


class FaultWatch:
    """The journal's write faults: the last one (`fault`), who hears of them
    (`listeners`: the fault when a commit fails, None when one works again), the
    files' identity (`identity`: device and inode by name, which every commit compares
    with the files at the path), and the rescue of a lost journal. `saved()` tells what
    the connection holds: its last entry and its mark."""

    def __init__(self, path: str, conn: sqlite3.Connection,
                 saved: Callable[[], tuple[int, MarkFile | None]]) -> None:
        self.path = path
        self._conn = conn
        self._saved = saved
        self.identity: dict[str, tuple[int, int]] = {}
        self.fault: JournalUnwritable | None = None
        self.listeners: list[Callable[[JournalUnwritable | None], None]] = []
        self.rescued: str | None = None  # where a lost journal's content was saved

    def remember_identity(self) -> None:
        for name in (self.path, f"{self.path}-wal"):
            try:
                st = os.stat(name)
            except OSError:
                continue
            self.identity[name] = (st.st_dev, st.st_ino)

    def failed(self, cause: str, detail: object) -> JournalUnwritable:
        """Keep and announce a failed commit; the fault to raise."""
        if cause == "lost":
            message = f"the journal {self.path} {detail} while the table ran"
            if self.rescued is None:
                self.rescued = self._rescue()
            message += (f": everything up to entry {self._saved()[0]} is saved in "
                        f"{self.rescued}; stop the table, move it to {self.path}, start again"
                        if self.rescued else ": the table cannot save a copy of it; do not "
                        "stop the daemon (it holds the only copy): make the directory "
                        "writable, it tries again every second")
        else:
            message = cannot_write(self.path, cause, detail) + (
                ": nothing was written; the table goes on when the journal can be "
                "written again")
        self.fault = JournalUnwritable(message, cause=cause, path=self.path)
        for listener in list(self.listeners):
            listener(self.fault)
        return self.fault

    def failure(self, exc: sqlite3.Error) -> JournalError:
        """What a commit that failed with `exc` raises: damage found while writing, or a
        failure to write (kept and announced)."""
        if is_corruption(exc):
            return JournalCorrupt(self.path, str(exc))
        return self.failed(write_cause(exc), exc)

    def written(self) -> None:
        """A commit worked while `fault` was set: the fault is over."""
        self.fault = None
        for listener in list(self.listeners):
            listener(None)

    def _rescue(self) -> str | None:
        """Save what this connection still sees of a deleted or replaced journal."""
        for n in range(1, 100):
            target = Path(f"{self.path}.rescued" + (f"-{n}" if n > 1 else ""))
            if not os.path.lexists(target) and not os.path.lexists(mark_path(target)):
                break
        else:
            return None
        mark = self._saved()[1]
        try:
            target.parent.mkdir(parents=True, exist_ok=True)  # the whole directory went
            os.close(create_new(target))  # never through a link planted there
            with sqlite3.connect(target) as copy:
                self._conn.backup(copy)
            copy.close()
            if mark is not None:
                MarkFile(mark_path(target), None).write(mark.mark)
        except (sqlite3.Error, OSError) as exc:
            log.error("cannot save the lost journal %s to %s: %s", self.path, target, exc)
            return None
        log.error("journal %s was lost while the table ran; saved to %s", self.path, target)
        return str(target)
