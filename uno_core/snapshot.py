"""Serialise a full State (hidden cards included) to a JSON-able dict and back.

``restore(snapshot(s)) == s`` for every state. Cards are in notation; the edition is
stored by name and options as a dict (validated again on restore).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from uno_core.cards import Card, format_card, parse_card
from uno_core.editions import get_edition
from uno_core.errors import SetupError
from uno_core.listed import lazy_listing
from uno_core.listing import decisions_for
from uno_core.options import make_options
from uno_core.state import TABLE, Chance, Owe, Phase, State, Tag, obligation
from uno_core.tables import mask_of, tables_for

VERSION = 1

_INTS = ("n", "direction", "dealer", "turn", "actor", "to_act",
         "exposed", "skip_pending", "out", "round_no", "since_eject")
_STRS = ("colour", "phase", "chance")


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [format_card(c) for c in cards]


def snapshot(state: State) -> dict[str, Any]:
    s = state
    out: dict[str, Any] = {
        "version": VERSION,
        "edition": s.edition.name,
        "mode": s.mode,
        "options": s.options.as_dict(),
        "hands": [_cards(h) for h in s.hands],
        "counts": list(s.counts),
        "pile_count": s.pile_count,
        "pile": _cards(s.pile),
        "discard": _cards(s.discard),
        "queue": [list(q) for q in s.queue],
        "drawn": _cards(s.drawn),
        "towers": list(s.towers),
        "pending": list(s.pending),
        "scores": list(s.scores),
        "unseen": {format_card(c): k for c, k in s.unseen.items()},
        "winners": list(s.winners),
        "entered": list(s.entered),
        "colour_only": s.colour_only,
        "stack": list(s.stack),
    }
    for k in _INTS + _STRS:
        out[k] = getattr(s, k)
    if s.uno_ahead >= 0:  # (false_uno_penalty's early call: absent when there is none)
        out["uno_ahead"] = s.uno_ahead
    return out


def _parse_cards(values: Any) -> tuple[Card, ...]:
    return tuple(parse_card(str(v)) for v in values)


def restore(data: Mapping[str, Any]) -> State:
    """Inverse of snapshot; raises SetupError naming a missing or bad field."""
    if data.get("version") != VERSION:
        raise SetupError("snapshot_version", given=data.get("version"), version=VERSION)
    try:
        ed = get_edition(str(data["edition"]))
        s = State.__new__(State)
        s.edition = ed
        s.options = make_options(ed, {k: v for k, v in dict(data["options"]).items()
                                      if k in ed.option_defaults})
        s.tables = tables_for(ed, s.options)
        s.table = data["mode"] == TABLE
        for k in _INTS:
            setattr(s, k, int(data[k]))
        s.colour = str(data["colour"])
        s.phase = Phase(data["phase"])
        s.chance = Chance(data["chance"])
        hands = [_parse_cards(h) for h in data["hands"]]
        s._hands = [[c.id for c in h] for h in hands]
        s._masks = [mask_of(h) for h in hands]
        s._counts = [int(c) for c in data["counts"]]
        s._pile = list(_parse_cards(data["pile"]))
        s._pcount = int(data["pile_count"])
        s._disc = list(_parse_cards(data["discard"]))
        s._queue = [obligation(Owe(q[0]), int(q[1]), int(q[2]), Tag(q[3])) for q in data["queue"]]
        s.drawn = _parse_cards(data["drawn"])
        s.towers = tuple(int(t) for t in data["towers"])
        p = data["pending"]
        s.pending = (int(p[0]), int(p[1]), bool(p[2])) if p else ()
        s.scores = tuple(int(v) for v in data["scores"])
        s._unseen = {parse_card(k): int(v) for k, v in dict(data["unseen"]).items()}
        s.winners = tuple(int(v) for v in data["winners"])
        s.entered = tuple(bool(v) for v in data["entered"])
        s.colour_only = bool(data.get("colour_only", False))  # absent before the rule
        s.uno_ahead = int(data.get("uno_ahead", -1))  # absent before false_uno_penalty's
        stack = data.get("stack") or ()  # absent before stack_draws
        s.stack = (int(stack[0]), int(stack[1])) if stack else ()
        s._listed = None
        s._decisions = None if s.table else decisions_for(s.tables, s.n)
        s._lazy = lazy_listing()
    except KeyError as exc:
        raise SetupError("snapshot_field", given=exc.args[0]) from None
    except (TypeError, ValueError, IndexError) as exc:
        raise SetupError("bad_snapshot", detail=str(exc)) from None
    return s
