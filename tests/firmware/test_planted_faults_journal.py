"""The journal's checks at start, each against a fault once planted in it and passed by
every other test: a journal one entry behind its mark, a non-hex table identity, the
mark's table, the last entry's CRC, a missing journal whose mark says a match began."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from firmware.errors import JournalRefused
from firmware.journal.mark import TABLE_ID, mark_path, read_mark
from firmware.journal.store import Journal
from tests.firmware.journal_damage import damage

HEADER = dict(edition="classic", options={}, seats=4, seed=1, config_hash="h")


@pytest.fixture
def path(tmp_path):
    return tmp_path / "state" / "journal.db"


def fill(path: Path, n: int) -> None:
    with Journal.open(path) as journal:
        journal.start_match(**HEADER)
        for i in range(1, n + 1):
            journal.append("action", {"n": i})


def append(path: Path, payload: dict) -> None:
    with Journal.open(path) as journal:
        journal.append("action", payload)


def copy_state(path: Path, to: Path) -> Path:
    """The journal's state directory as it is now, elsewhere (identity, mark, WAL)."""
    shutil.copytree(path.parent, to, ignore=shutil.ignore_patterns("*.lock"))
    return to / path.name


def test_a_journal_one_entry_behind_its_mark_is_refused(path, tmp_path):
    fill(path, 4)
    older = copy_state(path, tmp_path / "older")
    append(path, {"n": 5})
    shutil.copyfile(mark_path(path), mark_path(older))  # the mark of entry 5
    with pytest.raises(JournalRefused, match="ends at entry 4 but entry 5 was committed"):
        Journal.open(older)


def test_a_table_identity_that_is_not_hex_is_refused(path):
    path.parent.mkdir(parents=True)
    (path.parent / TABLE_ID).write_text("z" * 32 + "\n")
    with pytest.raises(JournalRefused, match="identity .* is damaged"):
        Journal.open(path)
    assert not path.exists()


def test_an_unstamped_journal_whose_mark_names_another_table_is_refused(path, tmp_path):
    fill(path, 3)
    table = read_mark(mark_path(path)).table
    damage(path, "DELETE FROM meta WHERE key IN ('table', 'edition')")  # as before stamps
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / TABLE_ID).write_text("ab" * 16 + "\n")
    for suffix in ("", "-wal", ".mark"):
        if Path(f"{path}{suffix}").exists():
            shutil.copyfile(f"{path}{suffix}", elsewhere / f"{path.name}{suffix}")
    with pytest.raises(JournalRefused, match=f"belongs to table {table}, but this state "
                                             f"directory is table {'ab' * 16}"):
        Journal.open(elsewhere / path.name)


def test_a_last_entry_unlike_the_marks_is_refused(path, tmp_path):
    fill(path, 3)
    twin = copy_state(path, tmp_path / "twin")
    append(path, {"n": "kept"})
    append(twin, {"n": "other"})  # the same entry 4 of the same match, another payload
    shutil.copyfile(mark_path(path), mark_path(twin))
    with pytest.raises(JournalRefused, match="is not the journal its mark"):
        Journal.open(twin)


def test_a_missing_journal_whose_mark_says_a_match_began_is_not_made_afresh(path):
    with Journal.open(path) as journal:
        journal.start_match(**HEADER)  # a match, no entry yet
    assert read_mark(mark_path(path)).seq == 0
    path.unlink()
    Path(f"{path}-wal").unlink(missing_ok=True)
    with pytest.raises(JournalRefused, match="is missing but entry 0 of match 1"):
        Journal.open(path)
    assert not path.exists()
