"""House rule jump_in (issue 12): a card identical to the top card may be played out of
turn; play goes on from the jumper. Rows of docs/rules.md (``J::``)."""

import random

import pytest

from tests.uno_core.scen import c, illegal, of, run
from tests.uno_core.test_house_swaps import kernel_agrees, scenario_file
from uno_core import (
    Accept,
    Catch,
    Draw,
    Play,
    Press,
    apply,
    legal_actions,
    new_match,
    position,
    snapshot,
)
from uno_core.bots import HeuristicBot, RandomBot, play_match
from uno_core.effects import CardPlayed, Dispense, Prompt

JUMP = {"jump_in": True}
HANDS = ["R7 B1 B2", "G1 G2", "R7 Y2 Y3", "B5 B6"]


def jumped(s, seat, card="R7", **choices):
    return [a for a in legal_actions(s)
            if isinstance(a, Play) and a.seat == seat and a.card == c(card)
            and all(getattr(a, k) == v for k, v in choices.items())]


def test_a_seat_not_to_act_plays_the_top_cards_twin_and_play_goes_on_from_it():
    s = position("classic", hands=HANDS, discard="R5", options=JUMP)
    s, _ = run(s, Play(0, c("R7")))
    assert s.to_act == 1 and jumped(s, 2) == [Play(2, c("R7"))]  # listed for seat 2
    s, fx = run(s, Play(2, c("R7")))
    assert fx[0] == CardPlayed(2, c("R7")) and s.counts == (2, 2, 2, 2)
    assert s.to_act == 3  # seat 1 lost its turn; play goes on left of the jumper


def test_only_an_identical_card_and_only_under_the_rule():
    s = position("classic", hands=["R7 B1 B2", "G1 G2", "B7 R7 Y3", "R8 B6"],
                 discard="R5", options=JUMP)
    s, _ = run(s, Play(0, c("R7")))
    assert "identical to the top card R7" in illegal(s, Play(2, c("B7")))  # same number
    assert "identical to the top card R7" in illegal(s, Play(3, c("R8")))  # same colour
    assert "does not hold R7" in illegal(s, Play(3, c("R7")))
    plain = position("classic", hands=["R7 B1 B2", "G1 G2", "R7 Y2 Y3", "B5 B6"],
                     discard="R5")
    plain, _ = run(plain, Play(0, c("R7")))
    assert "not seat 2's turn" in illegal(plain, Play(2, c("R7")))
    assert not jumped(plain, 2)


def test_no_jump_in_on_a_wild_nor_while_a_challenge_is_open():
    s = position("classic", hands=["W+4 B1 B2", "G1 G2", "W+4 Y2 Y3"], discard="R5",
                 options={"jump_in": True, "wild_draw4_restricted": True})
    s, _ = run(s, Play(0, c("W+4"), colour="G"))
    assert s.phase == "challenge"
    assert "challenge is open" in illegal(s, Play(2, c("W+4"), colour="B"))
    s, _ = run(s, Accept(1))
    assert s.to_act == 2 and not jumped(s, 0, "W+4")
    w = position("classic", hands=["W B1", "G1 G2", "W Y2"], discard="R5", options=JUMP)
    w, _ = run(w, Play(0, c("W"), colour="G"))
    assert "no jump-in on a wild" in illegal(w, Play(2, c("W"), colour="B"))


def test_owed_presses_come_before_a_jump_in():
    s = position("attack", hands=["RH2 B1 B2", "G1 G2", "RH2 Y2 Y3"], discard="R5",
                 pile="G5 G6 G7 G8 G9", options=JUMP)
    s, _ = run(s, Play(0, c("RH2")))
    assert s.to_act == 1 and s.queue  # seat 1 owes two presses
    assert "presses are owed" in illegal(s, Play(2, c("RH2")))
    assert not jumped(s, 2, "RH2")
    s, _ = run(s, Press(1))
    assert "chance player" in illegal(s, Play(2, c("RH2")))


