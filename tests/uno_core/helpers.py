"""Shared helpers for the uno_core tests: drive a match with a seeded rng."""

from __future__ import annotations

import random

from uno_core import (
    CHANCE,
    apply,
    legal_actions,
    new_match,
    sample_hand_entry,
    sample_outcome,
)
from uno_core.state import State


def step(state: State, rng: random.Random):
    """One action: a chance outcome, a table hand entry, or a random legal seat action."""
    if state.to_act == CHANCE:
        action = sample_outcome(state, rng)
    elif state.phase == "hand_entry" and state.table:
        action = sample_hand_entry(state, rng)
    else:
        action = rng.choice(legal_actions(state))
    new, effects = apply(state, action)
    return action, new, effects


def play_match(edition: str, seats: int, seed: int, mode: str = "simulation",
               options=None, max_actions: int = 100_000):
    rng = random.Random(seed)
    state = new_match(edition, seats, options, mode)
    log = []
    for _ in range(max_actions):
        if state.over:
            break
        action, state, effects = step(state, rng)
        log.append((action, effects))
    return state, log


def first_effect(effects, name):
    return next(e for e in effects if e.name == name)
