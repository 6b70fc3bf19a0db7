"""Scenario helpers: set up a position, apply actions, look at the effects."""

from __future__ import annotations

from uno_core import (
    DealerCards,
    IllegalAction,
    Shuffle,
    apply,
    get_edition,
    new_match,
    parse_card,
    parse_cards,
    snapshot,
)
from uno_core.state import State

c = parse_card
cs = parse_cards


def run(state: State, *actions):
    """Apply `actions` in turn to a copy of `state` (apply changes the state it is
    given; tests branch from one position); return the final state and all effects."""
    state = state.clone()
    effects = []
    for a in actions:
        state, fx = apply(state, a)
        effects.extend(fx)
    return state, effects


def names(effects):
    return [e.name for e in effects]


def of(effects, name):
    return [e for e in effects if e.name == name]


def illegal(state: State, action) -> str:
    """Assert `action` is illegal and leaves `state` unchanged; return the rule text."""
    before = snapshot(state)
    try:
        apply(state, action)
    except IllegalAction as exc:
        assert snapshot(state) == before
        return exc.rule
    raise AssertionError(f"{action} was accepted")


def started(edition: str, seats: int, first: str, dealer: int = 0, options=None,
            mode: str = "simulation", hands=None, pile: str = ""):
    """A round that starts with `first` turned up, `dealer` dealing (simulation).

    `hands` ({seat: "cards"}) puts those cards first in a seat's hand; `pile` are the
    cards on top of the draw pile after the turned card, the next one drawn first."""
    ed = get_edition(edition)
    s = new_match(edition, seats, options, mode)
    high = dealer if ed.dealer_rule == "highest-deals" else (dealer + 1) % seats
    low = [c for c in ed.deck if c.kind == "#" and c.number == 1]
    cards = tuple(c("R9") if i == high else low[i] for i in range(seats))
    s, _ = apply(s, DealerCards(cards))
    deck = list(ed.deck)
    top = len(deck) - 1  # the pile's top: dealt first, to the seat left of the dealer
    dealt = seats * s.options.hand_size
    want = {top - dealt: parse_card(first)}
    want.update((top - dealt - 1 - k, card) for k, card in enumerate(parse_cards(pile)))
    for seat, held in (hands or {}).items():
        offset = (seat - s.dealer - 1) % seats
        want.update((top - offset - k * seats, card) for k, card in enumerate(parse_cards(held)))
    used: dict[int, int] = {}  # position in the pile -> deck index
    for pos, card in want.items():
        used[pos] = next(i for i, d in enumerate(deck) if d == card and i not in used.values())
    rest = iter(i for i in range(len(deck)) if i not in used.values())
    order = [used[pos] if pos in used else next(rest) for pos in range(len(deck))]
    return apply(s, Shuffle(tuple(order)))
