"""``apply`` changes the state it is given and returns it; ``clone`` keeps an old state.
An illegal action changes nothing; a listed action and an equal one built anew give the
same state and effects; ``effects=False`` reaches the same state without effects."""

from __future__ import annotations

import random

import pytest

from tests.uno_core.helpers import step
from uno_core import (
    CHANCE,
    IllegalAction,
    Play,
    apply,
    legal_actions,
    new_match,
    sample_outcome,
    snapshot,
)
from uno_core.actions import action_from_dict, action_to_dict

EDITION_NAMES = ["classic", "power", "attack", "attack-1999", "extreme"]


@pytest.mark.parametrize("mode", ["simulation", "table"])
@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_listed_and_rebuilt_actions_give_the_same_state_and_effects(edition, mode):
    rng = random.Random(7)
    state = new_match(edition, 3, mode=mode)
    seat_actions = 0
    while seat_actions < 600:
        if state.over:
            state = new_match(edition, 3, mode=mode)
        if state.to_act == CHANCE:
            state, _ = apply(state, sample_outcome(state, rng))
            continue
        legal = legal_actions(state)
        if not legal:  # table mode: a hand entry (not listed there)
            break
        listed = rng.choice(legal)
        rebuilt = action_from_dict(action_to_dict(listed))  # equal, not the same object
        fresh, fresh_fx = apply(state.clone(), rebuilt)
        quiet, no_fx = apply(state.clone(), listed, effects=False)
        after, fx = apply(state, listed)
        assert after is state  # changed in place
        assert fresh == state and quiet == state
        assert fresh_fx == fx and no_fx == []
        seat_actions += 1


def _playing(seed: int = 3):
    rng = random.Random(seed)
    state = new_match("classic", 4)
    while state.to_act == CHANCE or state.phase != "play":
        action = (sample_outcome(state, rng) if state.to_act == CHANCE
                  else rng.choice(legal_actions(state)))
        state, _ = apply(state, action)
    return state


def test_an_illegal_action_leaves_the_state_exactly_as_it_was():
    state = _playing()
    seat = state.to_act
    before = snapshot(state)
    foreign = next(Play(seat, c) for c in state.hands[(seat + 1) % 4]
                   if c not in state.hands[seat])
    with pytest.raises(IllegalAction) as err:
        apply(state, foreign)
    assert err.value.key == "not_held"
    assert snapshot(state) == before


def test_a_clone_keeps_the_old_state():
    state = _playing()
    old = state.clone()
    kept = snapshot(old)
    listed = legal_actions(state)[0]
    apply(state, listed)
    assert snapshot(old) == kept and old != state
    with pytest.raises(IllegalAction) as err:
        apply(state, listed)  # the same seat cannot play again on the next turn
    assert err.value.key == "not_your_turn"
    apply(old, listed)  # the clone still can
    assert old == state


def _two_plays_or_more(seed: int, seat: int):
    """A classic state where `seat` (4+ cards) is to play and may play two cards or more."""
    rng = random.Random(seed)
    state = new_match("classic", 4)
    while True:
        if state.to_act == CHANCE:
            apply(state, sample_outcome(state, rng))
            continue
        legal = legal_actions(state)
        if (state.to_act == seat and state.counts[seat] > 3
                and len({a.card for a in legal if isinstance(a, Play)}) >= 2):
            return state
        apply(state, rng.choice(legal))


def test_two_states_listed_in_turn_each_keep_their_own_legal_plays():
    # a listing of two playable faces or more is its state's own (State._lazy): listing
    # another state of the same decision (seat, hand size) in between, or a clone's,
    # never changes what the first one lists and accepts
    one = _two_plays_or_more(1, 2)
    two = next(s for s in (_two_plays_or_more(k, 2) for k in range(2, 40))
               if legal_actions(s) != legal_actions(one))
    first, second = legal_actions(one), legal_actions(two)
    copy = one.clone()
    assert legal_actions(copy) == first
    mine = next(a for a in first if isinstance(a, Play) and a not in second)
    assert legal_actions(one) == first and legal_actions(two) == second
    with pytest.raises(IllegalAction):
        apply(two, mine)  # listed for the other state only
    kept = copy.clone()
    apply(one, mine)
    apply(kept, Play(mine.seat, mine.card, mine.colour, mine.target, mine.towers,
                     mine.laid, mine.uno))  # the same play built anew, checked in full
    assert one == kept and legal_actions(copy) == first


def test_the_caller_cannot_change_the_state_through_what_it_reads():
    state = _playing()
    before = snapshot(state)
    hands, counts = state.hands, state.counts  # tuples: values, not the engine's lists
    listed = legal_actions(state)
    listed.clear()  # the caller's list is its own
    assert isinstance(hands[0], tuple) and isinstance(counts, tuple)
    assert snapshot(state) == before and legal_actions(state)


def test_a_listed_action_is_checked_again_once_the_state_changed_otherwise():
    # apply takes an action listed for this very state without a second check; a state
    # changed since (here a bot's view of other hands) must check it in full again
    state = _playing()
    seat = state.to_act
    play = next(a for a in legal_actions(state) if isinstance(a, Play))
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != play.card)
    state.assume_hands(hands)
    with pytest.raises(IllegalAction) as err:
        apply(state, play)
    assert err.value.key == "not_held"


