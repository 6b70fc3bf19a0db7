"""The append-only game journal: SQLite in WAL mode with durable (FULL) commits.

Every accepted action and every chance outcome is appended and committed *before* its
effects run, so a restart after a crash or power cut finds exactly what was decided.
An ejection is journaled twice: an ``intent`` row before the motor starts and a
``result`` row when it finished; an intent without result after a restart is an
ejection that was cut off (ask the table how many cards came out, never guess).

Each entry and each match header carries a CRC of its content so that damage is
reported, not replayed. A high-water mark beside the file (`firmware.journal_mark`)
remembers the last commit: a journal that lost committed entries (a deleted or damaged
``-wal``, a file truncated or replaced) is refused at open instead of replayed as a
shorter game. A checkpoint at every round end moves the WAL into the database file.

Failures to write (disk full, read-only file or directory, I/O errors, the file deleted
or replaced under the daemon) raise `JournalUnwritable`: the commit was rolled back,
the journal is intact, and `fault` says why until a commit succeeds again.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware.errors import JournalCorrupt, JournalError, JournalRefused, JournalUnwritable
from firmware.journal_mark import Mark, MarkFile, mark_path, read_mark

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2  # 2: match headers carry a CRC (a version 1 journal is upgraded)
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


_HEADER = "id, edition, options, seats, seed, config_hash, started_at"


def header_crc(mid: int, edition: str, options: str, seats: int, seed: int | None,
               config_hash: str, started_at: float) -> int:
    """The CRC of a match header row (`options` as stored: canonical JSON)."""
    text = f"{mid}\0{edition}\0{options}\0{seats}\0{seed}\0{config_hash}\0{started_at!r}"
    return zlib.crc32(text.encode())


# SQLite's primary result codes (the low byte of `sqlite_errorcode`).
_SQLITE_CORRUPT = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_SQLITE_CAUSE = {13: "disk-full", 8: "read-only", 3: "read-only", 14: "read-only", 23: "read-only"}
_OS_CAUSE = {errno.ENOSPC: "disk-full", errno.EDQUOT: "disk-full", errno.EROFS: "read-only",
             errno.EACCES: "read-only", errno.EPERM: "read-only"}
_CAUSE_TEXT = {"disk-full": "the disk is full", "read-only": "the file or its directory is "
               "read-only", "io": "an I/O error", "lost": "the file was deleted or replaced"}


def is_corruption(exc: sqlite3.Error) -> bool:
    """Damage to the file (as opposed to a failure to write it)."""
    return ((getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF) in _SQLITE_CORRUPT


def write_cause(exc: BaseException) -> str:
    """Why a write failed: disk-full, read-only or io."""
    if isinstance(exc, OSError):
        return _OS_CAUSE.get(exc.errno or 0, "io")
    return _SQLITE_CAUSE.get((getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF, "io")


def cannot_write(path: str, cause: str, detail: object) -> str:
    return f"cannot write the journal {path}: {_CAUSE_TEXT[cause]} ({detail})"


def _refused_write(path: str, cause: str, detail: object) -> JournalRefused:
    advice = ("fix the permissions (the daemon's user must own it)" if cause == "read-only"
              else "free some space" if cause == "disk-full" else "fix that")
    return JournalRefused(f"{cannot_write(path, cause, detail)}: the journal itself may be "
                          f"fine; {advice}, then start again")


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
        self._last_crc = 0
        self._match: Match | None = None
        self._match_crc = 0
        self._mark: MarkFile | None = None
        self._identity: dict[str, tuple[int, int]] = {}
        self.fault: JournalUnwritable | None = None  # the last failed commit, until one works
        # called with the fault when a commit fails, with None when one works again
        self.fault_listeners: list[Callable[[JournalUnwritable | None], None]] = []
        self.rescued: str | None = None  # where a lost journal's content was saved

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
        A writer compares the journal with its mark first and writes nothing to a
        journal it refuses. Raises `JournalCorrupt` for a damaged file,
        `JournalRefused` for a journal that lost committed entries or cannot be
        written, `JournalError` for anything else.
        """
        path = str(path)
        if readonly and not Path(path).is_file():
            raise JournalError(f"no journal at {path}")
        mark = None if readonly else _check_writable(path)
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
            raise JournalRefused(f"cannot open the journal {path}: {exc}") from None
        journal = cls(conn, path, clock)
        try:
            journal._prepare(readonly, mark)
        except sqlite3.Error as exc:
            conn.close()
            if is_corruption(exc):
                raise JournalCorrupt(path, str(exc)) from None
            raise _refused_write(path, write_cause(exc), exc) from None
        except JournalUnwritable as exc:  # while creating or upgrading its tables
            journal.close()
            raise _refused_write(path, exc.cause, "while opening it") from None
        except JournalError:
            journal.close()
            raise
        return journal

    def _prepare(self, readonly: bool, mark: Mark | None) -> None:
        conn, path = self._conn, self.path
        check = conn.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            raise JournalCorrupt(path, "; ".join(row[0] for row in check[:5]))
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        journal_tables = {"meta", "matches", "entries"}
        if tables - journal_tables or (readonly and not journal_tables <= tables):
            raise JournalError(f"{path} is an SQLite file but not a unotable journal")
        version = self._version() if "meta" in tables else None
        if version not in (None, 1, SCHEMA_VERSION):
            raise JournalError(f"journal {path} has schema version {version}, expected "
                               f"{SCHEMA_VERSION}")
        if journal_tables <= tables:
            self._load_tail(check=not readonly, header_crcs=version == SCHEMA_VERSION)
        if readonly:
            return
        self._compare(mark)  # before anything is written
        if self._match is not None:  # what the table will replay: refused now if damaged
            for _ in self.entries(match_id=self._match.id):
                pass
        # Only a new or old-version journal is written to here: an existing one opens
        # on a full disk, and the table pauses at its first write instead of failing.
        if conn.execute("PRAGMA journal_mode").fetchone() != ("wal",):
            conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut
        conn.execute("PRAGMA foreign_keys=ON")
        if version != SCHEMA_VERSION:
            with self._transaction():
                self._create_or_upgrade(version)
        self._mark = MarkFile(mark_path(path), mark)
        if mark is None or mark.seq != self._last_seq or mark.match != self._match_id():
            if mark is None and self._last_seq:
                log.warning("journal %s had no mark: starting one at entry %d", path,
                            self._last_seq)
            self._write_mark()
        self._remember_identity()

    def _version(self) -> int | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is None:
            return None  # a kill left the journal half created: completed now
        return int(row[0]) if str(row[0]).isdigit() else -1

    def _create_or_upgrade(self, version: int | None) -> None:
        conn = self._conn
        if version == 1:  # headers get their CRC, as they are now
            conn.execute("ALTER TABLE matches ADD COLUMN crc INTEGER")
            for row in conn.execute(f"SELECT {_HEADER} FROM matches").fetchall():
                conn.execute("UPDATE matches SET crc = ? WHERE id = ?", (header_crc(*row), row[0]))
        else:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)",
                     (str(SCHEMA_VERSION),))
        if self._match is not None:
            self._match_crc = header_crc(*self._header_row(self._match.id)[:7])

    def _load_tail(self, *, check: bool, header_crcs: bool) -> None:
        row = self._conn.execute("SELECT max(seq), count(*) FROM entries").fetchone()
        last, count = row[0] or 0, row[1]
        # A writer must not continue after a gap; a reader reports it where it is.
        if check and last != count:
            raise JournalCorrupt(self.path, f"{last - count} entries missing before seq {last}")
        self._last_seq = last
        crc = self._conn.execute("SELECT crc FROM entries WHERE seq = ?", (last,)).fetchone()
        self._last_crc = crc[0] if crc else 0
        if header_crcs:
            for mid, *_ in self._conn.execute("SELECT id FROM matches").fetchall():
                self._checked_header(mid)
        match_row = self._conn.execute("SELECT max(id) FROM matches").fetchone()
        if match_row[0] is not None:
            header = self._header_row(match_row[0])
            self._match = self._match_from_row(header)
            self._match_crc = header[7] or 0

    def _compare(self, mark: Mark | None) -> None:
        """Refuse a journal that holds less than its mark says was committed."""
        if mark is None or (mark.seq == 0 and mark.match == 0):
            return
        path = self.path
        ends = f"journal {path} ends at entry {self._last_seq}"
        if self._last_seq < mark.seq:
            raise JournalRefused(f"{ends} but entry {mark.seq} was committed (its mark "
                                 f"{mark_path(path)} says so): {_LOST_ADVICE.format(path=path)}")
        if self._match_id() < mark.match:
            raise JournalRefused(f"{ends} in match {self._match_id()} but match {mark.match} "
                                 f"was started: {_LOST_ADVICE.format(path=path)}")
        row = self._conn.execute("SELECT crc FROM entries WHERE seq = ?", (mark.seq,)).fetchone()
        header = self._conn.execute("SELECT crc FROM matches WHERE id = ?",
                                    (mark.match,)).fetchone()
        if (mark.seq and (row is None or row[0] != mark.crc)) or \
                (mark.match and (header is None or (header[0] or 0) != mark.header_crc)):
            raise JournalRefused(f"journal {path} is not the journal its mark "
                                 f"{mark_path(path)} was written for (entry {mark.seq} or "
                                 f"match {mark.match} differs): it was replaced; "
                                 f"{_LOST_ADVICE.format(path=path)}")

    def _match_id(self) -> int:
        return self._match.id if self._match is not None else 0

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
        mid = self._conn.execute("SELECT coalesce(max(id), 0) + 1 FROM matches").fetchone()[0]
        crc = header_crc(mid, edition, options_json, seats, seed, config_hash, now)
        with self._transaction():
            self._conn.execute(
                f"INSERT INTO matches ({_HEADER}, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (mid, edition, options_json, seats, seed, config_hash, now, crc),
            )
        self._match = Match(mid, edition, json.loads(options_json), seats, seed,
                            config_hash, now)
        self._match_crc = crc
        self._write_mark()
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
        self._last_crc = rows[-1][6]
        self._write_mark()
        return [Entry(r[0], match_id, r[2], json.loads(r[4]), now, ref) for r in rows]

    def copy_match(self, match: Match, entries: Sequence[Entry]) -> tuple[int, int]:
        """Write `match` (its id and start time kept) and `entries`, renumbered after
        the last entry here (refs follow), in one transaction: for `journal recover`.
        Returns the seqs of the first and last entry written."""
        options = _dumps(dict(match.options), "match options")
        fields = (match.id, match.edition, options, match.seats, match.seed,
                  match.config_hash, match.started_at)
        renumber: dict[int, int] = {}
        rows = []
        for entry in entries:
            seq = self._last_seq + len(rows) + 1
            renumber[entry.seq] = seq
            ref = renumber.get(entry.ref) if entry.ref is not None else None
            text = _dumps(entry.payload, entry.kind)
            rows.append((seq, match.id, entry.kind, ref, text, entry.at,
                         _crc(seq, match.id, entry.kind, ref, text)))
        with self._transaction():
            self._conn.execute(f"INSERT INTO matches ({_HEADER}, crc) VALUES "
                               "(?, ?, ?, ?, ?, ?, ?, ?)", (*fields, header_crc(*fields)))
            self._conn.executemany(
                "INSERT INTO entries (seq, match_id, kind, ref, payload, at, crc)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        self._match, self._match_crc = match, header_crc(*fields)
        if rows:
            self._last_seq, self._last_crc = rows[-1][0], rows[-1][6]
        self._write_mark()
        return (rows[0][0], rows[-1][0]) if rows else (self._last_seq, self._last_seq)

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
        row = self._conn.execute("SELECT kind FROM entries WHERE seq = ?", (seq,)).fetchone()
        if row is None or row[0] != INTENT:
            raise JournalError(f"entry {seq} is not an intent")
        if self._conn.execute("SELECT 1 FROM entries WHERE ref = ?", (seq,)).fetchone():
            raise JournalError(f"intent {seq} already has a result")
        return self.append_all([(RESULT, payload), *then], ref=seq)[0]

    def checkpoint(self) -> bool:
        """Copy the WAL into the database file and empty it (at every round end), so a
        lost or damaged WAL can cost at most the entries since. False when it could not
        (a reader holds the WAL, or the disk is full): the entries stay in the WAL."""
        try:
            busy = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        except sqlite3.Error as exc:
            log.warning("checkpoint of %s failed: %s", self.path, exc)
            return False
        return busy == 0

    def probe(self) -> bool:
        """Whether a commit works again (after `fault`): commits a meta row of two
        pages, more than a commit of entries needs."""
        try:
            with self._transaction():
                self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('alive', ?)",
                                   (repr(self._clock()).ljust(8192),))
        except JournalUnwritable:
            return False
        return True

    def _transaction(self) -> _Transaction:
        return _Transaction(self)

    def _failed(self, cause: str, detail: object) -> JournalUnwritable:
        if cause == "lost":
            message = f"the journal {self.path} {detail} while the table ran"
            if self.rescued is None:
                self.rescued = self._rescue()
            message += (f": everything up to entry {self._last_seq} is saved in "
                        f"{self.rescued}; stop the table, move it to {self.path}, start again"
                        if self.rescued else ": the table cannot save a copy of it; do not "
                        "stop the daemon (it holds the only copy): make the directory "
                        "writable, it tries again every second")
        else:
            message = cannot_write(self.path, cause, detail) + (
                ": nothing was written; the table goes on when the journal can be "
                "written again")
        self.fault = JournalUnwritable(message, cause=cause)
        for listener in list(self.fault_listeners):
            listener(self.fault)
        return self.fault

    def _written(self) -> None:
        if self.fault is not None:
            self.fault = None
            for listener in list(self.fault_listeners):
                listener(None)

    def _check_identity(self) -> None:
        """The files this connection writes are still the ones at `path`."""
        for name, known in self._identity.items():
            try:
                st = os.stat(name)
            except FileNotFoundError:
                what = "was deleted" if name == self.path else f"lost its {name}"
                raise self._failed("lost", what) from None
            except OSError:
                continue  # cannot look: the commit itself will tell
            if (st.st_dev, st.st_ino) != known:
                raise self._failed("lost", "was replaced by another file")

    def _remember_identity(self) -> None:
        for name in (self.path, f"{self.path}-wal"):
            try:
                st = os.stat(name)
            except OSError:
                continue
            self._identity[name] = (st.st_dev, st.st_ino)

    def _write_mark(self) -> None:
        if self._mark is None:
            return
        try:
            self._mark.write(Mark(self._last_seq, self._last_crc, self._match_id(),
                                  self._match_crc))
        except OSError as exc:  # the commit stands; the mark stays one commit behind
            log.error("cannot write the journal's mark %s: %s", self._mark.path, exc)

    def _rescue(self) -> str | None:
        """Save what this connection still sees of a deleted or replaced journal."""
        for n in range(1, 100):
            target = Path(f"{self.path}.rescued" + (f"-{n}" if n > 1 else ""))
            if not target.exists() and not mark_path(target).exists():
                break
        else:
            return None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)  # the whole directory went
            with sqlite3.connect(target) as copy:
                self._conn.backup(copy)
            copy.close()
            if self._mark is not None:
                MarkFile(mark_path(target), None).write(self._mark.mark)
        except (sqlite3.Error, OSError) as exc:
            log.error("cannot save the lost journal %s to %s: %s", self.path, target, exc)
            return None
        log.error("journal %s was lost while the table ran; saved to %s", self.path, target)
        return str(target)

    # -- reading ------------------------------------------------------------------
    @property
    def last_seq(self) -> int:
        return self._last_seq

    @property
    def match(self) -> Match | None:
        """The current (latest) match header, or None in a fresh journal."""
        return self._match

    @property
    def mark(self) -> Mark | None:
        return self._mark.mark if self._mark is not None else None

    def matches(self) -> list[Match]:
        rows = self._conn.execute("SELECT id FROM matches ORDER BY id").fetchall()
        return [self._match_from_row(self._checked_header(r[0])) for r in rows]

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

    def _header_row(self, mid: int) -> tuple[Any, ...]:
        has_crc = any(c[1] == "crc" for c in self._conn.execute("PRAGMA table_info(matches)"))
        row = self._conn.execute(
            f"SELECT {_HEADER}, {'crc' if has_crc else 'NULL'} FROM matches WHERE id = ?",
            (mid,)).fetchone()
        return tuple(row) + (has_crc,)

    def _checked_header(self, mid: int) -> tuple[Any, ...]:
        """The header row of match `mid`; raises JournalCorrupt when its CRC fails
        (a journal of schema version 1 has no header CRCs to check)."""
        row = self._header_row(mid)
        *fields, crc, has_crc = row
        if has_crc and crc != header_crc(*fields):
            raise JournalCorrupt(self.path, f"the header of match {mid} fails its checksum "
                                            f"(edition {fields[1]!r}, seats {fields[3]!r})")
        return row

    def _match_from_row(self, row: Iterable[Any]) -> Match:
        mid, edition, options, seats, seed, config_hash, started_at, *_ = row
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
        if self._mark is not None:
            self._mark.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else f"last_seq={self._last_seq}"
        match = self._match.id if self._match else None
        fault = f" fault={self.fault.cause}" if self.fault is not None else ""
        return f"<Journal {self.path!r} {state} match={match}{fault}>"


