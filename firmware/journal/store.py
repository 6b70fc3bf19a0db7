"""The append-only game journal: SQLite in WAL mode with durable (FULL) commits.

Every accepted action and every chance outcome is appended and committed *before* its
effects run, so a restart after a crash or power cut finds exactly what was decided.
An ejection is journaled twice: an ``intent`` row before the motor starts and a
``result`` row when it finished; an intent without result after a restart is an
ejection that was cut off (ask the table how many cards came out, never guess).

Each entry and each match header carries a CRC of its content so that damage is
reported, not replayed. A high-water mark beside the file (`firmware.journal.mark`)
remembers the last commit: a journal that lost committed entries (a deleted or damaged
``-wal``, a file truncated or replaced) is refused at open instead of replayed as a
shorter game. A checkpoint at every round end moves the WAL into the database file.

A writer holds ``<journal>.lock`` (`flock`) from open to close: one daemon per
journal. A started journal whose mark is missing or damaged, another table's journal
(the identity in the state directory's ``table-id``, stamped into the journal and its
mark) and one of another edition are refused (`firmware.journal.opening`), unless the
owner accepts them.

Failures to write (disk full, read-only file or directory, I/O errors, the file deleted
or replaced under the daemon) raise `JournalUnwritable`: the commit was rolled back,
the journal is intact, and `fault` says why until a commit succeeds again.

The parts: `firmware.journal.format` (tables, records, CRCs, checked reads, and the
appends, `Appender`: an append passes through that file and the mark's),
`firmware.journal.opening` (the checks at open), `firmware.journal.faults` (failed
writes, a lost file and its rescue), `firmware.journal.mark` (the high-water mark);
`Journal` here opens, starts matches and reads. Timestamps (``started_at``, ``at``) are the injected clock's
``wall()`` (`hal.clock`): dates a person reads, not intervals.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from firmware.errors import JournalCorrupt, JournalError, JournalRefused, JournalUnwritable
from firmware.journal.faults import (
    FaultWatch,
    check_writable,
    is_corruption,
    refusal,
    refused_write,
    write_cause,
)
from firmware.journal.format import (
    INSERT_ENTRIES,
    INSERT_HEADER,
    INTENT,
    RESULT,
    SCHEMA_VERSION,
    Appender,
    Entry,
    Match,
    Owner,
    Rows,
    Tail,
    dumps,
    entry_row,
    header_crc,
)
from firmware.journal.mark import Mark, MarkFile, mark_path, table_identity
from firmware.journal.opening import (
    Found,
    JournalLock,
    check,
    connect,
    make_ready,
    no_room_at_start,
)
from firmware.journal.view import read_only_view
from firmware.safe_files import UnsafeFile
from hal.clock import REAL_TIME, Clock
from hal.safety import ClosedOnExit

ACCEPTED = "accepted"  # the owner took the journal as it is (`unotable journal accept`)
LITTLE_ROOM = 1 << 20  # free bytes below which a start tries a commit to see if it can

__all__ = ["ACCEPTED", "INTENT", "RESULT", "SCHEMA_VERSION", "Entry", "Journal", "Match", "header_crc",
           "refusal"]

log = logging.getLogger(__name__)
_T = TypeVar("_T")


class Journal(Appender, ClosedOnExit):
    """One writer (the daemon's loop). Open with `Journal.open(path)`; a context manager.
    Its appends (`append`, `append_all`, `intent`, `result`) are `Appender`'s."""

    def __init__(self, conn: sqlite3.Connection, path: str, clock: Clock) -> None:
        self._conn: sqlite3.Connection | None = conn
        self.path = path
        self._clock = clock
        self._rows = Rows(conn, path)
        self._tail = Tail()
        self._mark: MarkFile | None = None
        self._lock: JournalLock | None = None
        self._owner: Owner | None = None
        self._faults: FaultWatch = FaultWatch(path, conn,
                                              lambda: (self._tail.last_seq, self._mark))

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        clock: Clock = REAL_TIME,
        readonly: bool = False,
        edition: str | None = None,
        table: str | None = None,
        accepted: list[str] | None = None,
    ) -> Journal:
        """Open (or create) a journal, recover the WAL and check it.

        `readonly` opens an existing journal without changing it (for replay).
        A writer takes the journal's lock, compares the journal with its mark and its
        owner (`table`: the state directory's identity unless given; `edition`: the
        config's, not checked when None) first and writes nothing to a journal it
        refuses. `accepted` (a list, `unotable journal accept`): a refused mark or
        another table's journal is taken as it is instead, what was taken noted in the
        list and in the journal (an ``accepted`` entry), and a new mark written.
        Raises `JournalCorrupt` for a damaged file, `JournalRefused` for a journal that
        lost committed entries, is another's, is in use or cannot be written,
        `JournalError` for anything else. On a full disk an existing journal opens
        with `fault` set (disk-full) until a commit works.
        """
        path = str(path)
        if readonly:
            return cls._opened(path, clock, connect(path, True), lambda j: check(
                j._rows, readonly=True).tail)
        read = check_writable(path)
        lock = JournalLock(path)
        try:
            owner = Owner(table or table_identity(path), edition)
            # Every check reads a view that cannot change the files: a journal refused
            # here is left exactly as it was, its WAL and -shm included.
            found = _checked(path, lambda rows: check(
                rows, readonly=False, mark=read.mark, owner=owner, mark_problem=read.problem,
                accepted=accepted))
        except UnsafeFile as exc:
            lock.close()
            raise JournalRefused(f"cannot use the journal {path}: {exc}") from None
        except OSError as exc:  # the identity could not be made (a full disk)
            lock.close()
            made = exc.filename or "the table's identity"
            raise refused_write(path, write_cause(exc), f"making {made}: {exc.strerror}") \
                from None
        except JournalError:
            lock.close()
            raise

        def ready(journal: Journal) -> Tail:
            journal._lock, journal._owner = lock, owner
            return make_ready(journal._rows, found, commit=journal._commit, owner=owner,
                              before_write=lambda: journal._make_mark(read.mark))

        try:
            journal = cls._opened(path, clock, connect(path, False), ready)
        except JournalError:
            lock.close()
            raise
        if accepted:
            try:
                journal._record_acceptance(accepted)
            except JournalError:
                journal.close()
                raise
        journal._start_mark()
        if no_room_at_start(journal._open_conn()) or _little_room(path):
            journal.probe()  # the disk is full: `fault` says so until a commit works
        return journal

    @classmethod
    def _opened(cls, path: str, clock: Clock, conn: sqlite3.Connection,
                check: Callable[[Journal], Tail]) -> Journal:
        """The journal on `conn` once `check` passed; closed and worded when not."""
        journal = cls(conn, path, clock)
        try:
            journal._tail = _worded(path, lambda: check(journal))
        except JournalError:
            journal.close()
            raise
        return journal

    def _make_mark(self, mark: Mark | None) -> None:
        """The mark file, made before the journal's first write (a journal with tables
        never lacks it)."""
        self._mark = MarkFile(mark_path(self.path), mark)

    def _start_mark(self) -> None:
        if self._mark is None:
            self._make_mark(None)
        assert self._mark is not None
        if self._mark.mark != replace(self._tail.mark(self._owner),
                                      generation=self._mark.mark.generation):
            self._write_mark()
        self._faults.remember_identity()

    def _record_acceptance(self, accepted: list[str]) -> None:
        """What `unotable journal accept` took as it is, into the journal."""
        payload = {"accepted": list(accepted), "table": self._owner.table if self._owner
                   else None}
        if self._tail.match is not None:
            self.append(ACCEPTED, payload)
        else:
            with self._commit():
                self._open_conn().execute("INSERT OR REPLACE INTO meta VALUES ('accepted', ?)",
                                          (dumps(payload, ACCEPTED),))

    # -- writing ------------------------------------------------------------------
    def start_match(
        self,
        *,
        edition: str,
        options: Mapping[str, Any],
        seats: int,
        seed: int | None,
        config_hash: str,
    ) -> Match:
        """Write a match header; later entries belong to this match."""
        options_json = dumps(dict(options), "match options")
        now = self._clock.wall()
        conn = self._open_conn()
        mid = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM matches").fetchone()[0]
        crc = header_crc(mid, edition, options_json, seats, seed, config_hash, now)
        with self._commit():
            conn.execute(INSERT_HEADER,
                         (mid, edition, options_json, seats, seed, config_hash, now, crc))
        self._tail.match = Match(mid, edition, json.loads(options_json), seats, seed,
                                 config_hash, now)
        self._tail.match_crc = crc
        self._write_mark()
        return self._tail.match

    def copy_match(self, match: Match, entries: Sequence[Entry]) -> tuple[int, int]:
        """Write `match` (its id and start time kept) and `entries`, renumbered after
        the last entry here (refs follow), in one transaction: for `journal recover`.
        Returns the seqs of the first and last entry written."""
        options = dumps(dict(match.options), "match options")
        fields = (match.id, match.edition, options, match.seats, match.seed,
                  match.config_hash, match.started_at)
        renumber: dict[int, int] = {}
        rows: list[tuple[Any, ...]] = []
        for entry in entries:
            seq = self._tail.last_seq + len(rows) + 1
            renumber[entry.seq] = seq
            ref = renumber.get(entry.ref) if entry.ref is not None else None
            rows.append(entry_row(seq, match.id, entry.kind, ref, entry.payload, entry.at))
        conn = self._open_conn()
        with self._commit():
            conn.execute(INSERT_HEADER, (*fields, header_crc(*fields)))
            conn.executemany(INSERT_ENTRIES, rows)
        self._tail.match, self._tail.match_crc = match, header_crc(*fields)
        if rows:
            self._tail.last_seq, self._tail.last_crc = rows[-1][0], rows[-1][6]
        self._write_mark()
        last = self._tail.last_seq
        return (rows[0][0], rows[-1][0]) if rows else (last, last)

    def checkpoint(self) -> bool:
        """Copy the WAL into the database file and empty it (at every round end), so a
        lost or damaged WAL can cost at most the entries since. False when it could not
        (a reader holds the WAL, or the disk is full): the entries stay in the WAL."""
        try:
            busy = self._open_conn().execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        except sqlite3.Error as exc:
            log.warning("checkpoint of %s failed: %s", self.path, exc)
            return False
        return bool(busy == 0)

    def probe(self) -> bool:
        """Whether a commit works again (after `fault`): commits a meta row of two
        pages, more than a commit of entries needs."""
        try:
            with self._commit():
                self._open_conn().execute("INSERT OR REPLACE INTO meta VALUES ('alive', ?)",
                                          (repr(self._clock.wall()).ljust(8192),))
        except JournalUnwritable:
            return False
        return True

    def _open_conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError("journal is closed")
        return self._conn

    # -- faults -------------------------------------------------------------------
    @property
    def fault(self) -> JournalUnwritable | None:
        """The last failed commit, until one works."""
        return self._faults.fault

    @property
    def fault_listeners(self) -> list[Callable[[JournalUnwritable | None], None]]:
        """Called with the fault when a commit fails, with None when one works again."""
        return self._faults.listeners

    @property
    def rescued(self) -> str | None:
        """Where a lost journal's content was saved."""
        return self._faults.rescued

    # -- reading ------------------------------------------------------------------
    @property
    def last_seq(self) -> int:
        return self._tail.last_seq

    @property
    def match(self) -> Match | None:
        """The current (latest) match header, or None in a fresh journal."""
        return self._tail.match

    @property
    def mark(self) -> Mark | None:
        return self._mark.mark if self._mark is not None else None

    def matches(self) -> list[Match]:
        return self._rows.matches()

    def entries(self, *, match_id: int | None = None, after: int = 0) -> Iterator[Entry]:
        """Entries in sequence order, checked: a damaged or missing entry raises JournalCorrupt."""
        return self._rows.entries(match_id=match_id, after=after)

    def entries_of(self, kinds: Sequence[str]) -> Iterator[Entry]:
        """The entries of these kinds over the journal's whole life, in order, checked
        (the MQTT outbox's at start: no need to read every action of every match)."""
        return self._rows.entries_of(kinds)

    def open_intents(self) -> list[Entry]:
        """Intents with no result: actions a crash cut off, oldest first."""
        return self._rows.open_intents()

    # -- closing ------------------------------------------------------------------
    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._mark is not None:
            self._mark.close()
        if self._lock is not None:
            self._lock.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else f"last_seq={self._tail.last_seq}"
        match = self._tail.match.id if self._tail.match else None
        fault = f" fault={self.fault.cause}" if self.fault is not None else ""
        return f"<Journal {self.path!r} {state} match={match}{fault}>"