def test_a_draw_card_jumped_in_hits_the_seat_after_the_jumper():
    s = position("classic", hands=["R+2 B1 B2", "G1 G2", "B3 B4", "R+2 Y2 Y3"],
                 discard="R5", pile="G5 G6 G7 G8 G9", options=JUMP)
    s, fx = run(s, Play(0, c("R+2")))
    assert of(fx, "dispense") == [Dispense(1, 2)] and s.to_act == 2
    s, fx = run(s, Play(3, c("R+2")))  # seat 2 loses its turn; seat 0 draws two
    assert of(fx, "dispense") == [Dispense(0, 2)] and s.to_act == 1


def test_the_seat_to_act_hit_by_a_jump_in_is_prompted_to_press():
    # play goes right (-1): seat 1 is to act; seat 2 jumps in with the other Hit 2, whose
    # victim is seat 1 again: its turn is gone, it now owes two presses
    s = position("attack", hands=["B1 B2", "G1 G2", "RH2 Y2 Y3"], discard="RH2", turn=1,
                 direction=-1, pile="G5 G6 G7 G8 G9", options=JUMP)
    s, fx = run(s, Play(2, c("RH2")))
    assert of(fx, "prompt") == [Prompt(1, "press")] and s.to_act == 1 and s.queue


def test_two_seats_declare_at_once_the_first_declaration_wins():
    # table mode (hidden hands): seats 3 and 2 both declare the other R7; the table
    # applies them in journal order
    s = position("classic", counts=[3, 3, 3, 3, 3], discard="R5", mode="table",
                 options=JUMP)
    s, _ = run(s, Play(0, c("R7")))
    assert {a.seat for a in legal_actions(s) if isinstance(a, Play) and a.card == c("R7")
            } == {0, 1, 2, 3, 4}  # the seat to act plays it; any other seat may declare it
    s, fx = run(s, Play(3, c("R7")))
    assert s.to_act == 4 and s.counts == (2, 3, 3, 2, 3)
    assert "first declaration wins" in illegal(s, Play(2, c("R7")))
    assert not [a for a in legal_actions(s) if isinstance(a, Play) and a.seat != 4]


def test_a_jump_in_closes_the_uno_catch_window():
    start = position("classic", hands=["R7 B1", "G1 G2", "R7 Y2 Y3"], discard="R5",
                     options={"jump_in": True, "forgotten_uno": "catch"})
    s, _ = run(start, Play(0, c("R7")))  # seat 0 forgets UNO: open to a catch
    assert s.exposed == 0 and Catch(2, 0) in legal_actions(s) and jumped(s, 2)
    caught, fx = run(s, Catch(2, 0))  # a catch before the jump-in counts
    assert of(fx, "uno_penalty") and jumped(caught, 2)
    s, _ = run(s, Play(2, c("R7")))  # the jump-in is the next play: too late now
    assert s.exposed == -1 and "cannot be caught" in illegal(s, Catch(1, 0))


def test_jumping_in_with_the_last_card_wins_the_round():
    s = position("classic", hands=["R7 B1 B2", "G1 G2", "R7"], discard="R5", options=JUMP)
    s, _ = run(s, Play(0, c("R7")))
    s, fx = run(s, Play(2, c("R7")))
    assert of(fx, "round_over")[0].winner == 2


def test_power_towers_ward_off_a_jumped_in_draw_card_and_the_drawn_card_is_lost():
    # seat 0's +2 hits seat 1; seat 3 jumps in with the other R+2 against seat 0, who
    # holds the N tower (protects against a Draw 2)
    s = position("power", hands=["R+2 B1 B2", "G1 G2", "B3 B4", "R+2 Y2 Y3"],
                 discard="R5", pile="G5 G6 G7 G8 G9", towers={"N": 0}, options=JUMP)
    s, _ = run(s, Play(0, c("R+2")))
    assert s.to_act == 2
    s, _ = run(s, Draw(2))  # Power: draw_when_playable; the drawn card may be played
    s, fx = run(s, Play(3, c("R+2")))
    used = of(fx, "protection_used")[0]
    assert (used.seat, used.tower) == (0, "N") and s.counts[0] == 2 and s.to_act == 0
    assert s.phase == "play" and s.drawn == ()  # seat 2's drawn card is no longer playable


