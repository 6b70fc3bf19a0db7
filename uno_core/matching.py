"""Which cards may be played now: matching, the power-symbol restriction, wild
restrictions, and the effective kind of a Wild Customizable. Cached per top card."""

from __future__ import annotations

from collections.abc import Iterable

from uno_core.cards import (
    HIT2,
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
    WILD_HIT4,
    WILD_HIT_FIRE,
    WILD_TAKE1,
    Card,
)
from uno_core.state import State
from uno_core.tables import TARGETED, matches

__all__ = ["CUSTOM_KIND", "TARGETED", "effective_kind", "free_towers", "match_set", "matches",
           "playable_cards", "playable_mask", "symbol_forbid", "tower_count", "wild_blocked"]



CUSTOM_KIND = {
    "wild": WILD, "skip": SKIP, "reverse": REVERSE, "hit-2": HIT2, "hit-4": WILD_HIT4,
    "attack-attack": WILD_ATTACK, "hit-fire": WILD_HIT_FIRE, "all-hit": WILD_ALL_HIT,
    "trade-hands": TRADE_HANDS,
}


def symbol_forbid(s: State) -> str:
    top = s._disc[-1]
    return TOWER_PROTECTS[top.symbol] if top.symbol else ""


def wild_blocked(s: State, card: Card, hand: tuple[Card, ...]) -> bool:
    """Extreme's plain Wild needs a hand without the current colour (simulation only)."""
    if card.kind != WILD or not s.options.wild_restricted or s.table:
        return False
    colour = s.colour
    return any(c.colour == colour for c in hand)


_MATCH_CACHE: dict[tuple[str, int], frozenset[Card]] = {}


def match_mask(s: State) -> int:
    """The bits of the cards that may go on the current top card and colour; on a
    turned Take-2-Towers (``colour_only``) only the cards of its colour."""
    tb = s.tables
    return tb.colour_bits[s.colour] if s.colour_only else tb.match[s._disc[-1].id][s.colour]


def playable_mask(s: State, seat: int, faces: int) -> int:
    """The faces among `faces` that `seat` may play now (simulation): they match, and
    Extreme's plain Wild only with no card of the current colour in the hand."""
    m = faces & match_mask(s)
    tb = s.tables
    if m and tb.wild_restricted and s._masks[seat] & tb.colour_bits[s.colour]:
        m &= ~tb.plain_wild_bits
    return m


def match_set(s: State) -> frozenset[Card]:
    """The deck's cards that may go on the current top card and colour (cached)."""
    m = match_mask(s)
    key = (s.edition.name, m)
    found = _MATCH_CACHE.get(key)
    if found is None:
        found = _MATCH_CACHE[key] = frozenset(c for c in s.edition.deck if c.bit & m)
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
