"""The discovery document Home Assistant reads, checked against its published schema,
and each entity's value template run (Jinja2, as Home Assistant does) on a real state
document."""

from __future__ import annotations

import json

import jinja2
import jsonschema
import pytest

from firmware.mqtt.discovery import discovery_message, discovery_payload, forget_message
from firmware.mqtt.state import event_document, state_document
from firmware.mqtt.topics import Topics
from tests.mqtt.ha_schema import DEVICE_DISCOVERY

TABLE_A, TABLE_B = "a" * 32, "0123456789abcdef" * 2
SEATS = ["Anna", "Ben", "Cleo"]


def payload(table: str = TABLE_A, *, commands: bool = False, towers: bool = False) -> dict:
    return discovery_payload(Topics("homeassistant", "unotable", table), name="Bar 1",
                             edition="power" if towers else "classic", seat_names=SEATS,
                             towers=towers, commands=commands, version="0.1.0")


def render(template: str, document: dict) -> str:
    """What Home Assistant shows for `template` on `document` (its `value_json`)."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined)
    return env.from_string(template).render(value_json=document, value=json.dumps(document))


@pytest.mark.parametrize("commands", [False, True])
@pytest.mark.parametrize("towers", [False, True])
def test_the_document_fits_home_assistants_schema(commands: bool, towers: bool) -> None:
    jsonschema.validate(payload(commands=commands, towers=towers), DEVICE_DISCOVERY)


def test_one_retained_device_topic_under_the_prefix() -> None:
    topics = Topics("ha", "cafe", TABLE_A)
    topic, body = discovery_message(topics, name="", edition="classic", seat_names=SEATS,
                                    towers=False, commands=False, version="1")
    assert topic == f"ha/device/unotable_{TABLE_A}/config"
    assert json.loads(body)["dev"]["name"] == "UNO table aaaaaa"
    assert forget_message(topics) == (topic, b"")


def test_a_schema_typo_is_caught() -> None:
    bad = payload()
    bad["cmps"]["phase"]["value_templte"] = "{{ value_json.phase }}"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, DEVICE_DISCOVERY)


def test_the_entities_a_user_asked_for() -> None:
    cmps = payload(towers=True)["cmps"]
    sensors = {k for k, c in cmps.items() if c["p"] == "sensor" and "seat" not in k}
    assert {"edition", "phase", "turn", "top_card", "colour", "round", "scores", "ejected",
            "hopper", "tower_u", "tower_n", "tower_o", "tower_bang"} <= sensors
    binaries = {k: c["device_class"] for k, c in cmps.items() if c["p"] == "binary_sensor"}
    assert binaries == {"fault": "problem", "hopper_empty": "problem", "reader_down": "problem",
                        "match_running": "running"}
    events = [c for c in cmps.values() if c["p"] == "event"]
    assert len(events) == 1 and events[0]["event_types"] == [
        "card_played", "uno_called", "caught", "round_won", "match_won", "jam"]
    assert "tower_u" not in payload()["cmps"]  # a classic table has no towers


def test_buttons_only_with_commands_on() -> None:
    assert not [c for c in payload()["cmps"].values() if c["p"] == "button"]
    buttons = {c["payload_press"] for c in payload(commands=True)["cmps"].values()
               if c["p"] == "button"}
    assert buttons == {"pause", "resume", "new_match"}


def test_per_seat_entities_start_disabled_and_the_rest_do_not() -> None:
    for key, component in payload()["cmps"].items():
        assert component.get("enabled_by_default", True) is (not key.startswith("seat")), key
    assert {k for k in payload()["cmps"] if k.startswith("seat")} == {
        f"seat{n}_{what}" for n in (1, 2, 3) for what in ("score", "cards")}


def test_two_tables_share_no_id() -> None:
    a, b = payload(TABLE_A), payload(TABLE_B)
    ids_a = {c["unique_id"] for c in a["cmps"].values()}
    ids_b = {c["unique_id"] for c in b["cmps"].values()}
    assert len(ids_a) == len(a["cmps"]) and not ids_a & ids_b
    assert a["dev"]["ids"] != b["dev"]["ids"]
    assert a["availability_topic"] != b["availability_topic"]


def test_every_template_reads_the_one_state_document() -> None:
    document = state_document(
        edition="power", phase="playing", turn="Ben", top_card="R7", colour="red", round=2,
        seats=[{"name": "Anna", "score": 120, "cards": 3}, {"name": "Ben", "score": 40, "cards": 1},
               {"name": "Cleo", "score": 0, "cards": 7}],
        towers={"U": "Anna", "!": "Cleo"}, ejected=57, hopper="empty",
        fault="jam: no card came out", readers_down=["tray.readers[1]"], match_running=True)
    shown = {key: render(c["value_template"], document)
             for key, c in payload(towers=True)["cmps"].items() if "value_template" in c}
    assert shown == {
        "edition": "power", "phase": "playing", "turn": "Ben", "top_card": "R7",
        "colour": "red", "round": "2", "scores": "120", "ejected": "57", "hopper": "empty",
        "fault": "ON", "hopper_empty": "ON", "reader_down": "ON", "match_running": "ON",
        "tower_u": "Anna", "tower_n": "neutral", "tower_o": "neutral", "tower_bang": "Cleo",
        "seat1_score": "120", "seat1_cards": "3", "seat2_score": "40", "seat2_cards": "1",
        "seat3_score": "0", "seat3_cards": "7"}
    attributes = render(payload()["cmps"]["scores"]["json_attributes_template"], document)
    assert json.loads(attributes) == {"Anna": 120, "Ben": 40, "Cleo": 0}


def test_a_quiet_table_reads_as_off_and_none() -> None:
    document = state_document(edition="classic", phase="idle", seats=[])
    cmps = payload()["cmps"]
    for key in ("fault", "hopper_empty", "reader_down", "match_running"):
        assert render(cmps[key]["value_template"], document) == "OFF"
    assert render(cmps["turn"]["value_template"], document) == "none"
    assert render(cmps["scores"]["value_template"], document) == "0"


def test_events_carry_the_event_type_home_assistant_expects() -> None:
    assert event_document("caught", seat="Ben", by="Anna") == {
        "event_type": "caught", "seat": "Ben", "by": "Anna"}
    with pytest.raises(ValueError, match="event_type"):
        event_document("sneezed")
