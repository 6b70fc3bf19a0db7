"""The cases docs/formats.md settles for the penalty options and the other rules of
other tables („Cases the rules above settle", items 11-16, and step 1 of „After every
action"): what a referee written from the documents must expect, held against the
engine."""

from __future__ import annotations

from tests.uno_core.scen import c, of, run
from uno_core import Accept, CallUno, Catch, Play, Press, position
from uno_core.effects import (
    BY_TABLE,
    CardPlayed,
    ColourChosen,
    Dispense,
    OwePresses,
    PlayerSkipped,
    Prompt,
    UnoPenalty,
)

PILE = "G1 G2 G3 G6 G7 G8 G9 B1 B2 B3 B4 B7"


def test_step_1_prompts_by_who_was_to_act_not_by_who_acted():
    """A false call by a seat not to act: prompted; a catch of a seat that is itself to
    act (two players, its Skip gave it the turn): not prompted."""
    s = position("attack", hands=["R1 R2 R3", "G1 G2"], discard="R5", pile=PILE,
                 options={"false_uno_penalty": 2})
    s, fx = run(s, CallUno(1))
    assert fx == [UnoPenalty(1, BY_TABLE), OwePresses(1, 2, "fixed"), Prompt(1, "press")]
    assert s.to_act == 1
    s = position("attack", hands=["RS R2", "G1 G2"], discard="R5", pile=PILE,
                 options={"forgotten_uno": "catch"})
    s, _ = run(s, Play(0, c("RS")))
    assert s.exposed == 0 and s.to_act == 0
    s, fx = run(s, Catch(1, 0))
    assert fx == [UnoPenalty(0, 1), OwePresses(0, 2, "fixed")] and s.to_act == 0


def test_item_11_a_banned_finish_try_keeps_the_phase_and_closes_another_window():
    opts = {"no_action_finish": True, "banned_finish_penalty": 1, "forgotten_uno": "catch"}
    s = position("classic", hands=["R7 G1", "RS", "B5 B6"], discard="R5", pile="G4 G5 B9",
                 options=opts)
    s, _ = run(s, Play(0, c("R7")))
    assert s.exposed == 0
    s, fx = run(s, Play(1, c("RS")))
    assert fx == [Dispense(1, 1)] and s.exposed == -1
    assert s.phase == "play" and s.to_act == 1 and s.discard[-1] == c("R7")
    extra = position("attack", hands=["RS RR", "G1 G2", "B5 B6", "Y1 Y2"], discard="R5",
                     pile=PILE, options={"no_action_finish": True, "banned_finish_penalty": 1,
                                         "skip_reverse_extra_turn": "always"})
    extra, _ = run(extra, Play(0, c("RS")))
    extra, fx = run(extra, Play(0, c("RR")))
    assert fx == [OwePresses(0, 1, "fixed")] and extra.phase == "extra"
    assert extra.to_act == 0


def test_item_12_a_false_call_counts_under_at_play_at_any_time_a_seat_may_act():
    s = position("classic", hands=["R1 R2 R3", "G1 G2"], discard="R5", pile=PILE,
                 options={"false_uno_penalty": 2})
    assert s.options.forgotten_uno == "at_play"
    s, fx = run(s, CallUno(1))
    assert fx == [UnoPenalty(1, BY_TABLE), Dispense(1, 2)] and s.to_act == 0
    before_play = position("classic", hands=["R1 G2", "G1 G5 G3"], discard="R5", pile=PILE,
                           options={"false_uno_penalty": 2})
    _, fx = run(before_play, CallUno(0))  # at_play: the call goes with the play
    assert of(fx, "uno_penalty") == [UnoPenalty(0, BY_TABLE)]


def test_item_13_the_false_uno_penalty_comes_after_the_card_and_before_its_effects():
    s = position("classic", hands=["R+2 R1 R3", "G1 G2"], discard="R5", pile=PILE,
                 options={"false_uno_penalty": 2})
    _, fx = run(s, Play(0, c("R+2"), uno=True))
    assert fx == [CardPlayed(0, c("R+2")), UnoPenalty(0, BY_TABLE), PlayerSkipped(1),
                  Dispense(0, 2), Dispense(1, 2)]
    launcher = position("attack", hands=["RH2 R1 R3", "G1 G2"], discard="R5", pile=PILE,
                        options={"false_uno_penalty": 2})
    _, fx = run(launcher, Play(0, c("RH2"), uno=True))
    assert fx == [CardPlayed(0, c("RH2")), UnoPenalty(0, BY_TABLE), OwePresses(0, 2, "fixed"),
                  OwePresses(1, 2, "fixed"), PlayerSkipped(1)]


def test_item_14_the_penalised_press_is_not_one_of_the_penalty_presses():
    s = position("extreme", hands=["R1 B2", "G1 G2"], discard="R5", pile=PILE,
                 options={"playable_draw_penalty": 2}, since_eject=1)
    s, fx = run(s, Press(0))
    assert fx == [OwePresses(0, 2, "fixed"), PlayerSkipped(0)]
    assert s.since_eject == 1 and s.to_act == 0 and s.queue[0].amount == 2


def test_item_15_a_wild_draw4_jumped_in_on_a_stack_joins_it_unchallenged():
    o = {"jump_in": True, "jump_in_wilds": True, "wild_draw4_restricted": True}
    hands = ["W+4 R1 R3", "R+2 B5", "Y1 Y2 Y3", "W+4 G4 G5"]
    stack = position("classic", hands=hands, discard="R7", pile=PILE,
                     options={**o, "stack_draws": "cross"})
    stack, _ = run(stack, Play(0, c("W+4"), colour="G"), Accept(1))
    stack, fx = run(stack, Play(3, c("W+4"), colour="B"))
    assert fx == [CardPlayed(3, c("W+4")), ColourChosen(3, "B"), Prompt(0, "stack")]
    assert stack.stack == (8, 0)
    plain = position("classic", hands=hands, discard="R7", pile=PILE, options=o)
    plain, _ = run(plain, Play(0, c("W+4"), colour="G"), Accept(1))
    plain, fx = run(plain, Play(3, c("W+4"), colour="B"))
    assert plain.phase == "challenge" and fx[-1] == Prompt(0, "challenge")


def test_item_16_swap_uno_called_gives_no_uno_called():
    opts = {"seven_zero": True, "forgotten_uno": "catch", "swap_uno_called": True}
    s = position("classic", hands=["R7 B1", "R1 G2 G3", "Y1 Y2 Y3"], discard="R5",
                 pile="G9 G8 G7", options=opts)
    s, fx = run(s, Play(0, c("R7"), target=2))
    assert not of(fx, "uno_called") and s.exposed == -1 and s.counts[2] == 1
