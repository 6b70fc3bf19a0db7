"""Scenario tests for classic (seed 002) and the rules every edition shares.

Each test is a row of docs/rules.md."""

from pathlib import Path

from tests.uno_core.scen import c, cs, illegal, names, of, run, started
from uno_core import (
    EDITIONS,
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    DealerCards,
    Draw,
    Pass,
    Play,
    Shuffle,
    apply,
    legal_actions,
    new_match,
    position,
)
from uno_core.actions import CHANCE
from uno_core.effects import BY_TABLE, CardPlayed, Dispense, UnoPenalty
from uno_core.scenario import parse_scenario, run_scenario

CATCH = {"forgotten_uno": "catch"}  # seed 000's catch window instead of 002's rule


def test_dealer_is_highest_number_and_left_of_dealer_starts():
    s = new_match("classic", 3)
    s, fx = apply(s, DealerCards(cs("R5 B9 W")))  # a wild counts 0
    assert of(fx, "dealer_chosen")[0].seat == 1
    s, fx = apply(s, Shuffle(tuple(range(108))[::-1]))
    assert s.dealer == 1 and s.turn == 2


def test_dealer_tie_means_everyone_turns_again():
    s, fx = apply(new_match("classic", 3), DealerCards(cs("R9 B9 G1")))
    assert s.to_act == CHANCE and s.chance == "dealer_cards" and s.dealer == -1


def test_deal_seven_each_and_turn_the_top_card():
    s = new_match("classic", 3)
    s, _ = apply(s, DealerCards(cs("R5 B9 G1")))
    s, fx = apply(s, Shuffle(tuple(range(108))[::-1]))  # deck order, first card on top
    assert s.counts == (7, 7, 7)
    assert s.hands[2][0] == c("R0")  # the first card dealt goes left of the dealer
    assert s.discard == (c("G1"),) and s.colour == "G"
    assert [e.seat for e in of(fx, "dispense")] == [2, 0, 1]
    assert len(s.pile) == 108 - 21 - 1


def test_match_colour_or_number_or_symbol():
    s = position("classic", hands=["R1 B9 G+2 Y5 W", "Y1"], discard="G9")
    plays = {a.card for a in legal_actions(s) if isinstance(a, Play)}
    assert plays == set(cs("B9 G+2 W"))
    s = position("classic", hands=["R+2 B+2 Y5", "Y1"], discard="G+2")
    assert {a.card for a in legal_actions(s) if isinstance(a, Play)} == set(cs("R+2 B+2"))
    assert "matches neither" in illegal(s, Play(0, c("Y5")))


def test_classic_draw_then_next_player():
    s = position("classic", hands=["R1 R2", "B5"], discard="G7", pile="Y3 G8")
    s, fx = run(s, Draw(0))
    assert s.hands[0] == cs("R1 R2 G8") and of(fx, "dispense")[0].count == 1
    assert s.to_act == 1  # seed: the next player is on, even though G8 would fit


def test_official_draw_then_play_option():
    s = position("classic", hands=["R1 R2", "B5"], discard="G7", pile="Y3 G8",
                 options={"draw_then_play": True})
    s, _ = run(s, Draw(0))
    assert s.to_act == 0 and s.phase == "drawn"
    assert set(legal_actions(s)) == {Play(0, c("G8")), Pass(0)}
    s2, _ = run(s, Play(0, c("G8")))
    assert s2.discard[-1] == c("G8") and s2.to_act == 1
    s3, _ = run(s, Pass(0))
    assert s3.to_act == 1 and s3.hands[0] == cs("R1 R2 G8")


def test_drawn_card_that_does_not_fit_ends_the_turn():
    s = position("classic", hands=["R1 R2", "B5"], discard="G7", pile="Y3",
                 options={"draw_then_play": True})
    s, _ = run(s, Draw(0))
    assert s.to_act == 1


def test_classic_draw_only_without_a_playable_card():
    s = position("classic", hands=["G1 R2", "B5"], discard="G7")
    assert "cannot play" in illegal(s, Draw(0))
    assert Draw(0) not in legal_actions(s)


def test_skip_passes_over_the_next_player():
    s = position("classic", hands=["RS R1", "B5", "B6"], discard="R7")
    s, fx = run(s, Play(0, c("RS")))
    assert of(fx, "player_skipped")[0].seat == 1 and s.to_act == 2


