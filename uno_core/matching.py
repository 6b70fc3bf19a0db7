"""Which cards may be played now: matching, the power-symbol restriction, wild
restrictions; a card's rule and kind at the table. Cached per top card."""

from __future__ import annotations

from uno_core.cards import (
    NUMBER,
    TOWERS,
    Card,
)
from uno_core.kinds import CUSTOM_KIND, TARGETED, KindRule
from uno_core.state import State
from uno_core.tables import barred, forbidden_kind, matches

__all__ = ["CUSTOM_KIND", "TARGETED", "effective_kind", "free_towers", "kind_rule", "match_set",
           "matches", "playable_mask", "symbol_forbid", "tower_count"]




def symbol_forbid(s: State) -> str:
    return forbidden_kind(s._disc[-1])


def kind_rule(s: State, card: Card) -> KindRule:
    """`card`'s rule at this table (``Tables.rules``; `card` is of the edition's deck)."""
    return s.tables.rules[s.n][card.id]


_MATCH_CACHE: dict[tuple[str, int], frozenset[Card]] = {}


def match_mask(s: State) -> int:
    """The bits of the cards that may go on the current top card and colour; on a
    turned Take-2-Towers (``colour_only``) only the cards of its colour."""
    tb = s.tables
    return tb.colour_bits[s.colour] if s.colour_only else tb.match[s._disc[-1].id][s.colour]


def playable_mask(s: State, seat: int, faces: int) -> int:
    """The faces among `faces` that `seat` may play now (simulation): they match, and
    the hand does not bar them (``tables.barred``)."""
    m = faces & match_mask(s)
    if m & s.tables.restricted_bits:
        m &= ~barred(s.tables, s._masks[seat], s.colour)
    return m


def match_set(s: State) -> frozenset[Card]:
    """The deck's cards that may go on the current top card and colour (cached)."""
    m = match_mask(s)
    key = (s.edition.name, m)
    found = _MATCH_CACHE.get(key)
    if found is None:
        found = _MATCH_CACHE[key] = frozenset(c for c in s.edition.deck if c.bit & m)
    return found


def effective_kind(s: State, card: Card) -> str:
    """The kind `card` plays as at this table (``Tables.kinds``)."""
    return s.tables.kinds[card.id]


def free_towers(s: State, seat: int) -> list[str]:
    return [t for t, owner in zip(TOWERS, s.towers, strict=True) if owner != seat]


def tower_count(s: State, card: Card) -> int:
    """The towers `card` takes (``KindRule.towers``; 0 without towers to take)."""
    return kind_rule(s, card).towers


# seven_zero (house_swaps): the numbers that give their player's hand away
SWAP_NUMBERS = (0, 7)


def needs_target(s: State, card: Card) -> bool:
    """Whether a play of `card` names a seat to swap with (a 7 under seven_zero)."""
    return card.number == 7 and card.kind == NUMBER and s.options.seven_zero


def gives_hand_away(s: State, card: Card) -> bool:
    """Whether playing `card` moves its player's remaining hand to another seat."""
    return card.number in SWAP_NUMBERS and card.kind == NUMBER and s.options.seven_zero