def test_a_jumped_in_seven_under_seven_zero_names_its_seat():
    s = position("classic", hands=["R7 B1 B2", "G1 G2", "R7 Y2 Y3"], discard="R5",
                 options={"jump_in": True, "seven_zero": True})
    s, _ = run(s, Play(0, c("R7"), target=1))
    assert [a.target for a in jumped(s, 2)] == [0, 1]
    s, fx = run(s, Play(2, c("R7"), target=0))
    assert of(fx, "hands_traded")[0].seat == 2 and s.counts[2] == 2


def test_a_jump_in_during_a_pending_stack_joins_it_and_passes_the_total_on():
    # stack_draws: seat 0's R+2 waits for seat 1 to stack or take; seat 2 jumps in with
    # the other R+2: the stack grows to 4 and waits for seat 3; seat 1 is passed over
    s = position("classic", hands=["R+2 B1 B2", "G1 G2", "R+2 Y2 Y3", "B5 B6"],
                 discard="R5", pile="G5 G6 G7 G8 G9",
                 options={"jump_in": True, "stack_draws": "same"})
    s, _ = run(s, Play(0, c("R+2")))
    assert s.stack == (2, 1) and jumped(s, 2, "R+2")
    s, fx = run(s, Play(2, c("R+2")))
    assert s.stack == (4, 3) and s.to_act == 3 and not of(fx, "dispense")
    s, fx = run(s, Draw(3))  # seat 3 cannot stack: it takes the total
    assert of(fx, "dispense") == [Dispense(3, 4)] and s.counts == (2, 2, 2, 6)
    assert s.to_act == 0 and s.stack == ()
    # at a launcher the stack is not owed yet either: a jumped-in Hit 2 joins it
    a = position("attack", hands=["RH2 B1 B2", "G1 G2", "RH2 Y2 Y3", "B5 B6"],
                 discard="R5", pile="G5 G6 G7 G8 G9",
                 options={"jump_in": True, "stack_draws": "same"})
    a, _ = run(a, Play(0, c("RH2")), Play(2, c("RH2")))
    assert a.stack == (4, 3) and a.to_act == 3 and not a.queue


@pytest.mark.parametrize("bot", [HeuristicBot, RandomBot])
def test_bots_jump_in_and_the_match_replays(bot):
    # the bots that play simulate's and the tests' matches use the rule too: a seat
    # holding the top card's twin jumps in (HeuristicBot always, RandomBot sometimes)
    rng = random.Random(3)
    options = {"jump_in": True, "seven_zero": True, "target_score": 300}
    log = play_match("classic", 4, [bot(rng) for _ in range(4)], rng, options=options)
    state, jumps = new_match("classic", 4, options), 0
    for a in log.actions:
        jumps += isinstance(a, Play) and a.seat != state.to_act
        state, _ = apply(state, a)
    assert log.state.over and jumps > 0 and snapshot(state) == snapshot(log.state)


@pytest.mark.parametrize("edition", ["classic", "power", "attack", "extreme"])
def test_the_kernel_hands_jump_in_matches_to_the_engine(edition):
    # the uniform policy plays for the seat to act only; the listing offers the jumps
    kernel_agrees(edition, 4, {"target_score": 100000, **JUMP}, 6, 11)


def test_the_jump_in_scenario_file():
    done = scenario_file("classic-jump-in.toml")
    assert list(done.effects) == [CardPlayed(2, c("R7"))]
    assert done.state.to_act == 3 and done.state.counts == (2, 2, 2, 2)
