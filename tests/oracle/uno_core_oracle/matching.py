# Frozen copy of uno_core (tests/oracle/freeze.py): the lockstep oracle. Do not edit.
"""Which cards may be played now: matching, the power-symbol restriction, wild
restrictions, and the effective kind of a Wild Customizable. Cached per top card."""

from __future__ import annotations

from collections.abc import Iterable

from tests.oracle.uno_core_oracle.cards import (
    HIT2,
    NUMBER,
    REVERSE,
    SKIP,
    TAKE2,
    TOWER_PROTECTS,
    TOWERS,
    TRADE_HANDS,
    WILD,
    WILD_ALL_HIT,
    WILD_ATTACK,
    WILD_CUSTOM,
    WILD_EXTREME,
    WILD_HIT4,
    WILD_HIT_FIRE,
    WILD_TAKE1,
    Card,
)
from tests.oracle.uno_core_oracle.state import State

# kinds whose card needs a target seat / towers / a colour
TARGETED = frozenset({WILD_ATTACK, WILD_EXTREME, TRADE_HANDS})


CUSTOM_KIND = {
    "wild": WILD, "skip": SKIP, "reverse": REVERSE, "hit-2": HIT2, "hit-4": WILD_HIT4,
    "attack-attack": WILD_ATTACK, "hit-fire": WILD_HIT_FIRE, "all-hit": WILD_ALL_HIT,
    "trade-hands": TRADE_HANDS,
}


def symbol_forbid(s: State) -> str:
    top = s.discard[-1]
    return TOWER_PROTECTS[top.symbol] if top.symbol else ""


def matches(card: Card, top: Card, colour: str, forbid: str) -> bool:
    if card.kind == forbid:
        return False
    if card.colour == "" or card.colour == colour:
        return True
    return card.kind == top.kind and (card.kind != NUMBER or card.number == top.number)


def wild_blocked(s: State, card: Card, hand: tuple[Card, ...]) -> bool:
    """Extreme's plain Wild needs a hand without the current colour (simulation only)."""
    if card.kind != WILD or not s.options.wild_restricted or s.table:
        return False
    colour = s.colour
    return any(c.colour == colour for c in hand)


_MATCH_CACHE: dict[tuple[str, Card, str, bool], frozenset[Card]] = {}


def match_set(s: State) -> frozenset[Card]:
    """The deck's cards that may go on the current top card and colour (cached); on a
    turned Take-2-Towers (``colour_only``) only the cards of its colour."""
    top = s.discard[-1]
    key = (s.edition.name, top, s.colour, s.colour_only)
    found = _MATCH_CACHE.get(key)
    if found is None:
        if s.colour_only:
            found = frozenset(c for c in s.edition.deck if c.colour == s.colour)
        else:
            forbid = TOWER_PROTECTS[top.symbol] if top.symbol else ""
            found = frozenset(c for c in s.edition.deck if matches(c, top, s.colour, forbid))
        _MATCH_CACHE[key] = found
    return found


def playable_cards(s: State, hand: Iterable[Card], full: tuple[Card, ...]) -> list[Card]:
    """The distinct cards of `hand` that may be played now."""
    ok = match_set(s)
    out = [c for c in dict.fromkeys(hand) if c in ok]
    if s.options.wild_restricted and not s.table:
        out = [c for c in out if not wild_blocked(s, c, full)]
    return out


def effective_kind(s: State, card: Card) -> str:
    if card.kind == WILD_CUSTOM:
        return CUSTOM_KIND[s.options.wild_customizable]
    return card.kind


def free_towers(s: State, seat: int) -> list[str]:
    return [t for t, owner in zip(TOWERS, s.towers, strict=True) if owner != seat]


def tower_count(s: State, card: Card) -> int:
    if card.kind == TAKE2:
        return 2
    if card.kind == WILD_TAKE1:
        return 1
    return 0
