"""Scenario tests for UNO Attack, 2010 and 1999 decks (seed 001). Rows of docs/rules.md."""

import pytest

from tests.uno_core.scen import c, cs, illegal, of, run, started
from uno_core import (
    Catch,
    Draw,
    Eject,
    Pass,
    Play,
    Press,
    legal_actions,
    position,
)
from uno_core.actions import CHANCE
from uno_core.effects import EVERYONE_ONCE, FIXED, UNTIL_CARDS, OwePresses, Prompt

LOAD = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 G1 G2 G3"


def test_cannot_play_press_once_keep_what_comes_turn_ends():
    s = position("attack", hands=["B1 B2", "G5"], discard="R7", pile=LOAD)
    assert Draw(0) not in legal_actions(s) and Press(0) in legal_actions(s)
    assert "launcher" in illegal(s, Draw(0))
    s, fx = run(s, Press(0))
    assert s.to_act == CHANCE and s.chance == "eject"
    s, fx = run(s, Eject(3))
    assert of(fx, "ejected")[0].count == 3 and s.hands[0] == cs("B1 B2 G1 G2 G3")
    assert s.to_act == 1  # even though a card may fit, the turn is over


def test_launcher_may_give_nothing():
    s = position("attack", hands=["B1 B2", "G5"], discard="R7", pile=LOAD)
    s, fx = run(s, Press(0), Eject(0))
    assert s.counts[0] == 2 and s.to_act == 1 and s.since_eject == 1


def test_ejection_cannot_exceed_the_launcher_load():
    s = position("attack", hands=["B1 B2", "G5"], discard="R7", pile="Y1 Y2")
    s, _ = run(s, Press(0))
    assert "holds only 2" in illegal(s, Eject(3))


def test_will_not_play_may_press_anyway():
    s = position("attack", hands=["R1 B2", "G5"], discard="R7", pile=LOAD)
    assert Press(0) in legal_actions(s)


def test_hit2_next_presses_twice_turn_over():
    s = position("attack", hands=["RH2 R1 R2", "G5", "B6"], discard="R7", pile=LOAD)
    s, fx = run(s, Play(0, c("RH2")))
    assert of(fx, "owe_presses") == [OwePresses(1, 2, FIXED)] and s.to_act == 1
    assert of(fx, "prompt") == [Prompt(1, "press")]  # aim the launcher at seat 1
    assert legal_actions(s) == [Press(1)]
    assert "not seat 1's turn" in illegal(s, Play(1, c("G5")))
    s, fx = run(s, Press(1), Eject(0), Press(1), Eject(2))
    assert s.counts[1] == 3 and s.to_act == 2


def test_first_card_hit2_left_of_dealer_presses_twice_then_play_goes_left():
    s, fx = started("attack", 3, "RH2", dealer=0)
    assert s.to_act == 1 and of(fx, "owe_presses")[0] == OwePresses(1, 2, FIXED)
    s, _ = run(s, Press(1), Eject(1), Press(1), Eject(0))
    assert s.to_act == 2 and s.counts[1] == 8


def test_wild_hit4_colour_and_four_presses():
    s = position("attack", hands=["WH4 R1", "G5", "B6"], discard="R7", pile=LOAD)
    s, fx = run(s, Play(0, c("WH4"), colour="B"))
    assert s.colour == "B" and of(fx, "owe_presses") == [OwePresses(1, 4, FIXED)]
    s, _ = run(s, *[a for _ in range(4) for a in (Press(1), Eject(0))])
    assert s.to_act == 2


def test_wild_attack_attack_any_player_presses_twice():
    s = position("attack", hands=["WAA R1", "G5", "B6"], discard="R7", pile=LOAD)
    assert "target seat" in illegal(s, Play(0, c("WAA"), colour="G"))
    assert "target seat" in illegal(s, Play(0, c("WAA"), colour="G", target=0))
    s, fx = run(s, Play(0, c("WAA"), colour="G", target=2))
    assert of(fx, "owe_presses") == [OwePresses(2, 2, FIXED)] and s.to_act == 2
    s, _ = run(s, Press(2), Eject(1), Press(2), Eject(1))
    assert s.counts[2] == 3 and s.to_act == 1  # then play goes on to the left as usual


def test_discard_all_lays_all_cards_of_its_colour():
    s = position("attack", hands=["RDA R1 R5 B2", "G5"], discard="R7")
    assert "all other R cards" in illegal(s, Play(0, c("RDA"), laid=cs("R1")))
    s, fx = run(s, Play(0, c("RDA"), laid=cs("R1 R5")))
    assert s.hands[0] == cs("B2") and s.discard[-3:] == cs("R1 R5 RDA")
    assert of(fx, "cards_laid")[0].cards == cs("R1 R5") and s.to_act == 1


