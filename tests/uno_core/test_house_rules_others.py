"""Scenario tests for the rules other tables play (issue 23, docs/rules.md "House rules
of other tables"): each option off keeps the seed's behaviour, on it plays the rule its
source describes."""

import pytest

from tests.uno_core.scen import c, cs, illegal, of, run
from tests.uno_core.test_house_swaps import kernel_agrees, scenario_file
from uno_core import (
    Accept,
    CallUno,
    Catch,
    Draw,
    IllegalAction,
    OptionError,
    Play,
    Press,
    apply,
    legal_actions,
    make_options,
    new_match,
    position,
)
from uno_core.effects import (
    BY_TABLE,
    CardPlayed,
    ColourChosen,
    Dispense,
    OwePresses,
    PlayerSkipped,
    Prompt,
    UnoCalled,
    UnoPenalty,
)
from uno_core.engine import costs_penalty
from uno_core.options import option_from_text

PILE = "G1 G2 G3 G6 G7 G8 G9 B1 B2 B3 B4 B7"
CROSS = {"stack_draws": "cross", "wild_draw4_restricted": True}


def refused_key(s, action):
    """The key of the rule that refuses `action` (the state stays as it was)."""
    before = s.clone()
    with pytest.raises(IllegalAction) as refused:
        apply(s, action)
    assert s == before
    return refused.value.key


def plays(s, seat=None):
    return sorted({str(a.card) for a in legal_actions(s)
                   if isinstance(a, Play) and (seat is None or a.seat == seat)})


# -- stacked_draw4_challenge -------------------------------------------------------------

def test_a_wild_draw4_laid_on_a_stack_is_not_challenged_by_default():
    s = position("classic", hands=["R+2 R1 R3", "W+4 B5", "Y1 Y2 Y3"], discard="R7",
                 pile=PILE, options=CROSS)
    s, fx = run(s, Play(0, c("R+2")), Play(1, c("W+4"), colour="Y"))
    assert s.phase == "play" and s.stack == (6, 2) and s.to_act == 2
    assert not [a for a in legal_actions(s) if isinstance(a, Accept)]
    s, fx = run(s, Draw(2))
    assert of(fx, "dispense") == [Dispense(2, 6)]


def test_a_wild_draw4_that_starts_a_stack_is_still_challenged():
    s = position("classic", hands=["W+4 R1 R3", "B5 B6", "Y1 Y2 Y3"], discard="R7",
                 pile=PILE, options=CROSS)
    s, _ = run(s, Play(0, c("W+4"), colour="G"))
    assert s.phase == "challenge" and s.to_act == 1 and s.stack == (4, 1)


def test_stacked_draw4_challenge_opens_the_challenge_on_a_stack_at_the_table_too():
    opts = {**CROSS, "stacked_draw4_challenge": True}
    table = position("classic", counts=[3, 3, 2], discard="R7", mode="table", options=opts)
    table, _ = run(table, Play(0, c("R+2")), Play(1, c("W+4"), colour="Y"))
    assert table.phase == "challenge" and table.stack == (6, 2)
    off = position("classic", counts=[3, 3, 2], discard="R7", mode="table", options=CROSS)
    off, _ = run(off, Play(0, c("R+2")), Play(1, c("W+4"), colour="Y"))
    assert off.phase == "play" and off.stack == (6, 2) and off.to_act == 2


# -- false_uno_penalty -------------------------------------------------------------------

def test_a_false_uno_call_with_a_play_is_refused_by_default():
    s = position("classic", hands=["R1 R2 R3", "G1 G2"], discard="R5", pile=PILE)
    assert "UNO is called with one card left, not 2" in illegal(s, Play(0, c("R1"), uno=True))


def test_a_false_uno_call_with_a_play_costs_two_cards_and_the_play_stands():
    s = position("classic", hands=["R1 R2 R3", "G1 G2"], discard="R5", pile=PILE,
                 options={"false_uno_penalty": 2})
    assert Play(0, c("R1"), uno=True) not in legal_actions(s)  # a mistake, not a move
    assert costs_penalty(s, Play(0, c("R1"), uno=True))
    assert not costs_penalty(s, Play(0, c("R1")))
    s, fx = run(s, Play(0, c("R1"), uno=True))
    assert of(fx, "uno_penalty") == [UnoPenalty(0, BY_TABLE)]
    assert of(fx, "dispense") == [Dispense(0, 2)] and not of(fx, "uno_called")
    assert s.counts == (4, 2) and s.discard[-1] == c("R1") and s.to_act == 1


