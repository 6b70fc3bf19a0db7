"""bench/journal_faults.py: its counters mean what its docstring says, and a fault run
judges a real refusal."""

from __future__ import annotations

import random

from bench import journal_faults as jf


def test_a_refusal_is_unclear_unless_one_line_naming_the_journal_and_what_to_do(tmp_path):
    journal = tmp_path / "j.db"
    good = f"unotable demo: error: journal {journal} ends at entry 3 but entry 9 was " \
           f"committed: restore it, or unotable journal recover {journal} --out NEW"
    assert jf._unclear_refusal(good, journal, cannot_write=False) == ""
    assert jf._unclear_refusal(good + "\nTraceback", journal, False) == "more than one line"
    assert jf._unclear_refusal(good.replace(str(journal), "x"), journal, False) == \
        "does not name the journal"
    assert jf._unclear_refusal(f"journal {journal} is corrupt", journal, False) == \
        "does not say what to do"
    assert jf._unclear_refusal(f"journal {journal} is corrupt: move it away", journal,
                               cannot_write=True) == "a write failure not called 'cannot write'"


def test_only_going_on_with_fewer_entries_is_a_silent_loss():
    assert jf.Outcome("f", "went on", "", lost=2).silent_loss
    assert not jf.Outcome("f", "refused", "...", lost=2).silent_loss
    assert not jf.Outcome("f", "went on", "", lost=0).silent_loss
    assert jf.missing({1: 10, 2: 20, 3: 30}, {1: 10, 2: 21}) == 2
    assert jf.summary([jf.Outcome("f", "went on", "", lost=1),
                       jf.Outcome("g", "crashed", "", crash=True),
                       jf.Outcome("h", "refused", "", unclear="x")]) == \
        "faults=3 touched=0 silent_loss=1 crash_loops=1 unclear=1"


def test_an_emptied_journal_is_refused_clearly(tmp_path):
    outcome = jf.zero_bytes(tmp_path, random.Random(1))
    assert (outcome.how, outcome.lost, outcome.crash, outcome.unclear) == \
        ("refused", 0, False, "")
    assert "ends at entry 0 but entry" in outcome.message


def test_a_random_mark_is_refused_clearly(tmp_path):
    outcome = jf.mark_random(tmp_path, random.Random(1))
    assert (outcome.how, outcome.lost, outcome.crash, outcome.unclear) == \
        ("refused", 0, False, "")
    assert "holds no intact record" in outcome.message and "journal accept" in outcome.message


def test_a_start_that_wrote_through_a_link_counts_as_a_silent_loss(tmp_path, mocker):
    target = tmp_path / "precious"
    target.write_bytes(b"theirs")

    def overwrites(*_args, **_kw):
        target.write_bytes(b"the mark")
        return mocker.Mock(returncode=0, stderr="", stdout="")

    mocker.patch.object(jf.subprocess, "run", side_effect=overwrites)
    outcome = jf.judge_start("mark-link", tmp_path / "j.db", {}, 1, untouched=target)
    assert outcome.silent_loss and outcome.message == "wrote through a link"


def test_a_refusal_that_changed_the_journals_files_counts_as_touched(tmp_path, mocker):
    journal = tmp_path / "j.db"
    journal.write_bytes(b"journal")
    wal = tmp_path / "j.db-wal"
    wal.write_bytes(b"the round under way")

    def checkpoints(*_args, **_kw):  # as a read-write close of a refused journal did
        wal.unlink()
        return mocker.Mock(returncode=2, stdout="",
                           stderr=f"journal {journal} belongs to table x: move it")

    mocker.patch.object(jf.subprocess, "run", side_effect=checkpoints)
    outcome = jf.judge_start("another-table", journal, {}, 1)
    assert outcome.how == "refused" and outcome.touched
    assert jf.summary([outcome]).startswith("faults=1 touched=1 ")
