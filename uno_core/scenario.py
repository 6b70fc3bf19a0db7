"""Scenario files: set up any position, then apply actions (docs/formats.md).

A scenario is TOML (or the same structure as JSON)::

    edition = "power"
    hands = ["R7 B+2 W+4", "G3 G4", "Y1 Y2"]   # seat 0, 1, 2 (simulation)
    top = "R5"                                  # the discard pile's top card
    turn = 0
    towers = { U = 1, N = -1 }                  # -1: the neutral spot
    actions = [
      { type = "play", seat = 0, card = "R7" },
      { type = "draw", seat = 1 },
    ]

``parse_scenario(text)`` checks everything (unknown keys, types, cards, the position,
every action's form) before anything is applied and raises ``FormatError`` naming the
field or line. ``run_scenario`` applies the actions; an illegal one raises
``ScenarioActionError`` with its index and the rule it breaks. Pure: text in, values out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from uno_core.actions import Action, action_from_dict
from uno_core.cards import parse_cards
from uno_core.documents import FORMATS, load_document
from uno_core.effects import Effect
from uno_core.engine import apply
from uno_core.errors import IllegalAction, NotationError, RuleError
from uno_core.house_stack import value as stack_value
from uno_core.record import FormatError
from uno_core.setup import position
from uno_core.state import MODES, SIMULATION, TABLE, State

# key -> (type(s), description for errors)
_FIELDS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "edition": (str, "a string"),
    "mode": (str, "a string"),
    "seats": (int, "an integer"),
    "options": (dict, "a table"),
    "hands": (list, "a list of card strings"),
    "counts": (list, "a list of integers"),
    "pile": (str, "a card string (last = the next card drawn)"),
    "discard": (str, "a card string (bottom first)"),
    "top": (str, "one card"),
    "colour": (str, "a colour R G B Y"),
    "turn": (int, "a seat number"),
    "direction": (int, "1 or -1"),
    "dealer": (int, "a seat number"),
    "towers": (dict, "a table tower = seat"),
    "scores": (list, "a list of integers"),
    "round": (int, "an integer"),
    "since_eject": (int, "an integer"),
    "uno_exposed": (int, "a seat number"),
    "stack": (list, "[total, seat]: a pending stack of draw cards (stack_draws)"),
    "description": (str, "a string"),
    "actions": (list, "a list of action tables"),
}


class ScenarioActionError(RuleError):
    """Action number `index` (0-based) of the scenario breaks `rule`."""

    def __init__(self, index: int, action: Action, rule: str) -> None:
        super().__init__(f"action {index} {action} is illegal: {rule}")
        self.index = index
        self.action = action
        self.rule = rule


@dataclass(frozen=True, slots=True)
class Scenario:
    """A parsed scenario: the start position and the actions to apply."""

    start: State
    actions: tuple[Action, ...]
    description: str = ""


@dataclass(frozen=True, slots=True)
class ScenarioRun:
    """The result of ``run_scenario``: final state and the last action's effects."""

    state: State
    effects: tuple[Effect, ...]
    applied: int


def _load(text: str, fmt: str) -> dict[str, Any]:
    if fmt not in FORMATS:
        raise FormatError("format", f"unknown scenario format {fmt!r} (known: {', '.join(FORMATS)})")
    return load_document(text, fmt)


def _cards(where: str, text: str) -> None:
    try:
        parse_cards(text)
    except NotationError as exc:
        raise FormatError(where, str(exc)) from None


def _check_types(data: Mapping[str, Any]) -> None:
    for key, value in data.items():
        if key not in _FIELDS:
            raise FormatError(key, f"unknown field (known: {', '.join(_FIELDS)})")
        kind, what = _FIELDS[key]
        if isinstance(value, bool) or not isinstance(value, kind):
            raise FormatError(key, f"must be {what}, not {value!r}")
    for key, kind_ in (("hands", str), ("counts", int), ("scores", int)):
        for i, v in enumerate(data.get(key, ())):
            if isinstance(v, bool) or not isinstance(v, kind_):
                what = "a card string" if kind_ is str else "an integer"
                raise FormatError(f"{key}[{i}]", f"must be {what}, not {v!r}")
    for key in ("pile", "discard", "top"):
        if key in data:
            _cards(key, data[key])
    for i, hand in enumerate(data.get("hands", ())):
        _cards(f"hands[{i}]", hand)
    if "top" in data and len(parse_cards(data["top"])) != 1:
        raise FormatError("top", f"one card, not {data['top']!r}")
    for tower, seat in data.get("towers", {}).items():
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise FormatError(f"towers.{tower}", f"must be a seat number or -1, not {seat!r}")


