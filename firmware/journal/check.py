"""Look into a journal that may be damaged, and salvage what is readable.

`inspect(path)` and `recover(path, out)` read the journal through a view that cannot
change it (`firmware.journal.view`: the file alone opened ``immutable``, or with its
``-wal`` a copy of both in a temporary directory), so not even SQLite's WAL recovery or
``-shm`` touches the originals. Rows are read one by one where a whole
scan fails, and every entry and match header is checked against its CRC.

A match is salvaged from its first entry up to the first entry that is missing or
damaged: the entries after such a hole cannot be replayed (each action depends on every
one before it). A match whose header is damaged cannot be rebuilt and is lost whole.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware.errors import JournalError
from firmware.journal.format import HEADER, Entry, Match, entry_crc, header_crc
from firmware.journal.mark import TABLE_ID, Mark, MarkRead, load_mark, mark_path
from firmware.journal.opening import when
from firmware.journal.store import Journal
from firmware.journal.view import read_only_view
from firmware.safe_files import read_regular

_ENTRY = "seq, match_id, kind, ref, payload, at, crc"


@dataclass
class MatchReport:
    id: int
    header: dict[str, Any] | None  # None: the header is missing or fails its CRC
    header_problem: str | None
    entries: list[Entry] = field(default_factory=list)  # readable, in order
    first: int | None = None  # seq range the match's rows span (readable or not)
    last: int | None = None
    cut: str | None = None  # why the readable part ends before `last`
    readable: int = 0  # entries from its first one up to the first hole

    def last_action(self) -> str:
        for e in reversed(self.entries[:self.readable]):
            if e.kind == "action":
                return f"entry {e.seq}: {json.dumps(e.payload, sort_keys=True)}"
        return "none"


@dataclass
class Report:
    path: str
    integrity: list[str]
    version: str | None
    read: MarkRead
    last_seq: int = 0
    last_at: float | None = None  # when the last entry was written
    table: str | None = None  # whose journal it is (its meta), None: not stamped
    edition: str | None = None
    bad: list[str] = field(default_factory=list)  # every CRC failure, gap or unreadable row
    matches: list[MatchReport] = field(default_factory=list)
    headers_ok: int = 0
    entries_ok: int = 0

    @property
    def mark(self) -> Mark | None:
        return self.read.mark

    @property
    def behind_mark(self) -> bool:
        return self.mark is not None and self.last_seq < self.mark.seq

    @property
    def ok(self) -> bool:
        return self.integrity == ["ok"] and not self.bad and not self.behind_mark and (
            self.mark is not None or not self.last_seq)

    def lines(self) -> list[str]:
        out = [f"journal {self.path}: integrity {'; '.join(self.integrity)}, schema "
               f"{self.version}, entries up to {self.last_seq}"]
        if self.mark is None:
            out.append(f"mark {mark_path(self.path)}: {self.read.problem}" + (
                f": `unotable run` refuses the journal until it is accepted (unotable "
                f"journal accept {self.path})" if self.last_seq else ""))
        else:
            reach = (f"the journal ends at entry {self.last_seq} but entry {self.mark.seq} "
                     "was committed" if self.behind_mark else "the journal reaches it")
            out.append(f"mark {mark_path(self.path)}: {self.mark.describe()}: {reach}")
        out.append(f"crc: {self.headers_ok} match header(s) ok, {self.entries_ok} entries ok, "
                   f"{len(self.bad)} problem(s)")
        out += [f"  {b}" for b in self.bad]
        for m in self.matches:
            what = (f"{m.header['edition']}, {m.header['seats']} seats, seed {m.header['seed']}"
                    if m.header else f"header lost: {m.header_problem}")
            span = f"entries {m.first}-{m.last}" if m.first is not None else "no entries"
            readable = f"{m.readable} readable" + (f" (cut at {m.cut})" if m.cut else "")
            out.append(f"match {m.id}: {what}; {span}, {readable}; last action "
                       f"{m.last_action()}")
        here = read_regular(Path(self.path).parent / TABLE_ID)
        edition = self.edition or "edition not recorded"
        ours = here.decode(errors="replace").strip() if here else "not made yet"
        other = (": another table's journal, refused by `unotable run` until accepted"
                 if here and self.table and self.table != ours else "")
        out.append(f"table {self.table or 'not recorded'} ({edition}); its state directory "
                   f"is table {ours}{other}")
        out.append(f"last entry {self.last_seq} written at {when(self.last_at)}: an older "
                   "copy restored whole (journal, -wal and mark) looks sound, so compare "
                   "this with when the table last played")
        return out


def _rows(conn: sqlite3.Connection, table: str, cols: str, key: str,
          upto: int) -> tuple[dict[int, tuple[Any, ...]], list[str]]:
    """Every readable row by key; a failed scan falls back to one row at a time."""
    try:
        return {r[0]: r for r in conn.execute(f"SELECT {cols} FROM {table}")}, []
    except sqlite3.Error as exc:
        problems = [f"{table}: a full read fails ({exc}); read row by row"]
    with suppress(sqlite3.Error):
        upto = max(upto, conn.execute(f"SELECT max({key}) FROM {table}").fetchone()[0] or 0)
    rows: dict[int, tuple[Any, ...]] = {}
    for k in range(1, upto + 1):
        try:
            row = conn.execute(f"SELECT {cols} FROM {table} WHERE {key} = ?", (k,)).fetchone()
        except sqlite3.Error as exc:
            problems.append(f"{table} row {k} is unreadable: {exc}")
            continue
        if row is not None:
            rows[k] = row
    return rows, problems


def inspect(path: str | Path) -> Report:
    """Integrity, the mark, every CRC, and per match its entries and last action."""
    path = str(path)
    read = load_mark(mark_path(path))
    mark = read.mark
    with read_only_view(path) as conn:
        try:
            integrity = [r[0] for r in conn.execute("PRAGMA integrity_check(20)")]
        except sqlite3.Error as exc:
            integrity = [f"fails: {exc}"]
        report = Report(path, integrity, _version(conn), read)
        report.table, report.edition = _owner(conn)
        has_crc = _has_header_crc(conn)
        headers, h_problems = _rows(conn, "matches", f"{HEADER}, "
                                    f"{'crc' if has_crc else 'NULL'}", "id",
                                    mark.match if mark else 0)
        rows, e_problems = _rows(conn, "entries", _ENTRY, "seq", mark.seq if mark else 0)
    report.bad += h_problems + e_problems
    matches: dict[int, MatchReport] = {}
    for mid, row in sorted(headers.items()):
        fields, crc = row[:7], row[7]
        problem = None
        if has_crc and crc != header_crc(*fields):
            problem = f"the header of match {mid} fails its checksum"
            report.bad.append(problem)
        else:
            report.headers_ok += 1
        header = None if problem else dict(zip(("id", "edition", "options", "seats", "seed",
                                                "config_hash", "started_at"), fields,
                                               strict=True))
        matches[mid] = MatchReport(mid, header, problem)
    report.last_seq = max(rows, default=0)
    at = rows[report.last_seq][5] if report.last_seq else None
    report.last_at = float(at) if isinstance(at, int | float) else None
    current: MatchReport | None = None
    for seq in range(1, report.last_seq + 1):
        row = rows.get(seq)
        entry, problem = _entry(row) if row is not None else (None, f"entry {seq} is missing")
        if row is not None:
            mid = row[1]
            current = matches.setdefault(mid, MatchReport(mid, None, "the header is missing"))
        if current is not None:
            current.first = current.first if current.first is not None else seq
            current.last = seq
            if problem is None and current.cut is None and entry is not None:
                current.entries.append(entry)
                current.readable += 1
            elif problem is not None and current.cut is None:
                current.cut = problem
        if problem is not None:
            report.bad.append(problem)
        else:
            report.entries_ok += 1
    report.matches = sorted(matches.values(), key=lambda m: m.id)
    return report


def _entry(row: tuple[Any, ...]) -> tuple[Entry | None, str | None]:
    seq, mid, kind, ref, text, at, crc = row
    if entry_crc(seq, mid, kind, ref, text) != crc:
        return None, f"entry {seq} ({kind}) fails its checksum"
    try:
        return Entry(seq, mid, kind, json.loads(text), at, ref), None
    except ValueError as exc:
        return None, f"entry {seq} ({kind}) is not JSON: {exc}"


def _version(conn: sqlite3.Connection) -> str | None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def _owner(conn: sqlite3.Connection) -> tuple[str | None, str | None]:
    try:
        found = dict(conn.execute("SELECT key, value FROM meta WHERE key IN "
                                  "('table', 'edition')").fetchall())
    except sqlite3.Error:
        return None, None
    return found.get("table"), found.get("edition")


def _has_header_crc(conn: sqlite3.Connection) -> bool:
    try:
        return any(c[1] == "crc" for c in conn.execute("PRAGMA table_info(matches)"))
    except sqlite3.Error:
        return False


def recover(path: str | Path, out: str | Path) -> tuple[Report, list[str]]:
    """Write every readable match of `path` into a new journal `out` (with its mark);
    returns the report of `path` and one line per match and per loss."""
    out = Path(out)
    if out.exists() or mark_path(out).exists():
        raise JournalError(f"{out} already exists: name a new file")
    if out.resolve() == Path(path).resolve():
        raise JournalError("--out must name a new file, not the journal itself")
    report = inspect(path)
    lines: list[str] = []
    with Journal.open(out, table=report.table, edition=report.edition) as new:
        for m in report.matches:
            if m.header is None:
                lines.append(f"match {m.id}: lost whole ({m.header_problem}; "
                             f"{_span(m.first, m.last)})")
                continue
            header = Match(m.id, m.header["edition"], json.loads(m.header["options"]),
                           m.header["seats"], m.header["seed"], m.header["config_hash"],
                           m.header["started_at"])
            first, last = new.copy_match(header, m.entries[:m.readable])
            kept = f"kept {m.readable} entries" + (f" as {first}-{last}" if m.readable else "")
            lost = ""
            if m.cut:
                after = m.entries[m.readable - 1].seq + 1 if m.readable else m.first
                lost = f"; lost {_span(after, m.last)} ({m.cut})"
            lines.append(f"match {m.id}: {kept}{lost}")
    if not report.matches:
        lines.append("no match could be read: the new journal is empty")
    if report.behind_mark:
        assert report.mark is not None
        lines.append(f"lost {_span(report.last_seq + 1, report.mark.seq)}: committed (the "
                     "mark says so) but not in the file")
    return report, lines


def _span(first: int | None, last: int | None) -> str:
    if first is None or last is None:
        return "no entries"
    return f"entry {first}" if first == last else f"entries {first}-{last}"