def test_a_false_uno_call_on_the_last_card_stays_refused():
    s = position("classic", hands=["R1", "G1 G2"], discard="R5", pile=PILE,
                 options={"false_uno_penalty": 2})
    assert "not 0" in illegal(s, Play(0, c("R1"), uno=True))


def test_a_call_by_a_seat_holding_two_cards_or_more_costs_the_penalty():
    s = position("classic", hands=["R1 R2 R3", "G1 G2"], discard="R5", pile=PILE,
                 options={"false_uno_penalty": 2, "forgotten_uno": "catch"})
    assert "no uncalled UNO" in illegal(position("classic", hands=["R1 R2", "G1 G2"],
                                                 discard="R5",
                                                 options={"forgotten_uno": "catch"}),
                                        CallUno(1))
    s, fx = run(s, CallUno(1))  # not his turn: the penalty still applies
    assert of(fx, "uno_penalty") == [UnoPenalty(1, BY_TABLE)] and s.counts == (3, 4)
    assert s.to_act == 0
    one = position("classic", hands=["R1 R2 R3", "G1"], discard="R5", pile=PILE,
                   options={"false_uno_penalty": 2, "forgotten_uno": "catch"})
    assert "no uncalled UNO" in illegal(one, CallUno(1))  # one card: no false call


def test_calling_uno_on_ones_turn_just_before_laying_the_second_last_card_is_no_false_call():
    """Seed 002: „Vor Ablegen der vorletzten Karte muß deutlich UNO gesagt werden";
    danguilherme/uno's uno() marks a seat holding two cards as having called. The next
    play leaves one card called: nobody can catch it."""
    opts = {"false_uno_penalty": 2, "forgotten_uno": "catch"}
    s = position("classic", hands=["R1 G2", "G1 G5 G3", "B1 B2"], discard="R5",
                 pile=PILE, options=opts)
    assert not costs_penalty(s, CallUno(0))
    s, fx = run(s, CallUno(0))
    assert fx == [UnoCalled(0)] and s.counts == (2, 3, 2) and s.to_act == 0
    s, fx = run(s, Play(0, c("R1")))
    assert s.exposed == -1 and not of(fx, "uno_penalty") and s.counts == (1, 3, 2)
    assert refused_key(s, Catch(1, 0)) == "no_catch"
    twice, _ = run(position("classic", hands=["R1 G2", "G1 G5 G3", "B1 B2"], discard="R5",
                            pile=PILE, options=opts), CallUno(0))
    assert costs_penalty(twice, CallUno(0))  # a second call is a false one
    # the call counts for the very next play only: a seat that draws instead keeps three
    drew, _ = run(position("classic", hands=["Y1 G2", "G1 G5 G3", "B1 B2"], discard="R5",
                           pile=PILE, options=opts), CallUno(0), Draw(0))
    assert drew.uno_ahead == -1 and drew.counts[0] == 3


def test_a_call_ahead_out_of_turn_or_at_the_play_still_costs_the_penalty():
    opts = {"false_uno_penalty": 2, "forgotten_uno": "catch"}
    s = position("classic", hands=["R1 R2 R3", "G1 G2", "B1 B2"], discard="R5",
                 pile=PILE, options=opts)
    s, fx = run(s, CallUno(2))  # two cards, but not its turn to lay one
    assert of(fx, "uno_penalty") == [UnoPenalty(2, BY_TABLE)] and s.counts == (3, 2, 4)
    at_play = position("classic", hands=["R1 G2", "G1 G5 G3"], discard="R5", pile=PILE,
                       options={"false_uno_penalty": 2})
    assert costs_penalty(at_play, CallUno(0))  # at_play: the call goes with the play