def test_listing_parts_are_made_once_per_decision_and_fresh_parts_play_the_same(monkeypatch):
    # uno_core.listing builds a decision's legal list from per-face parts made once per
    # (rule tables, seats): their number is bounded by the faces of the deck, whatever
    # the length of the simulation, and parts made anew give the same games
    from uno_core import listing

    def play(rounds):
        rng = random.Random(4)
        state = new_match("power", 3, {"target_score": 100000})
        while state.round_no <= rounds:
            action = (sample_outcome(state, rng) if state.to_act == CHANCE
                      else rng.choice(legal_actions(state)))
            state, _ = apply(state, action)
        return state

    full = play(6)
    made = [d for d in full._decisions if d is not None]
    faces = len(set(full.edition.deck))
    assert made and all(sum(f is not None for f in d.faces) <= faces for d in made)
    longer = play(30)
    assert longer._decisions is full._decisions  # shared by every such state
    assert all(sum(f is not None for f in d.faces) <= faces
               for d in longer._decisions if d is not None)
    monkeypatch.setattr(listing, "_DECISIONS", {})
    fresh = play(6)
    assert fresh._decisions is not full._decisions
    assert snapshot(fresh) == snapshot(full)


@pytest.mark.parametrize("edition", EDITION_NAMES)
def test_legal_actions_list_plays_in_card_id_order_whatever_the_hand_order(edition):
    # the order a memoized listing needs (docs/architecture.md): by card, each card's
    # variants together, then the draw, press or pass; the hand keeps the order held
    rng = random.Random(11)
    state = new_match(edition, 3)
    seen = 0
    while seen < 300:
        if state.over:
            state = new_match(edition, 3)
        if state.to_act == CHANCE:
            state, _ = apply(state, sample_outcome(state, rng))
            continue
        legal = legal_actions(state)
        ids = [a.card.id for a in legal if isinstance(a, Play)]
        assert ids == sorted(ids)
        others = [i for i, a in enumerate(legal) if not isinstance(a, Play)]
        assert all(i >= len(ids) for i in others)  # plays first
        seen += bool(ids)
        state, _ = apply(state, rng.choice(legal))


def test_a_play_listed_on_an_earlier_turn_is_refused_when_its_card_no_longer_fits():
    # listings of the same decision share one table of plays: membership is the card's
    # bit in this listing's faces, so a play listed before is refused in full now
    rng = random.Random(11)
    state = new_match("classic", 3, {"target_score": 100000})
    listed: dict[int, set[Play]] = {}
    refused = 0
    for _ in range(4000):
        seat = state.to_act
        if seat >= 0 and state.phase == "play":
            legal = set(legal_actions(state))
            for old in listed.get(seat, set()) - legal:
                if old.card in state.hand(seat) and old.uno == (state.counts[seat] == 2):
                    before = snapshot(state)
                    with pytest.raises(IllegalAction) as err:
                        apply(state, old)
                    assert err.value.key == "no_match"
                    assert snapshot(state) == before
                    refused += 1
            listed.setdefault(seat, set()).update(a for a in legal if isinstance(a, Play))
        _, state, _ = step(state, rng)
    assert refused > 100


def _listed_and_rebuilt(state, wanted):
    """Apply `wanted` as legal_actions lists it (the written-out path, engine.play_plain)
    and, on a clone, as an equal action built anew (the full check and engine.play)."""
    other = state.clone()
    listed = next(a for a in legal_actions(state) if a == wanted)
    assert listed is not wanted
    fast, fx_fast = apply(state, listed)
    full, fx_full = apply(other, wanted)
    assert snapshot(fast) == snapshot(full)
    assert fx_fast == fx_full
    return fast, fx_fast


@pytest.mark.parametrize(("card", "tower"), [("R+1", "U"), ("R+2", "N"), ("RS", "!")])
def test_power_a_listed_skip_or_draw_card_is_warded_off_by_the_victims_tower(card, tower):
    from uno_core.setup import position

    s = position("power", hands=[f"{card} R1 G3", "B1 B4", "B2 B5"], discard="R7",
                 towers={tower: 1})
    s, fx = _listed_and_rebuilt(s, Play(0, s.hand(0)[0]))
    assert [e.name for e in fx].count("protection_used") == 1
    assert not [e for e in fx if e.name == "player_skipped"]
    assert s.counts[1] == 2 and s.to_act == 1  # no cards, no skip: the victim plays


def test_power_a_listed_symbol_number_takes_the_fourth_tower_and_asks_for_the_discard():
    from uno_core.setup import position

    s = position("power", hands=["R4! R1 B9", "B1", "Y9"], discard="R7",
                 towers={"U": 0, "N": 0, "O": 0})
    s, fx = _listed_and_rebuilt(s, Play(0, s.hand(0)[0]))
    assert s.towers == (0, 0, 0, 0)
    assert s.phase == "four_towers" and s.to_act == 0


def test_a_listed_drawn_card_is_played_as_a_rebuilt_one():
    from uno_core.setup import position

    s = position("power", hands=["B1 B2 B3", "G1 G2", "Y1 Y2"], discard="R7", pile="R5 R9",
                 options={"draw_then_play": True})
    s, _ = apply(s, next(a for a in legal_actions(s) if a.name == "draw"))
    assert s.phase == "drawn"
    s, fx = _listed_and_rebuilt(s, Play(0, s.drawn[0]))
    assert s.phase == "play" and s.to_act == 1 and not s.drawn
    assert s.counts[0] == 3