def test_reverse_changes_direction():
    s = position("classic", hands=["RR R1", "B5", "B6"], discard="R7")
    s, fx = run(s, Play(0, c("RR")))
    assert s.direction == -1 and s.to_act == 2
    assert of(fx, "direction_changed")[0].direction == -1


def test_two_player_reverse_acts_as_skip():
    s = position("classic", hands=["RR R1", "B5"], discard="R7")
    s, _ = run(s, Play(0, c("RR")))
    assert s.to_act == 0
    s = position("classic", hands=["RR R1", "B5"], discard="R7",
                 options={"two_player_reverse_skips": False})
    s, _ = run(s, Play(0, c("RR")))
    assert s.to_act == 1


def test_draw_two_next_player_draws_two_and_loses_turn():
    s = position("classic", hands=["R+2 R1", "B5", "B6"], discard="R7", pile="Y1 Y2 Y3")
    s, fx = run(s, Play(0, c("R+2"), uno=True))
    assert of(fx, "dispense")[0] == of(fx, "dispense")[0].__class__(1, 2)
    assert sorted(s.hands[1]) == sorted(cs("B5 Y3 Y2")) and s.to_act == 2


def test_wild_chooses_any_colour():
    s = position("classic", hands=["W R1", "B5"], discard="R7")
    s, fx = run(s, Play(0, c("W"), colour="B"))
    assert s.colour == "B" and of(fx, "colour_chosen")[0].colour == "B"
    s = position("classic", hands=["W R1", "B5"], discard="R7")
    assert "needs a colour" in illegal(s, Play(0, c("W")))
    assert "only a wild" in illegal(s, Play(0, c("R1"), colour="B"))


def test_classic_wild_draw4_any_time_without_challenge():
    s = position("classic", hands=["W+4 R1", "B5", "B6"], discard="R7")
    s, fx = run(s, Play(0, c("W+4"), colour="G", uno=True))
    assert of(fx, "dispense")[0].count == 4 and s.counts[1] == 5
    assert s.to_act == 2 and s.colour == "G"


def test_official_wild_draw4_challenge_guilty_innocent_accept():
    opts = {"wild_draw4_restricted": True}
    pile = "Y1 Y2 Y3 Y4 Y5 Y6 Y7"
    guilty = position("classic", hands=["W+4 R1", "B5", "B6"], discard="R7", pile=pile,
                      options=opts)
    s, fx = run(guilty, Play(0, c("W+4"), colour="G", uno=True))
    assert s.phase == "challenge" and s.to_act == 1
    assert set(legal_actions(s)) == {Challenge(1), Accept(1)}
    s1, fx = run(s, Challenge(1))
    assert of(fx, "challenge_resolved")[0].guilty is True
    assert s1.counts == (5, 1, 1) and s1.to_act == 1  # player takes 4, challenger plays
    innocent = position("classic", hands=["W+4 B1", "B5", "B6"], discard="R7", pile=pile,
                        options=opts)
    s2, fx = run(innocent, Play(0, c("W+4"), colour="G", uno=True), Challenge(1))
    assert s2.counts == (1, 7, 1) and s2.to_act == 2  # challenger takes 6, loses turn
    s3, _ = run(innocent, Play(0, c("W+4"), colour="G", uno=True), Accept(1))
    assert s3.counts == (1, 5, 1) and s3.to_act == 2


def test_uno_call_with_the_second_to_last_card():
    s = position("classic", hands=["R1 R2", "B5", "B6"], discard="R7")
    s, fx = run(s, Play(0, c("R1"), uno=True))
    assert "uno_called" in names(fx) and s.exposed == -1
    assert "one card left" in illegal(position("classic", hands=["R1 R2 R3", "B5"],
                                               discard="R7"), Play(0, c("R1"), uno=True))


