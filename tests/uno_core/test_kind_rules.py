"""Each card kind's rule is stated once (``kinds.KINDS``), and every path that plays a
card executes that statement: the checked path (``apply`` of an action it must check,
``cardrules``), the listed path (``engine.play_plain``) and the simulation kernel's own
loop. Changing one kind's definition changes all three alike, and so does changing
how a draw is carried out (``cardrules.carry_out`` and its steps are the one place)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from uno_core import (
    CHANCE,
    IllegalAction,
    apply,
    cardrules,
    kernel,
    kinds,
    legal_actions,
    listing,
    new_match,
    sample_outcome,
    snapshot,
    tables,
)
from uno_core import actions as A
from uno_core.cards import DRAW2, HIT2, NUMBER, REVERSE, SKIP, parse_card
from uno_core.kinds import KindRule
from uno_core.setup import position

# seat 0 can play only its red card on R5; seat 2 goes out on R3 when its turn comes
HANDS = ["G7 B8", "G1 G2", "R3", "B1 B2"]
PILE = "Y1 Y2 Y3 Y4 Y5 Y6"
OPTIONS = {"target_score": 1}


@pytest.fixture
def redefine(monkeypatch):
    """Give card kinds new definitions for one test, with fresh rule tables and the
    caches made from them (nothing built here outlives the test)."""
    def redefine(kind: str, rule: KindRule) -> None:
        monkeypatch.setitem(kinds.KINDS, kind, rule)
        monkeypatch.setattr(tables, "_TABLES", {})
        monkeypatch.setattr(listing, "_PLAIN_OPS", {})
        monkeypatch.setattr(listing, "_DECISIONS", {})
        monkeypatch.setattr(kernel, "_PLANS", {})
    return redefine


def _start(card: str):
    hands = [f"{card} {HANDS[0]}", *HANDS[1:]]
    return position("classic", hands=hands, discard="R5", pile=PILE, options=OPTIONS)


def _checked(card: str):
    """Seat 0 plays `card` as a new action object: apply checks it in full."""
    state, effects = apply(_start(card), A.Play(0, parse_card(card)))
    return state, effects


def _listed(card: str):
    """Seat 0 plays `card` as the very object legal_actions listed (engine.play_plain)."""
    state = _start(card)
    (play,) = [a for a in legal_actions(state) if isinstance(a, A.Play)]
    assert play.card == parse_card(card)
    return apply(state, play)


def _kernel(card: str, monkeypatch):
    """The kernel plays the round on: seat 0's card (its only play), and seat 2 goes
    out. Returns the end state and the plays the kernel handed to the engine."""
    handed: list[A.Play] = []
    engine_play = kernel.play

    def spy(s, p, fx):
        handed.append(p)
        engine_play(s, p, fx)

    monkeypatch.setattr(kernel, "play", spy)
    state = _start(card)
    kernel.run_random(state, random.Random(1), random.Random(2), 1)
    return state, handed


def _then_seat_2_goes_out(state):
    state, _ = apply(state, A.Play(2, parse_card("R3")))
    return state


def test_a_draw_two_that_draws_three_does_so_on_every_path(redefine, monkeypatch):
    stock, _ = _checked("R+2")
    assert stock.counts[1] == 2 + 2
    redefine(DRAW2, kinds.KINDS[DRAW2]._replace(draws=3))
    for state, effects in (_checked("R+2"), _listed("R+2")):
        assert state.counts[1] == 2 + 3
        assert len(state._pile) == len(PILE.split()) - 3
        assert state.turn == 2  # seat 1 was skipped
        assert any(type(e).__name__ == "PlayerSkipped" and e.seat == 1 for e in effects)
    in_kernel, handed = _kernel("R+2", monkeypatch)
    assert [p.card for p in handed] == [parse_card("R3")]  # the +2 was the kernel's own
    assert in_kernel.counts[1] == 2 + 3
    assert snapshot(in_kernel) == snapshot(_then_seat_2_goes_out(_checked("R+2")[0]))


def test_a_reverse_redefined_as_a_skip_skips_on_every_path(redefine, monkeypatch):
    stock, _ = _checked("RR")
    assert (stock.direction, stock.turn) == (-1, 3)
    redefine(REVERSE, KindRule(skips=1))
    for state, effects in (_checked("RR"), _listed("RR")):
        assert (state.direction, state.turn) == (1, 2)
        assert not any(type(e).__name__ == "DirectionChanged" for e in effects)
    in_kernel, handed = _kernel("RR", monkeypatch)
    assert [p.card for p in handed] == [parse_card("R3")]
    assert in_kernel.direction == 1
    assert snapshot(in_kernel) == snapshot(_then_seat_2_goes_out(_checked("RR")[0]))


def _launcher_start():
    hands = ["RH2 G7 B8", "G1 G2", "R3", "B1 B2"]
    return position("attack", hands=hands, discard="R5", pile=PILE, options=OPTIONS)


def test_a_hit_two_that_hits_three_owes_three_presses_on_every_path(redefine, monkeypatch):
    """On a launcher edition the listed path (engine.play_plain) has the victim owe the
    rule's draws as presses, as the checked path does; the kernel hands the card to the
    engine's play."""
    card = parse_card("RH2")
    redefine(HIT2, kinds.KINDS[HIT2]._replace(draws=3))
    checked, checked_fx = apply(_launcher_start(), A.Play(0, card))
    state = _launcher_start()
    (play,) = [a for a in legal_actions(state) if isinstance(a, A.Play)]
    listed, listed_fx = apply(state, play)
    for state, effects in ((checked, checked_fx), (listed, listed_fx)):
        assert [(o.seat, o.amount) for o in state.queue] == [(1, 3)]
        assert state.to_act == 1 and state.turn == 2  # seat 1 presses, then seat 2 plays
        assert [type(e).__name__ for e in effects] == [
            "CardPlayed", "OwePresses", "PlayerSkipped", "Prompt"]
    assert snapshot(listed) == snapshot(checked) and listed_fx == checked_fx
    handed: list[A.Play] = []
    engine_play = kernel.play
    monkeypatch.setattr(kernel, "play", lambda s, p, fx: (handed.append(p), engine_play(s, p, fx)))
    kernel.run_random(_launcher_start(), random.Random(1), random.Random(2), 1)
    assert handed[0].card == card  # the kernel leaves the presses to the engine


