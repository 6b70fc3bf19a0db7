"""Property tests over many random matches per edition, player count and mode.

Each example plays a whole match (a small target score keeps it short) between random
and heuristic bots under random house-rule options, and checks after every action:
cards are conserved, towers are four and well placed, turn order follows the card
played, round scores equal the card points left in the hands, every probed illegal
action is rejected without changing the state (and, in simulation, ``apply`` accepts
exactly what ``legal_actions`` lists), ``apply`` never changes its input; at the end the
match's record replays to the same state. Table mode: only public information is
held, and a declared card must still exist.

Profiles: the default ("ci") runs a few hundred matches in total; set
``UNOTABLE_HYPOTHESIS_PROFILE=soak`` for thousands per edition and player count.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uno_core import (
    CHANCE,
    EDITIONS,
    NOBODY,
    OPTION_SPECS,
    Catch,
    Draw,
    IllegalAction,
    Pass,
    Play,
    Press,
    Shuffle,
    apply,
    hand_points,
    legal_actions,
    snapshot,
)
from uno_core.bots import HeuristicBot, RandomBot, play_match
from uno_core.cards import NUMBER, REVERSE, SKIP
from uno_core.engine import costs_penalty
from uno_core.options import NOT_YET
from uno_core.record import replay_record, write_record

_PROFILES = {
    "ci": {"max_examples": 30},
    "soak": {"max_examples": 1000},
}
PROFILE_NAME = os.environ.get("UNOTABLE_HYPOTHESIS_PROFILE", "ci")
if PROFILE_NAME not in _PROFILES:
    raise RuntimeError(f"UNOTABLE_HYPOTHESIS_PROFILE={PROFILE_NAME!r}: use one of "
                       f"{', '.join(_PROFILES)}")
PROFILE = settings(deadline=None, database=None, derandomize=PROFILE_NAME == "ci",
                   suppress_health_check=[HealthCheck.too_slow],
                   **_PROFILES[PROFILE_NAME])

# the soak profile runs for minutes per test: lift pytest-timeout's per-test limit for it
pytestmark = [pytest.mark.timeout(0)] if PROFILE_NAME == "soak" else []

SEATS = (2, 3, 4, 6)
EDITION_SEATS = [(ed, n) for ed in sorted(EDITIONS) for n in SEATS
                 if EDITIONS[ed].min_players <= n <= EDITIONS[ed].max_players]


def _option_values(name: str) -> st.SearchStrategy[object]:
    spec = OPTION_SPECS[name]
    if spec.type is bool:
        return st.booleans()
    if spec.choices:
        return st.sampled_from(spec.choices)
    ranges = {"target_score": (60, 250), "hand_size": (3, 7), "uno_penalty": (0, 4),
              "wild_draw4_points": (0, 70), "turn_timer_s": (0, 30),
              "false_uno_penalty": (0, 2), "banned_finish_penalty": (0, 2),
              "playable_draw_penalty": (0, 2)}
    low, high = ranges[name]
    return st.integers(low, high)


@st.composite
def house_rules(draw: st.DrawFn, edition: str) -> dict[str, object]:
    names = sorted(n for n in EDITIONS[edition].option_defaults if n not in NOT_YET)
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=4))
    options: dict[str, object] = {n: draw(_option_values(n)) for n in chosen}
    options.setdefault("target_score", draw(st.integers(60, 250)))
    return options


class Checker:
    """Checks the invariants around every step of a match (play_match's observer)."""

    def __init__(self, edition: str, seats: int, mode: str, probe_seed: int) -> None:
        self.ed = EDITIONS[edition]
        self.n = seats
        self.table = mode == "table"
        self.deck = Counter(self.ed.deck)
        self.rng = random.Random(probe_seed)
        self.steps = 0
        self.rounds = 0
        self.probes = 0

    def __call__(self, before, action, after, effects) -> None:
        self.steps += 1
        self.check_state(after)
        self.check_turn_order(before, action, after, effects)
        self.check_press_ejects_for_presser(action, after)
        self.check_scores(before, after, effects)
        if self.steps % 7 == 0:
            self.probe_illegal(before)

    # -- invariants of one state
    def check_state(self, s) -> None:
        assert len(s.counts) == self.n and all(c >= 0 for c in s.counts)
        assert s.to_act in (CHANCE, NOBODY) or 0 <= s.to_act < self.n
        assert len(s.towers) == 4
        assert all(-1 <= o < self.n for o in s.towers)
        if not self.ed.towers:
            assert s.towers == (-1, -1, -1, -1)
        if s.phase == "dealer" or (s.phase == "shuffle" and not s.discard):
            return  # before the first shuffle the cards are still in the box
        if self.table:
            assert s.pile == ()
            if s.phase in ("play", "drawn", "extra", "challenge", "verdict", "four_towers"):
                assert all(h == () for h in s.hands)  # no hidden card is known
            entered = sum(len(h) for h in s.hands)
            hidden = sum(c for c, h in zip(s.counts, s.hands, strict=True) if not h)
            assert all(k >= 0 for k in s.unseen.values())
            assert sum(s.unseen.values()) == s.pile_count + hidden
            assert len(s.discard) + sum(s.unseen.values()) + entered == len(self.ed.deck)
        else:
            held = Counter(s.pile) + Counter(s.discard)
            for hand in s.hands:
                held.update(hand)
            assert held == self.deck
            assert s.counts == tuple(len(h) for h in s.hands)
            assert s.pile_count == len(s.pile)

    def check_turn_order(self, before, action, after, effects) -> None:
        if not isinstance(action, Play) or after.phase != "play" or after.round_no != \
                before.round_no or before.phase != "play" or after.out >= 0:
            return
        names = {e.name for e in effects}
        if names & {"protection_used", "round_over", "owe_presses", "dispense",
                    "hands_traded"}:
            return
        seat, d, n = action.seat, before.direction, self.n
        kind = action.card.kind
        if kind == NUMBER and not before.skip_pending:
            assert after.turn == (seat + d) % n
        elif kind == SKIP and before.options.skip_reverse_extra_turn == "two-player" \
                and not before.skip_pending:
            assert after.turn == (seat + 2 * d) % n
        elif kind == REVERSE and n > 2 and \
                before.options.skip_reverse_extra_turn == "two-player":
            assert after.direction == -d
            assert after.turn == (seat - d) % n
        assert after.to_act in (after.turn, CHANCE) or after.queue

    def check_press_ejects_for_presser(self, action, after) -> None:
        """A press that hands the turn to the launcher has it eject for the seat that
        pressed: the table journals a press's ejection for `Press.seat`, without asking
        the engine's queue (firmware.controller.ejections)."""
        if isinstance(action, Press) and after.to_act == CHANCE and after.chance == "eject":
            assert after.queue[0][1] == action.seat

    def check_scores(self, before, after, effects) -> None:
        for e in effects:
            if e.name != "round_over":
                continue
            self.rounds += 1
            assert after.counts[e.winner] == 0
            assert list(e.points) == [hand_points(after, h) for h in after.hands]
            gained = [a - b for a, b in zip(e.scores, before.scores, strict=True)]
            if after.options.scoring == "winner_takes":
                assert gained[e.winner] == sum(e.points)
                assert all(g == 0 for i, g in enumerate(gained) if i != e.winner)
            else:
                assert gained == list(e.points)

    # -- illegal actions change nothing
    def _candidates(self, s) -> list:
        seat = s.to_act
        other = (seat + 1 + self.rng.randrange(self.n - 1)) % self.n if seat >= 0 else 0
        card = self.ed.deck[self.rng.randrange(len(self.ed.deck))]
        cands = [Play(other, card), Play(max(seat, 0), card), Draw(other), Press(other),
                 Pass(other), Catch(other, seat if seat >= 0 else 0), Shuffle((0,))]
        if seat >= 0:
            cands += [Draw(seat), Press(seat), Pass(seat),
                      Play(seat, card, colour="R"), Play(seat, card, target=seat)]
        if self.table and seat >= 0:
            gone = [c for c in self.deck if s.unseen.get(c, 0) == 0]
            if gone:
                cands.append(Play(seat, gone[self.rng.randrange(len(gone))]))
        return cands

    def probe_illegal(self, s) -> None:
        frozen = snapshot(s)
        legal = set(legal_actions(s))
        for a in self._candidates(s):
            if a in legal or (self.table and isinstance(a, Play)
                              and s.unseen.get(a.card, 0) > 0) or costs_penalty(s, a):
                continue  # legal, a declaration the table cannot refute, or a mistake
                # a house rule penalises (uno_core.house_penalties) instead of refusing
            if isinstance(a, Shuffle) and s.to_act == CHANCE:
                continue
            self.probes += 1
            with pytest.raises(IllegalAction):
                apply(s, a)
        if not self.table and s.to_act >= 0:
            for a in legal:  # apply accepts everything legal_actions lists
                apply(s.clone(), a)  # (apply changes the state it is given)
        assert snapshot(s) == frozen  # nothing above changed the state


def _run(edition, seats, mode, options, seed, kinds, checking=Checker):
    rng = random.Random(seed)
    bots = [HeuristicBot(rng, forget_uno=0.2) if k else RandomBot(rng, forget_uno=0.2)
            for k in kinds[:seats]]
    checker = checking(edition, seats, mode, seed)
    log = play_match(edition, seats, bots, rng, options=options, mode=mode,
                     observe=checker, max_actions=50_000)
    assert log.state.over, "the match did not finish"
    assert checker.rounds >= 1
    record = write_record(edition, seats, log.actions, options=options, mode=mode,
                          seed=seed, effects=log.effects, final=log.state)
    replayed, _ = replay_record(record)
    assert snapshot(replayed) == snapshot(log.state)
    return log


@pytest.mark.parametrize(("edition", "seats"), EDITION_SEATS)
@PROFILE
@given(data=st.data(), seed=st.integers(0, 2**32 - 1),
       kinds=st.lists(st.booleans(), min_size=6, max_size=6))
def test_simulated_matches_keep_every_invariant(edition, seats, data, seed, kinds):
    options = data.draw(house_rules(edition))
    _run(edition, seats, "simulation", options, seed, kinds)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@PROFILE
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), seats=st.sampled_from((2, 3, 5)))
def test_table_matches_keep_every_invariant(edition, data, seed, seats):
    options = data.draw(house_rules(edition))
    _run(edition, seats, "table", options, seed, [False] * 6)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@settings(PROFILE, max_examples=max(3, PROFILE.max_examples // 4))
@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_match(edition, seed):
    def run():
        rng = random.Random(seed)
        return play_match(edition, 3, [HeuristicBot(rng), RandomBot(rng), HeuristicBot(rng)],
                          rng, options={"target_score": 100})

    a, b = run(), run()
    assert a.actions == b.actions
    assert snapshot(a.state) == snapshot(b.state)