def test_a_false_uno_call_at_a_launcher_owes_presses():
    s = position("attack", hands=["R1 R2 R3", "G1 G2"], discard="R5", pile=PILE,
                 options={"false_uno_penalty": 2})
    s, fx = run(s, Play(0, c("R1"), uno=True))
    assert of(fx, "owe_presses")[0] == OwePresses(0, 2, "fixed")
    assert s.to_act == 0 and s.queue


# -- swap_uno_called ---------------------------------------------------------------------

def test_a_swapped_in_hand_of_one_card_counts_as_called():
    opts = {"seven_zero": True, "forgotten_uno": "catch"}
    start = position("classic", hands=["R7 B1", "R1 G2 G3", "Y1 Y2 Y3"], discard="R5",
                     pile="G9 G8 G7", options=opts)
    exposed, _ = run(start, Play(0, c("R7"), target=2))
    assert exposed.exposed == 2  # the seed's wording: the receiver must call
    called = position("classic", hands=["R7 B1", "R1 G2 G3", "Y1 Y2 Y3"], discard="R5",
                      pile="G9 G8 G7", options={**opts, "swap_uno_called": True})
    s, fx = run(called, Play(0, c("R7"), target=2))
    assert s.hands[2] == cs("B1") and s.exposed == -1 and not of(fx, "uno_penalty")
    assert not [a for a in legal_actions(s) if isinstance(a, Catch)]
    assert "cannot be caught" in illegal(s, Catch(1, 2))


def test_a_zero_passed_hand_of_one_card_counts_as_called():
    s = position("classic", hands=["R0 B1", "G1 G2 G3", "Y1 Y2 Y3"], discard="R5",
                 options={"seven_zero": True, "forgotten_uno": "catch",
                          "swap_uno_called": True})
    s, _ = run(s, Play(0, c("R0")))
    assert s.hands[1] == cs("B1") and s.exposed == -1 and s.to_act == 1


# -- jump_in_wilds -----------------------------------------------------------------------

def test_a_wild_is_jumped_in_on_a_wild_and_the_jumper_names_the_colour():
    opts = {"jump_in": True, "jump_in_wilds": True}
    s = position("classic", hands=["W B1 B2", "G1 G2", "W Y2 Y3", "B5 B6"], discard="R5",
                 options=opts)
    s, _ = run(s, Play(0, c("W"), colour="G"))
    assert plays(s, 2) == ["W"]  # listed for seat 2, one play per colour
    s, fx = run(s, Play(2, c("W"), colour="B"))
    assert s.colour == "B" and s.to_act == 3 and s.counts == (2, 2, 2, 2)
    assert "identical to the top card W" in illegal(
        run(position("classic", hands=["W B1 B2", "G1 G2", "W+4 Y2 Y3"], discard="R5",
                     options=opts), Play(0, c("W"), colour="G"))[0],
        Play(2, c("W+4"), colour="B"))


def test_a_wild_draw4_is_jumped_in_on_a_wild_draw4():
    s = position("classic", hands=["W+4 B1 B2", "G1 G2", "B3 B4", "W+4 Y2 Y3"], discard="R5",
                 pile=PILE, options={"jump_in": True, "jump_in_wilds": True})
    s, fx = run(s, Play(0, c("W+4"), colour="G"))
    assert of(fx, "dispense") == [Dispense(1, 4)] and s.to_act == 2
    s, fx = run(s, Play(3, c("W+4"), colour="Y"))  # seat 2 loses its turn
    assert of(fx, "dispense") == [Dispense(0, 4)] and s.to_act == 1 and s.colour == "Y"


def test_without_jump_in_wilds_a_wild_is_never_jumped_in_on():
    s = position("classic", hands=["W B1", "G1 G2", "W Y2"], discard="R5",
                 options={"jump_in": True})
    s, _ = run(s, Play(0, c("W"), colour="G"))
    assert plays(s, 2) == [] and "no jump-in on a wild" in illegal(s, Play(2, c("W"),
                                                                          colour="B"))


# -- no_jump_in_on_stack -----------------------------------------------------------------

