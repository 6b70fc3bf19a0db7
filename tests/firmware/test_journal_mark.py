"""The journal is never silently replaced: its high-water mark, header CRCs, and the
one-line refusal of `unotable run` / `unotable demo --journal` (exit status 2)."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.config import DEFAULT_PATH
from firmware.errors import JournalCorrupt, JournalRefused
from firmware.journal.mark import SLOT, TABLE_ID, MarkFile, mark_path, read_mark
from firmware.journal.store import Journal
from tests.firmware.journal_damage import damage

HEADER = dict(edition="classic", options={}, seats=4, seed=1, config_hash="h")


@pytest.fixture
def path(tmp_path):
    return tmp_path / "state" / "journal.db"


def fill(path: Path, n: int, *, checkpoint_at: int | None = None) -> Journal:
    """An open journal holding `n` entries (the WAL still holds those after the
    checkpoint, as while the daemon runs)."""
    journal = Journal.open(path)
    journal.start_match(**HEADER)
    for i in range(1, n + 1):
        journal.append("action", {"n": i})
        if i == checkpoint_at:
            assert journal.checkpoint()
    return journal


def killed_copy(path: Path, to: Path, *, wal: bool) -> Path:
    """The files as a SIGKILL leaves them (the WAL kept or lost), beside their mark, in
    a copy of their state directory (the table's identity with them)."""
    to.mkdir()
    names = ["", ".mark"] + (["-wal"] if wal else [])
    for suffix in names:
        shutil.copyfile(f"{path}{suffix}", to / f"journal.db{suffix}")
    shutil.copyfile(path.parent / TABLE_ID, to / TABLE_ID)
    return to / "journal.db"


def test_the_mark_follows_every_commit(path):
    with fill(path, 3) as journal:
        mark = read_mark(mark_path(path))
        assert (mark.seq, mark.match) == (3, journal.match.id)
        assert journal.mark == mark


def test_a_lost_wal_is_refused_naming_what_is_missing(path, tmp_path):
    journal = fill(path, 9, checkpoint_at=5)
    copy = killed_copy(path, tmp_path / "killed", wal=False)
    kept = killed_copy(path, tmp_path / "kept", wal=True)
    journal.close()
    with pytest.raises(JournalRefused) as err:
        Journal.open(copy)
    assert f"journal {copy} ends at entry 5 but entry 9 was committed" in str(err.value)
    assert "unotable journal recover" in str(err.value)
    with Journal.open(kept) as whole:
        assert whole.last_seq == 9  # the same files with their WAL open as they are


def test_each_mark_is_written_only_after_its_commit(path, mocker):
    """The order the high-water mark relies on: commit, then mark. A mark ahead of the
    commit would make a crash between the two look like a lost entry."""
    write_mark = MarkFile.write

    def committed_then_write(mark_file, mark):
        other = sqlite3.connect(path)  # another reader sees committed entries only
        try:
            last = other.execute("SELECT coalesce(max(seq), 0) FROM entries").fetchone()[0]
        finally:
            other.close()
        committed.append((mark.seq, last))
        write_mark(mark_file, mark)

    committed: list[tuple[int, int]] = []
    spy = mocker.patch.object(MarkFile, "write", autospec=True, side_effect=committed_then_write)
    fill(path, 3).close()
    assert [seq for seq, _ in committed] == [0, 0, 1, 2, 3]  # open, match header, 3 entries
    assert all(seq <= last for seq, last in committed), committed
    assert spy.call_args.args[1].seq == 3


def test_an_emptied_journal_is_refused_and_left_as_it_is(path):
    fill(path, 4).close()
    path.write_bytes(b"")
    with pytest.raises(JournalRefused, match="ends at entry 0 but entry 4 was committed"):
        Journal.open(path)
    assert path.read_bytes() == b""


def test_a_missing_journal_whose_mark_exists_is_refused_and_not_created(path):
    fill(path, 4).close()
    path.unlink()
    with pytest.raises(JournalRefused, match="is missing but entry 4 of match 1 was committed"):
        Journal.open(path)
    assert not path.exists()


def test_a_journal_replaced_by_another_one_is_refused(path, tmp_path):
    fill(path, 4).close()
    other = path.parent / "other.db"  # the same table's (another table's: test_journal_owner)
    with Journal.open(other) as journal:
        journal.start_match(**{**HEADER, "seed": 2})
        for i in range(6):
            journal.append("action", {"other": i})
    shutil.copyfile(other, path)
    with pytest.raises(JournalRefused, match="is not the journal its mark"):
        Journal.open(path)


def test_a_tampered_header_fails_its_crc_instead_of_crashing_every_start(path):
    fill(path, 2).close()
    damage(path, "UPDATE matches SET seats = 5")
    with pytest.raises(JournalCorrupt, match="header of match 1 fails its checksum"):
        Journal.open(path)
    with pytest.raises(JournalCorrupt):
        Journal.open(path, readonly=True).matches()


def test_a_kill_between_commit_and_mark_write_is_not_a_loss(path):
    fill(path, 5).close()
    raw = sqlite3.connect(path)
    crc4 = raw.execute("SELECT crc FROM entries WHERE seq = 4").fetchone()[0]
    raw.close()
    stale = MarkFile(mark_path(path), read_mark(mark_path(path)))
    mark = stale.mark
    stale.write(type(mark)(4, crc4, mark.match, mark.header_crc))  # one commit behind
    stale.close()
    with Journal.open(path) as journal:
        assert journal.last_seq == 5 and journal.mark.seq == 5


def test_a_torn_mark_write_falls_back_to_the_other_slot(path):
    fill(path, 5).close()
    newest = read_mark(mark_path(path))
    with open(mark_path(path), "r+b") as f:
        f.seek((newest.generation % 2) * SLOT + 10)
        f.write(b"\xff\xff")
    older = read_mark(mark_path(path))
    assert older.seq == 4
    with Journal.open(path) as journal:
        assert journal.last_seq == 5


def test_a_journal_without_a_mark_is_refused_until_it_is_accepted(path):
    """Changed by issue 21: a journal with entries whose mark is lost was given a new
    mark silently; now only the owner's acceptance gives it one."""
    fill(path, 3).close()
    mark_path(path).unlink()
    with pytest.raises(JournalRefused, match=r"holds 3 entries .* but its mark .* is "
                                             r"missing: .*unotable journal accept"):
        Journal.open(path)
    assert not mark_path(path).exists()  # nothing was written
    with Journal.open(path, accepted=[]):
        pass
    assert read_mark(mark_path(path)).seq == 4  # the acceptance is entry 4


def test_a_version_1_journal_is_upgraded_with_header_crcs(path):
    path.parent.mkdir(parents=True)
    raw = sqlite3.connect(path)
    raw.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE matches (id INTEGER PRIMARY KEY, edition TEXT NOT NULL,
            options TEXT NOT NULL, seats INTEGER NOT NULL, seed INTEGER,
            config_hash TEXT NOT NULL, started_at REAL NOT NULL);
        CREATE TABLE entries (seq INTEGER PRIMARY KEY, match_id INTEGER NOT NULL,
            kind TEXT NOT NULL, ref INTEGER, payload TEXT NOT NULL, at REAL NOT NULL,
            crc INTEGER NOT NULL);
        INSERT INTO meta VALUES ('schema_version', '1');
        INSERT INTO matches VALUES (1, 'classic', '{}', 3, 7, 'h', 1000.0);
    """)
    raw.commit()
    raw.close()
    with Journal.open(path) as journal:
        journal.append("action", {"n": 1})
    damage(path, "UPDATE matches SET seats = 4")
    with pytest.raises(JournalCorrupt, match="fails its checksum"):
        Journal.open(path)


def test_a_read_only_journal_is_cannot_write_never_corrupt(path, mocker):
    fill(path, 3).close()
    # Root writes through any mode bits: answer as the kernel does for the daemon's user.
    mocker.patch.object(os, "access", side_effect=lambda p, mode: Path(p) != path)
    with pytest.raises(JournalRefused) as err:
        Journal.open(path)
    assert "cannot write the journal" in str(err.value) and "corrupt" not in str(err.value)


def test_an_unwritable_state_directory_is_cannot_write(path, mocker):
    path.parent.mkdir(parents=True)
    mocker.patch.object(os, "access", side_effect=lambda p, mode: Path(p) != path.parent)
    with pytest.raises(JournalRefused, match="cannot write the journal .*read-only"):
        Journal.open(path)
    assert not path.exists()


def test_a_sqlite_read_only_error_at_open_is_cannot_write(path, mocker):
    """A journal SQLite can only open read-only (a read-only mount): a new journal
    cannot be created. The error comes from SQLite itself, not from a mock."""
    real = sqlite3.connect

    def read_only(target, **kw):
        Path(target).touch()
        return real(f"{Path(target).resolve().as_uri()}?mode=ro", uri=True, **kw)

    path.parent.mkdir(parents=True)
    mocker.patch.object(sqlite3, "connect", side_effect=read_only)
    with pytest.raises(JournalRefused) as err:
        Journal.open(path)
    assert "cannot write the journal" in str(err.value) and "corrupt" not in str(err.value)


# -- the refusal on the command line --------------------------------------------------


def demo(journal: Path, rounds: int = 1) -> list[str]:
    return ["demo", "--fast", "--json", "--rounds", str(rounds), "--journal", str(journal)]


def test_demo_refuses_a_journal_behind_its_mark_with_status_2_and_one_line(tmp_path, capsys):
    journal = tmp_path / "j.db"
    assert main(demo(journal)) == 0
    before = read_mark(mark_path(journal))
    capsys.readouterr()
    journal.write_bytes(b"")
    assert main(demo(journal, 2)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"unotable demo: error: journal {journal} ends at entry 0 but entry "
                          f"{before.seq} was committed")
    assert read_mark(mark_path(journal)) == before  # nothing changed


def test_a_damaged_entry_of_the_match_to_replay_is_refused_at_open(tmp_path, capsys):
    journal = tmp_path / "j.db"
    assert main(demo(journal)) == 0
    damage(journal, "UPDATE entries SET payload = replace(payload, '\"seat\":1', "
                    "'\"seat\":2') WHERE seq = (SELECT max(seq) FROM entries WHERE kind = "
                    "'action' AND payload LIKE '%\"seat\":1%')")
    capsys.readouterr()
    assert main(demo(journal, 2)) == 2  # not a traceback at every start
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fails its checksum" in err and str(journal) in err


def test_run_refuses_a_tampered_header_with_status_2_and_one_line(tmp_path, capsys):
    journal = tmp_path / "j.db"
    assert main(demo(journal)) == 0
    damage(journal, "UPDATE matches SET seats = 5")
    config = tmp_path / "config.toml"
    config.write_text(DEFAULT_PATH.read_text().replace("port = 8080", "port = 48213")
                      .replace('path = "journal.db"', f"path = '{journal}'"))
    capsys.readouterr()
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"unotable run: error: journal {journal} is corrupt: the header of "
                          "match 1 fails its checksum")
    assert f"unotable journal recover {journal} --out NEW" in err


def test_systemd_does_not_restart_into_a_refusal():
    unit = Path(__file__).resolve().parents[2] / "systemd" / "unotable.service"
    settings = [line.strip() for line in unit.read_text().splitlines()]
    assert "Restart=on-failure" in settings and "RestartPreventExitStatus=2" in settings


def test_every_mark_write_is_synced_before_the_commit_returns(path, mocker):
    """A mark only in the page cache is lost by a power cut with the WAL it vouches
    for: each slot written (pwrite) is fdatasync'ed on the mark's own descriptor before
    the commit returns, the next commit relying on it."""
    journal = Journal.open(path)
    fd = journal._mark._fd
    on_mark: list[str] = []
    real_pwrite, real_sync = os.pwrite, os.fdatasync

    def pwrite(f, data, offset):
        if f == fd:
            on_mark.append("pwrite")
        return real_pwrite(f, data, offset)

    def fdatasync(f):
        if f == fd:
            on_mark.append("fdatasync")
        return real_sync(f)

    mocker.patch.object(os, "pwrite", side_effect=pwrite)
    mocker.patch.object(os, "fdatasync", side_effect=fdatasync)
    journal.start_match(**HEADER)
    for i in range(3):
        journal.append("action", {"n": i})
        assert on_mark[-2:] == ["pwrite", "fdatasync"], on_mark  # synced before it returned
    journal.close()
    assert on_mark == ["pwrite", "fdatasync"] * 4  # the header and three entries
