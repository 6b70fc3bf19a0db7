"""House rule seven_zero (issue 12): a 7 swaps hands with a chosen seat, a 0 passes every
hand one seat on in the direction of play. Rows of docs/rules.md (``S::``)."""

import random
from collections import Counter
from pathlib import Path

import pytest

from tests.uno_core.scen import c, cs, illegal, of, run
from uno_core import (
    CHANCE,
    CallUno,
    Catch,
    OptionError,
    Play,
    apply,
    legal_actions,
    make_options,
    new_match,
    position,
    sample_outcome,
    snapshot,
)
from uno_core.editions import get_edition
from uno_core.effects import HandsPassed, HandsTraded
from uno_core.kernel import choose_random, run_random
from uno_core.scenario import parse_scenario, run_scenario

SEVEN_ZERO = {"seven_zero": True}
CATCH = {"seven_zero": True, "forgotten_uno": "catch"}


def test_a_seven_swaps_hands_with_the_seat_its_player_names():
    s = position("classic", hands=["R7 B1 B2", "G1 G2", "Y1 Y2 Y3 Y4"], discard="R5",
                 options=SEVEN_ZERO)
    plays = [a for a in legal_actions(s) if a.card == c("R7")]
    assert [p.target for p in plays] == [1, 2]  # one play per other seat
    s, fx = run(s, Play(0, c("R7"), target=2))
    assert s.hands == (cs("Y1 Y2 Y3 Y4"), cs("G1 G2"), cs("B1 B2"))
    assert of(fx, "hands_traded") == [HandsTraded(0, 2)]
    assert s.to_act == 1 and s.counts == (4, 2, 2)


def test_a_seven_must_name_another_seat_and_only_under_the_rule():
    s = position("classic", hands=["R7 B1 B2", "G1 G2", "Y1"], discard="R5",
                 options=SEVEN_ZERO)
    assert "needs a target seat" in illegal(s, Play(0, c("R7")))
    assert "needs a target seat" in illegal(s, Play(0, c("R7"), target=0))
    assert "needs a target seat" in illegal(s, Play(0, c("R7"), target=3))
    plain = position("classic", hands=["R7 B1 B2", "G1 G2", "Y1"], discard="R5")
    assert "takes no target" in illegal(plain, Play(0, c("R7"), target=1))
    s, fx = run(plain, Play(0, c("R7")))  # the seed: a 7 is a plain number
    assert not of(fx, "hands_traded") and s.counts == (2, 2, 1)


def test_a_zero_passes_every_hand_on_in_the_direction_of_play():
    hands = ["R0 B1 B2", "G1 G2", "Y1 Y2 Y3 Y4"]
    s = position("classic", hands=hands, discard="R5", options=SEVEN_ZERO)
    s, fx = run(s, Play(0, c("R0")))
    # left (+1): seat 0's rest goes to seat 1, seat 1's to seat 2, seat 2's to seat 0
    assert s.hands == (cs("Y1 Y2 Y3 Y4"), cs("B1 B2"), cs("G1 G2"))
    assert of(fx, "hands_passed") == [HandsPassed(1)] and s.to_act == 1


def test_a_zero_in_a_reversed_direction_passes_the_hands_right():
    s = position("classic", hands=["R0 B1 B2", "G1 G2", "Y1 Y2 Y3 Y4"], discard="R5",
                 direction=-1, options=SEVEN_ZERO)
    s, fx = run(s, Play(0, c("R0")))
    # right (-1): seat 0's rest goes to seat 2, seat 2's to seat 1, seat 1's to seat 0
    assert s.hands == (cs("G1 G2"), cs("Y1 Y2 Y3 Y4"), cs("B1 B2"))
    assert of(fx, "hands_passed") == [HandsPassed(-1)] and s.to_act == 2


