"""The launcher refuses a bound that is not a finite number in its range when its config
is built, whoever builds it: the config layer is not the only guard of the motor."""

import dataclasses
import math

import pytest

from hal.ejection import MODEL_BOUNDS, ModelConfig
from hal.errors import ConfigError
from hal.launcher import BOUNDS, parse_config
from hal.sim.launcher import EXAMPLE_SECTION


def out_of_range(low, high):
    return [math.nan, math.inf, -math.inf, low - 1, high + 1, 1e308 * 10]


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_a_launcher_config_refuses_a_bound_outside_its_range(name):
    good = parse_config(EXAMPLE_SECTION)
    for value in out_of_range(*BOUNDS[name]):
        with pytest.raises(ConfigError) as info:
            dataclasses.replace(good, **{name: value})
        assert info.value.key == f"launcher.{name}", value
        assert "\n" not in str(info.value)


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_a_launcher_config_takes_either_end_of_a_range(name):
    no_servo = {k: v for k, v in EXAMPLE_SECTION.items() if k not in ("servo", "seat_angles")}
    good = parse_config(no_servo)
    for value in BOUNDS[name]:
        assert getattr(dataclasses.replace(good, **{name: value}), name) == value


def test_nan_max_run_s_is_refused_by_name_and_range():
    with pytest.raises(ConfigError, match=r"launcher\.max_run_s: must be a finite number "
                                          r"\(0\.1 to 30\), not nan"):
        dataclasses.replace(parse_config(EXAMPLE_SECTION), max_run_s=math.nan)


def test_a_seat_angle_outside_the_servo_is_refused_when_built():
    with pytest.raises(ConfigError) as info:
        dataclasses.replace(parse_config(EXAMPLE_SECTION), seat_angles=(0.0, math.nan))
    assert info.value.key == "launcher.seat_angles[1]"


@pytest.mark.parametrize(("model", "name"), [(m, n) for m, b in MODEL_BOUNDS.items() for n in b])
def test_an_ejection_model_refuses_numbers_outside_its_range(model, name):
    for value in out_of_range(*MODEL_BOUNDS[model][name]):
        with pytest.raises(ConfigError) as info:
            ModelConfig(model, ((name, value),))
        assert info.value.key == f"launcher.model.{name}"
