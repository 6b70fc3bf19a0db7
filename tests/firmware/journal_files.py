"""A journal's files as a test sees them: made by a writer that was killed, snapshot
byte for byte, and a small real disk that can be filled."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from firmware.journal.mark import mark_path

# A writer killed in its second round: the first round is checkpointed into the file,
# the second is only in its WAL (a -shm and a lock are left too), as after a power cut.
_KILLED = """
import os, signal, sys
from firmware.journal.store import Journal
path, edition, first, second = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
journal = Journal.open(path, edition=edition)
journal.start_match(edition=edition, options={}, seats=4, seed=1, config_hash="h")
for n in range(first):
    journal.append("action", {"n": n})
assert journal.checkpoint()
for n in range(second):
    journal.append("action", {"n": first + n})
os.kill(os.getpid(), signal.SIGKILL)
"""


def killed_journal(path: Path, *, edition: str = "classic", first: int = 5,
                   second: int = 7) -> Path:
    """A journal whose writer was SIGKILLed with `second` entries only in its WAL."""
    path.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([sys.executable, "-c", _KILLED, str(path), edition, str(first),
                           str(second)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == -9, proc.stderr
    assert Path(f"{path}-wal").stat().st_size > 0
    return path


def names(path: Path) -> list[Path]:
    """The files that are the journal: the file, its WAL, its WAL index and its mark."""
    return [path, Path(f"{path}-wal"), Path(f"{path}-shm"), mark_path(path)]


def snapshot(path: Path) -> dict[str, bytes | str | None]:
    """Each of the journal's files as it is: its bytes, "directory", or None (absent)."""
    out: dict[str, bytes | str | None] = {}
    for name in names(path):
        out[name.name] = ("directory" if name.is_dir() else name.read_bytes()
                          if name.exists() else None)
    return out


@contextlib.contextmanager
def small_disk(where: Path, size: str = "2m") -> Iterator[Path]:
    """A real tmpfs of `size` mounted at `where` (the tests run as root)."""
    where.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs",
                    str(where)], check=True, capture_output=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(directory: Path) -> Path:
    """Fill the disk of `directory` to the last byte; the filler file to remove later."""
    filler = directory / "filler"
    with open(filler, "wb", buffering=0) as f, contextlib.suppress(OSError):
        while True:
            f.write(b"\0" * 4096)
    return filler