def refusal(exc: JournalError) -> str:
    """The one line `unotable run` prints when it does not start on a journal."""
    line = str(exc)
    if isinstance(exc, JournalCorrupt):
        line += (f": nothing was changed; `unotable journal check {exc.path}` shows what is "
                 f"readable, `unotable journal recover {exc.path} --out NEW` keeps it")
    return " ".join(line.split())


_LOST_ADVICE = ("nothing was changed. Restore the journal (and its -wal) from a backup, "
                "or keep what is readable: unotable journal recover {path} --out NEW")


def _check_writable(path: str) -> Mark | None:
    """The journal's mark, after checking that the journal can be written and is not
    missing while its mark says entries were committed (before SQLite creates it)."""
    target = Path(path)
    mark = read_mark(mark_path(path))
    if not target.exists() and mark is not None and (mark.seq or mark.match):
        rescued = f" ({path}.rescued is a copy the table saved)" if \
            Path(f"{path}.rescued").exists() else ""
        raise JournalRefused(
            f"journal {path} is missing but entry {mark.seq} of match {mark.match} was "
            f"committed to it (its mark {mark_path(path)} says so): restore it from a "
            f"backup{rescued}; to start a new journal knowingly, move {mark_path(path)} away")
    directory = target.parent if target.parent.exists() else _existing_parent(target)
    for name, writable in ((target, target.exists() and not os.access(target, os.W_OK)),
                           (directory, not os.access(directory, os.W_OK | os.X_OK))):
        if writable:
            raise _refused_write(path, "read-only", f"no write access to {name}")
    return mark


