"""Crash safety of the journal: SIGKILL at random moments, and a WAL cut at random bytes."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from firmware.journal.store import Journal

HEADER = dict(edition="classic", options={}, seats=3, seed=1, config_hash="h")

# Appends forever: single entries, atomic pairs and intent/result pairs. Every payload
# carries its own sequence number, so a lost or doubled entry cannot go unnoticed.
# It prints a seq only after append() returned, i.e. after the durable commit.
WRITER = textwrap.dedent(
    """
    import sys
    from firmware.journal.store import Journal

    journal = Journal.open(sys.argv[1])
    if journal.match is None:
        journal.start_match(edition="classic", options={}, seats=3, seed=1, config_hash="h")
    print("open", flush=True)
    while True:
        n = journal.last_seq + 1
        if n % 5 == 0:
            journal.append_all([("pair", {"n": n, "first": n}), ("pair", {"n": n + 1, "first": n})])
        elif n % 7 == 0:
            intent = journal.intent({"n": n})
            journal.result(intent, {"n": n + 1})
        else:
            journal.append("play", {"n": n})
        print(journal.last_seq, flush=True)
    """
)


def check_prefix(path: Path, *, readonly: bool = False) -> list:
    """The journal holds 1..N, each entry exactly once, no half pair; returns the entries."""
    with Journal.open(path, readonly=readonly) as journal:
        entries = list(journal.entries())  # raises on a gap or a damaged entry
        assert journal.last_seq == len(entries)
    for entry in entries:
        assert entry.payload["n"] == entry.seq, entry
    pairs = [e for e in entries if e.kind == "pair"]
    firsts = [e.payload["first"] for e in pairs]
    assert all(firsts.count(f) == 2 for f in firsts), "a pair was half written"
    return entries


def test_sigkill_at_random_moments_keeps_exactly_the_committed_prefix(tmp_path):
    rng = random.Random(20261129)
    path = tmp_path / "journal.db"
    for _kill in range(6):
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
        )
        assert child.stdout.readline() == "open\n"
        committed = 0
        for _ in range(rng.randrange(1, 60)):
            committed = int(child.stdout.readline())
        child.send_signal(signal.SIGKILL)  # the child keeps writing until the signal lands
        child.wait(timeout=20)
        child.stdout.close()
        entries = check_prefix(path)
        assert len(entries) >= committed, "a committed entry was lost"
    assert len(entries) > 6


def test_a_wal_cut_at_random_offsets_recovers_to_the_last_committed_transaction(tmp_path):
    live = tmp_path / "live" / "journal.db"
    wal = Path(f"{live}-wal")
    journal = Journal.open(live)
    journal.start_match(**HEADER)
    # after commit k: the WAL's length, and how many entries the journal holds
    commits = [(wal.stat().st_size, 0)]
    for k in range(1, 40):
        n = journal.last_seq + 1
        if k % 5 == 0:
            journal.append_all([("pair", {"n": n, "first": n}), ("pair", {"n": n + 1, "first": n})])
        else:
            journal.append("play", {"n": n})
        commits.append((wal.stat().st_size, journal.last_seq))
    # Copy while the writer is open, as a power cut would find it: nothing checkpointed.
    image = tmp_path / "image"
    image.mkdir()
    shutil.copy(live, image / "journal.db")
    wal_bytes = wal.read_bytes()
    journal.close()

    rng = random.Random(7)
    ends = [size for size, _ in commits]
    offsets = {0, 31, 32, ends[0] - 1, len(wal_bytes)}
    offsets |= {end + d for end in rng.sample(ends, 10) for d in (-1, 0, 1)}
    offsets |= {rng.randrange(0, len(wal_bytes) + 1) for _ in range(20)}
    for offset in sorted(offsets):
        cut = tmp_path / f"cut-{offset}"
        cut.mkdir()
        shutil.copy(image / "journal.db", cut / "journal.db")
        (cut / "journal.db-wal").write_bytes(wal_bytes[:offset])
        whole = [count for size, count in commits if size <= offset]
        # the copy has no mark (and is in another state directory): SQLite's recovery
        # read as `replay` reads, without the daemon's checks of the mark and the table
        entries = check_prefix(cut / "journal.db", readonly=True)
        with Journal.open(cut / "journal.db", readonly=True) as recovered:
            has_match = recovered.match is not None
        if whole:
            assert (has_match, len(entries)) == (True, whole[-1]), offset
        else:
            assert (has_match, len(entries)) == (False, 0), offset
