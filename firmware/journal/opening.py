"""Opening a journal: every check on a read-only view, then the first write.

`check` reads the journal through a view that cannot change it (`firmware.journal.view`,
SQLite's WAL recovery included), so a refused journal is left exactly as it was. It
refuses a damaged file (`quick_check`, a gap in the entries, a header or entry failing
its CRC), an SQLite file that is not a journal, an unknown schema version, a started
journal whose mark is missing or damaged, another table's journal or one of another
edition (`Owner`), and a journal that holds less than its high-water mark
(`firmware.journal.mark`) says was committed. Only then does a writer open it for
writing (`make_ready`): WAL with durable commits, its tables created or upgraded, and
the `Tail` returned (`firmware.journal.format`, as `Owner`): where the journal ends,
which the writer continues. A refusal of
the mark or the table can be accepted by the owner (`unotable journal accept`):
`accepted` collects what was taken as it is.

`JournalLock` is the one writer's lock beside the journal (``<journal>.lock``).
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from firmware.errors import JournalCorrupt, JournalError, JournalRefused
from firmware.journal.faults import LOST_ADVICE, refused_write, write_cause
from firmware.journal.format import (
    HEADER,
    SCHEMA,
    SCHEMA_VERSION,
    TABLES,
    Commit,
    Owner,
    Rows,
    Tail,
    header_crc,
)
from firmware.journal.mark import TABLE_ID, Mark, mark_path
from firmware.safe_files import UnsafeFile, check_state_directory, open_regular

_SQLITE_IOERR_SHMSIZE = 4874  # the -shm cannot grow: the disk is full


class JournalLock:
    """The exclusive lock (`flock`) beside the journal that one daemon holds for its
    whole life; it holds the daemon's PID. Also makes the state directory and refuses
    one that others can write to. Raises `JournalRefused`."""

    def __init__(self, path: str) -> None:
        self.path = Path(f"{path}.lock")
        directory = Path(path).parent
        try:
            directory.mkdir(parents=True, exist_ok=True)
            check_state_directory(directory)
            self._fd = open_regular(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except UnsafeFile as exc:
            raise JournalRefused(f"cannot use the journal {path}: {exc}") from None
        except OSError as exc:
            raise refused_write(path, write_cause(exc), f"its lock {self.path}: "
                                f"{exc.strerror or exc}") from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(self._fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(self._fd)
            raise JournalRefused(
                f"journal {path} is in use by another daemon (PID {holder} holds its lock "
                f"{self.path}): stop that one first, or give this one another [journal] "
                "path") from None
        with suppress(OSError):  # fixed width, in place: no new disk space needed
            os.pwrite(self._fd, f"{os.getpid()}\n".ljust(16).encode(), 0)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # the lock goes with its file description
            self._fd = -1


def connect(path: str, readonly: bool) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit); a reader opens
    the file read-only, a writer creates it and its directory."""
    if readonly and not Path(path).is_file():
        raise JournalError(f"no journal at {path}")
    try:
        if readonly:
            return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                                   isolation_level=None, check_same_thread=False)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorcode", 0) != _SQLITE_IOERR_SHMSIZE:
                return conn  # the checks that follow meet it and word it
            # A full disk has no room for the -shm: the WAL index then lives in this
            # process's memory, which needs the only connection (`no_room_at_start`).
            conn.close()
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        return conn
    except (sqlite3.Error, OSError) as exc:
        raise JournalRefused(f"cannot open the journal {path}: {exc}") from None


def no_room_at_start(conn: sqlite3.Connection) -> bool:
    """Whether `connect` found the disk full (the WAL index in memory)."""
    return bool(conn.execute("PRAGMA locking_mode").fetchone()[0] == "exclusive")


@dataclass
class Found:
    """What the checks found in a journal: where it ends, its schema version, whether it
    was started (has its tables) and whose it says it is (table, edition)."""

    tail: Tail
    version: int | None
    started: bool
    stamped: tuple[str | None, str | None]


