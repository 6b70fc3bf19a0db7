"""Whole matches end to end: every edition, both modes, determinism and replay."""

import json
from collections import Counter

import pytest

from tests.uno_core.helpers import play_match
from uno_core import (
    EDITIONS,
    IllegalAction,
    Play,
    apply,
    hand_points,
    legal_actions,
    public_state,
    replay,
    restore,
    snapshot,
)

CASES = [(ed, seats, mode) for ed in sorted(EDITIONS) for seats in (2, 4)
         for mode in ("simulation", "table")]


@pytest.mark.parametrize(("edition", "seats", "mode"), CASES)
def test_a_match_plays_to_500(edition, seats, mode):
    state, log = play_match(edition, seats, seed=7, mode=mode)
    assert state.over
    assert max(state.scores) >= 500
    assert state.winners == (state.scores.index(max(state.scores)),)
    rounds = [e for _, fx in log for e in fx if e.name == "round_over"]
    assert rounds and rounds[-1].scores == state.scores
    before = (0,) * seats
    for r in rounds:  # winner_takes: only the round winner scores, the others' card points
        assert r.scores[r.winner] - before[r.winner] == sum(r.points)
        before = r.scores


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_cards_are_conserved_in_simulation(edition):
    state, log = play_match(edition, 3, seed=3, options={"target_score": 200})
    deck = Counter(EDITIONS[edition].deck)
    s, _ = replay(edition, 3, [], {"target_score": 200})
    for action, _fx in log:
        s, _ = apply(s, action)
        if s.phase in ("dealer", "shuffle", "match_over"):
            continue
        held = Counter(s.pile) + Counter(s.discard)
        for h in s.hands:
            held.update(h)
        assert held == deck


def test_same_seed_same_match_bit_for_bit():
    a, log_a = play_match("attack", 4, seed=11)
    b, log_b = play_match("attack", 4, seed=11)
    assert [x for x, _ in log_a] == [x for x, _ in log_b]
    assert snapshot(a) == snapshot(b)
    c, log_c = play_match("attack", 4, seed=12)
    assert [x for x, _ in log_c] != [x for x, _ in log_a]


@pytest.mark.parametrize("mode", ["simulation", "table"])
def test_replaying_the_action_list_reproduces_the_state(mode):
    final, log = play_match("power", 4, seed=5, mode=mode)
    again, _ = replay("power", 4, [a for a, _ in log], mode=mode)
    assert again == final


def test_snapshot_round_trips_mid_game_and_is_json():
    _, log = play_match("power", 3, seed=2, options={"target_score": 100})
    s, _ = replay("power", 3, [a for a, _ in log[:150]], {"target_score": 100})
    data = json.loads(json.dumps(snapshot(s)))
    assert restore(data) == s


def test_public_state_hides_hands():
    _, log = play_match("classic", 4, seed=1, options={"target_score": 50})
    s, _ = replay("classic", 4, [a for a, _ in log[:40]], {"target_score": 50})
    view = public_state(s)
    json.dumps(view)
    assert view["hand_counts"] == [len(h) for h in s.hands]
    assert "hands" not in view and "pile" not in view
    assert view["top"] == str(s.discard[-1])


def test_illegal_action_leaves_state_unchanged():
    _, log = play_match("classic", 2, seed=4, options={"target_score": 2000})
    s, _ = replay("classic", 2, [a for a, _ in log[:30]], {"target_score": 2000})
    before = snapshot(s)
    not_held = next(c for c in EDITIONS["classic"].deck if c not in s.hands[max(s.to_act, 0)])
    with pytest.raises(IllegalAction) as err:
        apply(s, Play(max(s.to_act, 0), not_held))
    assert str(not_held) in str(err.value)
    assert snapshot(s) == before
    assert legal_actions(s) == legal_actions(restore(before))


def test_round_score_is_the_card_values_left():
    _, log = play_match("classic", 3, seed=9, options={"target_score": 300})
    s, _ = replay("classic", 3, [], {"target_score": 300})
    rounds = 0
    for action, _fx in log:
        s, fx = apply(s, action)
        for e in fx:
            if e.name == "round_over":
                rounds += 1
                assert s.counts[e.winner] == 0
                assert list(e.points) == [hand_points(s, h) for h in s.hands]
    assert rounds >= 2


@pytest.mark.parametrize(("edition", "mode"), [(e, m) for e in sorted(EDITIONS)
                                               for m in ("simulation", "table")])
def test_public_view_and_snapshot_at_every_step(edition, mode):
    _, log = play_match(edition, 3, seed=8, mode=mode, options={"target_score": 100})
    s, _ = replay(edition, 3, [], {"target_score": 100}, mode)
    for action, _fx in log[:400]:
        s, _ = apply(s, action)
        view = json.loads(json.dumps(public_state(s)))
        assert view["hand_counts"] == list(s.counts) and view["phase"] == s.phase
        assert restore(json.loads(json.dumps(snapshot(s)))) == s