def test_no_jump_in_while_a_stack_is_pending():
    hands = ["R+2 B1 B2", "G1 G2", "R+2 Y2 Y3", "B5 B6"]
    opts = {"jump_in": True, "stack_draws": "same"}
    joins = position("classic", hands=hands, discard="R5", pile=PILE, options=opts)
    joins, _ = run(joins, Play(0, c("R+2")))
    assert joins.stack == (2, 1) and "R+2" in plays(joins, 2)  # today: it joins
    s = position("classic", hands=hands, discard="R5", pile=PILE,
                 options={**opts, "no_jump_in_on_stack": True})
    s, _ = run(s, Play(0, c("R+2")))
    assert plays(s, 2) == []
    assert "while a stack is pending" in illegal(s, Play(2, c("R+2")))
    s, fx = run(s, Draw(1))  # once the stack is taken, jump-ins are back
    assert of(fx, "dispense") == [Dispense(1, 2)] and s.stack == ()


# -- no_draw_finish ----------------------------------------------------------------------

@pytest.mark.parametrize(("last", "banned"), [
    ("R+2", True), ("W+4", True), ("RS", False), ("RR", False), ("W", False)])
def test_no_draw_finish_bans_only_the_draw_cards_as_the_last_card(last, banned):
    s = position("classic", hands=[last, "G1 G2"], discard="R5", pile=PILE,
                 options={"no_draw_finish": True})
    play = Play(0, c(last), colour="B" if last.startswith("W") else "")
    if banned:
        assert "go out on a draw card" in illegal(s, play)
        assert plays(s, 0) == [] and legal_actions(s) == [Draw(0)]
    else:
        s, fx = run(s, play)
        assert of(fx, "round_over")


def test_no_draw_finish_covers_the_launcher_editions_hit_cards():
    for edition, last in (("attack", "RH2"), ("attack", "WAA"), ("extreme", "WX"),
                          ("attack-1999", "WAH")):
        s = position(edition, hands=[last, "G1 G2"], discard="R5", pile=PILE,
                     options={"no_draw_finish": True})
        target = 1 if last in ("WAA", "WX") else -1
        colour = "B" if last.startswith("W") else ""
        assert "draw card" in illegal(s, Play(0, c(last), colour=colour, target=target))


# -- banned_finish_penalty ---------------------------------------------------------------

def test_trying_to_go_out_on_a_banned_card_costs_one_card_and_the_turn_goes_on():
    opts = {"no_action_finish": True, "banned_finish_penalty": 1}
    s = position("classic", hands=["RS", "G1 G2"], discard="R5", pile="G4 G5 B9",
                 options=opts)
    assert costs_penalty(s, Play(0, c("RS"))) and Play(0, c("RS")) not in legal_actions(s)
    s, fx = run(s, Play(0, c("RS")))
    assert of(fx, "dispense") == [Dispense(0, 1)] and not of(fx, "card_played")
    assert s.hands[0] == cs("RS B9") and s.discard[-1] == c("R5")
    assert s.to_act == 0 and s.phase == "play" and "RS" in plays(s, 0)
    refused = position("classic", hands=["RS", "G1 G2"], discard="R5", pile="G4 G5 B9",
                       options={"no_action_finish": True})
    assert "no_action_finish" in illegal(refused, Play(0, c("RS")))


def test_the_banned_finish_penalty_with_no_draw_finish_and_at_the_table():
    s = position("classic", hands=["R+2", "G1 G2"], discard="R5", pile="G4 G5 B9",
                 options={"no_draw_finish": True, "banned_finish_penalty": 2})
    s, fx = run(s, Play(0, c("R+2")))
    assert of(fx, "dispense") == [Dispense(0, 2)] and s.counts == (3, 2) and s.to_act == 0
    table = position("classic", counts=[1, 3], discard="R5", mode="table",
                     options={"no_action_finish": True, "banned_finish_penalty": 1})
    table, fx = run(table, Play(0, c("RS")))
    assert of(fx, "dispense") == [Dispense(0, 1)] and table.counts == (2, 3)


def test_the_banned_finish_penalty_at_a_launcher_owes_presses():
    s = position("extreme", hands=["RS", "G1 G2"], discard="R5", pile=PILE,
                 options={"no_action_finish": True, "banned_finish_penalty": 1})
    s, fx = run(s, Play(0, c("RS")))
    assert of(fx, "owe_presses") == [OwePresses(0, 1, "fixed")] and s.to_act == 0


