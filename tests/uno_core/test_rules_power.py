"""Scenario tests for UNO Power (seed 000). Each test is a row of docs/rules.md."""

from tests.uno_core.scen import c, cs, illegal, of, run, started
from uno_core import (
    Accept,
    Catch,
    Challenge,
    ChooseColour,
    DealerCards,
    Draw,
    FourTowerDiscard,
    Pass,
    Play,
    Reveal,
    Shuffle,
    apply,
    legal_actions,
    new_match,
    position,
    public_state,
    restore,
    snapshot,
)
from uno_core.effects import NEUTRAL, Prompt, TowerMoved


def test_dealer_highest_number_action_cards_count_zero():
    s = new_match("power", 3)
    s, fx = apply(s, DealerCards(cs("R+2 B3 WT1")))
    assert s.dealer == 1 and of(fx, "dealer_chosen")[0].seat == 1
    s, _ = apply(s, Shuffle(tuple(range(112))))
    assert s.hands[2][0] == s.edition.deck[-1]  # the first card dealt goes left of the dealer


def test_first_draw1_first_player_draws_one_and_misses_turn():
    s, fx = started("power", 3, "R+1", dealer=0)
    assert s.counts == (7, 8, 7) and s.to_act == 2


def test_first_draw2_same_rule():
    s, fx = started("power", 3, "B+2", dealer=0)
    assert s.counts == (7, 9, 7) and s.to_act == 2


def test_first_reverse_dealer_starts_play_goes_right():
    s, fx = started("power", 3, "GR", dealer=1)
    assert s.to_act == 1 and s.direction == -1
    s, _ = run(s, Draw(1))
    if s.phase == "drawn":
        s, _ = run(s, Pass(1))
    assert s.to_act == 0  # after the dealer comes the player to his right


def test_first_skip_skips_left_of_dealer():
    s, fx = started("power", 4, "YS", dealer=0)
    assert s.to_act == 2 and of(fx, "player_skipped")[0].seat == 1


def test_first_take2_no_towers_play_to_colour():
    s, fx = started("power", 3, "RT2", dealer=0)
    assert s.to_act == 1 and s.colour == "R" and s.towers == (-1, -1, -1, -1)


def test_first_take2_first_player_lays_only_its_colour_and_takes_no_towers():
    # the fault that `simulate --variant power --players 2 --seed 11` showed: the first
    # player laid a Take-2-Towers of another colour on the turned one and took two towers
    s, _ = started("power", 2, "RT2", dealer=0, hands={1: "BT2 WT1 W+4 G5 R5 R1U Y9"})
    plays = {a.card for a in legal_actions(s) if isinstance(a, Play)}
    assert plays == set(cs("R5 R1U"))
    assert "takes no towers" in illegal(s, Play(1, c("BT2"), towers=("U", "N")))
    assert "only a R card" in illegal(s, Play(1, c("WT1"), colour="G", towers=("U",)))
    assert "only a R card" in illegal(s, Play(1, c("W+4"), colour="G"))
    data = snapshot(s)
    assert restore(data) == s and restore(data).colour_only  # a saved match keeps the rule
    del data["colour_only"]  # a snapshot from before the rule: no restriction
    assert not restore(data).colour_only
    s, fx = run(s, Play(1, c("R5")))
    assert not of(fx, "tower_moved") and s.towers == (-1, -1, -1, -1)


def test_after_the_first_turn_a_turned_take2_matches_as_usual():
    # the first player draws a Take-2-Towers of another colour: he may not lay it (his
    # turn ends); the next player may lay one on the turned card and takes two towers
    s, _ = started("power", 3, "RT2", dealer=0, hands={1: "G5 G6", 2: "BT2"}, pile="GT2")
    s, fx = run(s, Draw(1))
    assert s.hands[1][-1] == c("GT2") and s.to_act == 2 and not s.colour_only
    s, fx = run(s, Play(2, c("BT2"), towers=("U", "N")))
    assert [(e.tower, e.seat) for e in of(fx, "tower_moved")] == [("U", 2), ("N", 2)]


def test_turned_take2_in_table_mode_the_declared_card_must_be_its_colour():
    s = new_match("power", 2, mode="table")
    s, _ = run(s, DealerCards(cs("R9 R1")), Shuffle(()), Reveal(c("YT2")))
    assert s.to_act == 1 and public_state(s)["colour_only"]
    assert "only a Y card" in illegal(s, Play(1, c("GT2"), towers=("U", "N")))
    s, fx = run(s, Play(1, c("Y4")))
    assert s.to_act == 0 and not public_state(s)["colour_only"]