def _stack(s: State, raw: list[Any]) -> tuple[int, int]:
    """The `stack` field: a stack the seat to act must answer or take."""
    if len(raw) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in raw):
        raise FormatError("stack", f"must be [total, seat] (two integers), not {raw!r}")
    total, seat = raw
    if s.options.stack_draws == "off":
        raise FormatError("stack", "needs options.stack_draws \"same\" or \"cross\"")
    if total < 1 or seat != s.turn:
        raise FormatError("stack", f"a total of 1 or more on the seat to act ({s.turn}), "
                                   f"not {raw!r}")
    if not stack_value(s, s._disc[-1]):
        raise FormatError("stack", f"the top card {s._disc[-1]} is no draw card that stacks")
    return total, seat


def _parse_actions(raw: list[Any]) -> tuple[Action, ...]:
    actions: list[Action] = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            raise FormatError(f"actions[{i}]", "an action is a table like "
                                               "{ type = \"play\", seat = 0, card = \"R7\" }")
        try:
            actions.append(action_from_dict(dict(item)))
        except RuleError as exc:
            raise FormatError(f"actions[{i}]", str(exc)) from None
    return tuple(actions)


def parse_scenario(text: str, fmt: str = "toml") -> Scenario:
    """Parse and validate a scenario; raises FormatError naming the bad field."""
    data = _load(text, fmt)
    _check_types(data)
    if "edition" not in data:
        raise FormatError("edition", "missing (one of classic power attack attack-1999 extreme)")
    mode = data.get("mode", SIMULATION)
    if mode not in MODES:
        raise FormatError("mode", f"{mode!r} is not one of {', '.join(MODES)}")
    hands, counts = data.get("hands"), data.get("counts")
    given = hands if hands is not None else counts
    if "seats" in data and given is not None and len(given) != data["seats"]:
        which = "hands" if hands is not None else "counts"
        raise FormatError("seats", f"says {data['seats']} but {which} lists {len(given)}")
    if "top" not in data and "discard" not in data:
        raise FormatError("top", "missing: the discard pile needs its top card")
    discard = " ".join(x for x in (data.get("discard", ""), data.get("top", "")) if x)
    kwargs: dict[str, Any] = {
        "discard": discard, "turn": data.get("turn", 0), "direction": data.get("direction", 1),
        "options": data.get("options"), "mode": mode, "round_no": data.get("round", 1),
        "since_eject": data.get("since_eject", 0), "exposed": data.get("uno_exposed", -1),
    }
    for key in ("pile", "colour", "dealer", "towers", "scores"):
        if key in data:
            kwargs[key] = data[key]
    if mode == TABLE:
        kwargs["counts"] = counts
        if hands is not None:
            raise FormatError("hands", "table mode knows only hand counts: use counts")
    else:
        kwargs["hands"] = hands
        if counts is not None:
            raise FormatError("counts", "a simulation knows every hand: use hands")
    try:
        start = position(data["edition"], **kwargs)
    except RuleError as exc:
        raise FormatError("position", str(exc)) from None
    if "stack" in data:
        start.stack = _stack(start, data["stack"])
    return Scenario(start, _parse_actions(data.get("actions", [])), data.get("description", ""))


def run_scenario(scenario: Scenario) -> ScenarioRun:
    """Apply the scenario's actions in order (to a copy: the start state is untouched)."""
    state = scenario.start.clone()
    effects: list[Effect] = []
    for i, action in enumerate(scenario.actions):
        try:
            state, effects = apply(state, action)
        except IllegalAction as exc:
            raise ScenarioActionError(i, action, exc.rule) from None
    return ScenarioRun(state, tuple(effects), len(scenario.actions))


__all__ = ["FORMATS", "Scenario", "ScenarioActionError", "ScenarioRun", "parse_scenario",
           "run_scenario"]