def test_a_skip_that_makes_the_victim_draw_may_not_finish_under_no_draw_finish(redefine):
    """no_draw_finish bans the cards whose rule makes a seat draw: no list of kinds of
    its own, so a Skip redefined to draw one is banned too."""
    def last_skip():
        return position("classic", hands=["RS", "G1 G2"], discard="R5", pile=PILE,
                        options={"no_draw_finish": True})
    apply(last_skip(), A.Play(0, parse_card("RS")))  # a Skip may finish
    redefine(SKIP, kinds.KINDS[SKIP]._replace(draws=1))
    with pytest.raises(IllegalAction) as refused:
        apply(last_skip(), A.Play(0, parse_card("RS")))
    assert refused.value.key == "no_draw_finish"


def test_a_wild_customizable_plays_as_the_kind_the_option_names_everywhere():
    """The Wild Customizable's kind is worked out once, per card in the rule tables:
    as a Hit 2 it makes the next seat press twice and its stack value is two."""
    s = position("attack", hands=["WC G7 B8", "G1 G2", "R3"], discard="R5", pile=PILE,
                 options={"wild_customizable": "hit-2", "stack_draws": "cross"})
    card = parse_card("WC")
    assert s.tables.kinds[card.id] == HIT2
    assert s.tables.rules[3][card.id] == tables.at_table(kinds.KINDS[HIT2], s.options, 3)
    s, _ = apply(s, A.Play(0, card, colour="G"))
    assert s.stack == (2, 1)


def test_the_kind_lists_made_from_the_rules_name_the_cards_the_rules_name():
    """The +4 wilds go back when turned first (rules row 16), no_bluff restricts the ones
    aimed at the next seat (row 124), no_draw_finish bans the drawing kinds (row 156)."""
    from uno_core.cards import (
        DRAW1,
        WILD_ALL_HIT,
        WILD_ATTACK,
        WILD_DRAW4,
        WILD_EXTREME,
        WILD_HIT4,
        WILD_HIT_FIRE,
    )
    assert {WILD_DRAW4, WILD_HIT4, WILD_EXTREME} == kinds.PLUS4_WILDS
    assert {WILD_DRAW4, WILD_HIT4} == kinds.BLUFF_KINDS
    assert {k for k, r in kinds.KINDS.items() if kinds.makes_draw(r)} == {
        DRAW1, DRAW2, WILD_DRAW4, HIT2, WILD_HIT4, WILD_HIT_FIRE, WILD_ALL_HIT, WILD_ATTACK,
        WILD_EXTREME}