def test_first_wild_take1_first_player_chooses_colour_no_tower():
    s, fx = started("power", 3, "WT1", dealer=0)
    assert s.phase == "first_colour" and s.to_act == 1
    s, fx = run(s, ChooseColour(1, "G"))
    assert s.colour == "G" and s.towers == (-1, -1, -1, -1) and s.to_act == 1


def test_first_wild_draw4_back_into_the_pile():
    s, fx = started("power", 3, "W+4", dealer=0)
    assert of(fx, "card_returned") and s.discard[-1] != c("W+4")


def test_symbol_card_as_first_card_just_starts_the_pile():
    s, fx = started("power", 3, "R1U", dealer=0)
    assert s.discard == cs("R1U") and s.towers == (-1, -1, -1, -1) and s.to_act == 1


def test_action_cards_only_on_their_colour_or_their_kind():
    s = position("power", hands=["R+1 B+2 YT2 GS", "B1"], discard="B+1")
    plays = {a.card for a in legal_actions(s) if isinstance(a, Play)}
    assert plays == set(cs("R+1 B+2"))


def test_symbol_card_forbids_the_action_its_tower_blocks():
    s = position("power", hands=["R+1 R+2 W+4 RS R9", "B1"], discard="R1U")
    assert "power symbol U" in illegal(s, Play(0, c("R+1")))
    assert {a.card for a in legal_actions(s) if isinstance(a, Play)} == set(cs("R+2 W+4 RS R9"))
    for top, banned in (("R2N", "R+2"), ("R3O", "W+4"), ("R4!", "RS")):
        s = position("power", hands=["R+1 R+2 W+4 RS", "B1"], discard=top)
        plays = {a.card for a in legal_actions(s) if isinstance(a, Play)}
        assert c(banned) not in plays and len(plays) == 3


def test_drawn_card_may_be_played_at_once_but_need_not():
    s = position("power", hands=["B1 B2", "Y9"], discard="R7", pile="G3 R5")
    s, _ = run(s, Draw(0))
    assert s.phase == "drawn" and set(legal_actions(s)) == {Play(0, c("R5")), Pass(0)}
    s2, _ = run(s, Pass(0))
    assert s2.to_act == 1 and s2.counts[0] == 3


def test_unplayable_drawn_card_next_player():
    s = position("power", hands=["B1 B2", "Y9"], discard="R7", pile="G3 B5")
    s, _ = run(s, Draw(0))
    assert s.to_act == 1


def test_holding_back_a_playable_card_only_the_drawn_card_may_follow():
    s = position("power", hands=["R1 B2", "Y9"], discard="R7", pile="G3 R5")
    assert Draw(0) in legal_actions(s)
    s, _ = run(s, Draw(0))
    assert "only the drawn card" in illegal(s, Play(0, c("R1")))
    s, _ = run(s, Play(0, c("R5")))
    assert s.discard[-1] == c("R5")


def test_draw1_next_player_draws_one_and_misses_turn():
    s = position("power", hands=["R+1 R1", "B1", "B2"], discard="R7", pile="Y1 Y2")
    s, fx = run(s, Play(0, c("R+1")))
    assert s.counts[1] == 2 and s.to_act == 2 and of(fx, "player_skipped")[0].seat == 1


def test_symbol_card_takes_its_tower_from_anyone():
    s = position("power", hands=["R5U R1", "B1", "B2"], discard="R7", towers={"U": 2})
    s, fx = run(s, Play(0, c("R5U")))
    assert of(fx, "tower_moved") == [TowerMoved("U", 0)] and s.towers[0] == 0
    s = position("power", hands=["G2N R1", "B1"], discard="G7")  # tower colour is irrelevant
    s, fx = run(s, Play(0, c("G2N")))
    assert s.towers == (-1, 0, -1, -1)


