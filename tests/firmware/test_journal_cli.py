"""`unotable journal check FILE` and `unotable journal recover FILE --out NEW`."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.journal.mark import mark_path
from firmware.journal.store import Journal
from tests.firmware.journal_damage import damage

HEADER = dict(edition="classic", options={}, seats=3, seed=1, config_hash="h")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def journal(tmp_path) -> Path:
    """Three matches: 4 entries, 5 entries (an ejection in the middle), 3 entries."""
    path = tmp_path / "journal.db"
    with Journal.open(path) as j:
        j.start_match(**HEADER)
        for n in range(4):
            j.append("action", {"n": n})
        j.start_match(**{**HEADER, "seats": 4})
        j.append("action", {"n": 10})
        intent = j.intent({"job": "deal", "seat": 1, "want": 2})
        j.result(intent, {"counted": 2})
        j.append("action", {"n": 11})
        j.append("action", {"n": 12})
        j.start_match(**{**HEADER, "edition": "power"})
        for n in range(3):
            j.append("action", {"n": 20 + n})
    return path


def test_check_reports_integrity_mark_crcs_and_each_match(journal, capsys):
    assert main(["journal", "check", str(journal)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"journal {journal}: integrity ok, schema 2, entries up to 12"
    assert out[1].startswith(f"mark {mark_path(journal)}: entry 12 ")
    assert out[1].endswith("the journal reaches it")
    assert out[2] == "crc: 3 match header(s) ok, 12 entries ok, 0 problem(s)"
    assert out[3].startswith("match 1: classic, 3 seats, seed 1; entries 1-4, 4 readable; "
                             'last action entry 4: {"n": 3}')
    assert out[4].startswith("match 2: classic, 4 seats") and 'entry 9: {"n": 12}' in out[4]
    assert out[5].startswith("match 3: power")


def test_check_names_every_damage_and_exits_1(journal, capsys):
    damage(journal, "UPDATE entries SET payload = '{\"n\": 99}' WHERE seq = 7")
    damage(journal, "UPDATE matches SET seats = 5 WHERE id = 3")
    before = digest(journal)
    assert main(["journal", "check", str(journal)]) == 1
    out = capsys.readouterr().out
    assert "  entry 7 (result) fails its checksum" in out
    assert "  the header of match 3 fails its checksum" in out
    assert "match 2: classic, 4 seats, seed 1; entries 5-9, 2 readable (cut at entry 7" in out
    assert digest(journal) == before


def test_check_reports_a_journal_behind_its_mark(journal, tmp_path, capsys):
    damage(journal, "DELETE FROM entries WHERE seq > 6")
    assert main(["journal", "check", str(journal)]) == 1
    assert "the journal ends at entry 6 but entry 12 was committed" in capsys.readouterr().out


def test_recover_salvages_readable_matches_and_never_touches_the_original(journal, tmp_path,
                                                                         capsys):
    damage(journal, "UPDATE entries SET payload = '{\"n\": 99}' WHERE seq = 7")
    damage(journal, "UPDATE matches SET seats = 5 WHERE id = 1")
    files = {p: digest(p) for p in (journal, mark_path(journal))}
    new = tmp_path / "new.db"
    assert main(["journal", "recover", str(journal), "--out", str(new)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert {p: digest(p) for p in files} == files
    assert out == [
        f"recovered {journal} into {new} (the original is unchanged)",
        "match 1: lost whole (the header of match 1 fails its checksum; entries 1-4)",
        "match 2: kept 2 entries as 1-2; lost entries 7-9 (entry 7 (result) fails its checksum)",
        "match 3: kept 3 entries as 3-5",
    ]
    with Journal.open(new) as salvaged:  # a journal the daemon starts on, with its mark
        assert [m.id for m in salvaged.matches()] == [2, 3]
        assert [(e.seq, e.payload) for e in salvaged.entries(match_id=3)] == [
            (3, {"n": 20}), (4, {"n": 21}), (5, {"n": 22})]
        assert salvaged.match.edition == "power" and salvaged.mark.seq == 5
        assert salvaged.open_intents()[0].payload == {"job": "deal", "seat": 1, "want": 2}


def test_recover_of_a_lost_wal_keeps_the_checkpointed_part_and_names_the_rest(tmp_path, capsys):
    path = tmp_path / "journal.db"
    j = Journal.open(path)
    j.start_match(**HEADER)
    for n in range(5):
        j.append("action", {"n": n})
    j.checkpoint()
    j.append("action", {"n": 5})
    killed = tmp_path / "killed"
    killed.mkdir()
    for suffix in ("", ".mark"):  # the -wal is lost
        shutil.copyfile(f"{path}{suffix}", killed / f"journal.db{suffix}")
    j.close()
    assert main(["journal", "recover", str(killed / "journal.db"), "--out",
                 str(tmp_path / "new.db")]) == 0
    out = capsys.readouterr().out
    assert "match 1: kept 5 entries as 1-5" in out
    assert "lost entry 6: committed (the mark says so) but not in the file" in out


def test_recover_refuses_an_existing_output_and_a_missing_journal(journal, tmp_path, capsys):
    assert main(["journal", "recover", str(journal), "--out", str(journal)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["journal", "check", str(tmp_path / "none.db")]) == 2
    assert "no journal at" in capsys.readouterr().err


def test_recover_of_a_file_that_is_no_journal_says_nothing_could_be_read(tmp_path, capsys):
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(bytes(range(256)) * 40)
    assert main(["journal", "check", str(garbage)]) == 1
    assert "integrity fails: file is not a database" in capsys.readouterr().out
    assert main(["journal", "recover", str(garbage), "--out", str(tmp_path / "new.db")]) == 1
    assert "no match could be read: the new journal is empty" in capsys.readouterr().out
