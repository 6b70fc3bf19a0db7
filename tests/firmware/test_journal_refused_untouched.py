"""A refused journal is left exactly as it was: its file, its WAL, its WAL index (-shm)
and its mark keep every byte, whatever the refusal, also on a full disk; and putting the
right journal back after a refusal goes on at its own last entry.

Each journal here was left by a writer killed in its second round: the round is only in
the WAL, which a read-write open of a refused journal would have checkpointed away."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from firmware.errors import JournalError, JournalUnwritable
from firmware.journal.mark import SLOT, TABLE_ID, mark_path
from firmware.journal.store import Journal
from tests.firmware.journal_files import fill, killed_journal, names, small_disk, snapshot

ENTRIES = 12  # the killed writer's: 5 checkpointed, 7 only in the WAL


def refused(path: Path, words: str, **open_args) -> None:
    """Opening `path` is refused (refused or corrupt: `unotable run` exits 2 for both)
    with one line holding `words`; no file changed."""
    before = snapshot(path)
    with pytest.raises(JournalError) as err:
        Journal.open(path, **open_args)
    line = str(err.value)
    assert "\n" not in line and words in line, line
    assert snapshot(path) == before


def goes_on(path: Path, **open_args) -> None:
    with Journal.open(path, **open_args) as journal:
        assert journal.last_seq == ENTRIES  # the round in the WAL is there


def moved_aside(path: Path, to: Path) -> None:
    """The journal and its mark moved away, as a person would; its WAL stays."""
    to.mkdir()
    for name in (path, mark_path(path)):
        shutil.move(name, to / name.name)


def put_back(path: Path, kept: Path) -> None:
    for name in (path, mark_path(path)):
        os.replace(kept / name.name, name)


@pytest.fixture
def ours(tmp_path) -> Path:
    return killed_journal(tmp_path / "ours" / "journal.db")


def test_another_tables_journal_over_ours_leaves_both_whole_and_ours_goes_on(ours, tmp_path):
    theirs = killed_journal(tmp_path / "theirs" / "journal.db")
    moved_aside(ours, tmp_path / "kept")
    for name in (theirs, mark_path(theirs)):  # theirs in place of ours, beside our WAL
        shutil.copyfile(name, ours.parent / name.name)
    their_files = snapshot(theirs)
    refused(ours, str(ours))
    put_back(ours, tmp_path / "kept")
    goes_on(ours)
    assert snapshot(theirs) == their_files


def test_another_tables_journal_with_its_wal_is_refused_naming_both(ours, tmp_path):
    theirs = killed_journal(tmp_path / "theirs" / "journal.db")
    moved_aside(ours, tmp_path / "kept")
    os.replace(f"{ours}-wal", tmp_path / "kept" / "journal.db-wal")
    for name in names(theirs):
        shutil.copyfile(name, ours.parent / name.name)
    their_id = (theirs.parent / TABLE_ID).read_text().strip()
    refused(ours, f"belongs to table {their_id}, but this state directory is table")
    put_back(ours, tmp_path / "kept")
    os.replace(tmp_path / "kept" / "journal.db-wal", f"{ours}-wal")
    goes_on(ours)


def test_another_edition_is_refused_and_goes_on_under_its_own(ours):
    refused(ours, "is the journal of a classic table, but the config's [table] edition is "
                  "power", edition="power")
    goes_on(ours, edition="classic")


MARKS = {
    "missing": (lambda m: m.unlink(), "is missing"),
    "truncated": (lambda m: m.write_bytes(m.read_bytes()[:700]), "is truncated"),
    "random": (lambda m: m.write_bytes(os.urandom(2 * SLOT)), "holds no intact record"),
    "directory": (lambda m: (m.unlink(), m.mkdir()), "is a directory"),
}


@pytest.mark.parametrize("fault", sorted(MARKS))
def test_a_lost_or_damaged_mark_is_refused_and_the_right_one_goes_on(ours, tmp_path, fault):
    kept = tmp_path / "journal.db.mark"
    shutil.copyfile(mark_path(ours), kept)
    damage, words = MARKS[fault]
    damage(mark_path(ours))
    refused(ours, f"its mark {mark_path(ours)} {words}")
    if mark_path(ours).is_dir():
        mark_path(ours).rmdir()
    shutil.copyfile(kept, mark_path(ours))
    goes_on(ours)


def test_the_mark_of_an_older_journal_is_refused(ours, tmp_path):
    older = killed_journal(tmp_path / "older" / "journal.db", first=3, second=2)
    shutil.copyfile(ours.parent / TABLE_ID, older.parent / TABLE_ID)
    kept = tmp_path / "journal.db.mark"
    shutil.copyfile(mark_path(ours), kept)
    shutil.copyfile(mark_path(older), mark_path(ours))
    refused(ours, "is not the journal its mark")
    shutil.copyfile(kept, mark_path(ours))
    goes_on(ours)


def test_a_lost_wal_is_refused_and_the_wal_put_back_goes_on(ours, tmp_path):
    wal = Path(f"{ours}-wal")
    os.replace(wal, tmp_path / "wal")
    refused(ours, f"ends at entry 5 but entry {ENTRIES} was committed")
    os.replace(tmp_path / "wal", wal)
    goes_on(ours)


def test_on_a_full_disk_a_refused_journal_is_untouched_and_the_right_one_opens_paused(
        tmp_path, monkeypatch):
    with small_disk(tmp_path / "disk") as disk:
        journal = killed_journal(disk / "state" / "journal.db")
        # the temporary directory is on the same full disk, as on the Pi
        monkeypatch.setattr(tempfile, "tempdir", str(disk / "tmp"))
        (disk / "tmp").mkdir()
        filler = fill(disk)
        kept = disk / "kept.mark"
        os.replace(mark_path(journal), kept)  # a rename needs no room
        refused(journal, "is missing")
        os.replace(kept, mark_path(journal))
        with Journal.open(journal) as opened:
            assert opened.last_seq == ENTRIES
            assert opened.fault is not None and opened.fault.cause == "disk-full"  # paused
            with pytest.raises(JournalUnwritable) as err:
                opened.append("action", {"n": ENTRIES})
            assert err.value.cause == "disk-full"
            filler.unlink()
            assert opened.append("action", {"n": ENTRIES}).seq == ENTRIES + 1


def test_our_table_put_back_after_another_tables_refusal_resumes_at_its_own_step(tmp_path):
    """The issue's case on the whole table: ours stopped mid-round as by a power cut (a
    copy of its state directory taken on the loop, between two commits)."""
    from firmware.sim.testbed import SimTable

    ours = tmp_path / "ours"
    ours.mkdir(mode=0o700)
    with SimTable(tmp_path / "live", "classic") as table:
        table.play_until(lambda st: st["stats"]["rounds"] >= 1 and st["step"] >= 60)
        live = table.journal_path.parent

        def power_cut() -> tuple[int, int]:
            for name in live.iterdir():
                if name.is_file() and not name.name.endswith(".lock"):
                    shutil.copyfile(name, ours / name.name)
            return table.controller.public_state()["step"], table.controller.journal.last_seq

        step, seq = table.call(power_cut)
    assert Path(ours / "journal.db-wal").stat().st_size > 0  # the round under way
    with SimTable(tmp_path / "theirs", "classic") as theirs:
        theirs.play_until(lambda st: st["step"] >= 10)
    journal = ours / "journal.db"
    moved_aside(journal, tmp_path / "kept")
    for name in (journal, mark_path(journal)):
        shutil.copyfile(tmp_path / "theirs" / name.name, name)
    refused(journal, f"{journal}")
    put_back(journal, tmp_path / "kept")
    with SimTable(ours, "classic") as again:
        assert again.state()["step"] == step and again.journal_seq == seq