def check(rows: Rows, *, readonly: bool, mark: Mark | None = None, owner: Owner | None = None,
          mark_problem: str | None = None, accepted: list[str] | None = None) -> Found:
    """Every check of the journal behind `rows` (module docstring), which only reads:
    for a writer, `rows` is a read-only view (`firmware.journal.view`). `mark_problem`:
    why the mark could not be read. With `accepted` a list, a refusal of the mark or the
    table is appended to it instead of raised. Raises JournalCorrupt, JournalRefused,
    JournalError, or the sqlite3.Error of an unreadable file."""
    conn, path = rows.conn, rows.path
    check = conn.execute("PRAGMA quick_check").fetchall()
    if check != [("ok",)]:
        raise JournalCorrupt(path, "; ".join(row[0] for row in check[:5]))
    tables = rows.tables()
    if tables - TABLES or (readonly and not tables >= TABLES):
        raise JournalError(f"{path} is an SQLite file but not a unotable journal")
    version = rows.version() if "meta" in tables else None
    if version not in (None, 1, SCHEMA_VERSION):
        raise JournalError(f"journal {path} has schema version {version}, expected "
                           f"{SCHEMA_VERSION}")
    started = tables >= TABLES
    tail = Tail()
    if started:
        tail = _load_tail(rows, check=not readonly, header_crcs=version == SCHEMA_VERSION)
    stamped = rows.owner() if started else (None, None)
    found = Found(tail, version, started, stamped)
    if readonly:
        return found
    if started and mark_problem is not None and not (version == 1 and mark is None
                                                     and mark_problem == "is missing"):
        # (a version 1 journal predates marks: it gets its first one now)
        _refuse_or_accept(_mark_problem(rows, tail, mark_problem),
                          f"its mark {mark_problem}", accepted)
    if owner is not None:
        _check_owner(rows, stamped, mark, owner, accepted)
    _compare(rows, tail, mark)
    if tail.match is not None:  # what the table will replay: refused now if damaged
        for _ in rows.entries(match_id=tail.match.id):
            pass
    return found


def make_ready(rows: Rows, found: Found, *, commit: Callable[[], Commit],
               owner: Owner | None = None,
               before_write: Callable[[], None] = lambda: None) -> Tail:
    """Make the journal that `check` passed (`found`) ready to write, on the writer's
    connection behind `rows`: `before_write` runs just before its first write (the mark
    file is made then), `owner` is stamped into it. Returns where it ends. Raises the
    sqlite3.Error / JournalUnwritable of a failed write (`Journal.open` words them)."""
    conn, version, tail = rows.conn, found.version, found.tail
    last = conn.execute("SELECT max(seq) FROM entries").fetchone()[0] if found.started else 0
    if (last or 0) != tail.last_seq:  # changed since it was checked: check it again
        raise JournalRefused(f"journal {rows.path} changed while it was being opened (entry "
                             f"{last} where the check saw {tail.last_seq}): start again")
    before_write()
    # Only a new, old-version or unstamped journal is written to here: an existing
    # one opens on a full disk, and the table pauses until it can write.
    if conn.execute("PRAGMA journal_mode").fetchone() != ("wal",):
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut
    conn.execute("PRAGMA foreign_keys=ON")
    stamped = found.stamped
    stamp = owner is not None and (stamped[0] != owner.table or (
        owner.edition is not None and stamped[1] is None))
    if version != SCHEMA_VERSION or stamp:
        with commit():
            if version != SCHEMA_VERSION:
                _create_or_upgrade(rows, version)
            if owner is not None:
                rows.stamp(owner.table, owner.edition)
        if not found.started:  # the file itself says whose it is, even if its WAL is lost
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if tail.match is not None:
            tail.match_crc = header_crc(*rows.header_row(tail.match.id)[:7])
    return tail


def _refuse_or_accept(reason: str, what: str, accepted: list[str] | None) -> None:
    if accepted is None:
        raise JournalRefused(reason)
    accepted.append(what)


