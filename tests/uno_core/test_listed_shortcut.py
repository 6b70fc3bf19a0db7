"""``apply`` skips re-checking an action it just listed in ``legal_actions``; the
shortcut must give exactly what the full check gives and must never let through an
action that was not listed for that very state."""

from __future__ import annotations

import random

import pytest

from uno_core import (
    CHANCE,
    IllegalAction,
    Play,
    apply,
    legal_actions,
    new_match,
    sample_outcome,
)
from uno_core.actions import action_from_dict, action_to_dict


@pytest.mark.parametrize("edition", ["classic", "power", "attack", "attack-1999", "extreme"])
def test_listed_and_rebuilt_actions_give_the_same_state_and_effects(edition):
    rng = random.Random(7)
    state = new_match(edition, 3)
    seat_actions = 0
    while seat_actions < 1500:
        if state.over:
            state = new_match(edition, 3)
        if state.to_act == CHANCE:
            state, _ = apply(state, sample_outcome(state, rng))
            continue
        listed = rng.choice(legal_actions(state))
        rebuilt = action_from_dict(action_to_dict(listed))  # equal, not the same object
        assert rebuilt is not listed
        fresh, fresh_fx = apply(state, rebuilt)
        state, fx = apply(state, listed)
        assert fresh == state
        assert fresh_fx == fx
        seat_actions += 1


def _playing(seed: int = 3):
    rng = random.Random(seed)
    state = new_match("classic", 4)
    while state.to_act == CHANCE or state.phase != "play":
        action = (sample_outcome(state, rng) if state.to_act == CHANCE
                  else rng.choice(legal_actions(state)))
        state, _ = apply(state, action)
    return state


def test_an_action_added_to_the_returned_list_is_still_checked():
    state = _playing()
    seat = state.to_act
    listed = legal_actions(state)
    foreign = next(Play(seat, c) for c in state.hands[(seat + 1) % 4]
                   if c not in state.hands[seat])
    listed.append(foreign)  # the caller's list is its own: the engine kept a copy
    with pytest.raises(IllegalAction, match="does not hold"):
        apply(state, foreign)


def test_a_list_for_one_state_does_not_vouch_for_another():
    state = _playing()
    legal_actions(state)
    listed = legal_actions(state)[0]
    after, _ = apply(state, listed)
    legal_actions(state)  # the last listing is for `state`, not `after`
    with pytest.raises(IllegalAction, match="turn"):
        apply(after, listed)  # the same seat cannot play again on the next turn
