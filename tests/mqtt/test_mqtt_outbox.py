"""The results outbox as journal entries, and a result's message: what is still to
send after a restart, and what the collector refuses."""

from __future__ import annotations

import json

import pytest

from firmware.mqtt.outbox import acked_entry, pending, result_entry
from firmware.mqtt.results import BadResult, parse
from tests.mqtt.results_samples import TABLE_A, a_match, a_round


def test_what_is_not_acknowledged_is_sent_again_in_order() -> None:
    journal = [result_entry(a_round(TABLE_A, 1)), ("play", {"card": "R7"}),
               result_entry(a_round(TABLE_A, 2)), acked_entry(a_round(TABLE_A, 1).id),
               result_entry(a_match(TABLE_A, 2, "Anna"))]
    assert [r.id for r in pending(journal)] == [f"{TABLE_A}:m1:2", f"{TABLE_A}:m1:end"]
    assert pending([*journal, acked_entry(f"{TABLE_A}:m1:2"),
                    acked_entry(f"{TABLE_A}:m1:end")]) == []


def test_a_result_round_trips_through_its_message() -> None:
    result = a_round(TABLE_A, 3, "Ben")
    assert parse(result.payload()) == result
    assert json.loads(result.payload())["id"] == f"{TABLE_A}:m1:3"


@pytest.mark.parametrize(("change", "says"), [
    ({"id": "x:y:z"}, "id"), ({"table": "t1"}, "32 hex"), ({"round": -1}, "round"),
    ({"round": True}, "round"), ({"winner": "Zed"}, "winner"), ({"scores": {}}, "scores"),
    ({"kind": "set"}, "kind"), ({"at": "noon"}, "at"), ({"match": "a b"}, "match"),
])
def test_the_collector_refuses_what_is_no_result(change: dict, says: str) -> None:
    message = {**json.loads(a_round(TABLE_A, 1).payload()), **change}
    with pytest.raises(BadResult, match=says):
        parse(json.dumps(message).encode())
    for junk in (b"", b"[]", b"\xff", b"{}", b"x" * 70_000):
        with pytest.raises(BadResult):
            parse(junk)


def test_the_outbox_is_read_over_every_match_of_a_real_journal(tmp_path) -> None:
    from firmware.errors import JournalCorrupt
    from firmware.journal.store import Journal
    from firmware.mqtt.outbox import ACKED_KIND, RESULT_KIND

    with Journal.open(tmp_path / "journal.db", edition="classic") as journal:
        for match, rounds in (("m1", (1, 2)), ("m2", (1,))):
            journal.start_match(edition="classic", options={}, seats=3, seed=1, config_hash="x")
            for n in rounds:
                journal.append_all([("action", {"type": "shuffle"}),
                                    result_entry(a_round(TABLE_A, n, match=match))])
            journal.append(*acked_entry(a_round(TABLE_A, 1, match=match).id))
        kept = list(journal.entries_of((RESULT_KIND, ACKED_KIND)))
        assert {e.kind for e in kept} == {RESULT_KIND, ACKED_KIND} and len(kept) == 5
        assert [r.id for r in pending((e.kind, e.payload) for e in kept)] == [
            f"{TABLE_A}:m1:2"]  # the first match's second round, never acknowledged
        journal._rows.conn.execute("UPDATE entries SET payload = '{}' WHERE seq = ("
                                   "SELECT min(seq) FROM entries WHERE kind = ?)", (RESULT_KIND,))
        with pytest.raises(JournalCorrupt, match="checksum"):
            list(journal.entries_of((RESULT_KIND,)))