def test_take_two_towers_from_players_or_neutral():
    s = position("power", hands=["RT2 R1", "B1", "B2"], discard="R7", towers={"U": 1, "O": 2})
    s, fx = run(s, Play(0, c("RT2"), towers=("U", "!")))
    assert s.towers == (0, -1, 2, 0)
    assert set(of(fx, "tower_moved")) == {TowerMoved("U", 0), TowerMoved("!", 0)}
    s = position("power", hands=["RT2 R1", "B1"], discard="R7")
    assert "takes 2 tower" in illegal(s, Play(0, c("RT2"), towers=("U",)))
    assert len([a for a in legal_actions(s) if isinstance(a, Play) and a.card == c("RT2")
                and not a.uno]) == 6  # every pair of the four towers


def test_wild_take_one_tower_and_any_colour_even_the_current():
    s = position("power", hands=["WT1 R1", "B1"], discard="R7", towers={"O": 1})
    s, fx = run(s, Play(0, c("WT1"), colour="R", towers=("O",)))
    assert s.towers == (-1, -1, 0, -1) and s.colour == "R"


def test_wild_draw4_only_without_the_discard_colour_challenge():
    pile = "Y1 Y2 Y3 Y4 Y5 Y6 Y7"
    guilty = position("power", hands=["W+4 R1 G2", "B5", "B6"], discard="R7", pile=pile)
    s, fx = run(guilty, Play(0, c("W+4"), colour="G"), Challenge(1))
    assert of(fx, "challenge_resolved")[0].guilty and s.counts[0] == 6 and s.to_act == 1
    number_ok = position("power", hands=["W+4 B7 GS", "B5", "B6"], discard="R7", pile=pile)
    s, fx = run(number_ok, Play(0, c("W+4"), colour="G"), Challenge(1))
    assert not of(fx, "challenge_resolved")[0].guilty  # a matching number is allowed
    assert s.counts[1] == 7 and s.to_act == 2  # 4 + 2, and the challenger misses his turn
    s, fx = run(number_ok, Play(0, c("W+4"), colour="G"), Accept(1))
    assert s.counts[1] == 5 and s.to_act == 2


def test_towers_protect_and_blocked_card_counts_as_plain():
    for card, tower in (("R+1", "U"), ("R+2", "N"), ("RS", "!")):
        s = position("power", hands=[f"{card} R1", "B1", "B2"], discard="R7",
                     towers={tower: 1})
        s, fx = run(s, Play(0, c(card)))
        used = of(fx, "protection_used")[0]
        assert (used.seat, used.tower, used.card) == (1, tower, c(card))
        assert s.counts[1] == 1 and s.to_act == 1 and s.colour == "R"
        assert s.towers[{"U": 0, "N": 1, "!": 3}[tower]] == 1  # he keeps the tower


def test_tower_O_blocks_wild_draw4_no_challenge():
    s = position("power", hands=["W+4 R1", "B1", "B2"], discard="R7", towers={"O": 1})
    s, fx = run(s, Play(0, c("W+4"), colour="Y"))
    assert of(fx, "protection_used") and s.phase == "play" and s.to_act == 1
    assert s.counts[1] == 1 and s.colour == "Y"


def test_protection_can_be_used_again_and_again():
    s = position("power", hands=["R+1 R+1 R1", "R5 B1", "R2 R3"], discard="R7",
                 towers={"U": 1})
    s, fx1 = run(s, Play(0, c("R+1")), Play(1, c("R5")), Play(2, c("R2")))
    s, fx2 = run(s, Play(0, c("R+1")))
    assert of(fx1, "protection_used") and of(fx2, "protection_used")


def test_all_four_towers_lay_down_all_but_one():
    s = position("power", hands=["R4! R1 B9 W+4 G5", "B1", "Y9"], discard="R7",
                 towers={"U": 0, "N": 0, "O": 0})
    s, fx = run(s, Play(0, c("R4!")))
    assert s.phase == "four_towers" and s.to_act == 0
    assert of(fx, "prompt")[-1] == Prompt(0, "four_towers")
    s, fx = run(s, FourTowerDiscard(0, cs("R1 B9 W+4"), uno=True))
    assert s.hands[0] == cs("G5") and s.towers == (-1, -1, -1, -1)
    assert of(fx, "tower_moved") == [TowerMoved(t, NEUTRAL) for t in "UNO!"]
    assert s.discard[-1] == c("R4!") and s.discard[-4:-1] == cs("R1 B9 W+4")
    assert s.to_act == 1 and s.exposed == -1


