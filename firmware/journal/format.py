"""What a journal file holds, how entries are added to it, and reading it back checked.

The tables (`SCHEMA`), the records (`Match`, `Entry`), the CRCs that make damage
visible (`entry_crc`, `header_crc`) and `Rows`, which reads headers and entries from an
open connection and refuses what fails its CRC or leaves a gap (`JournalCorrupt`).

`Appender` is the journal's hot path, `Journal.append`, `append_all` and `result`: the
rows with their CRCs, one durable transaction (`Commit`), where the journal now ends
(`Tail`) and the high-water mark after it (`firmware.journal.mark.MarkFile.write`, the
one call out of this file while commits work; a failure is worded by
`firmware.journal.faults`). Opening, its checks and the rest of `Journal` are
`firmware.journal.store`'s and `firmware.journal.opening`'s.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from firmware.errors import JournalCorrupt, JournalError, JournalUnwritable
from firmware.journal.mark import Mark, MarkFile
from hal.clock import Clock

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2  # 2: match headers carry a CRC (a version 1 journal is upgraded)
INTENT = "intent"
RESULT = "result"
TABLES = frozenset({"meta", "matches", "entries"})

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    edition TEXT NOT NULL,
    options TEXT NOT NULL,
    seats INTEGER NOT NULL,
    seed INTEGER,
    config_hash TEXT NOT NULL,
    started_at REAL NOT NULL,
    crc INTEGER
);
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    kind TEXT NOT NULL,
    ref INTEGER REFERENCES entries(seq),
    payload TEXT NOT NULL,
    at REAL NOT NULL,
    crc INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_ref ON entries(ref) WHERE ref IS NOT NULL;
"""

HEADER = "id, edition, options, seats, seed, config_hash, started_at"
INSERT_HEADER = f"INSERT INTO matches ({HEADER}, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
INSERT_ENTRIES = ("INSERT INTO entries (seq, match_id, kind, ref, payload, at, crc)"
                  " VALUES (?, ?, ?, ?, ?, ?, ?)")


@dataclass(frozen=True)
class Match:
    """The header of one match: everything needed to rebuild its starting position."""

    id: int
    edition: str
    options: Mapping[str, Any]
    seats: int
    seed: int | None
    config_hash: str
    started_at: float

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "match",
            "match": self.id,
            "edition": self.edition,
            "options": dict(self.options),
            "seats": self.seats,
            "seed": self.seed,
            "config_hash": self.config_hash,
            "started_at": self.started_at,
        }


@dataclass(frozen=True)
class Entry:
    seq: int
    match_id: int
    kind: str
    payload: Any
    at: float
    ref: int | None = None  # for a result: the seq of its intent

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "entry",
            "seq": self.seq,
            "match": self.match_id,
            "kind": self.kind,
            "payload": self.payload,
            "at": self.at,
        }
        if self.ref is not None:
            out["ref"] = self.ref
        return out


def entry_crc(seq: int, match_id: int, kind: str, ref: int | None, payload: str) -> int:
    """The CRC of an entry row (`payload` as stored: canonical JSON)."""
    return zlib.crc32(f"{seq}\0{match_id}\0{kind}\0{ref}\0{payload}".encode())


def header_crc(mid: int, edition: str, options: str, seats: int, seed: int | None,
               config_hash: str, started_at: float) -> int:
    """The CRC of a match header row (`options` as stored: canonical JSON)."""
    text = f"{mid}\0{edition}\0{options}\0{seats}\0{seed}\0{config_hash}\0{started_at!r}"
    return zlib.crc32(text.encode())


