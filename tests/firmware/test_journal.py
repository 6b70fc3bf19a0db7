"""The journal: durable, ordered, intent/result pairs, damage reported clearly."""

from __future__ import annotations

import json
import sqlite3

import pytest

from firmware.cli import main
from firmware.errors import JournalCorrupt, JournalError
from firmware.journal.store import Journal
from hal.sim.clock import VirtualClock

HEADER = dict(edition="power", options={"stacking": True}, seats=4, seed=7, config_hash="abc123")


class Ticking(VirtualClock):
    """Virtual time that moves one second each time the journal stamps an entry."""

    def wall(self):
        self.advance(1.0)
        return super().wall()


def ticking():
    return Ticking(999.0)


@pytest.fixture
def path(tmp_path):
    return tmp_path / "state" / "journal.db"


def test_entries_come_back_in_order_after_reopening(path):
    with Journal.open(path, clock=ticking()) as journal:
        match = journal.start_match(**HEADER)
        journal.append("deal", {"seat": 0, "cards": ["R5", "G2"]})
        journal.append_all([("play", {"seat": 0, "card": "R5"}), ("chance", {"ejected": 2})])
    with Journal.open(path) as journal:
        assert journal.match == match
        assert match.edition == "power" and match.options == {"stacking": True}
        got = [(e.seq, e.kind, e.payload, e.at) for e in journal.entries()]
        assert journal.last_seq == 3
    assert got == [
        (1, "deal", {"seat": 0, "cards": ["R5", "G2"]}, 1001.0),
        (2, "play", {"seat": 0, "card": "R5"}, 1002.0),
        (3, "chance", {"ejected": 2}, 1002.0),
    ]


def test_file_is_wal_with_durable_commits(path):
    with Journal.open(path) as journal:
        assert journal._conn.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    probe = sqlite3.connect(path)
    assert probe.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    probe.close()


def test_entries_of_later_matches_follow_their_header(path):
    with Journal.open(path) as journal:
        first = journal.start_match(**HEADER)
        journal.append("play", {"n": 1})
        second = journal.start_match(**{**HEADER, "edition": "classic"})
        journal.append("play", {"n": 2})
        assert [m.id for m in journal.matches()] == [first.id, second.id]
        assert [e.payload["n"] for e in journal.entries(match_id=second.id)] == [2]
        assert [e.match_id for e in journal.entries()] == [first.id, second.id]


def test_an_ejection_cut_off_by_a_crash_is_visible_after_restart(path):
    with Journal.open(path) as journal:
        journal.start_match(**HEADER)
        done = journal.intent({"eject": "launcher", "seat": 1, "presses": 1})
        journal.result(done, {"cards_out": 3})
        journal.intent({"eject": "launcher", "seat": 2, "presses": 1})
        # the process dies here: the motor started, its result was never written
    with Journal.open(path) as journal:
        cut = journal.open_intents()
        assert [(e.seq, e.payload["seat"]) for e in cut] == [(3, 2)]
        result = journal.result(cut[0], {"cards_out": 2, "counted": True})
        assert result.ref == 3
        assert journal.open_intents() == []


def test_result_must_answer_one_open_intent(path):
    with Journal.open(path) as journal:
        journal.start_match(**HEADER)
        play = journal.append("play", {})
        with pytest.raises(JournalError, match="entry 1 is not an intent"):
            journal.result(play, {})
        intent = journal.intent({})
        journal.result(intent, {})
        with pytest.raises(JournalError, match="intent 2 already has a result"):
            journal.result(intent, {})
        assert journal.last_seq == 3


def test_a_result_and_what_it_brings_about_are_kept_together_or_not_at_all(path):
    with Journal.open(path) as journal:
        journal.start_match(**HEADER)
        intent = journal.intent({"job": "fire", "seat": 1})
        with pytest.raises(JournalError, match="not plain JSON"):
            journal.result(intent, {"counted": 2}, then=[("action", {"x": object()})])
        assert journal.last_seq == 1 and journal.open_intents() == [intent]
        result = journal.result(intent, {"counted": 2}, then=[("action", {"eject": 2})])
        assert [(e.kind, e.ref) for e in journal.entries()] == [
            ("intent", None), ("result", 1), ("action", 1)]
        assert result.kind == "result" and journal.open_intents() == []


def test_bad_writes_change_nothing(path):
    with Journal.open(path) as journal:
        with pytest.raises(JournalError, match="no match started"):
            journal.append("play", {})
        journal.start_match(**HEADER)
        journal.append("play", {"n": 1})
        with pytest.raises(JournalError, match="not plain JSON"):
            journal.append_all([("play", {"n": 2}), ("chance", {"x": object()})])
        with pytest.raises(JournalError, match="kind"):
            journal.append("", {})
        assert [e.payload for e in journal.entries()] == [{"n": 1}]
        assert journal.append("play", {"n": 2}).seq == 2


