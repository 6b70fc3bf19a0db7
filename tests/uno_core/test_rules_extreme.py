"""Scenario tests for UNO Extreme (seed 003). Rows of docs/rules.md."""

from tests.uno_core.scen import c, cs, illegal, of, run, started
from uno_core import (
    Catch,
    ChooseColour,
    DealerCards,
    Eject,
    Pass,
    Play,
    Press,
    Shuffle,
    apply,
    legal_actions,
    new_match,
    position,
)
from uno_core.actions import CHANCE
from uno_core.effects import FIXED, OwePresses, Prompt

LOAD = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 G1 G2 R3"


def test_highest_card_starts_the_player_to_his_right_deals():
    s = new_match("extreme", 4)
    s, fx = apply(s, DealerCards(cs("R1 G1 B9 Y1")))
    assert s.dealer == 1 and of(fx, "dealer_chosen")[0].seat == 1
    s, _ = apply(s, Shuffle(tuple(range(112))[::-1]))
    assert s.hands[2][0] == s.edition.deck[0]  # dealt first: the highest card's owner


def test_first_reverse_the_dealer_starts():
    s, _ = started("extreme", 3, "GR", dealer=1)
    assert s.to_act == 1 and s.direction == -1


def test_first_skip_applies():
    s, fx = started("extreme", 3, "GS", dealer=1)
    assert s.to_act == 0 and of(fx, "player_skipped")[0].seat == 2


def test_first_hit2_applies():
    s, fx = started("extreme", 3, "GH2", dealer=1)
    assert of(fx, "owe_presses")[0] == OwePresses(2, 2, FIXED) and s.to_act == 2


def test_first_wild_first_player_names_colour_extremer_zug_goes_back():
    s, _ = started("extreme", 3, "W", dealer=1)
    assert s.phase == "first_colour" and s.to_act == 2
    s, _ = run(s, ChooseColour(2, "B"))
    assert s.colour == "B"
    s, fx = started("extreme", 3, "WX", dealer=1)
    assert of(fx, "card_returned")[0].card == c("WX")


def test_press_and_play_the_ejected_card_if_it_fits_no_second_press():
    s = position("extreme", hands=["B1 B2", "G5"], discard="R7", pile=LOAD)
    assert Press(0) in legal_actions(s)
    s, fx = run(s, Press(0), Eject(2))  # G2 and R3 come out
    assert of(fx, "prompt")[-1] == Prompt(0, "play_drawn")
    assert s.phase == "drawn" and set(legal_actions(s)) == {Play(0, c("R3")), Pass(0)}
    assert "cannot draw now" in illegal(s, Press(0))
    s2, _ = run(s, Play(0, c("R3")))
    assert s2.discard[-1] == c("R3") and s2.to_act == 1
    s3, _ = run(s, Pass(0))
    assert s3.to_act == 1 and s3.counts[0] == 4


def test_press_only_when_nothing_fits():
    s = position("extreme", hands=["R1 B2", "G5"], discard="R7", pile=LOAD)
    assert Press(0) not in legal_actions(s)
    assert "cannot play" in illegal(s, Press(0))


def test_mattel_option_the_turn_ends_after_pressing():
    s = position("extreme", hands=["B1 B2", "G5"], discard="R7", pile=LOAD,
                 options={"draw_then_play": False})
    s, _ = run(s, Press(0), Eject(2))
    assert s.to_act == 1


def test_reverse_only_on_its_colour_or_a_reverse():
    s = position("extreme", hands=["BR GR", "G5"], discard="RR")
    assert {a.card for a in legal_actions(s) if isinstance(a, Play)} == set(cs("BR GR"))
    s = position("extreme", hands=["BR Y4", "G5"], discard="R7")
    assert "matches neither" in illegal(s, Play(0, c("BR")))


def test_skip_next_player_passes():
    s = position("extreme", hands=["RS R1", "G5", "B6"], discard="R7")
    s, _ = run(s, Play(0, c("RS")))
    assert s.to_act == 2


def test_wild_only_without_the_current_colour_and_may_keep_it():
    s = position("extreme", hands=["W R1", "G5"], discard="R7")
    assert "no R card" in illegal(s, Play(0, c("W"), colour="B"))
    s = position("extreme", hands=["W B1", "G5"], discard="R7")
    s, _ = run(s, Play(0, c("W"), colour="R"))
    assert s.colour == "R" and s.to_act == 1


def test_mattel_option_wild_any_time():
    s = position("extreme", hands=["W R1", "G5"], discard="R7",
                 options={"wild_restricted": False})
    s, _ = run(s, Play(0, c("W"), colour="B"))
    assert s.colour == "B"


def test_discard_all_in_the_named_colour():
    s = position("extreme", hands=["BDA B1 B5 R2", "G5"], discard="B7")
    s, _ = run(s, Play(0, c("BDA"), laid=cs("B1 B5")))
    assert s.hands[0] == cs("R2") and s.colour == "B"


def test_hit2_press_twice_then_pass_no_stacking():
    s = position("extreme", hands=["RH2 R1 R2", "GH2 G5", "B6"], discard="R7", pile=LOAD)
    s, fx = run(s, Play(0, c("RH2")))
    assert s.to_act == 1 and legal_actions(s) == [Press(1)]  # no +2 on the +2
    assert "not seat 1's turn" in illegal(s, Play(1, c("GH2")))
    s, _ = run(s, Press(1), Eject(0), Press(1), Eject(0))
    assert s.to_act == 2


def test_extremer_zug_colour_and_a_player_who_presses_four_times():
    s = position("extreme", hands=["WX R1 R2", "G5", "B6", "Y1"], discard="R7", pile=LOAD)
    s, fx = run(s, Play(0, c("WX"), colour="G", target=2))
    assert of(fx, "owe_presses") == [OwePresses(2, 4, FIXED)] and s.colour == "G"
    s, _ = run(s, *[a for _ in range(4) for a in (Press(2), Eject(0))])
    assert s.to_act == 1  # a target further on presses out of turn; play goes on


def test_extremer_zug_on_the_next_player_he_presses_then_passes():
    s = position("extreme", hands=["WX R1 R2", "G5", "B6"], discard="R7", pile=LOAD)
    s, fx = run(s, Play(0, c("WX"), colour="G", target=1))
    s, _ = run(s, *[a for _ in range(4) for a in (Press(1), Eject(1))])
    assert s.counts[1] == 5 and s.to_act == 2


def test_gegenuno_press_twice():
    s = position("extreme", hands=["R1 R2", "G5", "B6"], discard="R7", pile=LOAD)
    s, fx = run(s, Play(0, c("R1")), Catch(1, 0))
    assert of(fx, "owe_presses") == [OwePresses(0, 2, FIXED)]
    s, _ = run(s, Press(0), Eject(3), Press(0), Eject(0))
    assert s.counts[0] == 4 and s.to_act == 1


def test_extreme_scoring_table_and_first_to_target_wins():
    s = position("extreme", hands=["R1", "R0 RH2 RR RS RDA W WX", "B6"], discard="R7",
                 scores=[400, 450, 0])
    s, fx = run(s, Play(0, c("R1")))
    assert of(fx, "round_over")[0].points == (0, 0 + 20 * 3 + 30 + 50 + 50, 6)
    assert of(fx, "match_over")[0].winners == (0,) and s.scores == (596, 450, 0)


def test_press_owed_blocks_everything_else():
    s = position("extreme", hands=["RH2 R1 R2", "G5", "B6"], discard="R7", pile=LOAD)
    s, _ = run(s, Play(0, c("RH2")), Press(1))
    assert s.to_act == CHANCE and legal_actions(s) == []
