"""The simulation kernel plays the same games as the checked path (issue 11, point 3):
for the same seeds, every edition ends in the same state after the same actions, with
house rules too; and a bot match without effects is the same match as with them."""

from __future__ import annotations

import random

import pytest

from uno_core import CHANCE, EDITIONS, apply, new_match, sample_outcome, snapshot
from uno_core.bots import BOTS, play_match
from uno_core.chance import MEASURED, SIMPLE
from uno_core.errors import SetupError
from uno_core.kernel import choose_random, run_random

HOUSE = {
    "classic": {"draw_then_play": True, "wild_draw4_restricted": True, "hand_size": 5},
    "power": {"draw_when_playable": False},
    "attack": {"wild_customizable": "trade-hands", "skip_reverse_extra_turn": "always"},
    "attack-1999": {"all_hit_scope": "others"},
    "extreme": {"wild_restricted": False, "draw_then_play": False},
}


def _checked(edition, seats, options, rounds, seed, launcher=MEASURED):
    rng, chance = random.Random(seed), random.Random(seed + 1)
    state = new_match(edition, seats, options)
    actions = done = 0
    while done < rounds and not state.over:
        action = (sample_outcome(state, chance, launcher) if state.to_act == CHANCE
                  else choose_random(state, rng))
        before = state.round_no
        state, _ = apply(state, action)
        actions += 1
        done += state.round_no != before
    return actions, state


def _kernel(edition, seats, options, rounds, seed, launcher=MEASURED):
    rng, chance = random.Random(seed), random.Random(seed + 1)
    state = new_match(edition, seats, options)
    return run_random(state, rng, chance, rounds, launcher), state


@pytest.mark.parametrize("house", [False, True])
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_kernel_plays_the_checked_paths_games(edition, house):
    for seats, seed in ((4, 1), (2, 2), (3, 3)):
        options = {"target_score": 100000, **(HOUSE[edition] if house else {})}
        n_checked, checked = _checked(edition, seats, options, 12, seed)
        n_kernel, kernel = _kernel(edition, seats, options, 12, seed)
        assert n_kernel == n_checked > 12 * 20
        assert snapshot(kernel) == snapshot(checked)


def test_the_kernel_stops_at_the_match_end():
    n_checked, checked = _checked("classic", 3, {"target_score": 150}, 1000, 5)
    n_kernel, kernel = _kernel("classic", 3, {"target_score": 150}, 1000, 5)
    assert kernel.over and n_kernel == n_checked and snapshot(kernel) == snapshot(checked)


def test_the_kernel_refuses_table_mode():
    with pytest.raises(SetupError, match="simulation mode"):
        run_random(new_match("classic", 3, mode="table"), random.Random(1),
                   random.Random(2), 1)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_a_bot_match_without_effects_is_the_same_match(edition):
    def run(effects):
        rng = random.Random(8)
        return play_match(edition, 3, [BOTS["heuristic"](rng) for _ in range(3)], rng,
                          options={"target_score": 200}, effects=effects)

    loud, quiet = run(True), run(False)
    assert loud.actions == quiet.actions and loud.state == quiet.state
    assert quiet.effects == ()


# The kernel plays numbers, skips, reverses, plain wilds and pile draws itself, and
# hands a turn to the engine when the pile runs short, a card has choices or a house
# rule changes what a card does: crowded tables (short piles, many reshuffles), two
# seats, extra turns and the other launcher model reach those hand-overs.
CROWDED = [
    ("classic", 10, {"hand_size": 10}),
    ("classic", 2, {"two_player_reverse_skips": False, "draw_then_play": True}),
    ("classic", 5, {"wild_draw4_restricted": True}),
    ("power", 6, {"hand_size": 12}),
    ("attack", 10, {"hand_size": 10}),
    ("attack-1999", 2, {"two_player_reverse_skips": False}),
    ("attack", 5, {"skip_reverse_extra_turn": "always", "wild_customizable": "skip"}),
    ("extreme", 7, {"hand_size": 14}),
]


@pytest.mark.parametrize(("edition", "seats", "options", "launcher"), [
    (e, n, o, model) for e, n, o in CROWDED for model in (MEASURED, SIMPLE)
    if model is MEASURED or EDITIONS[e].launcher])  # the model only matters to launchers
def test_the_kernel_hands_the_same_turns_to_the_engine(edition, seats, options, launcher):
    options = {"target_score": 100000, **options}
    n_checked, checked = _checked(edition, seats, options, 8, 21, launcher)
    n_kernel, kernel = _kernel(edition, seats, options, 8, 21, launcher)
    assert n_kernel == n_checked and snapshot(kernel) == snapshot(checked)


# issue 12: with a house rule the engine plays on, the kernel hands every turn to the
# engine (`Tables.house`): still the checked path's games, bit for bit
ISSUE12 = {
    "classic": {"stack_draws": "cross", "no_action_finish": True, "forced_play": True},
    "power": {"stack_draws": "same", "no_bluff": True},
    "attack": {"stack_draws": "cross", "no_bluff": True, "forced_play": True},
    "attack-1999": {"stack_draws": "same", "no_action_finish": True},
    "extreme": {"stack_draws": "same", "forced_play": True, "no_action_finish": True},
}


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_kernel_plays_the_checked_paths_games_under_issue12_house_rules(edition):
    for seats, seed in ((4, 5), (2, 6)):
        options = {"target_score": 100000, **ISSUE12[edition]}
        n_checked, checked = _checked(edition, seats, options, 4, seed)
        n_kernel, kernel = _kernel(edition, seats, options, 4, seed)
        assert n_kernel == n_checked > 4 * 20
        assert snapshot(kernel) == snapshot(checked)
