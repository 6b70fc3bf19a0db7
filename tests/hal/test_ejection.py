"""Ejection models: seeded samples fit each model's stated distribution (chi-square)."""

import random

import pytest

from hal.ejection import (
    MeasuredModel,
    ModelConfig,
    chi_square,
    fixed_model,
    geometric_model,
    observe,
    parse_model_config,
    table_model,
    upper_gamma_regularized,
)
from hal.errors import ConfigError

PRESSES = 20_000
ALPHA = 1e-3  # with fixed seeds a test either always passes or always fails


def sample(model, presses=PRESSES, seed=2024):
    return observe(model, random.Random(seed), presses)


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
    seen = sample(MeasuredModel())
    assert set(seen.presses_between) == {1, 2, 3, 4, 5}
    assert set(seen.cards_per_press) <= set(range(14))
    assert max(seen.cards_per_press) >= 10  # bursts do happen
    assert sum(seen.cards_per_press.values()) == PRESSES
    assert seen.ejections == sum(seen.presses_between.values()) == PRESSES - seen.cards_per_press[0]


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
    fits = sample(model).fit(model)
    assert set(fits) == {"cards_per_press", "cards_per_ejection", "presses_between"}
    for stat, df, p in fits.values():
        assert df >= 1
        assert p > ALPHA, (stat, df)


def test_the_fit_test_notices_a_launcher_that_is_not_the_measured_one():
    # independent presses with the measured per-press distribution: every single
    # press looks right, only the rhythm between ejections gives it away
    impostor = geometric_model(p_eject=1 / 2.48, p_more=0.7, max_cards=13)
    fits = sample(impostor).fit(MeasuredModel())
    assert fits["presses_between"][2] < 1e-12
    assert fits["cards_per_press"][2] > ALPHA


def test_fixed_model_always_ejects_the_same():
    model = fixed_model(3)
    seen = sample(model, presses=200)
    assert seen.cards_per_press == {3: 200} and seen.presses_between == {1: 200}
    assert model.cards_per_press() == {3: 1.0} and model.presses_between() == {1: 1.0}
    never = fixed_model(0)
    seen = sample(never, presses=50)
    assert seen.cards_per_press == {0: 50} and seen.ejections == 0
    assert never.presses_between() == {}
    assert seen.fit(never)["presses_between"] is None


def test_geometric_gap_table_holds_its_tail_in_the_last_entry():
    gaps = geometric_model(p_eject=0.3).presses_between()
    assert sum(gaps.values()) == pytest.approx(1)
    assert gaps[1] == pytest.approx(0.3) and gaps[2] == pytest.approx(0.21)


def test_same_seed_same_presses_and_state_restores_mid_sequence():
    def presses(seed):
        model, rng = MeasuredModel(), random.Random(seed)
        return [model.press(rng) for _ in range(300)]

    assert presses(1) == presses(1)
    assert presses(1) != presses(2)

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


def test_a_drawn_press_says_the_state_before_and_after_and_can_be_taken_back():
    model, rng = MeasuredModel(), random.Random(4)
    drawn = model.draw(rng)
    assert drawn.before == {"presses_left": None} and drawn.after == model.get_state()
    again = MeasuredModel()
    assert again.press(random.Random(4)) == drawn.cards  # the same press as `press`
    model.set_state(drawn.before)  # the daemon could not journal it: as if never pressed
    assert model.draw(random.Random(4)) == drawn


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
