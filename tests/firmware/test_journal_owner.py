"""Issue 21's journal: never silently replaced whatever is lost, one daemon per journal.

A started journal whose mark is missing, truncated, random or a directory, another
table's journal and one of another edition are refused with one line; `unotable
journal accept` is the only way on. A second writer is refused naming the PID that
holds the lock; `journal check` and `recover` read without it."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.errors import JournalRefused
from firmware.journal.mark import SLOT, TABLE_ID, mark_path, read_mark
from firmware.journal.store import ACCEPTED, Journal

HEADER = dict(edition="classic", options={}, seats=4, seed=1, config_hash="h")


@pytest.fixture
def path(tmp_path) -> Path:
    return tmp_path / "state" / "journal.db"


def filled(path: Path, n: int = 3, **open_args) -> Path:
    with Journal.open(path, **open_args) as journal:
        journal.start_match(**HEADER)
        for i in range(n):
            journal.append("action", {"n": i})
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refusal(path: Path, **open_args) -> str:
    before = digest(path)
    with pytest.raises(JournalRefused) as err:
        Journal.open(path, **open_args)
    assert digest(path) == before  # nothing was written to it
    line = str(err.value)
    assert "\n" not in line and str(path) in line
    return line


MARK_FAULTS = {
    "missing": (lambda m: m.unlink(), "is missing"),
    "truncated": (lambda m: m.write_bytes(m.read_bytes()[:700]), r"is truncated \(700 bytes"),
    "random": (lambda m: m.write_bytes(os.urandom(2 * SLOT)), "holds no intact record"),
    "directory": (lambda m: (m.unlink(), m.mkdir()), "is a directory, not a regular file"),
}


@pytest.mark.parametrize("fault", sorted(MARK_FAULTS))
def test_a_started_journal_whose_mark_is_lost_or_damaged_is_refused_until_accepted(
        path, capsys, fault):
    filled(path)
    damage, said = MARK_FAULTS[fault]
    damage(mark_path(path))
    line = refusal(path)
    assert "holds 3 entries (the last at " in line and "UTC, match 1)" in line
    assert re.search(f"its mark {re.escape(str(mark_path(path)))} {said}", line), line
    assert line.endswith(f"unotable journal accept {path}")
    if fault == "directory":  # accept cannot write a mark over a directory: one line
        assert main(["journal", "accept", str(path)]) == 2
        assert "is a directory" in capsys.readouterr().err
        mark_path(path).rmdir()
    assert main(["journal", "accept", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"accepted {path} as this table's journal: its "
                                              "mark ")
    with Journal.open(path, readonly=True) as journal:
        last = list(journal.entries())[-1]
    assert last.kind == ACCEPTED and last.seq == 4
    assert read_mark(mark_path(path)).seq == 4  # the new mark reaches the acceptance
    with Journal.open(path) as journal:  # the daemon starts on it again
        assert journal.last_seq == 4


def test_the_wal_and_the_mark_lost_together_are_refused_even_before_the_first_checkpoint(
        path, tmp_path):
    """Everything of the match was still in the WAL: the file alone says the table
    started (it was checkpointed when it was made), so the lost mark is noticed."""
    journal = Journal.open(path)
    journal.start_match(**HEADER)
    journal.append("action", {"n": 1})
    killed = tmp_path / "killed"
    killed.mkdir()
    shutil.copyfile(path, killed / "journal.db")  # no -wal, no mark
    shutil.copyfile(path.parent / TABLE_ID, killed / TABLE_ID)
    journal.close()
    line = refusal(killed / "journal.db")
    assert "was started but its mark" in line and "is missing" in line


def test_a_journal_deleted_with_a_damaged_mark_beside_it_is_not_started_afresh(path):
    filled(path)
    path.unlink()
    mark_path(path).write_bytes(os.urandom(100))
    with pytest.raises(JournalRefused, match="is missing but its mark .* is truncated"):
        Journal.open(path)
    assert not path.exists()


def test_another_tables_journal_is_refused_naming_both_and_can_be_taken_over(tmp_path,
                                                                           capsys):
    theirs = filled(tmp_path / "their-table" / "journal.db", edition="classic")
    ours = filled(tmp_path / "our-table" / "journal.db", edition="classic")
    their_id = (theirs.parent / TABLE_ID).read_text().strip()
    our_id = (ours.parent / TABLE_ID).read_text().strip()
    for suffix in ("", ".mark"):  # copied whole over ours, mark and all
        shutil.copyfile(f"{theirs}{suffix}", f"{ours}{suffix}")
    line = refusal(ours)
    assert f"belongs to table {their_id}, but this state directory is table {our_id}" in line
    main(["journal", "check", str(ours)])
    assert (f"table {their_id} (classic); its state directory is table {our_id}: another "
            "table's journal") in capsys.readouterr().out
    assert line.endswith(f"unotable journal accept {ours}")
    assert main(["journal", "accept", str(ours)]) == 0
    assert f"it was table {their_id}'s journal" in capsys.readouterr().out
    with Journal.open(ours) as journal:
        assert journal.mark.table == our_id


def test_a_journal_of_another_edition_under_this_config_is_refused_naming_both(tmp_path,
                                                                             capsys):
    journal = tmp_path / "j.db"
    assert main(["demo", "--fast", "--json", "--variant", "power", "--journal",
                 str(journal)]) == 0
    capsys.readouterr()
    assert main(["demo", "--fast", "--json", "--variant", "classic", "--journal",
                 str(journal)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert (f"journal {journal} is the journal of a power table, but the config's [table] "
            "edition is classic") in err


# -- one daemon per journal --------------------------------------------------------------


def test_a_second_writer_is_refused_naming_the_pid_and_readers_do_not_lock(path, tmp_path,
                                                                          capsys):
    filled(path)
    with Journal.open(path) as first:  # flock: two opens conflict even in one process
        with pytest.raises(JournalRefused) as err:
            Journal.open(path)
        assert (f"journal {path} is in use by another daemon (PID {os.getpid()} holds its "
                f"lock {path}.lock)") in str(err.value)
        assert main(["journal", "check", str(path)]) == 0
        assert main(["journal", "recover", str(path), "--out", str(tmp_path / "new.db")]) == 0
        assert first.append("action", {"n": 9}).seq == 4  # the first goes on
    with Journal.open(path) as again:  # the lock went with the first
        assert again.last_seq == 4


def test_a_second_demo_process_on_a_held_journal_exits_2_naming_the_pid(path):
    filled(path)
    with Journal.open(path):
        proc = subprocess.run([sys.executable, "-m", "firmware", "demo", "--fast", "--json",
                               "--journal", str(path)], capture_output=True, text=True,
                              timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1
    assert f"is in use by another daemon (PID {os.getpid()} holds its lock" in proc.stderr


# -- the state directory and its files ---------------------------------------------------


@pytest.mark.parametrize("mode", [0o777, 0o1777, 0o770])
def test_a_state_directory_others_can_write_to_is_refused_with_the_reason(path, mode):
    path.parent.mkdir()
    path.parent.chmod(mode)
    with pytest.raises(JournalRefused) as err:
        Journal.open(path)
    who = "others" if mode & 0o002 else "its group"
    assert (f"the state directory {path.parent} can be written by {who} (mode "
            f"{mode:04o})") in str(err.value)
    assert not path.exists()


@pytest.mark.parametrize("name", ["journal.db.mark", "journal.db.lock", TABLE_ID])
def test_a_link_in_place_of_the_tables_own_files_is_refused_and_not_followed(path, tmp_path,
                                                                            name):
    filled(path)
    target = tmp_path / "target"
    target.write_bytes(b"precious")
    (path.parent / name).unlink()
    (path.parent / name).symlink_to(target)
    with pytest.raises(JournalRefused, match="is a symbolic link, not a regular file"):
        Journal.open(path)
    assert target.read_bytes() == b"precious"


def test_a_rescue_never_writes_through_a_link(tmp_path):
    from firmware.sim.testbed import SimTable

    target = tmp_path / "elsewhere.db"
    with SimTable(tmp_path / "t", "classic") as table:
        table.play_until(lambda st: st["step"] >= 5)
        rescued = Path(f"{table.journal_path}.rescued")
        rescued.symlink_to(target)
        table.journal_path.unlink()
        st = table.play_until(lambda st: st["waiting"]["kind"] == "journal", max_steps=200)
        assert f"is saved in {rescued}-2;" in st["waiting"]["message"]  # a file of its own
    assert not target.exists() and rescued.is_symlink()
    with Journal.open(f"{rescued}-2", readonly=True) as copy:
        assert copy.last_seq > 0


def test_the_twins_world_file_and_its_temp_file_refuse_links(tmp_path, capsys):
    journal = tmp_path / "j.db"
    target = tmp_path / "target"
    target.write_text("precious")
    Path(f"{journal}.world.json.tmp").symlink_to(target)
    assert main(["demo", "--fast", "--json", "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "world.json.tmp is a symbolic link" in err
    assert target.read_text() == "precious"


def test_a_version_without_identity_is_adopted_by_its_state_directory(path):
    """A journal and mark from before journals carried their table: stamped on open."""
    filled(path)
    raw = sqlite3.connect(path)
    raw.execute("DELETE FROM meta WHERE key IN ('table', 'edition')")
    raw.commit()
    raw.close()
    with Journal.open(path, edition="classic") as journal:
        assert journal.mark.table == (path.parent / TABLE_ID).read_text().strip()
    with pytest.raises(JournalRefused, match="journal of a classic table"):
        Journal.open(path, edition="power")