def test_forgotten_uno_draws_two_at_once_with_the_play():
    # 002: the call belongs before the second-to-last card, so the table knows at the
    # play whether it came: without it the player draws 2 at once, nobody needs to catch
    s = position("classic", hands=["R1 R2", "B5", "B6"], discard="R7", pile="Y1 Y2 Y3")
    s, fx = run(s, Play(0, c("R1")))
    assert names(fx) == ["card_played", "uno_penalty", "dispense"]
    assert of(fx, "uno_penalty")[0] == UnoPenalty(0, BY_TABLE)
    assert of(fx, "dispense")[0] == Dispense(0, 2) and s.hands[0] == cs("R2 Y2 Y3")
    assert s.to_act == 1 and s.exposed == -1
    assert not [a for a in legal_actions(s) if isinstance(a, CallUno | Catch)]


def test_the_uno_scenario_file_says_uno_with_the_play_and_forgets_it():
    text = (Path(__file__).resolve().parents[2] / "docs" / "scenarios" /
            "classic-uno-call.toml").read_text(encoding="utf-8")
    done = run_scenario(parse_scenario(text))
    assert done.state.counts == (1, 3, 3) and done.state.hands[1] == cs("R6 Y2 Y3")
    assert list(done.effects) == [CardPlayed(1, c("R5")), UnoPenalty(1, BY_TABLE), Dispense(1, 2)]
    with_catch = text.replace("turn = 0", 'turn = 0\noptions = { forgotten_uno = "catch" }')
    catch = run_scenario(parse_scenario(with_catch))  # seed 000's window: seat 1 is open
    assert catch.state.counts == (1, 1, 3) and catch.state.exposed == 1


def test_forgotten_uno_penalty_comes_before_the_cards_effect():
    s = position("classic", hands=["R+2 R1", "B5", "B6"], discard="R7",
                 pile="Y1 Y2 Y3 Y4 Y5")
    s, fx = run(s, Play(0, c("R+2")))
    assert of(fx, "dispense") == [Dispense(0, 2), Dispense(1, 2)]
    assert s.counts == (3, 3, 1) and s.to_act == 2


def test_calling_after_the_play_is_too_late_and_nobody_catches():
    s = position("classic", hands=["R1 R2", "B5", "B6"], discard="R7")
    s, _ = run(s, Play(0, c("R1")))
    assert "before the second-to-last card" in illegal(s, CallUno(0))
    assert "nothing to call late or to catch" in illegal(s, Catch(2, 0))
    s = position("classic", hands=["R1 R2", "B5", "B6"], discard="R7")
    s, fx = run(s, Play(0, c("R1"), uno=True))  # called in time: no penalty
    assert "uno_called" in names(fx) and not of(fx, "uno_penalty") and s.counts[0] == 1
    assert "nothing to call late or to catch" in illegal(s, Catch(2, 0))


def test_forgotten_uno_caught_draws_two():
    # option forgotten_uno="catch": seed 000's catch window (row 101) instead
    s = position("classic", hands=["R1 R2", "B5", "B6"], discard="R7", pile="Y1 Y2 Y3",
                 options=CATCH)
    s, fx = run(s, Play(0, c("R1")))
    assert not of(fx, "uno_penalty") and s.counts[0] == 1
    assert s.exposed == 0 and Catch(2, 0) in legal_actions(s)
    s, fx = run(s, Catch(2, 0))
    assert of(fx, "uno_penalty")[0].catcher == 2
    assert of(fx, "dispense")[0].count == 2 and s.counts[0] == 3 and s.to_act == 1


def test_late_uno_call_before_the_catch_is_safe():
    s = position("classic", hands=["R1 R2", "B5", "B6"], discard="R7", options=CATCH)
    s, _ = run(s, Play(0, c("R1")), CallUno(0))
    assert "cannot be caught" in illegal(s, Catch(1, 0))


def test_catch_window_closes_when_the_next_player_starts():
    s = position("classic", hands=["R1 R2", "R5 B5", "B6"], discard="R7", options=CATCH)
    s, _ = run(s, Play(0, c("R1")), Play(1, c("R5")))
    assert "cannot be caught" in illegal(s, Catch(2, 0))


def test_round_over_winner_scores_the_other_hands():
    s = position("classic", hands=["R1", "B+2 W+4 R7", "Y3"], discard="R5")
    s, fx = run(s, Play(0, c("R1")))
    over = of(fx, "round_over")[0]
    assert over.winner == 0 and over.points == (0, 97, 3) and over.scores == (100, 0, 0)
    s = position("classic", hands=["R1", "B+2 W+4 R7", "Y3"], discard="R5",
                 options={"wild_draw4_points": 50})
    _, fx = run(s, Play(0, c("R1")))
    assert of(fx, "round_over")[0].scores == (80, 0, 0)


