"""Table mode: only public information; hidden-hand rules become declarations.
Rows of docs/rules.md."""

from tests.uno_core.scen import c, cs, illegal, of, run
from uno_core import (
    Challenge,
    Draw,
    Eject,
    EnterHand,
    Play,
    Press,
    Reveal,
    Shuffle,
    Verdict,
    apply,
    legal_actions,
    new_match,
    position,
    public_state,
)
from uno_core.actions import CHANCE, DealerCards


def test_table_game_knows_counts_not_hands():
    s = new_match("classic", 3, mode="table")
    s, _ = apply(s, DealerCards(cs("R1 R2 R9")))
    assert "unknown" in illegal(s, Shuffle((1, 0)))
    s, fx = apply(s, Shuffle(()))
    assert s.counts == (7, 7, 7) and s.hands == ((), (), ()) and s.pile_count == 108 - 21
    assert s.to_act == CHANCE and s.chance == "reveal"
    s, fx = apply(s, Reveal(c("B5")))
    assert s.discard == cs("B5") and s.pile_count == 108 - 22 and s.to_act == 0


def test_table_first_wild_draw4_goes_back_reveal_again():
    s = new_match("classic", 3, mode="table")
    s, _ = run(s, DealerCards(cs("R1 R2 R9")), Shuffle(()))
    s, fx = apply(s, Reveal(c("W+4")))
    assert of(fx, "card_returned") and s.chance == "reveal" and s.unseen[c("W+4")] == 4


def test_a_declared_card_must_still_be_unseen_no_fifth_wild_draw4():
    s = position("classic", counts=[5, 5], discard="W+4 W+4 W+4 W+4 R5", mode="table")
    assert "no W+4 is left unseen" in illegal(s, Play(0, c("W+4"), colour="R"))
    s, _ = run(s, Play(0, c("R9")))
    assert s.counts == (4, 5) and s.unseen[c("R9")] == 1


def test_reshuffle_makes_the_discarded_cards_unseen_again():
    s = position("classic", counts=[52, 51], discard="W+4 W+4 W+4 W+4 R5", mode="table")
    assert s.pile_count == 0
    s, fx = run(s, Draw(0))
    assert s.to_act == CHANCE and s.chance == "shuffle"
    s, fx = run(s, Shuffle(()))
    assert s.unseen[c("W+4")] == 4 and s.discard == cs("R5") and s.counts[0] == 53
    assert of(fx, "reshuffled")[0].count == 4 and s.pile_count == 3


def test_table_wild_draw4_challenge_becomes_a_verdict():
    s = position("power", counts=[3, 3, 3], discard="R7", mode="table")
    s, _ = run(s, Play(0, c("W+4"), colour="G"), Challenge(1))
    assert s.phase == "verdict" and s.to_act == 1
    assert set(legal_actions(s)) == {Verdict(1, True), Verdict(1, False)}
    guilty, fx = run(s, Verdict(1, True))
    assert guilty.counts == (6, 3, 3) and guilty.to_act == 1
    innocent, _ = run(s, Verdict(1, False))
    assert innocent.counts == (2, 9, 3) and innocent.to_act == 2


def test_table_round_end_hands_are_entered_for_scoring():
    s = position("classic", counts=[1, 3, 1], discard="R7", mode="table")
    s, fx = run(s, Play(0, c("R5")))
    assert s.phase == "hand_entry" and s.to_act == 1 and of(fx, "prompt")[-1].kind == "hand_entry"
    assert "holds 3 cards" in illegal(s, EnterHand(1, cs("B+2 W")))
    s, _ = run(s, EnterHand(1, cs("B+2 W Y3")))
    assert s.to_act == 2
    s, fx = run(s, EnterHand(2, cs("G4")))
    assert of(fx, "round_over")[0].points == (0, 73, 4)
    assert s.scores == (77, 0, 0)


def test_table_hand_entry_cannot_invent_cards():
    s = position("classic", counts=[1, 1], discard="W+4 W+4 W+4 W+4 R7", mode="table")
    s, _ = run(s, Play(0, c("R5")))
    assert "no W+4 is left unseen" in illegal(s, EnterHand(1, cs("W+4")))


def test_table_discard_all_is_a_declaration_of_its_colour():
    s = position("attack", counts=[4, 3], discard="R7", mode="table")
    assert "only R cards" in illegal(s, Play(0, c("RDA"), laid=cs("R1 B2")))
    s, fx = run(s, Play(0, c("RDA"), laid=cs("R1 R2")))
    assert s.counts == (1, 3) and s.discard[-3:] == cs("R1 R2 RDA")


def test_table_launcher_reports_a_count():
    s = position("attack", counts=[2, 3], discard="R7", mode="table")
    s, fx = run(s, Press(0))
    s, fx = run(s, Eject(4))
    assert s.counts == (6, 3) and s.to_act == 1


def test_public_state_in_table_mode():
    s = position("power", counts=[2, 3], discard="R7", mode="table", towers={"O": 1})
    view = public_state(s)
    assert view["hand_counts"] == [2, 3] and view["towers"]["O"] == 1
    assert view["towers"]["U"] == "neutral" and view["mode"] == "table"


def test_table_trade_hands_swaps_the_counts():
    s = position("attack-1999", counts=[4, 5, 1], discard="R7", mode="table")
    s, fx = run(s, Play(0, c("RTH"), target=2))
    assert s.counts == (1, 5, 3) and of(fx, "hands_traded")[0].other == 2