def test_seven_and_zero_with_two_seats_both_swap():
    s = position("classic", hands=["R7 R0 B1 B2", "G1 G2"], discard="R5",
                 options=SEVEN_ZERO)
    assert [a.target for a in legal_actions(s) if a.card == c("R7")] == [1]
    s, fx = run(s, Play(0, c("R7"), target=1))
    assert s.hands == (cs("G1 G2"), cs("R0 B1 B2")) and s.to_act == 1
    s, fx = run(s, Play(1, c("R0")))
    assert s.hands == (cs("B1 B2"), cs("G1 G2")) and of(fx, "hands_passed")
    assert s.to_act == 0


def test_going_out_on_a_seven_or_zero_swaps_nothing_and_ends_the_round():
    for card in ("R7", "R0"):
        s = position("classic", hands=[card, "G1 G2", "Y1 Y2 Y3"], discard="R5",
                     options=SEVEN_ZERO)
        s, fx = run(s, Play(0, c(card), target=1 if card == "R7" else -1))
        assert not of(fx, "hands_traded") and not of(fx, "hands_passed")
        assert of(fx, "round_over")[0].winner == 0


def test_seven_down_to_one_card_the_receiver_must_call_uno():
    # classic's at_play: the call goes with one's own play; the 7's player gave his one
    # card away and the receiver made no play: nothing is owed, no window
    s = position("classic", hands=["R7 B1", "G1 G2 G3", "Y1 Y2 Y3"], discard="R5",
                 pile="G9 G8 G7", options=SEVEN_ZERO)
    s, fx = run(s, Play(0, c("R7"), target=2))
    assert not of(fx, "uno_penalty") and s.hands[2] == cs("B1") and s.counts == (3, 3, 1)
    assert s.exposed == -1 and "nothing to call late" in illegal(s, Catch(1, 2))
    # forgotten_uno "catch": the window opens on the receiver, not on the player
    start = position("classic", hands=["R7 B1", "R1 G2 G3", "Y1 Y2 Y3"], discard="R5",
                     pile="G9 G8 G7", options=CATCH)
    s, fx = run(start, Play(0, c("R7"), target=2))
    assert s.exposed == 2 and s.counts == (3, 3, 1) and not of(fx, "uno_penalty")
    assert Catch(1, 2) in legal_actions(s) and "cannot be caught" in illegal(s, Catch(1, 0))
    caught, fx = run(s, Catch(1, 2))
    assert caught.counts == (3, 3, 3) and of(fx, "uno_penalty")[0].seat == 2
    called, fx = run(s, CallUno(2))
    assert called.exposed == -1 and "cannot be caught" in illegal(called, Catch(1, 2))
    moved_on, _ = run(s, Play(1, c("R1")))  # the next player's turn closes the window
    assert moved_on.exposed == -1 and moved_on.counts == (3, 2, 1)


def test_zero_down_to_one_card_the_next_seat_receives_it_and_must_call():
    s = position("classic", hands=["R0 B1", "G1 G2 G3", "Y1 Y2 Y3"], discard="R5",
                 options=CATCH)
    s, fx = run(s, Play(0, c("R0")))
    assert s.hands == (cs("Y1 Y2 Y3"), cs("B1"), cs("G1 G2 G3"))
    assert s.exposed == 1 and s.to_act == 1 and not of(fx, "uno_penalty")
    assert Catch(2, 1) in legal_actions(s)


def test_a_seat_holding_one_card_open_to_a_catch_is_swapped_out_of_it():
    # seat 2 forgot UNO (catch window open); seat 0 swaps with it before anyone catches
    s = position("classic", hands=["R7 B1 B2", "G1 G2", "Y1"], discard="R5",
                 exposed=2, options=CATCH)
    s, fx = run(s, Play(0, c("R7"), target=2))
    assert s.hands == (cs("Y1"), cs("G1 G2"), cs("B1 B2")) and s.exposed == -1
    assert "cannot be caught" in illegal(s, Catch(1, 0))


def test_power_seven_captures_its_tower_then_swaps_and_power_has_no_zero():
    assert not [k for k in get_edition("power").deck if k.kind == "#" and k.number == 0]
    s = position("power", hands=["R7O B1 B2", "G1 G2", "Y1 Y2 Y3"], discard="R5",
                 options=SEVEN_ZERO)
    s, fx = run(s, Play(0, c("R7O"), target=1))
    assert s.towers[2] == 0  # the O tower stays with the seat that captured it
    assert of(fx, "hands_traded") == [HandsTraded(0, 1)] and s.hands[1] == cs("B1 B2")


