"""House rule draw_until_playable (issue 12, pile editions): a seat that cannot play draws
one card at a time until it draws a playable card, which it then plays. Rows of
docs/rules.md (``D::``)."""


import pytest

from tests.uno_core.scen import c, cs, illegal, of, run
from tests.uno_core.test_house_swaps import kernel_agrees, scenario_file
from uno_core import (
    CHANCE,
    Draw,
    OptionError,
    Pass,
    Play,
    Shuffle,
    get_edition,
    legal_actions,
    make_options,
    position,
)
from uno_core.effects import Dispense, Prompt

UNTIL = {"draw_until_playable": True}


def test_draws_one_card_at_a_time_until_one_fits_then_plays_it():
    # classic: draw_then_play is off, and still the card that fits is played
    s = position("classic", hands=["B1 B2", "G1 G2", "Y1 Y2 Y3"], discard="R5",
                 pile="G5 R9 G7 Y8", options=UNTIL)
    assert legal_actions(s) == [Draw(0)]
    s, fx = run(s, Draw(0))  # Y8: does not fit
    assert fx == [Dispense(0, 1), Prompt(0, "draw_again")] and s.to_act == 0
    assert legal_actions(s) == [Draw(0)] and PASS_TEXT in illegal(s, Pass(0))
    s, fx = run(s, Draw(0), Draw(0))  # G7, then R9: fits
    assert of(fx, "dispense") == [Dispense(0, 1), Dispense(0, 1)]
    assert fx[-1] == Prompt(0, "play_drawn") and s.hands[0] == cs("B1 B2 Y8 G7 R9")
    assert legal_actions(s) == [Play(0, c("R9"))]  # no Pass, no further Draw
    assert PASS_TEXT in illegal(s, Pass(0))
    assert "the drawn card" in illegal(s, Play(0, c("B1")))
    s, fx = run(s, Play(0, c("R9")))
    assert s.to_act == 1 and s.counts[0] == 4


PASS_TEXT = "play the drawn card if it fits, else draw again"


def test_the_pile_running_out_is_reshuffled_and_the_drawing_goes_on():
    s = position("classic", hands=["B1 B2", "G1 G2"], discard="R4 B3 R5", pile="G7",
                 options=UNTIL)
    s, _ = run(s, Draw(0))  # G7, the pile's last card: does not fit
    assert s.to_act == CHANCE and s.chance == "shuffle"  # the pile ran out
    s, fx = run(s, Shuffle((1, 0)))  # R4 on top
    assert of(fx, "reshuffled") and s.to_act == 0 and legal_actions(s) == [Draw(0)]
    s, fx = run(s, Draw(0))
    assert of(fx, "dispense") == [Dispense(0, 1)] and s.hands[0] == cs("B1 B2 G7 R4")
    assert s.phase == "drawn" and legal_actions(s) == [Play(0, c("R4"))]


def test_when_nothing_is_left_to_draw_the_turn_ends():
    s = position("classic", hands=["B1 B2", "G1 G2"], discard="R5", pile="G7",
                 options=UNTIL)
    s, _ = run(s, Draw(0))
    assert legal_actions(s) == [Draw(0)]
    s, fx = run(s, Draw(0))  # pile empty, the discard pile only its top: nothing comes
    assert not of(fx, "dispense") and s.to_act == 1 and s.phase == "play"
    assert s.hands[0] == cs("B1 B2 G7")


def test_power_a_seat_that_may_draw_although_a_card_fits_draws_until_one_fits():
    # Power: draw_when_playable. With no_bluff, a drawn Wild Draw 4 while holding red is
    # no playable card: the drawing goes on
    s = position("power", hands=["R1 B2", "G1 G2"], discard="R5", pile="Y9 W+4",
                 options={**UNTIL, "no_bluff": True})
    s, fx = run(s, Draw(0))  # the W+4
    assert legal_actions(s) == [Draw(0)] and "the drawn card" in illegal(s, Play(0, c("R1")))
    s, fx = run(s, Draw(0))  # Y9: does not fit either
    s, fx = run(s, Draw(0))  # nothing left: the turn ends
    assert s.to_act == 1 and s.counts[0] == 4


def test_launcher_editions_refuse_the_option_and_say_why():
    for edition in ("attack", "attack-1999", "extreme"):
        with pytest.raises(OptionError, match="draws by pressing the launcher") as err:
            make_options(get_edition(edition), UNTIL)
        assert "draw_until_playable" in str(err.value)
    for edition in ("classic", "power"):
        assert make_options(get_edition(edition), UNTIL).draw_until_playable


def test_table_mode_one_card_per_press_until_the_player_declares_it():
    s = position("classic", counts=[2, 2, 3], discard="R5", mode="table", options=UNTIL)
    s, fx = run(s, Draw(0))
    assert fx == [Dispense(0, 1), Prompt(0, "play_or_draw_again")] and s.counts[0] == 3
    legal = legal_actions(s)
    assert Draw(0) in legal and Play(0, c("R9")) in legal and Pass(0) not in legal
    s, fx = run(s, Draw(0))  # the card did not fit: the next press deals one more
    assert of(fx, "dispense") == [Dispense(0, 1)] and s.counts[0] == 4
    s, fx = run(s, Play(0, c("R9")))  # declared: this one fits
    assert s.counts[0] == 3 and s.to_act == 1


def test_a_pending_stack_is_taken_with_one_draw_not_drawn_until_playable():
    s = position("classic", hands=["R+2 B1 B2", "G1 G2", "Y1 Y2"], discard="R5",
                 pile="G5 G6 G7 G8 G9", options={**UNTIL, "stack_draws": "same"})
    s, _ = run(s, Play(0, c("R+2")))
    s, fx = run(s, Draw(1))  # seat 1 does not stack: it takes the total, turn over
    assert of(fx, "dispense") == [Dispense(1, 2)] and s.to_act == 2 and s.phase == "play"


@pytest.mark.parametrize("edition", ["classic", "power"])
def test_the_kernel_hands_draw_until_playable_matches_to_the_engine(edition):
    names = kernel_agrees(edition, 3, {"target_score": 100000, **UNTIL}, 6, 5)
    assert names["prompt"] and names["dispense"]


def test_the_draw_until_playable_scenario_file():
    done = scenario_file("classic-draw-until-playable.toml")
    assert done.state.hands[0] == cs("B1 B2 Y8 G7") and done.state.to_act == 1
    assert done.state.top == c("R9")