def when(at: float | None) -> str:
    """A wall-clock time as a person reads it (UTC)."""
    if at is None:
        return "never"
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _mark_problem(rows: Rows, tail: Tail, problem: str) -> str:
    path = rows.path
    held = (f"holds {tail.last_seq} entries (the last at {when(rows.entry_at(tail.last_seq))}"
            f", match {tail.match_id})" if tail.last_seq else "was started")
    fix = ("move it away, then, if the journal is the one you expect, accept it"
           if problem.endswith("not a regular file") else
           "if it is the journal you expect, accept it")
    return (f"journal {path} {held} but its mark {mark_path(path)} {problem}: it may be "
            f"an older copy or another table's, or have lost its newest entries; {fix}: "
            f"unotable journal accept {path}")


def _check_owner(rows: Rows, stamped: tuple[str | None, str | None], mark: Mark | None,
                 owner: Owner, accepted: list[str] | None) -> None:
    """Refuse another table's journal, or one of another edition than the config's."""
    path = rows.path
    table = stamped[0] or (mark.table if mark is not None else "") or owner.table
    if table != owner.table:
        _refuse_or_accept(
            f"journal {path} belongs to table {table}, but this state directory is table "
            f"{owner.table} (its {Path(path).parent / TABLE_ID}): it is another table's "
            "journal; put it back in its own table's state directory, or take it over: "
            f"unotable journal accept {path}", f"it was table {table}'s journal", accepted)
    edition = stamped[1] or (mark.edition if mark is not None else "") or None
    if owner.edition is not None and edition is not None and edition != owner.edition:
        raise JournalRefused(
            f"journal {path} is the journal of a {edition} table, but the config's [table] "
            f"edition is {owner.edition}: set edition = \"{edition}\" again, or move the "
            f"journal, its mark and its -wal away to start a new {owner.edition} journal")


def _create_or_upgrade(rows: Rows, version: int | None) -> None:
    conn = rows.conn
    if version == 1:  # headers get their CRC, as they are now
        conn.execute("ALTER TABLE matches ADD COLUMN crc INTEGER")
        for row in conn.execute(f"SELECT {HEADER} FROM matches").fetchall():
            conn.execute("UPDATE matches SET crc = ? WHERE id = ?", (header_crc(*row), row[0]))
    else:  # new, or half created by a kill: completed now
        for statement in SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)",
                 (str(SCHEMA_VERSION),))


def _load_tail(rows: Rows, *, check: bool, header_crcs: bool) -> Tail:
    conn = rows.conn
    last, count = conn.execute("SELECT max(seq), count(*) FROM entries").fetchone()
    last = last or 0
    # A writer must not continue after a gap; a reader reports it where it is.
    if check and last != count:
        raise JournalCorrupt(rows.path, f"{last - count} entries missing before seq {last}")
    tail = Tail(last, rows.entry_crc_at(last) or 0)
    if header_crcs:
        for mid, *_ in conn.execute("SELECT id FROM matches").fetchall():
            rows.checked_header(mid)
    newest = conn.execute("SELECT max(id) FROM matches").fetchone()[0]
    if newest is not None:
        header = rows.header_row(newest)
        tail.match = rows.match_from_row(header)
        tail.match_crc = header[7] or 0
    return tail


def _compare(rows: Rows, tail: Tail, mark: Mark | None) -> None:
    """Refuse a journal that holds less than its mark says was committed."""
    if mark is None or (mark.seq == 0 and mark.match == 0):
        return
    path = rows.path
    lost = LOST_ADVICE.format(path=path)
    ends = f"journal {path} ends at entry {tail.last_seq}"
    if tail.last_seq < mark.seq:
        raise JournalRefused(f"{ends} but entry {mark.seq} was committed (its mark "
                             f"{mark_path(path)} says so): {lost}")
    if tail.match_id < mark.match:
        raise JournalRefused(f"{ends} in match {tail.match_id} but match {mark.match} "
                             f"was started: {lost}")
    entry = rows.entry_crc_at(mark.seq)
    header = rows.conn.execute("SELECT crc FROM matches WHERE id = ?",
                               (mark.match,)).fetchone()
    if (mark.seq and (entry is None or entry != mark.crc)) or \
            (mark.match and (header is None or (header[0] or 0) != mark.header_crc)):
        raise JournalRefused(f"journal {path} is not the journal its mark "
                             f"{mark_path(path)} was written for (entry {mark.seq} or "
                             f"match {mark.match} differs): it was replaced; {lost}")