def test_discard_all_on_another_discard_all():
    s = position("attack", hands=["RDA B2", "G5"], discard="BDA")
    s, _ = run(s, Play(0, c("RDA")))
    assert s.colour == "R"


def test_two_player_skip_and_reverse_play_again():
    for card in ("RS", "RR"):
        s = position("attack", hands=[f"{card} R1 B1", "G5"], discard="R7")
        s, _ = run(s, Play(0, c(card)))
        assert s.to_act == 0


def test_two_player_hit2_play_returns_to_you():
    s = position("attack", hands=["RH2 R1", "G5"], discard="R7", pile=LOAD)
    s, _ = run(s, Play(0, c("RH2")), Press(1), Eject(0), Press(1), Eject(0))
    assert s.to_act == 0


def test_more_players_skip_reverse_no_extra_play_by_default():
    s = position("attack", hands=["RS R1", "G5", "B6"], discard="R7")
    s, _ = run(s, Play(0, c("RS")))
    assert s.to_act == 2


def test_option_always_extra_play_after_skip_or_reverse():
    opts = {"skip_reverse_extra_turn": "always"}
    s = position("attack", hands=["RS R1 B1 B2", "G5", "B6", "Y1"], discard="R7", options=opts)
    s, fx = run(s, Play(0, c("RS")))
    assert s.phase == "extra" and s.to_act == 0
    assert set(legal_actions(s)) == {Play(0, c("R1")), Pass(0)}
    s2, _ = run(s, Play(0, c("R1")))
    assert s2.to_act == 2  # the skip still passes over seat 1
    s3, _ = run(s, Pass(0))
    assert s3.to_act == 2
    s = position("attack", hands=["RR R1 B1", "G5", "B6", "Y1"], discard="R7", options=opts)
    s, _ = run(s, Play(0, c("RR")), Pass(0))
    assert s.to_act == 3 and s.direction == -1


def test_forgotten_uno_caught_presses_twice():
    s = position("attack", hands=["R1 R2", "G5", "B6"], discard="R7", pile=LOAD)
    s, _ = run(s, Play(0, c("R1")), Catch(2, 0))
    assert s.to_act == 0 and legal_actions(s) == [Press(0)]
    s, fx = run(s, Press(0), Eject(2), Press(0), Eject(0))
    assert s.counts[0] == 3 and s.to_act == 1


def test_going_out_on_hit2_effect_still_happens_and_counts():
    s = position("attack", hands=["RH2", "G5", "B6"], discard="R7", pile=LOAD)
    s, fx = run(s, Play(0, c("RH2")))
    assert not of(fx, "round_over") and s.to_act == 1
    s, fx = run(s, Press(1), Eject(2), Press(1), Eject(1))
    over = of(fx, "round_over")[0]
    assert over.winner == 0 and over.points == (0, 5 + 1 + 2 + 3, 6)


def test_wild_customizable_is_a_plain_wild_by_default():
    s = position("attack", hands=["WC R1", "G5", "B6"], discard="R7")
    s, fx = run(s, Play(0, c("WC"), colour="Y"))
    assert s.colour == "Y" and s.to_act == 1 and not of(fx, "owe_presses")


@pytest.mark.parametrize(
    ("effect", "target", "expect_to_act", "owed"),
    [
        ("hit-2", -1, 1, [OwePresses(1, 2, FIXED)]),
        ("skip", -1, 2, []),
        ("attack-attack", 2, 2, [OwePresses(2, 2, FIXED)]),
        ("hit-fire", -1, 1, [OwePresses(1, 0, UNTIL_CARDS)]),
    ],
)
def test_wild_customizable_as_configured_effect(effect, target, expect_to_act, owed):
    s = position("attack", hands=["WC R1", "G5", "B6"], discard="R7", pile=LOAD,
                 options={"wild_customizable": effect})
    s, fx = run(s, Play(0, c("WC"), colour="Y", target=target))
    assert of(fx, "owe_presses") == owed and s.to_act == expect_to_act


def test_attack_scoring_table():
    s = position("attack", hands=["R1", "RR RS RH2 WH4 RDA W WAA WC R9", "B6"], discard="R7")
    s, fx = run(s, Play(0, c("R1")))
    assert of(fx, "round_over")[0].points == (0, 20 * 3 + 40 + 30 + 50 * 3 + 9, 6)


