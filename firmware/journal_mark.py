"""The journal's high-water mark: the last committed entry, kept outside SQLite.

SQLite's WAL holds every commit until a checkpoint copies it into the database file,
so a lost or damaged ``-wal`` silently takes the newest entries with it, and a journal
truncated or replaced looks like a fresh one. The mark (``<journal>.mark``) remembers
what was committed: the last entry's seq and CRC, the last match and its header CRC.
At start the journal must reach it; a journal behind its mark is refused, not replayed.

The file is 1 KiB: two 512-byte slots written in turn (``pwrite`` + ``fdatasync``), each
record with its own CRC. A write torn by a power cut spoils at most the slot being
written; the other slot still holds the previous mark. The file is preallocated, so a
mark write needs no new disk space (a full disk cannot stop it after the journal
commit succeeded). The mark is written *after* the journal's commit: it may be one
commit behind the journal (a kill in between), never ahead of it.
"""

from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

MAGIC = b"UNOMARK1"
SLOT = 512
_RECORD = struct.Struct(">8sQIQIQ")  # magic, seq, entry crc, match, header crc, generation


@dataclass(frozen=True)
class Mark:
    """What the journal held after its last commit (0s: nothing committed yet)."""

    seq: int = 0
    crc: int = 0
    match: int = 0
    header_crc: int = 0
    generation: int = 0

    def describe(self) -> str:
        return (f"entry {self.seq} (crc {self.crc:08x}), match {self.match} "
                f"(header crc {self.header_crc:08x})")


def mark_path(journal: str | Path) -> Path:
    return Path(f"{journal}.mark")


def _pack(mark: Mark) -> bytes:
    body = _RECORD.pack(MAGIC, mark.seq, mark.crc, mark.match, mark.header_crc,
                        mark.generation)
    return (body + struct.pack(">I", zlib.crc32(body))).ljust(SLOT, b"\0")


def _unpack(raw: bytes) -> Mark | None:
    size = _RECORD.size
    if len(raw) < size + 4:
        return None
    body, (crc,) = raw[:size], struct.unpack(">I", raw[size:size + 4])
    if zlib.crc32(body) != crc:
        return None
    magic, seq, entry_crc, match, header_crc, generation = _RECORD.unpack(body)
    if magic != MAGIC:
        return None
    return Mark(seq, entry_crc, match, header_crc, generation)


def read_mark(path: str | Path) -> Mark | None:
    """The newest intact slot of the mark file; None when there is no file. A file
    with no intact slot (created, never written) reads as the empty mark."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        return None
    marks = [m for m in (_unpack(raw[i:i + SLOT]) for i in (0, SLOT)) if m is not None]
    return max(marks, key=lambda m: m.generation) if marks else Mark()


class MarkFile:
    """The open mark file of a writing journal; `write` is durable when it returns."""

    def __init__(self, path: str | Path, current: Mark | None) -> None:
        self.path = Path(path)
        self.mark = current or Mark()
        fresh = not self.path.exists()
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        if fresh or os.fstat(self._fd).st_size < 2 * SLOT:
            os.pwrite(self._fd, b"\0" * (2 * SLOT), 0)
            os.fsync(self._fd)
            _fsync_dir(self.path.parent)

    def write(self, mark: Mark) -> None:
        """Raises OSError when the slot cannot be written; the other slot is intact."""
        mark = Mark(mark.seq, mark.crc, mark.match, mark.header_crc, self.mark.generation + 1)
        os.pwrite(self._fd, _pack(mark), (mark.generation % 2) * SLOT)
        os.fdatasync(self._fd)
        self.mark = mark

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
