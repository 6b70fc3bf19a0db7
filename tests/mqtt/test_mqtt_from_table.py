"""What the table's own words become on MQTT: the state document's phase and fault from
what the table waits for, the events Home Assistant gets, names told apart, and the
results of the action that ended a round (and the match)."""

from __future__ import annotations

from firmware.mqtt.from_table import events_from, player_names, results_of, state_from_public

TABLE = "c0ffee00" * 4
NAMES = ["Anna", "Ben", "Cleo"]


def public(wait: str | None = "turn", **more: object) -> dict:
    return {"match": {"id": 1, "seed": 1}, "edition": "power", "seats": 3, "round": 2,
            "phase": "play", "to_act": 1, "colour": "red", "top": "R7",
            "scores": [10, 0, 5], "hand_counts": [3, 1, 7],
            "towers": {"U": 0, "N": -1, "O": 2, "!": -1}, "stats": {"cards_ejected": 40},
            "paused": None, "waiting": None if wait is None else {"kind": wait, "message": f"{wait}!"},
            **more}


def test_the_state_document_from_the_public_state() -> None:
    doc = state_from_public(public(), NAMES)
    assert (doc["phase"], doc["turn"], doc["top_card"], doc["colour"]) == (
        "playing", "Ben", "R7", "red")
    assert doc["towers"] == {"U": "Anna", "N": "neutral", "O": "Cleo", "!": "neutral"}
    assert doc["seats"][2] == {"name": "Cleo", "score": 5, "cards": 7}
    assert doc["match_running"] and doc["fault"] is None and doc["ejected"] == 40
    jam = state_from_public(public("jam"), NAMES)
    assert (jam["phase"], jam["fault"]) == ("stopped", "jam!")
    assert state_from_public(public("reload"), NAMES)["hopper"] == "empty"
    assert state_from_public(public("turn", paused="paused"), NAMES)["phase"] == "paused"
    assert state_from_public(public("round-over"), NAMES)["phase"] == "round_over"
    over = state_from_public(public("match-over", phase="match_over"), NAMES)
    assert over["phase"] == "match_over" and not over["match_running"]
    assert state_from_public(public(None, match=None), NAMES)["phase"] == "idle"
    assert state_from_public(public(edition="attack-1999"), NAMES)["edition"] == "attack"


def test_events_for_home_assistant() -> None:
    action = {"kind": "action", "effects": [
        {"type": "card_played", "seat": 0, "card": "R7"}, {"type": "uno_called", "seat": 0},
        {"type": "uno_penalty", "seat": 1, "catcher": 2},
        {"type": "uno_penalty", "seat": 2, "catcher": -2},
        {"type": "round_over", "winner": 0, "points": [0, 5, 9], "scores": [14, 0, 0]},
        {"type": "match_over", "winners": [0], "scores": [514, 0, 0]},
        {"type": "prompt", "seat": 1, "kind": "turn"}]}
    assert events_from(action, NAMES) == [
        {"event_type": "card_played", "seat": "Anna", "card": "R7"},
        {"event_type": "uno_called", "seat": "Anna"},
        {"event_type": "caught", "seat": "Ben", "by": "Cleo"},
        {"event_type": "caught", "seat": "Cleo", "by": "table"},
        {"event_type": "round_won", "seat": "Anna"},
        {"event_type": "match_won", "seats": ["Anna"]}]
    assert events_from({"kind": "jam", "message": "Jammed"}, NAMES) == [
        {"event_type": "jam", "message": "Jammed"}]
    assert events_from({"kind": "paused", "reason": "x"}, NAMES) == []


def test_names_are_told_apart_and_never_empty() -> None:
    assert player_names(["Anna", "Anna", "", "Ben"]) == ["Anna (1)", "Anna (2)", "seat 3", "Ben"]


def test_a_round_that_ends_the_match_makes_two_results() -> None:
    made = results_of(table=TABLE, table_name="Bar", match="3-1765000000", edition="classic",
                      names=NAMES, before=[480, 10, 0], after=[530, 10, 0], round_no=4,
                      winner=0, match_winners=[0], at=1.0)
    assert [r.id for r in made] == [f"{TABLE}:3-1765000000:4", f"{TABLE}:3-1765000000:end"]
    assert (made[0].points, made[0].winner, made[1].round) == (50, "Anna", 4)
    assert made[1].scores == {"Anna": 530, "Ben": 10, "Cleo": 0}