# ---- the 1999 deck


def test_wild_hit_fire_press_until_cards_come():
    s = position("attack-1999", hands=["WHF R1", "G5", "B6"], discard="R7", pile=LOAD)
    s, fx = run(s, Play(0, c("WHF"), colour="G"))
    assert of(fx, "owe_presses") == [OwePresses(1, 0, UNTIL_CARDS)]
    s, _ = run(s, Press(1), Eject(0), Press(1), Eject(0), Press(1))
    assert s.to_act == CHANCE
    s, _ = run(s, Eject(4))
    assert s.counts[1] == 5 and s.to_act == 2


def test_wild_all_hit_every_player_presses_once():
    s = position("attack-1999", hands=["WAH R1", "G5", "B6"], discard="R7", pile=LOAD)
    s, fx = run(s, Play(0, c("WAH"), colour="G"))
    assert of(fx, "owe_presses") == [OwePresses(1, 1, EVERYONE_ONCE),
                                     OwePresses(2, 1, EVERYONE_ONCE),
                                     OwePresses(0, 1, EVERYONE_ONCE)]
    s, _ = run(s, Press(1), Eject(1), Press(2), Eject(0), Press(0), Eject(2))
    assert s.counts == (3, 2, 1) and s.to_act == 1


def test_wild_all_hit_mattel_each_other_player():
    s = position("attack-1999", hands=["WAH R1", "G5", "B6"], discard="R7", pile=LOAD,
                 options={"all_hit_scope": "others"})
    s, fx = run(s, Play(0, c("WAH"), colour="G"))
    assert [o.seat for o in of(fx, "owe_presses")] == [1, 2]


def test_trade_hands_with_a_chosen_player():
    s = position("attack-1999", hands=["RTH R1", "G5 G6 G7", "B6"], discard="R7")
    s, fx = run(s, Play(0, c("RTH"), target=1))
    assert s.hands[0] == cs("G5 G6 G7") and s.hands[1] == cs("R1")
    assert of(fx, "hands_traded")[0].other == 1 and s.to_act == 1


def test_at_play_option_launcher_penalty_presses_at_once_trade_hands_owes_nothing():
    at_play = {"forgotten_uno": "at_play"}
    s = position("attack", hands=["R1 R2", "G5", "B6"], discard="R7", pile=LOAD,
                 options=at_play)
    s, fx = run(s, Play(0, c("R1")))
    assert of(fx, "owe_presses") == [OwePresses(0, 2, FIXED)] and s.to_act == 0
    s, _ = run(s, Press(0), Eject(2), Press(0), Eject(0))
    assert s.counts[0] == 3 and s.to_act == 1
    # Trade Hands gives the last card away: the player does not hold one card
    s = position("attack-1999", hands=["RTH R1", "G5 G6 G7", "B6"], discard="R7",
                 options=at_play)
    s, fx = run(s, Play(0, c("RTH"), target=1))
    assert not of(fx, "uno_penalty") and s.counts == (3, 1, 1) and s.to_act == 1


def test_attack_1999_scoring_table():
    s = position("attack-1999", hands=["R1", "RDA RTH WAH WHF W", "B6"], discard="R7")
    s, fx = run(s, Play(0, c("R1")))
    assert of(fx, "round_over")[0].points == (0, 30 + 30 + 50 + 50 + 50, 6)


def test_empty_launcher_is_reloaded_from_the_discard_pile():
    s = position("attack", hands=["B1", "G5"], discard="Y4 Y5 R7", pile="Y1")
    s, fx = run(s, Press(0), Eject(1))
    assert s.to_act == CHANCE and s.chance == "shuffle"


def test_pass_only_where_a_pass_exists():
    s = position("attack", hands=["B1", "G5"], discard="R7", pile=LOAD)
    assert "passing" in illegal(s, Pass(0))


def test_other_first_cards_are_colour_cards_or_name_a_colour():
    s, fx = started("attack-1999", 3, "RDA", dealer=0)
    assert s.to_act == 1 and s.phase == "play" and s.colour == "R"
    s, fx = started("attack-1999", 3, "GTH", dealer=0)
    assert s.to_act == 1 and s.phase == "play" and s.counts == (7, 7, 7)
    for wild in ("WHF", "WAH"):
        s, fx = started("attack-1999", 3, wild, dealer=0)
        assert s.phase == "first_colour" and s.to_act == 1 and not of(fx, "owe_presses")
