"""The journal's high-water mark: the last committed entry, kept outside SQLite.

SQLite's WAL holds every commit until a checkpoint copies it into the database file,
so a lost or damaged ``-wal`` silently takes the newest entries with it, and a journal
truncated or replaced looks like a fresh one. The mark (``<journal>.mark``) remembers
what was committed: the last entry's seq and CRC, the last match and its header CRC,
and whose journal it is (the table's identity and edition, `TableId`). At start the
journal must reach it; a journal behind its mark is refused, not replayed, and so is
a started journal whose mark is missing or damaged (`load_mark`'s problem).

The file is 1 KiB: two 512-byte slots written in turn (``pwrite`` + ``fdatasync``), each
record with its own CRC. A write torn by a power cut spoils at most the slot being
written; the other slot still holds the previous mark. The file is preallocated, so a
mark write needs no new disk space (a full disk cannot stop it after the journal
commit succeeded). The mark is written *after* the journal's commit: it may be one
commit behind the journal (a kill in between), never ahead of it.

The table's identity is made at its first start and kept in its state directory
(`TABLE_ID`, beside the journal): a journal and mark copied from another table carry
another one.
"""

from __future__ import annotations

import os
import struct
import uuid
import zlib
from dataclasses import dataclass
from pathlib import Path

from firmware.safe_files import (
    UnsafeFile,
    create_new,
    fsync_directory,
    open_regular,
    read_regular,
    replace_file,
)

MAGIC = b"UNOMARK2"
OLD_MAGIC = b"UNOMARK1"  # before marks carried the table: read, then rewritten
SLOT = 512
# magic, seq, entry crc, match, header crc, generation, table identity, edition
_RECORD = struct.Struct(">8sQIQIQ16s24s")
_OLD_RECORD = struct.Struct(">8sQIQIQ")
TABLE_ID = "table-id"


@dataclass(frozen=True)
class Mark:
    """What the journal held after its last commit (0s: nothing committed yet), and
    whose journal it is ("": not known, a mark written before marks carried it)."""

    seq: int = 0
    crc: int = 0
    match: int = 0
    header_crc: int = 0
    generation: int = 0
    table: str = ""
    edition: str = ""

    def describe(self) -> str:
        owner = f", table {self.table} ({self.edition})" if self.table else ""
        return (f"entry {self.seq} (crc {self.crc:08x}), match {self.match} "
                f"(header crc {self.header_crc:08x}){owner}")


@dataclass(frozen=True)
class MarkRead:
    """A mark file as found: its newest intact record, or why there is none."""

    mark: Mark | None
    problem: str | None = None  # "is missing", "is truncated ...", "holds no intact record"


def mark_path(journal: str | Path) -> Path:
    return Path(f"{journal}.mark")


def _pack(mark: Mark) -> bytes:
    body = _RECORD.pack(MAGIC, mark.seq, mark.crc, mark.match, mark.header_crc,
                        mark.generation, bytes.fromhex(mark.table or "0" * 32),
                        mark.edition.encode())
    return (body + struct.pack(">I", zlib.crc32(body))).ljust(SLOT, b"\0")


def _unpack(raw: bytes) -> Mark | None:
    for record in (_RECORD, _OLD_RECORD):
        size = record.size
        if len(raw) < size + 4:
            continue
        body, (crc,) = raw[:size], struct.unpack(">I", raw[size:size + 4])
        if zlib.crc32(body) != crc:
            continue
        magic, seq, entry_crc, match, header_crc, generation, *owner = record.unpack(body)
        if magic == MAGIC and owner:
            table = owner[0].hex() if owner[0].strip(b"\0") else ""
            return Mark(seq, entry_crc, match, header_crc, generation, table,
                        owner[1].rstrip(b"\0").decode(errors="replace"))
        if magic == OLD_MAGIC and not owner:
            return Mark(seq, entry_crc, match, header_crc, generation)
    return None


def read_mark(path: str | Path) -> Mark | None:
    """The mark `load_mark` finds; None when it is missing or damaged."""
    return load_mark(path).mark


def load_mark(path: str | Path) -> MarkRead:
    """The newest intact slot of the mark file. A file of zeros (created, never
    written) reads as the empty mark; a missing, truncated or unreadable one, or a
    link or directory in its place, as None and the problem."""
    try:
        raw = read_regular(path)
    except UnsafeFile as exc:
        return MarkRead(None, f"is {exc.what}, not a regular file")
    if raw is None:
        return MarkRead(None, "is missing")
    if len(raw) != 2 * SLOT:
        return MarkRead(None, f"is truncated ({len(raw)} bytes, not {2 * SLOT})")
    marks = [m for m in (_unpack(raw[i:i + SLOT]) for i in (0, SLOT)) if m is not None]
    if marks:
        return MarkRead(max(marks, key=lambda m: m.generation))
    return MarkRead(Mark()) if not raw.strip(b"\0") else MarkRead(None, "holds no intact record")


class MarkFile:
    """The open mark file of a writing journal; `write` is durable when it returns."""

    def __init__(self, path: str | Path, current: Mark | None) -> None:
        self.path = Path(path)
        self.mark = current or Mark()
        try:
            self._fd = create_new(self.path)
            fresh = True
        except FileExistsError:
            self._fd = open_regular(self.path, os.O_RDWR)
            fresh = False
        if fresh or os.fstat(self._fd).st_size != 2 * SLOT:
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, b"\0" * (2 * SLOT), 0)
            os.fsync(self._fd)
            fsync_directory(self.path.parent)

    def write(self, mark: Mark) -> None:
        """Raises OSError when the slot cannot be written; the other slot is intact."""
        mark = Mark(mark.seq, mark.crc, mark.match, mark.header_crc, self.mark.generation + 1,
                    mark.table, mark.edition)
        os.pwrite(self._fd, _pack(mark), (mark.generation % 2) * SLOT)
        os.fdatasync(self._fd)
        self.mark = mark

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def table_identity(journal: str | Path) -> str:
    """The identity of the table whose state directory holds `journal` (the directory
    must exist), made at its first start: 32 hex digits."""
    path = Path(journal).parent / TABLE_ID
    raw = read_regular(path)
    if raw is not None:
        text = raw.decode(errors="replace").strip()
        if len(text) == 32 and all(c in "0123456789abcdef" for c in text):
            return text
        raise UnsafeFile(f"the table's identity {path} is damaged ({text[:40]!r}): restore "
                         "it from a backup, or move it away to make this a new table")
    made = uuid.uuid4().hex
    replace_file(path, f"{made}\n".encode(), sync=True)
    return made
