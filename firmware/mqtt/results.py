"""A result's message: what a table publishes (QoS 1, from its outbox) at the end of a
round and of a match, and what the collector accepts.

Its id is ``<table>:<match>:<round>`` for a round and ``<table>:<match>:end`` for the
match, the same however often it is sent, so the collector keeps each one once. The
payload is JSON::

    {"id": "...", "kind": "round" | "match", "table": "<32 hex>", "table_name": "Bar 1",
     "match": "<match id>", "round": 3, "edition": "classic", "winner": "Anna",
     "points": 120, "scores": {"Anna": 240, "Ben": 35}, "at": 1765000000.0}

``points`` is what the winner scored in that round (0 for the match's message);
``scores`` are the match totals after it; ``at`` is the table's wall clock (seconds).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from firmware.mqtt.topics import TABLE_ID

KINDS = ("round", "match")
MATCH_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
MAX_NAME = 64
MAX_PAYLOAD = 64 * 1024


class BadResult(ValueError):
    """A results message the collector cannot keep: what is wrong, in one line."""


@dataclass(frozen=True)
class Result:
    kind: str
    table: str
    table_name: str
    match: str
    round: int
    edition: str
    winner: str
    points: int
    scores: Mapping[str, int]
    at: float

    @property
    def id(self) -> str:
        return result_id(self.table, self.match, self.round if self.kind == "round" else None)

    def payload(self) -> bytes:
        return json.dumps({"id": self.id, **asdict(self), "scores": dict(self.scores)},
                          ensure_ascii=False).encode()


def result_id(table: str, match: str, round: int | None) -> str:  # noqa: A002
    """``table:match:round``; a match's own result has ``end`` for its round."""
    return f"{table}:{match}:{'end' if round is None else round}"


def round_result(*, table: str, table_name: str, match: str, round: int, edition: str,  # noqa: A002
                 winner: str, points: int, scores: Mapping[str, int], at: float) -> Result:
    return checked(Result("round", table, table_name, str(match), round, edition, winner,
                          points, dict(scores), at))


def match_result(*, table: str, table_name: str, match: str, rounds: int, edition: str,
                 winner: str, scores: Mapping[str, int], at: float) -> Result:
    """The match's result after its last round (`rounds` rounds played)."""
    return checked(Result("match", table, table_name, str(match), rounds, edition, winner,
                          0, dict(scores), at))


def checked(result: Result) -> Result:
    """`result`, or `BadResult` naming its first problem."""
    if result.kind not in KINDS:
        raise BadResult(f"kind must be round or match, not {result.kind!r}")
    if not isinstance(result.table, str) or not TABLE_ID.fullmatch(result.table):
        raise BadResult(f"table must be 32 hex digits, not {result.table!r}")
    if not isinstance(result.match, str) or not MATCH_ID.fullmatch(result.match):
        raise BadResult(f"match must be 1-64 letters, digits, '_', '.', '-', not {result.match!r}")
    for name in ("round", "points"):
        value = getattr(result, name)
        if type(value) is not int or value < 0:
            raise BadResult(f"{name} must be a whole number >= 0, not {value!r}")
    for name in ("table_name", "edition", "winner"):
        value = getattr(result, name)
        if not isinstance(value, str) or len(value) > MAX_NAME:
            raise BadResult(f"{name} must be a text of at most {MAX_NAME} characters")
    if not isinstance(result.scores, Mapping) or not result.scores or any(
            not isinstance(k, str) or not k or len(k) > MAX_NAME or type(v) is not int
            for k, v in result.scores.items()):
        raise BadResult("scores must map each player's name to a whole number")
    if result.winner not in result.scores:
        raise BadResult(f"the winner {result.winner!r} is not among the scores")
    if not isinstance(result.at, int | float) or isinstance(result.at, bool) \
            or not math.isfinite(result.at):
        raise BadResult("at must be a time in seconds")
    return result


def parse(payload: bytes) -> Result:
    """The result a message carries; `BadResult` if it is not one, or its id does not
    match its table, match and round."""
    if len(payload) > MAX_PAYLOAD:
        raise BadResult(f"a result is at most {MAX_PAYLOAD} bytes, not {len(payload)}")
    try:
        data: Any = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadResult(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadResult("not a JSON object")
    fields = ("kind", "table", "table_name", "match", "round", "edition", "winner", "points",
              "scores", "at")
    missing = [f for f in ("id", *fields) if f not in data]
    if missing:
        raise BadResult(f"missing {', '.join(missing)}")
    result = checked(Result(**{f: data[f] for f in fields}))
    if data["id"] != result.id:
        raise BadResult(f"id {data['id']!r} is not {result.id!r}")
    return result
