"""The chance player: seeded, replayable, and the measured launcher model."""

import random
from collections import Counter

import pytest

from tests.uno_core.scen import run
from uno_core import (
    MEASURED,
    DealerCards,
    Eject,
    Press,
    RuleError,
    Shuffle,
    apply,
    new_match,
    parse_cards,
    position,
    sample_outcome,
)
from uno_core.chance import SimpleLauncher


def test_measured_model_reproduces_the_published_gaps():
    rng = random.Random(1)
    since, gaps, counts = 0, Counter(), Counter()
    for _ in range(50_000):
        n = MEASURED.eject(rng, since)
        since += 1
        if n:
            gaps[since] += 1
            counts[n] += 1
            since = 0
    total = sum(gaps.values())
    shares = [gaps[k] / total for k in range(1, 6)]
    for got, want in zip(shares, (0.18, 0.41, 0.24, 0.09, 0.08), strict=True):
        assert abs(got - want) < 0.015
    assert max(gaps) == 5 and set(counts) <= set(range(1, 14))


def test_simple_model_bounds():
    rng = random.Random(2)
    model = SimpleLauncher(p_eject=0.5, max_cards=3)
    outs = Counter(model.eject(rng, 0) for _ in range(2000))
    assert set(outs) == {0, 1, 2, 3}


def test_ejection_is_capped_by_the_launcher_load():
    s = position("attack", hands=["B1", "G5"], discard="R7", pile="Y1")
    s, _ = run(s, Press(0))
    outs = {sample_outcome(s, random.Random(i)).count for i in range(200)}
    assert outs == {0, 1}


def test_same_seed_same_outcome():
    s = new_match("power", 3)
    a = sample_outcome(s, random.Random(5))
    assert a == sample_outcome(s, random.Random(5))


def test_no_outcome_due_is_an_error():
    s = position("classic", hands=["R1", "B2"], discard="R5")
    with pytest.raises(RuleError, match="no chance outcome"):
        sample_outcome(s, random.Random(0))


def test_shuffle_is_a_permutation_of_the_deck():
    s, _ = apply(new_match("classic", 2), DealerCards(parse_cards("R9 R1")))
    a = sample_outcome(s, random.Random(3))
    assert isinstance(a, Shuffle) and sorted(a.order) == list(range(108))
    assert not isinstance(a, Eject)
