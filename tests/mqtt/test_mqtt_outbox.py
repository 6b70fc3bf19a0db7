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