def test_garbage_file_is_reported_as_corrupt(path):
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(JournalCorrupt, match=r"journal .*journal\.db is corrupt"):
        Journal.open(path)


def test_a_tampered_entry_fails_its_checksum(path):
    with Journal.open(path) as journal:
        journal.start_match(**HEADER)
        journal.append("chance", {"ejected": 2})
        journal.append("play", {})
    raw = sqlite3.connect(path)
    raw.execute("""UPDATE entries SET payload='{"ejected":3}' WHERE seq=1""")
    raw.commit()
    raw.close()
    with pytest.raises(JournalCorrupt, match=r"entry 1 \(chance\) fails its checksum"):
        Journal.open(path)  # a writer checks the match it will replay when it opens
    with Journal.open(path, readonly=True) as journal, pytest.raises(JournalCorrupt, match=r"entry 1 \(chance\) fails its checksum"):
        list(journal.entries())


def test_a_missing_entry_is_reported(path):
    with Journal.open(path) as journal:
        journal.start_match(**HEADER)
        for n in range(3):
            journal.append("play", {"n": n})
    raw = sqlite3.connect(path)
    raw.execute("DELETE FROM entries WHERE seq=2")
    raw.commit()
    raw.close()
    with pytest.raises(JournalCorrupt, match="1 entries missing before seq 3"):
        Journal.open(path)
    with Journal.open(path, readonly=True) as journal, pytest.raises(JournalCorrupt, match="entry 2 is missing"):
        list(journal.entries())


def test_another_sqlite_file_is_not_taken_over(path):
    path.parent.mkdir(parents=True)
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE photos (id INTEGER)")
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="not a unotable journal"):
        Journal.open(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("made", ["an empty file", "the meta table only"])
def test_a_journal_a_kill_left_half_created_is_completed_at_the_next_start(path, made):
    path.parent.mkdir(parents=True)
    if made == "an empty file":
        path.write_bytes(b"")
    else:
        raw = sqlite3.connect(path)
        raw.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        raw.commit()
        raw.close()
    with pytest.raises(JournalError, match="not a unotable journal"):
        Journal.open(path, readonly=True)  # a reader does not write the tables
    with Journal.open(path, clock=ticking()) as journal:
        journal.start_match(**HEADER)
        journal.append("action", {"type": "draw", "seat": 0})
    with Journal.open(path, readonly=True) as journal:
        assert [e.payload for e in journal.entries()] == [{"type": "draw", "seat": 0}]


# -- unotable replay ----------------------------------------------------------------


def test_replay_prints_headers_and_entries_as_json_lines(path, capsys):
    with Journal.open(path, clock=ticking()) as journal:
        journal.start_match(**HEADER)
        journal.append("play", {"seat": 0, "card": "R5"})
        intent = journal.intent({"seat": 1})
        journal.result(intent, {"cards_out": 2})
    before = path.read_bytes()
    assert main(["replay", str(path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["type"], r.get("kind")) for r in lines] == [
        ("match", None), ("entry", "play"), ("entry", "intent"), ("entry", "result"),
    ]
    assert lines[0]["edition"] == "power" and lines[0]["seed"] == 7
    assert lines[3]["ref"] == 2 and lines[3]["payload"] == {"cards_out": 2}
    assert path.read_bytes() == before  # read-only


def test_replay_of_a_missing_file_is_a_usage_error(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.db")]) == 2
    assert "no journal at" in capsys.readouterr().err
    assert not (tmp_path / "nope.db").exists()


def test_replay_of_a_corrupt_journal_fails_naming_the_damage(path, capsys):
    with Journal.open(path) as journal:
        journal.start_match(**HEADER)
        journal.append("play", {"n": 1})
        journal.append("play", {"n": 2})
    raw = sqlite3.connect(path)
    raw.execute("UPDATE entries SET kind='pass' WHERE seq=2")
    raw.commit()
    raw.close()
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == 2  # header and the good entry
    assert "entry 2 (pass) fails its checksum" in out.err


def test_replay_reads_a_journal_the_daemon_is_still_writing(path, capsys):
    with Journal.open(path) as writer:
        writer.start_match(**HEADER)
        writer.append("play", {"n": 1})
        assert main(["replay", str(path)]) == 0
        early = capsys.readouterr().out.splitlines()
        writer.append("play", {"n": 2})  # the reader did not block the writer
        assert main(["replay", str(path)]) == 0
        late = capsys.readouterr().out.splitlines()
    assert [json.loads(line).get("payload") for line in early] == [None, {"n": 1}]
    assert [json.loads(line).get("payload") for line in late] == [None, {"n": 1}, {"n": 2}]
