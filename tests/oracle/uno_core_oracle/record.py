# Frozen copy of uno_core (tests/oracle/freeze.py): the lockstep oracle. Do not edit.
"""Game records: one JSON object per line, like PGN for chess (docs/formats.md).

Line 1 is the header (``{"record": "unotable-game", "version": 1, "edition": ...}``);
every further line is one action or chance outcome in ``action_to_dict`` form, in the
order it was applied. A line may carry ``"effects"`` (the effects that action produced),
and the last line may be a ``{"result": {...}}`` line; ``replay_record`` checks both, so
a record verifies itself. Pure: text in, text out; reading files is the caller's job.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.oracle.uno_core_oracle.actions import Action, action_from_dict, action_to_dict
from tests.oracle.uno_core_oracle.editions import get_edition
from tests.oracle.uno_core_oracle.effects import Effect, effect_to_dict
from tests.oracle.uno_core_oracle.engine import apply, new_match
from tests.oracle.uno_core_oracle.errors import IllegalAction, RuleError
from tests.oracle.uno_core_oracle.options import make_options
from tests.oracle.uno_core_oracle.state import MODES, SIMULATION, State

RECORD_KIND = "unotable-game"
RECORD_VERSION = 1
_HEADER_KEYS = {"record", "version", "edition", "seats", "mode", "options", "seed", "meta"}


class FormatError(RuleError, ValueError):
    """A record or scenario text is malformed. `where` names the line or field
    (``"line 3"``, ``"hands[1]"``); `message` says what is wrong."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


class ReplayMismatch(RuleError):
    """Replaying a record gave other effects or another result than the record says."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True, slots=True)
class Record:
    """A parsed game record. `effects[i]` are the recorded effects of `actions[i]` as
    dicts (None where the record did not store them); `result` is the recorded result."""

    edition: str
    seats: int
    actions: tuple[Action, ...] = ()
    options: Mapping[str, object] = field(default_factory=dict)
    mode: str = SIMULATION
    seed: int | None = None
    meta: Mapping[str, object] = field(default_factory=dict)
    effects: tuple[tuple[dict[str, object], ...] | None, ...] = ()
    result: Mapping[str, object] | None = None


def result_of(state: State) -> dict[str, object]:
    """The result line's content for a final (or current) state."""
    return {"round": state.round_no, "phase": state.phase, "scores": list(state.scores),
            "winners": list(state.winners)}


def header_line(edition: str, seats: int, *, options: Mapping[str, object] | None = None,
                mode: str = SIMULATION, seed: int | None = None,
                meta: Mapping[str, object] | None = None) -> str:
    head: dict[str, object] = {"record": RECORD_KIND, "version": RECORD_VERSION,
                               "edition": edition, "seats": seats, "mode": mode,
                               "options": dict(options or {})}
    if seed is not None:
        head["seed"] = seed
    if meta:
        head["meta"] = dict(meta)
    return json.dumps(head, sort_keys=True)


def action_line(action: Action, effects: Sequence[Effect] | None = None) -> str:
    data: dict[str, object] = action_to_dict(action)
    if effects is not None:
        data["effects"] = [effect_to_dict(e) for e in effects]
    return json.dumps(data, sort_keys=True)


def write_record(edition: str, seats: int, actions: Iterable[Action], *,
                 options: Mapping[str, object] | None = None, mode: str = SIMULATION,
                 seed: int | None = None, meta: Mapping[str, object] | None = None,
                 effects: Sequence[Sequence[Effect]] | None = None,
                 final: State | None = None) -> str:
    """The record text (ends with a newline). With `effects` (one list per action) each
    action line stores its effects; with `final` a result line closes the record."""
    lines = [header_line(edition, seats, options=options, mode=mode, seed=seed, meta=meta)]
    for i, action in enumerate(actions):
        lines.append(action_line(action, effects[i] if effects is not None else None))
    if final is not None:
        lines.append(json.dumps({"result": result_of(final)}, sort_keys=True))
    return "\n".join(lines) + "\n"