def test_four_tower_discard_still_needs_uno():
    s = position("power", hands=["R4! R1 B9", "B1", "Y9"], discard="R7",
                 towers={"U": 0, "N": 0, "O": 0}, pile="Y1 Y2 Y3")
    s, _ = run(s, Play(0, c("R4!")), FourTowerDiscard(0, cs("R1")))
    assert s.hands[0] == cs("B9")
    assert s.exposed == 0
    s, fx = run(s, Catch(1, 0))
    assert s.counts[0] == 3


def test_four_tower_discard_without_uno_at_play_option_draws_at_once():
    s = position("power", hands=["R4! R1 B9", "B1", "Y9"], discard="R7",
                 towers={"U": 0, "N": 0, "O": 0}, pile="Y1 Y2 Y3",
                 options={"forgotten_uno": "at_play"})
    s, fx = run(s, Play(0, c("R4!")), FourTowerDiscard(0, cs("R1")))
    assert of(fx, "uno_penalty")[0].catcher == -1 and of(fx, "dispense")[0].count == 2
    assert s.counts[0] == 3 and s.exposed == -1 and s.to_act == 1


def test_four_tower_discard_may_be_declined_and_must_keep_one():
    s = position("power", hands=["R4! R1 B9", "B1"], discard="R7",
                 towers={"U": 0, "N": 0, "O": 0})
    s, _ = run(s, Play(0, c("R4!")))
    assert "all cards but one" in illegal(s, FourTowerDiscard(0, cs("R1 B9")))
    s, _ = run(s, Pass(0))
    assert s.towers == (0, 0, 0, 0) and s.to_act == 1


def test_going_out_on_draw_cards_next_still_draws_and_they_score():
    s = position("power", hands=["W+4", "B5", "Y6"], discard="R7", pile="G9 G8 Y1 Y2 Y3")
    s, fx = run(s, Play(0, c("W+4"), colour="G"), Accept(1))
    over = of(fx, "round_over")[0]
    assert over.points == (0, 5 + 8 + 1 + 2 + 3, 6)


def test_towers_go_back_to_neutral_for_the_next_round():
    s = position("power", hands=["R1", "B5"], discard="R7", towers={"U": 1, "!": 0})
    s, fx = run(s, Play(0, c("R1")))
    assert s.towers == (-1, -1, -1, -1)
    assert set(of(fx, "tower_moved")) == {TowerMoved("U", NEUTRAL), TowerMoved("!", NEUTRAL)}


def test_power_scoring_and_alternative():
    s = position("power", hands=["R1", "R+1 WT1 W+4 G5U", "Y3"], discard="R7")
    s, fx = run(s, Play(0, c("R1")))
    assert of(fx, "round_over")[0].points == (0, 20 + 50 + 50 + 5, 3)


def test_take_two_towers_completing_four_offers_the_discard():
    s = position("power", hands=["RT2 R1 B9", "B1"], discard="R7", towers={"U": 0, "N": 0})
    s, fx = run(s, Play(0, c("RT2"), towers=("O", "!")))
    assert s.phase == "four_towers" and s.to_act == 0


def test_going_out_on_wild_draw4_the_challenge_still_happens():
    s = position("power", hands=["W+4", "B5", "Y6"], discard="R7", pile="G1 G2 G3 G4 G5 G6")
    s, fx = run(s, Play(0, c("W+4"), colour="G"))
    assert s.phase == "challenge" and not of(fx, "round_over")
    s, fx = run(s, Challenge(1))
    assert not of(fx, "challenge_resolved")[0].guilty  # an empty hand holds no green
    assert of(fx, "round_over")[0].points == (0, 5 + 1 + 2 + 3 + 4 + 5 + 6, 6)


def test_table_mode_four_tower_discard_is_declared():
    s = position("power", counts=[5, 3], discard="R7", towers={"U": 0, "N": 0, "O": 0},
                 mode="table")
    s, fx = run(s, Play(0, c("R4!")))
    assert s.phase == "four_towers"
    assert "all cards but one" in illegal(s, FourTowerDiscard(0, cs("B1 B9")))
    s, fx = run(s, FourTowerDiscard(0, cs("B1 B9 G5"), uno=True))
    assert s.counts == (1, 3) and s.towers == (-1, -1, -1, -1)
    assert s.unseen[c("G5")] == 0 and s.discard[-4:] == cs("B1 B9 G5 R4!")
