"""Home Assistant's device-based discovery for one table, as pure functions.

One retained message on ``<prefix>/device/<device id>/config`` announces the whole
table: ``dev`` (the device, its id from the table's identity), ``o`` (the origin: this
program), the shared availability and state topic, and ``cmps``: every entity with its
platform ``p`` and a ``unique_id`` that starts with the device id, so two tables never
share one. Each entity reads its field of the one state document through its value
template (firmware.mqtt.state). Per-seat entities start disabled. The buttons exist only
with ``commands = true``. An empty retained payload on the same topic removes it all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from firmware.mqtt.state import COLOURS, EDITIONS, EVENT_TYPES, HOPPER, PHASES, TOWERS
from firmware.mqtt.topics import OFFLINE, ONLINE, Topics

ORIGIN = "unotable"
SUPPORT_URL = "https://github.com/unotable/unotable"
COMMANDS = ("pause", "resume", "new_match")  # the buttons' payloads on the command topic
TOWER_IDS = dict(zip(TOWERS, ("u", "n", "o", "bang"), strict=True))  # ids: [a-zA-Z0-9_-]


def _field(path: str) -> str:
    return "{{ value_json." + path + " }}"


def _on_when(test: str) -> str:
    return "{{ 'ON' if " + test + " else 'OFF' }}"


def _sensor(name: str, template: str, **extra: Any) -> dict[str, Any]:
    return {"p": "sensor", "name": name, "value_template": template, **extra}


def _enum(name: str, path: str, options: Sequence[str], **extra: Any) -> dict[str, Any]:
    return _sensor(name, _field(path), device_class="enum", options=list(options), **extra)


def _binary(name: str, test: str, device_class: str, **extra: Any) -> dict[str, Any]:
    return {"p": "binary_sensor", "name": name, "value_template": _on_when(test),
            "device_class": device_class, **extra}


def components(topics: Topics, *, seat_names: Sequence[str], towers: bool,
               commands: bool) -> dict[str, dict[str, Any]]:
    """Every entity of the table, by component id (each with ``p`` and ``unique_id``)."""
    found: dict[str, dict[str, Any]] = {
        "edition": _enum("Edition", "edition", EDITIONS, icon="mdi:cards"),
        "phase": _enum("Phase", "phase", PHASES),
        "turn": _sensor("Whose turn", "{{ value_json.turn or 'none' }}", icon="mdi:account-arrow-right"),
        "top_card": _sensor("Top card", "{{ value_json.top_card or 'none' }}", icon="mdi:cards-playing"),
        "colour": _enum("Colour", "colour", COLOURS, icon="mdi:palette"),
        "round": _sensor("Round", _field("round"), state_class="measurement", icon="mdi:counter"),
        "scores": _sensor(
            "Scores",
            "{{ value_json.seats | map(attribute='score') | max if value_json.seats else 0 }}",
            state_class="measurement", unit_of_measurement="points",
            json_attributes_topic=topics.state,
            json_attributes_template="{{ value_json.scores | tojson }}", icon="mdi:trophy"),
        "ejected": _sensor("Cards ejected", _field("ejected"), state_class="total_increasing",
                           unit_of_measurement="cards", icon="mdi:card-multiple"),
        "hopper": _enum("Hopper", "hopper", HOPPER, icon="mdi:tray"),
        "fault": _binary("Jam or fault", "value_json.fault", "problem",
                         json_attributes_topic=topics.state,
                         json_attributes_template="{{ {'fault': value_json.fault} | tojson }}"),
        "hopper_empty": _binary("Hopper empty", "value_json.hopper == 'empty'", "problem"),
        "reader_down": _binary("Reader down", "value_json.readers_down", "problem",
                               entity_category="diagnostic"),
        "match_running": _binary("Match running", "value_json.match_running", "running"),
        "event": {"p": "event", "name": "Table event", "state_topic": topics.event,
                  "event_types": list(EVENT_TYPES), "icon": "mdi:bell-ring"},
    }
    if towers:
        for tower, key in TOWER_IDS.items():
            found[f"tower_{key}"] = _sensor(f"Tower {tower}", _field(f"towers['{tower}']"),
                                            icon="mdi:chess-rook")
    for i, seat in enumerate(seat_names):
        n = i + 1
        found[f"seat{n}_score"] = _sensor(
            f"{seat} score", _field(f"seats[{i}].score"), state_class="measurement",
            unit_of_measurement="points", enabled_by_default=False)
        found[f"seat{n}_cards"] = _sensor(
            f"{seat} cards", _field(f"seats[{i}].cards"), state_class="measurement",
            unit_of_measurement="cards", enabled_by_default=False)
    if commands:
        labels = {"pause": "Pause", "resume": "Resume", "new_match": "New match"}
        for command in COMMANDS:
            found[command] = {"p": "button", "name": labels[command],
                              "command_topic": topics.command, "payload_press": command}
    for key, component in found.items():
        component["unique_id"] = f"{topics.device_id}_{key}"
    return found


def discovery_payload(topics: Topics, *, name: str, edition: str, seat_names: Sequence[str],
                      towers: bool, commands: bool, version: str) -> dict[str, Any]:
    """The one discovery document of the table."""
    return {
        "dev": {"ids": [topics.device_id], "name": name or default_name(topics.table_id),
                "mf": "unotable", "mdl": f"UNO card table ({edition})", "sw": version,
                "sn": topics.table_id},
        "o": {"name": ORIGIN, "sw": version, "url": SUPPORT_URL},
        "availability_topic": topics.availability,
        "payload_available": ONLINE,
        "payload_not_available": OFFLINE,
        "state_topic": topics.state,
        "qos": 1,
        "cmps": components(topics, seat_names=seat_names, towers=towers, commands=commands),
    }


def discovery_message(topics: Topics, **kwargs: Any) -> tuple[str, bytes]:
    """(topic, payload) to publish retained; the keywords are `discovery_payload`'s."""
    return topics.discovery, json.dumps(discovery_payload(topics, **kwargs)).encode()


def forget_message(topics: Topics) -> tuple[str, bytes]:
    """(topic, empty payload) to publish retained: Home Assistant removes the device."""
    return topics.discovery, b""


def default_name(table_id: str) -> str:
    return f"UNO table {table_id[:6]}"