def _rounds(edition: str, how: str, rounds: int = 3, seed: int = 4):
    """`rounds` rounds of 4 seats from the same seeds, played by the uniform policy on
    one path: "kernel" (its own loop), "listed" (each action as legal_actions listed
    it: ``engine.play_plain`` for the plain cards) or "checked" (each action as a new
    object, which apply checks in full). The actions taken, the end state, and the
    kinds of the cards played (the kernel: of those it handed to the engine's play)."""
    rng, chance = random.Random(seed), random.Random(seed + 1)
    state = new_match(edition, 4, {"target_score": 100000})
    kinds_played: list[str] = []
    if how == "kernel":
        engine_play = kernel.play

        def spy(s, p, fx):
            kinds_played.append(p.card.kind)
            engine_play(s, p, fx)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(kernel, "play", spy)
            count = kernel.run_random(state, rng, chance, rounds)
        return count, state, kinds_played
    count = done = 0
    while done < rounds:
        action = (sample_outcome(state, chance) if state.to_act == CHANCE
                  else kernel.choose_random(state, rng))
        if isinstance(action, A.Play):
            kinds_played.append(action.card.kind)
        if how == "checked":
            action = dataclasses.replace(action)  # not the listed object: checked in full
        before = state.round_no
        state, _ = apply(state, action, effects=False)
        count += 1
        done += state.round_no != before
    return count, state, kinds_played


# redefinitions of a kind's meaning, each playing other games than the stock rules
REDEFINED = [
    ("classic", SKIP, KindRule(skips=2)),  # a Skip passes over two seats
    ("classic", REVERSE, KindRule(turns=True, skips=1, draws=1)),  # the victim is behind
    ("classic", DRAW2, KindRule(skips=1, draws=3)),  # no longer stacking: three cards
    ("classic", NUMBER, KindRule(turns=True)),  # every number turns the direction
    ("power", DRAW2, KindRule(skips=2, draws=1)),  # a tower still wards it off
    ("extreme", SKIP, KindRule(draws=1)),  # a Skip only makes the next seat draw
]


@pytest.mark.parametrize(("edition", "kind", "rule"), REDEFINED,
                         ids=[f"{e}-{k}" for e, k, _ in REDEFINED])
def test_a_redefined_kind_plays_the_same_new_games_on_every_path(redefine, edition, kind,
                                                                  rule):
    """The kernel, the listed path and the checked path play the same games after the
    redefinition, and they are other games than before it: a path that carried out a
    kind's meaning by a copy of its own would part from the others."""
    stock = _rounds(edition, "checked")
    redefine(kind, rule)
    ends = {how: _rounds(edition, how) for how in ("kernel", "listed", "checked")}
    count, state, played = ends["checked"]
    for how in ("kernel", "listed"):
        assert ends[how][0] == count
        assert snapshot(ends[how][1]) == snapshot(state), how
    assert snapshot(state) != snapshot(stock[1])
    assert kind in played
    if edition == "classic":  # a pile edition without towers: the kernel lays some itself
        assert ends["kernel"][2].count(kind) < played.count(kind)


def test_a_draw_carried_out_differently_changes_every_path_alike(redefine, monkeypatch):
    """The meaning itself changed where it is carried out (``cardrules.hit``: the victim
    takes one card more than the rule says): the three paths still play the same games,
    other games than before, so none of them carries a draw out by a copy of its own."""
    stock = _rounds("classic", "checked")
    carried_out = cardrules.hit

    def one_more(s, victim, r, fx):
        carried_out(s, victim, r._replace(draws=r.draws + 1) if r.draws else r, fx)

    monkeypatch.setattr(cardrules, "hit", one_more)
    redefine(DRAW2, kinds.KINDS[DRAW2])  # caches made afresh, with the changed hit
    ends = {how: _rounds("classic", how) for how in ("kernel", "listed", "checked")}
    count, state, played = ends["checked"]
    for how in ("kernel", "listed"):
        assert ends[how][0] == count
        assert snapshot(ends[how][1]) == snapshot(state), how
    assert snapshot(state) != snapshot(stock[1])
    assert ends["kernel"][2].count(DRAW2) < played.count(DRAW2)  # the kernel laid some
