"""Opening a journal: SQLite's WAL recovery, then every check before the first write.

`prepare` runs on a fresh connection. It refuses a damaged file (`quick_check`, a gap
in the entries, a header or entry failing its CRC), an SQLite file that is not a
journal, an unknown schema version, and a journal that holds less than its
high-water mark (`firmware.journal_mark`) says was committed. Only then does a
writer switch to WAL with durable commits and create or upgrade the tables. It
returns the `Tail`: where the journal ends, which the writer continues.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware.errors import JournalCorrupt, JournalError, JournalRefused
from firmware.journal_faults import LOST_ADVICE, Commit
from firmware.journal_format import (
    HEADER,
    SCHEMA,
    SCHEMA_VERSION,
    TABLES,
    Match,
    Rows,
    header_crc,
)
from firmware.journal_mark import Mark, mark_path


@dataclass
class Tail:
    """Where a journal ends: its last entry (seq, CRC) and its current match."""

    last_seq: int = 0
    last_crc: int = 0
    match: Match | None = None
    match_crc: int = 0

    @property
    def match_id(self) -> int:
        return self.match.id if self.match is not None else 0

    def mark(self) -> Mark:
        """The high-water mark this tail makes."""
        return Mark(self.last_seq, self.last_crc, self.match_id, self.match_crc)


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
        return sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except (sqlite3.Error, OSError) as exc:
        raise JournalRefused(f"cannot open the journal {path}: {exc}") from None


def prepare(rows: Rows, *, readonly: bool, mark: Mark | None,
            commit: Callable[[], Commit]) -> Tail:
    """Check the journal behind `rows` (module docstring) and, for a writer, make it
    ready to write. Raises JournalCorrupt, JournalRefused, JournalError, or the
    sqlite3.Error / JournalUnwritable of a failed write (`Journal.open` words them)."""
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
    tail = Tail()
    if tables >= TABLES:
        tail = _load_tail(rows, check=not readonly, header_crcs=version == SCHEMA_VERSION)
    if readonly:
        return tail
    _compare(rows, tail, mark)  # before anything is written
    if tail.match is not None:  # what the table will replay: refused now if damaged
        for _ in rows.entries(match_id=tail.match.id):
            pass
    # Only a new or old-version journal is written to here: an existing one opens
    # on a full disk, and the table pauses at its first write instead of failing.
    if conn.execute("PRAGMA journal_mode").fetchone() != ("wal",):
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut
    conn.execute("PRAGMA foreign_keys=ON")
    if version != SCHEMA_VERSION:
        with commit():
            _create_or_upgrade(rows, version)
        if tail.match is not None:
            tail.match_crc = header_crc(*rows.header_row(tail.match.id)[:7])
    return tail


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
