"""The results outbox as journal entries: what the controller's MQTT part appends, and
what is still to send after a restart.

A result is journaled (kind `RESULT_KIND`, payload: the result's message as a JSON
object) in the same commit as the round's end, before it is handed to the link
(firmware.mqtt.link.TableLink.send_result). When the broker acknowledges it the link
calls back with its id and an `ACKED_KIND` entry (payload ``{"id": ...}``) is appended.
At start, `pending` over the journal's entries gives every result without its
acknowledgement, in order, to hand to the link again. A result acknowledged whose
acknowledgement did not reach the journal (a power cut in between) is sent once more;
the collector keeps its id once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from firmware.mqtt.results import Result, parse

RESULT_KIND = "mqtt_result"
ACKED_KIND = "mqtt_acked"


def result_entry(result: Result) -> tuple[str, dict[str, Any]]:
    """(kind, payload) of the journal entry that puts `result` in the outbox."""
    return RESULT_KIND, json.loads(result.payload())


def acked_entry(result_id: str) -> tuple[str, dict[str, Any]]:
    """(kind, payload) of the journal entry that takes a result out of the outbox."""
    return ACKED_KIND, {"id": result_id}


def pending(entries: Iterable[tuple[str, Any]]) -> list[Result]:
    """The results among (kind, payload) journal entries that no acknowledgement follows,
    in the order they were journaled; other kinds are passed over."""
    waiting: dict[str, Result] = {}
    for kind, payload in entries:
        if kind == RESULT_KIND:
            result = parse(json.dumps(payload).encode())
            waiting.setdefault(result.id, result)
        elif kind == ACKED_KIND:
            waiting.pop(payload["id"], None)
    return list(waiting.values())
