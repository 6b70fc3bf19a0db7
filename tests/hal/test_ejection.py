"""Ejection models: seeded samples fit each model's stated distribution (chi-square)."""

import random
from collections import Counter

import pytest

from hal.ejection import (
    MeasuredModel,
    ModelConfig,
    chi_square,
    fixed_model,
    geometric_model,
    parse_model_config,
    table_model,
    upper_gamma_regularized,
)
from hal.errors import ConfigError

PRESSES = 20_000
ALPHA = 1e-3  # with fixed seeds a test either always passes or always fails


def sample(model, presses=PRESSES, seed=2024):
    rng = random.Random(seed)
    outcomes = [model.press(rng) for _ in range(presses)]
    gaps, since = [], 0
    for cards in outcomes:
        since += 1
        if cards:
            gaps.append(since)
            since = 0
    return outcomes, gaps


def test_measured_model_uses_the_published_gap_table():
    model = MeasuredModel()
    assert model.presses_between() == {1: 0.18, 2: 0.41, 3: 0.24, 4: 0.09, 5: 0.08}
    assert model.mean_gap() == pytest.approx(2.48)
    per_press = model.cards_per_press()
    assert per_press[0] == pytest.approx(1 - 1 / 2.48)
    assert sum(per_press.values()) == pytest.approx(1)
    assert set(model.cards_per_ejection()) == set(range(1, 14))
    assert sum(model.cards_per_ejection().values()) == pytest.approx(1)


def test_measured_launcher_is_never_more_than_five_presses_apart_and_ejects_up_to_13():
    outcomes, gaps = sample(MeasuredModel())
    assert max(gaps) == 5 and min(gaps) == 1
    assert set(outcomes) <= set(range(14))
    assert max(outcomes) >= 10  # bursts do happen


@pytest.mark.parametrize(
    "model",
    [
        MeasuredModel(),
        geometric_model(),
        geometric_model(p_eject=0.9, p_more=0.2, max_cards=4),
        table_model([0.5, 0.2, 0.2, 0.1]),
    ],
    ids=["measured", "geometric", "geometric-steep", "table"],
)
def test_samples_fit_the_stated_distributions(model):
    outcomes, gaps = sample(model)
    ejected = [k for k in outcomes if k]
    for observed, expected in (
        (Counter(outcomes), model.cards_per_press()),
        (Counter(ejected), model.cards_per_ejection()),
        (Counter(gaps), model.presses_between()),
    ):
        stat, df, p = chi_square(observed, expected, open_tail=True)
        assert df >= 1
        assert p > ALPHA, (stat, df)


def test_the_fit_test_notices_a_launcher_that_is_not_the_measured_one():
    # a fair-looking geometric launcher with the same ejection rate is still caught
    impostor = geometric_model(p_eject=1 / 2.48, p_more=0.7, max_cards=13)
    _, gaps = sample(impostor)
    stat, df, p = chi_square(Counter(gaps), MeasuredModel().presses_between())
    assert p < 1e-12


def test_fixed_model_always_ejects_the_same():
    model = fixed_model(3)
    outcomes, gaps = sample(model, presses=200)
    assert set(outcomes) == {3} and set(gaps) == {1}
    assert model.cards_per_press() == {3: 1.0} and model.presses_between() == {1: 1.0}
    never = fixed_model(0)
    assert sample(never, presses=50)[0] == [0] * 50
    assert never.presses_between() == {}


def test_geometric_gap_table_holds_its_tail_in_the_last_entry():
    gaps = geometric_model(p_eject=0.3).presses_between()
    assert sum(gaps.values()) == pytest.approx(1)
    assert gaps[1] == pytest.approx(0.3) and gaps[2] == pytest.approx(0.21)


def test_same_seed_same_presses_and_state_restores_mid_sequence():
    a, b = MeasuredModel(), MeasuredModel()
    assert sample(a, 500, seed=1) == sample(b, 500, seed=1)
    assert sample(a, 500, seed=1) != sample(a, 500, seed=2)

    rng = random.Random(9)
    model = MeasuredModel()
    while model.press(rng) != 0 or model.get_state()["presses_left"] is None:
        pass
    state, rng_state = model.get_state(), rng.getstate()
    expected = [model.press(rng) for _ in range(50)]
    restored = MeasuredModel()  # as after a restart: the daemon journaled the state
    restored.set_state(state)
    rng.setstate(rng_state)
    assert [restored.press(rng) for _ in range(50)] == expected


@pytest.mark.parametrize("state", [{"presses_left": 9}, {"presses_left": "2"}, {"x": 1}])
def test_bad_model_state_is_refused(state):
    model = MeasuredModel()
    with pytest.raises(ConfigError, match="bad model state"):
        model.set_state(state)
    assert model.get_state() == {"presses_left": None}


def test_model_config_builds_the_named_model():
    assert parse_model_config(None) == ModelConfig("measured")
    cfg = parse_model_config({"name": "table", "probabilities": [0.25, 0.75]})
    assert cfg.build().cards_per_press() == {0: 0.25, 1: 0.75}
    geo = parse_model_config({"name": "geometric", "p_eject": 0.5}).build()
    assert geo.describe() == {"name": "geometric", "p_eject": 0.5, "p_more": 0.6, "max_cards": 13}
    assert parse_model_config({"name": "fixed", "cards": 2}).build().press(random.Random()) == 2


def test_chi_square_agrees_with_textbook_values():
    # chi-square critical values at p = 0.05 from any statistics table
    assert upper_gamma_regularized(3 / 2, 7.815 / 2) == pytest.approx(0.05, abs=1e-4)
    assert upper_gamma_regularized(10 / 2, 18.307 / 2) == pytest.approx(0.05, abs=1e-4)
    assert upper_gamma_regularized(1 / 2, 6.635 / 2) == pytest.approx(0.01, abs=1e-4)
    stat, df, p = chi_square({0: 50, 1: 50}, {0: 0.5, 1: 0.5})
    assert (stat, df, p) == (0.0, 1, 1.0)
    stat, df, p = chi_square({0: 60, 1: 40}, {0: 0.5, 1: 0.5})
    assert stat == pytest.approx(4.0) and p == pytest.approx(0.0455, abs=1e-4)


def test_chi_square_rejects_impossible_outcomes():
    assert chi_square({0: 10, 7: 1}, {0: 1.0})[2] == 0.0
    with pytest.raises(ValueError, match="no observations"):
        chi_square({}, {0: 1.0})
