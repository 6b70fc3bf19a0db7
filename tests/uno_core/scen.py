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
            mode: str = "simulation"):
    """A round that starts with `first` turned up, `dealer` dealing (simulation)."""
    ed = get_edition(edition)
    s = new_match(edition, seats, options, mode)
    high = dealer if ed.dealer_rule == "highest-deals" else (dealer + 1) % seats
    low = [c for c in ed.deck if c.kind == "#" and c.number == 1]
    cards = tuple(c("R9") if i == high else low[i] for i in range(seats))
    s, _ = apply(s, DealerCards(cards))
    deck = list(ed.deck)
    idx = deck.index(parse_card(first))
    order = [i for i in range(len(deck)) if i != idx]
    order.insert(len(deck) - 1 - seats * s.options.hand_size, idx)
    return apply(s, Shuffle(tuple(order)))