def test_launcher_editions_swap_on_a_seven_and_extreme_passes_on_a_zero():
    s = position("attack", hands=["R7 B1 B2", "G1 G2", "Y1 Y2 Y3"], discard="R5",
                 options=SEVEN_ZERO)
    s, fx = run(s, Play(0, c("R7"), target=2))
    assert s.hands[0] == cs("Y1 Y2 Y3") and s.hands[2] == cs("B1 B2")
    s = position("extreme", hands=["R0 B1 B2", "G1 G2", "Y1 Y2 Y3"], discard="R5",
                 options=SEVEN_ZERO)
    s, fx = run(s, Play(0, c("R0")))
    assert s.hands == (cs("Y1 Y2 Y3"), cs("B1 B2"), cs("G1 G2"))


def test_table_mode_the_counts_follow_and_the_table_is_told_to_swap():
    s = position("classic", counts=[3, 5, 2], discard="R5", mode="table",
                 options=SEVEN_ZERO)
    s, fx = run(s, Play(0, c("R7"), target=1))
    assert s.counts == (5, 2, 2) and of(fx, "hands_traded") == [HandsTraded(0, 1)]
    s, fx = run(s, Play(1, c("R0")))
    assert s.counts == (2, 5, 1) and of(fx, "hands_passed") == [HandsPassed(1)]


@pytest.mark.parametrize("edition", ["classic", "power", "attack", "attack-1999", "extreme"])
def test_every_edition_accepts_seven_zero(edition):
    assert make_options(get_edition(edition), SEVEN_ZERO).seven_zero is True
    with pytest.raises(OptionError, match="seven_zero"):
        make_options(get_edition(edition), {"seven_zero": "yes"})


def test_the_seven_zero_scenario_file():
    done = scenario_file("classic-seven-zero.toml")
    # after the 7: (Y1-4, R0 G1 G2, B1 B2); after the 0, left: seat 1's G1 G2 to seat 2
    assert done.state.hands == (cs("B1 B2"), cs("Y1 Y2 Y3 Y4"), cs("G1 G2"))
    assert [e for e in done.effects if e.name.startswith("hands")] == [HandsPassed(1)]


def played_with_effects(edition, seats, options, rounds, seed):
    """The checked path's uniform-random match (as tests/uno_core/test_kernel.py) with
    the names of every effect it made."""
    rng, chance = random.Random(seed), random.Random(seed + 1)
    state = new_match(edition, seats, options)
    names = Counter()
    done = 0
    while done < rounds and not state.over:
        action = (sample_outcome(state, chance) if state.to_act == CHANCE
                  else choose_random(state, rng))
        before = state.round_no
        state, fx = apply(state, action)
        names.update(e.name for e in fx)
        done += state.round_no != before
    return state, names


def kernel_agrees(edition, seats, options, rounds, seed):
    """The kernel plays the checked path's match (seeds `seed`, `seed + 1`); returns the
    checked path's effect names."""
    checked, names = played_with_effects(edition, seats, options, rounds, seed)
    kernel = new_match(edition, seats, options)
    run_random(kernel, random.Random(seed), random.Random(seed + 1), rounds)
    assert snapshot(kernel) == snapshot(checked)
    return names


def scenario_file(name):
    """run_scenario of docs/scenarios/`name`."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "scenarios" / name
            ).read_text(encoding="utf-8")
    return run_scenario(parse_scenario(text))


@pytest.mark.parametrize("edition", ["classic", "power", "attack", "extreme"])
def test_the_kernel_hands_seven_zero_matches_to_the_engine(edition):
    names = kernel_agrees(edition, 4, {"target_score": 100000, **SEVEN_ZERO}, 6, 7)
    assert names["hands_traded"] > 0
    assert (names["hands_passed"] > 0) == (edition in ("classic", "extreme"))