def test_next_round_next_dealer_scores_kept():
    s = position("classic", hands=["R1", "Y3", "Y4"], discard="R5", dealer=1,
                 scores=[10, 20, 30])
    s, fx = run(s, Play(0, c("R1")))
    assert s.dealer == 2 and s.round_no == 2 and s.scores == (17, 20, 30)
    assert s.to_act == CHANCE and s.chance == "shuffle"
    s, _ = run(s, Shuffle(tuple(range(108))))
    assert s.counts == (7, 7, 7)
    assert s.discard == cs("GR") and s.turn == 2  # a first Reverse: the dealer starts


def test_match_over_at_500():
    s = position("classic", hands=["R1", "Y9"], discard="R5", scores=[495, 400])
    s, fx = run(s, Play(0, c("R1")))
    assert of(fx, "match_over")[0].winners == (0,) and s.over and s.scores == (504, 400)
    assert "match is over" in illegal(s, Draw(1))
    assert legal_actions(s) == []


def test_running_low_scoring_lowest_wins():
    opts = {"scoring": "running_low", "target_score": 100}
    s = position("classic", hands=["R1", "W+4 W", "Y3"], discard="R5", scores=[40, 0, 90],
                 options=opts)
    s, fx = run(s, Play(0, c("R1")))
    assert of(fx, "round_over")[0].scores == (40, 120, 93)
    assert of(fx, "match_over")[0].winners == (0,)


def test_going_out_on_draw_two_still_makes_the_next_draw():
    s = position("classic", hands=["R+2", "B5", "Y6"], discard="R7", pile="G9 G8 Y1")
    s, fx = run(s, Play(0, c("R+2")))
    over = of(fx, "round_over")[0]
    assert of(fx, "dispense")[0].seat == 1
    assert over.points == (0, 5 + 8 + 1, 6)


def test_empty_pile_reshuffles_the_discard_pile():
    s = position("classic", hands=["B1 B2", "B5"], discard="R3 Y4 G5 R5", pile="")
    s, fx = run(s, Draw(0))
    assert s.to_act == CHANCE and s.chance == "shuffle"
    s, fx = run(s, Shuffle((2, 0, 1)))
    assert of(fx, "reshuffled")[0].count == 3
    assert s.discard == cs("R5") and s.hands[0] == cs("B1 B2 Y4") and s.to_act == 1
    assert len(s.pile) == 2


def test_first_wild_lets_the_first_player_choose():
    s, fx = started("classic", 3, "W", dealer=0)
    assert s.phase == "first_colour" and s.to_act == 1
    s, fx = run(s, ChooseColour(1, "Y"))
    assert s.colour == "Y" and s.to_act == 1 and s.phase == "play"


def test_first_wild_draw4_goes_back_and_another_is_turned():
    s, fx = started("classic", 3, "W+4", dealer=0)
    assert of(fx, "card_returned")[0].card == c("W+4")
    assert s.discard[-1] != c("W+4") and s.pile[0] == c("W+4")
    assert sum(len(h) for h in s.hands) + len(s.pile) + len(s.discard) == 108


def test_first_card_rules_of_power_apply_to_classic():
    s, fx = started("classic", 3, "R+2", dealer=0)
    assert s.counts[1] == 9 and s.to_act == 2
    s, fx = started("classic", 3, "RS", dealer=0)
    assert s.to_act == 2
    s, fx = started("classic", 3, "RR", dealer=0)
    assert s.to_act == 0 and s.direction == -1


def test_chance_outcome_must_be_what_the_state_waits_for():
    s = new_match("classic", 2)
    assert "dealer_cards" in illegal(s, Shuffle(tuple(range(108))))
    assert "chance player" in illegal(s, Draw(0))
    s, _ = apply(s, DealerCards(cs("R9 R1")))
    assert "permutation" in illegal(s, Shuffle((0, 0, 1)))
    assert "has only" in illegal(new_match("classic", 3), DealerCards(cs("R0 R0 B1")))
    assert len(EDITIONS["classic"].deck) == 108
