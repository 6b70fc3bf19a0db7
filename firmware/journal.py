"""The append-only game journal: SQLite in WAL mode with durable (FULL) commits.

Every accepted action and every chance outcome is appended and committed *before* its
effects run, so a restart after a crash or power cut finds exactly what was decided.
An ejection is journaled twice: an ``intent`` row before the motor starts and a
``result`` row when it finished; an intent without result after a restart is an
ejection that was cut off (ask the table how many cards came out, never guess).

Each entry carries a CRC of its content so that damage is reported, not replayed.
"""

from __future__ import annotations

import json
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware.errors import JournalCorrupt, JournalError

SCHEMA_VERSION = 1
INTENT = "intent"
RESULT = "result"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    edition TEXT NOT NULL,
    options TEXT NOT NULL,
    seats INTEGER NOT NULL,
    seed INTEGER,
    config_hash TEXT NOT NULL,
    started_at REAL NOT NULL
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


def _crc(seq: int, match_id: int, kind: str, ref: int | None, payload: str) -> int:
    return zlib.crc32(f"{seq}\0{match_id}\0{kind}\0{ref}\0{payload}".encode())


def _dumps(payload: Any, what: str) -> str:
    try:
        return json.dumps(payload, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise JournalError(f"{what} payload is not plain JSON: {exc}") from None


class Journal:
    """One writer (the daemon's loop). Open with `Journal.open(path)`; a context manager."""

    def __init__(self, conn: sqlite3.Connection, path: str, clock: Callable[[], float]) -> None:
        self._conn = conn
        self.path = path
        self._clock = clock
        self._last_seq = 0
        self._match: Match | None = None

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        readonly: bool = False,
    ) -> Journal:
        """Open (or create) a journal, recover the WAL and check it.

        `readonly` opens an existing journal without changing it (for replay).
        Raises `JournalCorrupt` for a damaged file, `JournalError` for anything else.
        """
        path = str(path)
        if readonly and not Path(path).is_file():
            raise JournalError(f"no journal at {path}")
        try:
            if readonly:
                conn = sqlite3.connect(
                    f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                    isolation_level=None, check_same_thread=False,
                )
            else:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except (sqlite3.Error, OSError) as exc:
            raise JournalError(f"cannot open journal {path}: {exc}") from None
        try:
            cls._prepare(conn, path, readonly)
            journal = cls(conn, path, clock)
            journal._load_tail(check=not readonly)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise JournalCorrupt(path, str(exc)) from None
        except JournalError:
            conn.close()
            raise
        return journal

    @staticmethod
    def _prepare(conn: sqlite3.Connection, path: str, readonly: bool) -> None:
        check = conn.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            raise JournalCorrupt(path, "; ".join(row[0] for row in check[:5]))
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not readonly:
            if tables - {"meta", "matches", "entries"}:
                raise JournalError(f"{path} is an SQLite file but not a unotable journal")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut
            conn.execute("PRAGMA foreign_keys=ON")
            conn.executescript(_SCHEMA)
            conn.execute(
                "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
            )
        elif not {"meta", "matches", "entries"} <= tables:
            raise JournalError(f"{path} is not a unotable journal")
        version = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if version != (str(SCHEMA_VERSION),):
            raise JournalError(
                f"journal {path} has schema version {version and version[0]}, "
                f"expected {SCHEMA_VERSION}"
            )

    def _load_tail(self, *, check: bool) -> None:
        row = self._conn.execute("SELECT max(seq), count(*) FROM entries").fetchone()
        last, count = row[0] or 0, row[1]
        # A writer must not continue after a gap; a reader reports it where it is.
        if check and last != count:
            raise JournalCorrupt(self.path, f"{last - count} entries missing before seq {last}")
        self._last_seq = last
        match_row = self._conn.execute("SELECT * FROM matches ORDER BY id DESC LIMIT 1").fetchone()
        self._match = self._match_from_row(match_row) if match_row else None

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
        options_json = _dumps(dict(options), "match options")
        now = self._clock()
        with self._transaction():
            cur = self._conn.execute(
                "INSERT INTO matches (edition, options, seats, seed, config_hash, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (edition, options_json, seats, seed, config_hash, now),
            )
        assert cur.lastrowid is not None
        self._match = Match(cur.lastrowid, edition, json.loads(options_json), seats, seed,
                            config_hash, now)
        return self._match

    def append(self, kind: str, payload: Any, *, ref: int | None = None) -> Entry:
        """Append one entry and commit it durably; returns it with its sequence number."""
        return self.append_all([(kind, payload)], ref=ref)[0]

    def append_all(
        self, items: Sequence[tuple[str, Any]], *, ref: int | None = None
    ) -> list[Entry]:
        """Append several entries in one transaction: all of them are kept, or none."""
        if self._match is None:
            raise JournalError("no match started: call start_match() first")
        match_id = self._match.id
        rows = []
        seq = self._last_seq
        now = self._clock()
        for kind, payload in items:
            if not isinstance(kind, str) or not kind:
                raise JournalError(f"entry kind must be a non-empty string, not {kind!r}")
            seq += 1
            text = _dumps(payload, kind)
            rows.append((seq, match_id, kind, ref, text, now, _crc(seq, match_id, kind, ref, text)))
        with self._transaction():
            self._conn.executemany(
                "INSERT INTO entries (seq, match_id, kind, ref, payload, at, crc)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
        self._last_seq = seq
        return [Entry(r[0], match_id, r[2], json.loads(r[4]), now, ref) for r in rows]

    def intent(self, payload: Any) -> Entry:
        """Record that an ejection (or any physical action) is about to start."""
        return self.append(INTENT, payload)

    def result(self, intent: Entry | int, payload: Any) -> Entry:
        """Record how a started action ended; pairs with its intent."""
        seq = intent.seq if isinstance(intent, Entry) else intent
        row = self._conn.execute("SELECT kind FROM entries WHERE seq = ?", (seq,)).fetchone()
        if row is None or row[0] != INTENT:
            raise JournalError(f"entry {seq} is not an intent")
        if self._conn.execute("SELECT 1 FROM entries WHERE ref = ?", (seq,)).fetchone():
            raise JournalError(f"intent {seq} already has a result")
        return self.append(RESULT, payload, ref=seq)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn, self.path)

    # -- reading ------------------------------------------------------------------
    @property
    def last_seq(self) -> int:
        return self._last_seq

    @property
    def match(self) -> Match | None:
        """The current (latest) match header, or None in a fresh journal."""
        return self._match

    def matches(self) -> list[Match]:
        rows = self._conn.execute("SELECT * FROM matches ORDER BY id").fetchall()
        return [self._match_from_row(r) for r in rows]

    def entries(self, *, match_id: int | None = None, after: int = 0) -> Iterator[Entry]:
        """Entries in sequence order, checked: a damaged or missing entry raises JournalCorrupt."""
        sql = "SELECT seq, match_id, kind, ref, payload, at, crc FROM entries WHERE seq > ?"
        args: list[Any] = [after]
        if match_id is not None:
            sql += " AND match_id = ?"
            args.append(match_id)
        expected = None if match_id is not None else after + 1
        for seq, mid, kind, ref, text, at, crc in self._conn.execute(sql + " ORDER BY seq", args):
            if expected is not None and seq != expected:
                raise JournalCorrupt(self.path, f"entry {expected} is missing (next is {seq})")
            if _crc(seq, mid, kind, ref, text) != crc:
                raise JournalCorrupt(self.path, f"entry {seq} ({kind}) fails its checksum")
            try:
                payload = json.loads(text)
            except ValueError as exc:
                raise JournalCorrupt(self.path, f"entry {seq} ({kind}): {exc}") from None
            yield Entry(seq, mid, kind, payload, at, ref)
            if expected is not None:
                expected += 1

    def open_intents(self) -> list[Entry]:
        """Intents with no result: actions a crash cut off, oldest first."""
        rows = self._conn.execute(
            "SELECT i.seq FROM entries i WHERE i.kind = ? AND NOT EXISTS"
            " (SELECT 1 FROM entries r WHERE r.ref = i.seq) ORDER BY i.seq",
            (INTENT,),
        ).fetchall()
        if not rows:
            return []
        first = rows[0][0]
        wanted = {r[0] for r in rows}
        return [e for e in self.entries(after=first - 1) if e.seq in wanted]

    def _match_from_row(self, row: Iterable[Any]) -> Match:
        mid, edition, options, seats, seed, config_hash, started_at = row
        try:
            opts = json.loads(options)
        except ValueError as exc:
            raise JournalCorrupt(self.path, f"match {mid} options: {exc}") from None
        return Match(mid, edition, opts, seats, seed, config_hash, started_at)

    # -- closing ------------------------------------------------------------------
    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None  # type: ignore[assignment]

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else f"last_seq={self._last_seq}"
        match = self._match.id if self._match else None
        return f"<Journal {self.path!r} {state} match={match}>"


class _Transaction:
    def __init__(self, conn: sqlite3.Connection, path: str) -> None:
        self._conn = conn
        self._path = path

    def __enter__(self) -> None:
        if self._conn is None:
            raise JournalError("journal is closed")
        self._conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as err:
                self._conn.execute("ROLLBACK")
                raise JournalError(f"cannot commit to {self._path}: {err}") from None
        else:
            self._conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise JournalError(f"cannot write {self._path}: {exc}") from exc