def dumps(payload: Any, what: str) -> str:
    """`payload` as stored: canonical JSON; `JournalError` for anything else."""
    try:
        return json.dumps(payload, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise JournalError(f"{what} payload is not plain JSON: {exc}") from None


def entry_row(seq: int, match_id: int, kind: str, ref: int | None, payload: Any,
              at: float) -> tuple[Any, ...]:
    """The row `INSERT_ENTRIES` writes for one entry, its CRC last."""
    text = dumps(payload, kind)
    return (seq, match_id, kind, ref, text, at, entry_crc(seq, match_id, kind, ref, text))


def entry_rows(after: int, match_id: int, items: Sequence[tuple[str, Any]], ref: int | None,
               at: float) -> list[tuple[Any, ...]]:
    """The rows of `items` (kind, payload), numbered after seq `after`: one call for a
    whole commit."""
    rows = []
    for seq, (kind, payload) in enumerate(items, after + 1):
        if not isinstance(kind, str) or not kind:
            raise JournalError(f"entry kind must be a non-empty string, not {kind!r}")
        rows.append(entry_row(seq, match_id, kind, ref, payload, at))
    return rows


class Rows:
    """Checked reads of one journal's connection; `path` names it in errors."""

    def __init__(self, conn: sqlite3.Connection, path: str) -> None:
        self.conn = conn
        self.path = path

    def tables(self) -> set[str]:
        return {r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}

    def version(self) -> int | None:
        """The schema version in `meta`; None when a kill left the journal half created,
        -1 when it is not a number."""
        row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is None:
            return None
        return int(row[0]) if str(row[0]).isdigit() else -1

    def owner(self) -> tuple[str | None, str | None]:
        """The table identity and edition stamped into the journal (None: not stamped,
        a journal made before journals carried them)."""
        found = dict(self.conn.execute(
            "SELECT key, value FROM meta WHERE key IN ('table', 'edition')").fetchall())
        return found.get("table"), found.get("edition")

    def stamp(self, table: str, edition: str | None) -> None:
        """Write whose journal this is (inside a transaction); `edition` None keeps it."""
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES ('table', ?)", (table,))
        if edition is not None:
            self.conn.execute("INSERT OR IGNORE INTO meta VALUES ('edition', ?)", (edition,))

    def entry_at(self, seq: int) -> float | None:
        """When entry `seq` was written (the clock's wall time)."""
        row = self.conn.execute("SELECT at FROM entries WHERE seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    def entry_crc_at(self, seq: int) -> int | None:
        row = self.conn.execute("SELECT crc FROM entries WHERE seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    def header_row(self, mid: int) -> tuple[Any, ...]:
        """Match `mid`'s header fields, its CRC (None in a version 1 journal) and
        whether the table has that column."""
        has_crc = any(c[1] == "crc" for c in self.conn.execute("PRAGMA table_info(matches)"))
        row = self.conn.execute(
            f"SELECT {HEADER}, {'crc' if has_crc else 'NULL'} FROM matches WHERE id = ?",
            (mid,)).fetchone()
        return tuple(row) + (has_crc,)

    def checked_header(self, mid: int) -> tuple[Any, ...]:
        """The header row of match `mid`; raises JournalCorrupt when its CRC fails
        (a journal of schema version 1 has no header CRCs to check)."""
        row = self.header_row(mid)
        *fields, crc, has_crc = row
        if has_crc and crc != header_crc(*fields):
            raise JournalCorrupt(self.path, f"the header of match {mid} fails its checksum "
                                            f"(edition {fields[1]!r}, seats {fields[3]!r})")
        return row

    def match_from_row(self, row: Iterable[Any]) -> Match:
        mid, edition, options, seats, seed, config_hash, started_at, *_ = row
        try:
            opts = json.loads(options)
        except ValueError as exc:
            raise JournalCorrupt(self.path, f"match {mid} options: {exc}") from None
        return Match(mid, edition, opts, seats, seed, config_hash, started_at)

    def matches(self) -> list[Match]:
        rows = self.conn.execute("SELECT id FROM matches ORDER BY id").fetchall()
        return [self.match_from_row(self.checked_header(r[0])) for r in rows]

    def entries(self, *, match_id: int | None = None, after: int = 0) -> Iterator[Entry]:
        """Entries in sequence order, checked: a damaged or missing entry raises JournalCorrupt."""
        sql = "SELECT seq, match_id, kind, ref, payload, at, crc FROM entries WHERE seq > ?"
        args: list[Any] = [after]
        if match_id is not None:
            sql += " AND match_id = ?"
            args.append(match_id)
        expected = None if match_id is not None else after + 1
        for seq, mid, kind, ref, text, at, crc in self.conn.execute(sql + " ORDER BY seq", args):
            if expected is not None and seq != expected:
                raise JournalCorrupt(self.path, f"entry {expected} is missing (next is {seq})")
            yield self._checked(seq, mid, kind, ref, text, at, crc)
            if expected is not None:
                expected += 1

    def entries_of(self, kinds: Sequence[str]) -> Iterator[Entry]:
        """The entries of these kinds, of every match, in sequence order, each checked by
        its CRC (a scan SQLite does without reading the others' payloads)."""
        marks = ", ".join("?" * len(kinds))
        for seq, mid, kind, ref, text, at, crc in self.conn.execute(
                "SELECT seq, match_id, kind, ref, payload, at, crc FROM entries "
                f"WHERE kind IN ({marks}) ORDER BY seq", list(kinds)):
            yield self._checked(seq, mid, kind, ref, text, at, crc)

    def _checked(self, seq: int, mid: int, kind: str, ref: int | None, text: str, at: float,
                 crc: int) -> Entry:
        """One stored row as an entry, once its CRC and its JSON hold."""
        if entry_crc(seq, mid, kind, ref, text) != crc:
            raise JournalCorrupt(self.path, f"entry {seq} ({kind}) fails its checksum")
        try:
            payload = json.loads(text)
        except ValueError as exc:
            raise JournalCorrupt(self.path, f"entry {seq} ({kind}): {exc}") from None
        return Entry(seq, mid, kind, payload, at, ref)

    def has_result(self, intent: int) -> bool:
        return self.conn.execute("SELECT 1 FROM entries WHERE ref = ?", (intent,)).fetchone() \
            is not None

    def kind_of(self, seq: int) -> str | None:
        row = self.conn.execute("SELECT kind FROM entries WHERE seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    def open_intents(self) -> list[Entry]:
        """Intents with no result: actions a crash cut off, oldest first."""
        rows = self.conn.execute(
            "SELECT i.seq FROM entries i WHERE i.kind = ? AND NOT EXISTS"
            " (SELECT 1 FROM entries r WHERE r.ref = i.seq) ORDER BY i.seq",
            (INTENT,),
        ).fetchall()
        if not rows:
            return []
        first = rows[0][0]
        wanted = {r[0] for r in rows}
        return [e for e in self.entries(after=first - 1) if e.seq in wanted]


@dataclass(frozen=True)
class Owner:
    """Whose journal a writer opens: the table's identity (its state directory's
    `firmware.journal.mark.TABLE_ID`) and, when known, the config's edition."""

    table: str
    edition: str | None = None


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

    def mark(self, owner: Owner | None = None) -> Mark:
        """The high-water mark this tail makes (carrying `owner`'s table and edition)."""
        table, edition = (owner.table, owner.edition or "") if owner else ("", "")
        return Mark(self.last_seq, self.last_crc, self.match_id, self.match_crc,
                    table=table, edition=edition)


class Watch(Protocol):
    """What a commit tells of its faults (`firmware.journal.faults.FaultWatch`)."""

    path: str
    identity: dict[str, tuple[int, int]]
    fault: JournalUnwritable | None

    def failed(self, cause: str, detail: object) -> JournalUnwritable: ...
    def failure(self, exc: sqlite3.Error) -> JournalError: ...
    def written(self) -> None: ...


class Commit:
    """BEGIN IMMEDIATE .. COMMIT; a failure rolls back and raises `JournalUnwritable`
    (corruption found while writing raises `JournalCorrupt`). First the files at the
    journal's path must still be the ones written (`watch.identity`). `conn` is None
    once the journal is closed."""

    def __init__(self, conn: sqlite3.Connection | None, watch: Watch) -> None:
        self._conn = conn
        self._watch = watch

    def __enter__(self) -> None:
        if self._conn is None:
            raise JournalError("journal is closed")
        watch = self._watch
        for name, known in watch.identity.items():
            try:
                st = os.stat(name)
            except FileNotFoundError:
                what = "was deleted" if name == watch.path else f"lost its {name}"
                raise watch.failed("lost", what) from None
            except OSError:
                continue  # cannot look: the commit itself will tell
            if (st.st_dev, st.st_ino) != known:
                raise watch.failed("lost", "was replaced by another file")
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise watch.failure(exc) from None

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        assert self._conn is not None
        if exc_type is None:
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as err:
                self._rollback()
                raise self._watch.failure(err) from None
            if self._watch.fault is not None:
                self._watch.written()
            return
        self._rollback()
        if isinstance(exc, sqlite3.Error):
            raise self._watch.failure(exc) from None

    def _rollback(self) -> None:
        assert self._conn is not None
        if self._conn.in_transaction:  # SQLite already rolled back after SQLITE_FULL
            try:
                self._conn.execute("ROLLBACK")
            except sqlite3.Error as exc:
                log.error("rollback of %s failed: %s", self._watch.path, exc)


class Appender:
    """The appends of `firmware.journal.store.Journal` (which sets these fields): while
    commits work, everything they call is in this file but the mark's write."""

    _conn: sqlite3.Connection | None
    _clock: Clock
    _rows: Rows
    _tail: Tail
    _mark: MarkFile | None
    _owner: Owner | None
    _faults: Watch

    def append(self, kind: str, payload: Any, *, ref: int | None = None) -> Entry:
        """Append one entry and commit it durably; returns it with its sequence number."""
        return self.append_all([(kind, payload)], ref=ref)[0]

    def append_all(
        self, items: Sequence[tuple[str, Any]], *, ref: int | None = None
    ) -> list[Entry]:
        """Append several entries in one transaction: all of them are kept, or none."""
        tail = self._tail
        if tail.match is None:
            raise JournalError("no match started: call start_match() first")
        match_id = tail.match.id
        now = self._clock.wall()
        rows = entry_rows(tail.last_seq, match_id, items, ref, now)
        with Commit(self._conn, self._faults):
            assert self._conn is not None
            self._conn.executemany(INSERT_ENTRIES, rows)
        tail.last_seq = rows[-1][0]
        tail.last_crc = rows[-1][6]
        self._write_mark()
        return [Entry(r[0], match_id, r[2], json.loads(r[4]), now, ref) for r in rows]

    def intent(self, payload: Any) -> Entry:
        """Record that an ejection (or any physical action) is about to start."""
        return self.append(INTENT, payload)

    def result(self, intent: Entry | int, payload: Any, *,
               then: Sequence[tuple[str, Any]] = ()) -> Entry:
        """Record how a started action ended; pairs with its intent, which must have no
        result yet (a second one would count an ejection twice). `then`: entries the
        result brings about (a press's ``action``), written in the same transaction and
        also referring to the intent. Returns the result entry."""
        seq = intent.seq if isinstance(intent, Entry) else intent
        if self._rows.kind_of(seq) != INTENT:
            raise JournalError(f"entry {seq} is not an intent")
        if self._rows.has_result(seq):
            raise JournalError(f"intent {seq} already has a result")
        return self.append_all([(RESULT, payload), *then], ref=seq)[0]

    def _commit(self) -> Commit:
        return Commit(self._conn, self._faults)

    def _write_mark(self) -> None:
        if self._mark is None:
            return
        try:
            self._mark.write(self._tail.mark(self._owner))
        except OSError as exc:  # the commit stands; the mark stays one commit behind
            log.error("cannot write the journal's mark %s: %s", self._mark.path, exc)