def test_a_banned_finish_on_a_pending_stack_is_refused_and_costs_nothing():
    """letsuno's finish-restrictions: while a stack waits (drawStack > 0) the finish is
    blocked, with no penalty: the seat answers the stack some other way or takes it."""
    opts = {"stack_draws": "cross", "no_draw_finish": True, "banned_finish_penalty": 1}
    s = position("classic", hands=["R+2 R1 R3", "B+2", "Y1 Y2 Y3"], discard="R7",
                 pile=PILE, options=opts)
    s, _ = run(s, Play(0, c("R+2")))
    assert s.stack == (2, 1) and s.to_act == 1
    assert not costs_penalty(s, Play(1, c("B+2")))
    assert refused_key(s, Play(1, c("B+2"))) == "no_draw_finish"
    s, fx = run(s, Draw(1))  # taking the stack is still his way out of it
    assert of(fx, "dispense") == [Dispense(1, 2)] and s.counts[1] == 3


# -- stack_draws = "up" ------------------------------------------------------------------

def test_one_way_cross_stacking_a_draw4_on_a_draw2_but_not_the_reverse():
    opts = {"stack_draws": "up"}
    s = position("classic", hands=["R+2 R1", "W+4 B5", "Y+2 Y3 Y4", "G1 G2"],
                 discard="R7", pile=PILE, options=opts)
    s, _ = run(s, Play(0, c("R+2")))
    assert plays(s, 1) == ["W+4"]
    s, _ = run(s, Play(1, c("W+4"), colour="Y"))
    assert s.stack == (6, 2) and plays(s, 2) == []  # a +2 does not go on a +4
    assert "answer with a +4" in illegal(s, Play(2, c("Y+2")))
    cross = position("classic", hands=["R+2 R1", "W+4 B5", "Y+2 Y3 Y4", "G1 G2"],
                     discard="R7", pile=PILE, options={"stack_draws": "cross"})
    cross, _ = run(cross, Play(0, c("R+2")), Play(1, c("W+4"), colour="Y"))
    assert plays(cross, 2) == ["Y+2"]
    assert option_from_text("stack_draws=up") == ("stack_draws", "up")


# -- playable_draw_penalty ---------------------------------------------------------------

def test_drawing_while_holding_a_playable_card_costs_two_cards_and_the_turn():
    s = position("classic", hands=["R1 B2", "G1 G2"], discard="R5", pile=PILE,
                 options={"playable_draw_penalty": 2})
    assert Draw(0) not in legal_actions(s) and costs_penalty(s, Draw(0))
    s, fx = run(s, Draw(0))
    assert of(fx, "dispense") == [Dispense(0, 2)] and PlayerSkipped(0) in fx
    assert s.counts == (4, 2) and s.to_act == 1
    refused = position("classic", hands=["R1 B2", "G1 G2"], discard="R5", pile=PILE)
    assert "only draw on your turn when you cannot play" in illegal(refused, Draw(0))


def test_under_draw_until_playable_the_drawn_card_stays_and_two_more_follow():
    """Wikipedia: "the penalty is drawing two more and losing your turn": the seat
    draws its card, then the two penalty cards, and the turn passes."""
    s = position("classic", hands=["R1 B2", "G1 G2"], discard="R5", pile=PILE,
                 options={"playable_draw_penalty": 2, "draw_until_playable": True})
    assert costs_penalty(s, Draw(0))
    s, fx = run(s, Draw(0))
    assert of(fx, "dispense") == [Dispense(0, 1), Dispense(0, 2)]
    assert s.hands[0][:3] == cs("R1 B2 B7") and s.counts == (5, 2)  # B7 was the drawn card
    assert PlayerSkipped(0) in fx and s.to_act == 1 and s.phase == "play"


def test_a_seat_that_cannot_play_draws_as_usual_under_the_penalty():
    s = position("classic", hands=["G1 B2", "G1 G2"], discard="R5", pile="G4 G5 B9",
                 options={"playable_draw_penalty": 2})
    assert not costs_penalty(s, Draw(0))
    s, fx = run(s, Draw(0))
    assert of(fx, "dispense") == [Dispense(0, 1)] and s.counts == (3, 2)