def _header(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or data.get("record") != RECORD_KIND:
        raise FormatError("line 1", f"not a game record header (needs \"record\": "
                                    f"\"{RECORD_KIND}\")")
    if data.get("version") != RECORD_VERSION:
        raise FormatError("line 1", f"record version {data.get('version')!r} is not "
                                    f"{RECORD_VERSION}")
    unknown = sorted(set(data) - _HEADER_KEYS)
    if unknown:
        raise FormatError("line 1", f"unknown header field {unknown[0]!r}")
    for key, kind in (("edition", str), ("seats", int), ("mode", str), ("options", dict)):
        if key not in data:
            raise FormatError("line 1", f"header lacks {key!r}")
        if not isinstance(data[key], kind) or isinstance(data[key], bool):
            raise FormatError("line 1", f"header field {key!r} must be {kind.__name__}")
    if data["mode"] not in MODES:
        raise FormatError("line 1", f"mode {data['mode']!r} is not one of {', '.join(MODES)}")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise FormatError("line 1", "header field 'seed' must be an integer")
    try:
        make_options(get_edition(data["edition"]), data["options"])
    except RuleError as exc:
        raise FormatError("line 1", str(exc)) from None
    return data


def read_record(text: str) -> Record:
    """Parse a record; raises FormatError naming the line of the first bad input."""
    head: dict[str, Any] | None = None
    actions: list[Action] = []
    effects: list[tuple[dict[str, object], ...] | None] = []
    result: Mapping[str, object] | None = None
    for no, raw in enumerate(text.splitlines(), 1):
        where = f"line {no}"
        if not raw.strip():
            raise FormatError(where, "blank line (a record has one JSON object per line)")
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise FormatError(where, f"not JSON ({exc.msg} at column {exc.colno})") from None
        if head is None:
            head = _header(data)
            continue
        if result is not None:
            raise FormatError(where, "nothing may follow the result line")
        if not isinstance(data, dict):
            raise FormatError(where, "expected a JSON object")
        if "result" in data:
            if set(data) != {"result"} or not isinstance(data["result"], dict):
                raise FormatError(where, "a result line is {\"result\": {...}} only")
            result = data["result"]
            continue
        fx = data.pop("effects", None)
        if fx is not None and not (isinstance(fx, list)
                                   and all(isinstance(e, dict) for e in fx)):
            raise FormatError(where, "effects must be a list of objects")
        try:
            actions.append(action_from_dict(data))
        except RuleError as exc:
            raise FormatError(where, str(exc)) from None
        effects.append(tuple(fx) if fx is not None else None)
    if head is None:
        raise FormatError("line 1", "empty record: no header")
    return Record(edition=head["edition"], seats=head["seats"], actions=tuple(actions),
                  options=head["options"], mode=head["mode"], seed=head.get("seed"),
                  meta=head.get("meta", {}), effects=tuple(effects), result=result)


def replay_record(record: Record | str) -> tuple[State, list[Effect]]:
    """Replay a record (or its text) from the start; returns the final state and the
    last action's effects. Raises FormatError for an illegal action (naming its line)
    and ReplayMismatch where recorded effects or the result differ from the engine's."""
    rec = read_record(record) if isinstance(record, str) else record
    try:
        state = new_match(rec.edition, rec.seats, rec.options, rec.mode)
    except RuleError as exc:
        raise FormatError("line 1", str(exc)) from None
    fx: list[Effect] = []
    for i, action in enumerate(rec.actions):
        line = i + 2
        try:
            state, fx = apply(state, action)
        except IllegalAction as exc:
            raise FormatError(f"line {line}", f"action {i} {action}: {exc.rule}") from None
        expected = rec.effects[i] if i < len(rec.effects) else None
        if expected is not None:
            got = [effect_to_dict(e) for e in fx]
            if got != list(expected):
                raise ReplayMismatch(line, f"action {i} {action} gave effects {got}, the "
                                           f"record says {list(expected)}")
    if rec.result is not None and dict(rec.result) != result_of(state):
        raise ReplayMismatch(len(rec.actions) + 2, f"the replay ends with {result_of(state)}, "
                                                   f"the record says {dict(rec.result)}")
    return state, fx


__all__ = ["FormatError", "Record", "ReplayMismatch", "RECORD_VERSION", "action_line",
           "header_line", "read_record", "replay_record", "result_of", "write_record"]