def _checked(path: str, checks: Callable[[Rows], Found]) -> Found:
    """`checks` run on a read-only view of the journal (none yet: a new journal)."""
    if not Path(path).exists():
        return Found(Tail(), None, False, (None, None))

    def read() -> Found:
        with read_only_view(path) as view:
            return checks(Rows(view, path))

    return _worded(path, read)


def _worded(path: str, step: Callable[[], _T]) -> _T:
    """`step`, its failures worded as the journal's: damage, a refusal to write."""
    try:
        return step()
    except sqlite3.Error as exc:
        if is_corruption(exc):
            raise JournalCorrupt(path, str(exc)) from None
        raise refused_write(path, write_cause(exc), exc) from None
    except JournalUnwritable as exc:  # while creating or upgrading its tables
        raise refused_write(path, exc.cause, "while opening it") from None
    except JournalError:
        raise
    except OSError as exc:
        if isinstance(exc, UnsafeFile):
            raise JournalRefused(f"cannot use the journal {path}: {exc}") from None
        raise refused_write(path, write_cause(exc), exc) from None


def _little_room(path: str) -> bool:
    """Whether the journal's disk is (nearly) full at start: a commit is tried then, so
    that a table whose WAL index already exists (after a kill) is paused from the start
    too, not only at its first move."""
    try:
        st = os.statvfs(Path(path).parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < LITTLE_ROOM
