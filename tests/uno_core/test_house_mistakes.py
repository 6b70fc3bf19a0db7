"""Issue 23: the mistakes a house rule charges for instead of refusing them
(``uno_core.house_penalties``: a false UNO call, a try to go out on a banned card, a
draw while holding a playable card) never break a match.

``legal_actions`` lists no mistake, so the combination property of
``test_house_properties`` never makes one. Here the bots do: now and then a seat makes
whichever mistake the options charge for (``engine.costs_penalty``), and every step is
checked as there (invariants, an action for the seat to act); the match ends and its
record replays to the same state.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.uno_core.test_house_properties import LiveChecker, combinations
from tests.uno_core.test_properties import PROFILE
from uno_core import CHANCE, EDITIONS, CallUno, Draw, Play, Press, snapshot
from uno_core.bots import RandomBot, play_match
from uno_core.engine import costs_penalty
from uno_core.record import replay_record, write_record

PENALTIES = ("false_uno_penalty", "banned_finish_penalty", "playable_draw_penalty")


def mistakes(state, seat: int) -> list:
    """Every mistake `seat` could make now that the options charge for."""
    s = state
    cards = sorted(set(s.hands[seat]) if not s.table else
                   {c for c, k in s.unseen.items() if k > 0}, key=lambda c: c.sort_key())
    tries: list = [Draw(seat), Press(seat), CallUno(seat)]
    for card in cards:
        colour = "" if card.colour else "R"
        for target in (-1, (seat + 1) % s.n):
            tries += [Play(seat, card, colour=colour, target=target),
                      Play(seat, card, colour=colour, target=target, uno=True)]
    return [a for a in tries if costs_penalty(s, a)]


def kind(action) -> str:
    return type(action).__name__ + ("-uno" if getattr(action, "uno", False) else "")


class CarelessBot(RandomBot):
    """A random bot that sometimes makes a mistake the table charges for (at most
    `budget` of them in a match, so that the match still ends)."""

    def __init__(self, rng: random.Random, rate: float, budget: list[int]) -> None:
        super().__init__(rng, forget_uno=0.2)
        self.rate, self.budget, self.made = rate, budget, 0

    def act(self, state, legal):
        if self.budget[0] > 0 and self.rng.random() < self.rate:
            found = mistakes(state, state.to_act)
            if found:  # each kind of mistake as likely as any other
                kinds = sorted({kind(a) for a in found})
                pick = kinds[self.rng.randrange(len(kinds))]
                found = [a for a in found if kind(a) == pick]
                self.budget[0] -= 1
                self.made += 1
                return found[self.rng.randrange(len(found))]
        return super().act(state, legal)


@pytest.mark.parametrize("mode", ["simulation", "table"])
@pytest.mark.parametrize("edition", sorted(EDITIONS))
@settings(PROFILE, max_examples=max(4, PROFILE.max_examples // 2))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_mistakes_the_options_charge_for_never_break_a_match(edition, mode, data, seed):
    options = data.draw(combinations(edition))
    for name in PENALTIES:
        options[name] = data.draw(st.integers(1, 2))
    ed = EDITIONS[edition]
    seats = data.draw(st.integers(ed.min_players, min(ed.max_players, 5)))
    rng = random.Random(seed)
    budget = [40]
    bots = [CarelessBot(rng, 0.15, budget) for _ in range(seats)]
    checker = LiveChecker(edition, seats, mode, seed)
    log = play_match(edition, seats, bots, rng, options=options, mode=mode,
                     observe=checker, max_actions=50_000)
    assert log.state.over, "the match did not finish"
    record = write_record(edition, seats, log.actions, options=options, mode=mode,
                          seed=seed, effects=log.effects, final=log.state)
    replayed, _ = replay_record(record)
    assert snapshot(replayed) == snapshot(log.state)


def test_the_careless_bots_do_make_mistakes_and_pay_for_them():
    """The property above is not vacuous: over a few matches every kind of mistake is
    made, and each one leaves its seat holding more cards than before (or owing them
    while the discard pile is reshuffled)."""
    kinds: set[str] = set()

    def seen(before, action, after, _effects):
        if costs_penalty(before, action):
            kinds.add(kind(action))
            grew = after.counts[action.seat] > before.counts[action.seat]
            # (or the rest after a reshuffle; nothing if every card is held)
            assert grew or after.to_act == CHANCE or after.pile_count == 0

    every = {name: 2 for name in PENALTIES} | {"no_action_finish": True}
    # a banned last card that fits is rare among the others: alone, each chance is taken
    finish = {"banned_finish_penalty": 1, "no_action_finish": True}
    for options, rate in ((every, 0.1), (finish, 1.0)):
        for seed in range(5):
            rng = random.Random(seed)
            bots = [CarelessBot(rng, rate, [20]) for _ in range(3)]
            play_match("classic", 3, bots, rng, options={**options, "target_score": 100},
                       observe=seen)
    assert kinds == {"Draw", "CallUno", "Play-uno", "Play"}