def _existing_parent(path: Path) -> Path:
    for parent in path.parents:
        if parent.exists():
            return parent
    return Path(".")


class _Transaction:
    """BEGIN IMMEDIATE .. COMMIT; a failure rolls back and raises `JournalUnwritable`
    (corruption found while writing raises `JournalCorrupt`)."""

    def __init__(self, journal: Journal) -> None:
        self._journal = journal
        self._conn = journal._conn

    def __enter__(self) -> None:
        if self._conn is None:
            raise JournalError("journal is closed")
        self._journal._check_identity()
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._failure(exc) from None

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as err:
                self._rollback()
                raise self._failure(err) from None
            self._journal._written()
            return
        self._rollback()
        if isinstance(exc, sqlite3.Error):
            raise self._failure(exc) from None

    def _rollback(self) -> None:
        if self._conn.in_transaction:  # SQLite already rolled back after SQLITE_FULL
            try:
                self._conn.execute("ROLLBACK")
            except sqlite3.Error as exc:
                log.error("rollback of %s failed: %s", self._journal.path, exc)

    def _failure(self, exc: sqlite3.Error) -> JournalError:
        if is_corruption(exc):
            return JournalCorrupt(self._journal.path, str(exc))
        return self._journal._failed(write_cause(exc), exc)