def test_the_draw_penalty_holds_with_draw_when_playable_and_at_a_launcher():
    power = position("power", hands=["R1 B2", "G1 G2"], discard="R5", pile="G6 G7 G8",
                     options={"playable_draw_penalty": 2})
    assert power.options.draw_when_playable and Draw(0) not in legal_actions(power)
    power, fx = run(power, Draw(0))
    assert of(fx, "dispense") == [Dispense(0, 2)] and power.to_act == 1
    extreme = position("extreme", hands=["R1 B2", "G1 G2"], discard="R5", pile=PILE,
                       options={"playable_draw_penalty": 2})
    extreme, fx = run(extreme, Press(0))
    assert of(fx, "owe_presses") == [OwePresses(0, 2, "fixed")] and extreme.to_act == 0
    assert extreme.turn == 1  # its turn is over: the presses come first


def test_at_the_table_every_draw_is_trusted():
    table = position("classic", counts=[2, 2], discard="R5", mode="table",
                     options={"playable_draw_penalty": 2})
    assert Draw(0) in legal_actions(table) and not costs_penalty(table, Draw(0))
    table, fx = run(table, Draw(0))
    assert of(fx, "dispense") == [Dispense(0, 1)]


# -- the options themselves ----------------------------------------------------------------

@pytest.mark.parametrize(("name", "bad"), [
    ("false_uno_penalty", -1), ("banned_finish_penalty", 21), ("playable_draw_penalty", True),
    ("jump_in_wilds", "yes"), ("stack_draws", "down"), ("swap_uno_called", 1)])
def test_the_new_options_are_typed_and_bounded(name, bad):
    with pytest.raises(OptionError, match=name):
        make_options(position("classic", hands=["R1", "R2"], discard="R7").edition,
                     {name: bad})


def test_stacked_draw4_challenge_applies_only_where_the_deck_has_a_wild_draw4():
    from uno_core import EDITIONS
    have = {n for n, ed in EDITIONS.items() if "stacked_draw4_challenge" in ed.option_defaults}
    assert have == {"classic", "power"}
    with pytest.raises(OptionError, match="does not apply"):
        make_options(EDITIONS["attack"], {"stacked_draw4_challenge": True})


def test_the_scenario_files_of_the_new_options():
    false = scenario_file("classic-false-uno.toml")
    assert list(false.effects) == [CardPlayed(0, c("R1")), UnoPenalty(0, BY_TABLE),
                                   Dispense(0, 2)]
    assert false.state.to_act == 1 and false.state.counts == (4, 2)
    banned = scenario_file("classic-banned-finish.toml")
    assert list(banned.effects) == [Dispense(0, 1)] and banned.state.to_act == 0
    assert banned.state.hands[0] == cs("RS B9")
    stacked = scenario_file("classic-draw4-on-stack.toml")
    assert list(stacked.effects) == [CardPlayed(1, c("W+4")), ColourChosen(1, "Y"),
                                     Prompt(2, "stack")]
    assert stacked.state.stack == (6, 2) and stacked.state.phase == "play"


# -- the shortcuts ---------------------------------------------------------------------

NEW = {"stacked_draw4_challenge": True, "jump_in_wilds": True, "no_jump_in_on_stack": True,
       "no_draw_finish": True, "banned_finish_penalty": 1, "false_uno_penalty": 2,
       "swap_uno_called": True, "playable_draw_penalty": 2, "stack_draws": "up"}


@pytest.mark.parametrize(("name", "value"), sorted(NEW.items()))
def test_each_new_option_on_routes_the_match_to_the_checked_path(name, value):
    assert not new_match("classic", 4).tables.house  # all off: the shortcuts stay
    assert new_match("classic", 4, {name: value}).tables.house


def test_the_kernel_hands_matches_under_the_new_options_to_the_engine():
    options = {**NEW, "jump_in": True, "seven_zero": True, "forgotten_uno": "catch",
               "wild_draw4_restricted": True, "target_score": 100000}
    names = kernel_agrees("classic", 4, options, 4, 11)
    assert names["card_played"] > 0
