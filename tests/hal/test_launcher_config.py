"""[launcher] validation: every mistake is refused with the key that holds it."""

import pytest
from gpiozero import DigitalOutputDevice

from hal.ejection import ModelConfig
from hal.errors import ConfigError
from hal.launcher import Launcher, parse_config
from hal.sim.launcher import EXAMPLE_SECTION

MINIMAL = {"motor_forward": 20, "motor_backward": 21, "exit_sensor": 5}


def test_minimal_section_gets_documented_defaults():
    cfg = parse_config(MINIMAL)
    assert cfg.driver == "h_bridge" and cfg.motor_pwm is True
    assert (cfg.speed, cfg.reverse_speed, cfg.reverse_s) == (1.0, 0.6, 0.2)
    assert (cfg.max_run_s, cfg.jam_timeout_s, cfg.settle_s, cfg.max_cards) == (4.0, 1.0, 0.15, 20)
    assert cfg.exit_active_low and cfg.hopper_sensor is None and cfg.servo is None
    assert cfg.seat_angles == () and cfg.model == ModelConfig("measured")
    assert cfg.pins() == {
        "launcher.motor_forward": 20,
        "launcher.motor_backward": 21,
        "launcher.exit_sensor": 5,
    }


def test_pins_name_every_pin_with_its_dotted_key():
    cfg = parse_config({**EXAMPLE_SECTION, "motor_enable": 19}, path="table.launcher")
    assert cfg.pins() == {
        "table.launcher.motor_forward": 20,
        "table.launcher.motor_backward": 21,
        "table.launcher.motor_enable": 19,
        "table.launcher.exit_sensor": 5,
        "table.launcher.hopper_sensor": 6,
        "table.launcher.servo": 13,
    }


@pytest.mark.parametrize(
    ("change", "key", "words"),
    [
        ({"motor_forwrd": 20}, "launcher.motor_forwrd", "unknown option"),
        ({"exit_sensor": 28}, "launcher.exit_sensor", "BCM GPIO number"),
        ({"exit_sensor": "GPIO5"}, "launcher.exit_sensor", "BCM GPIO number"),
        ({"hopper_sensor": -1}, "launcher.hopper_sensor", "BCM GPIO number"),
        ({"max_run_s": 0}, "launcher.max_run_s", "at least 0.1"),
        ({"max_run_s": 60}, "launcher.max_run_s", "at most 30"),
        ({"jam_timeout_s": "1s"}, "launcher.jam_timeout_s", "must be a number"),
        ({"speed": 1.5}, "launcher.speed", "at most 1"),
        ({"max_cards": 2.5}, "launcher.max_cards", "whole number"),
        ({"driver": "stepper"}, "launcher.driver", "must be one of"),
        ({"driver": "single"}, "launcher.motor_backward", "not used by driver 'single'"),
        ({"motor_phase": 7}, "launcher.motor_phase", "not used by driver 'h_bridge'"),
        ({"motor_pwm": False, "speed": 0.5}, "launcher.speed", "motor_pwm is false"),
        ({"exit_active_low": "yes"}, "launcher.exit_active_low", "true or false"),
        ({"hopper_sensor": 20}, "launcher.hopper_sensor", "already used by launcher.motor_forward"),
        ({"seat_angles": None}, "launcher.seat_angles", "list of angles"),
        ({"seat_angles": [0, 120]}, "launcher.seat_angles[1]", "within -90..90"),
        ({"seat_angles": [0, "left"]}, "launcher.seat_angles[1]", "must be a number"),
        ({"servo": None}, "launcher.seat_angles", "needs launcher.servo"),
        ({"servo_max_angle": -90}, "launcher.servo_max_angle", "above servo_min_angle"),
        ({"servo_max_pulse_ms": 0.5}, "launcher.servo_max_pulse_ms", "above"),
        ({"model": {"name": "lucky"}}, "launcher.model.name", "must be one of"),
        ({"model": {"name": "measured", "p_eject": 1}}, "launcher.model.p_eject", "unknown"),
        ({"model": {"name": "fixed", "cards": 14}}, "launcher.model.cards", "at most 13"),
        ({"model": {"name": "geometric", "p_eject": 2}}, "launcher.model.p_eject", "at most 1"),
        ({"model": {"name": "table"}}, "launcher.model.probabilities", "required"),
        (
            {"model": {"name": "table", "probabilities": [0.5, "x"]}},
            "launcher.model.probabilities[1]",
            "probability",
        ),
        (
            {"model": {"name": "table", "probabilities": [0.5, 0.6]}},
            "launcher.model.probabilities",
            "sum to 1",
        ),
        ({"model": "measured"}, "launcher.model", "must be a table"),
    ],
)
def test_bad_values_are_refused_by_key(change, key, words):
    section = {**EXAMPLE_SECTION, **change}
    # None removes an option, except that seat_angles = None tests a wrong type
    section = {k: v for k, v in section.items() if v is not None or k == "seat_angles"}
    with pytest.raises(ConfigError) as info:
        parse_config(section)
    assert info.value.key == key
    assert words in str(info.value)


def test_required_pins_are_named_when_missing():
    with pytest.raises(ConfigError) as info:
        parse_config({"motor_forward": 20, "motor_backward": 21})
    assert info.value.key == "launcher.exit_sensor"
    with pytest.raises(ConfigError) as info:
        parse_config({"driver": "phase_enable", "motor_phase": 20, "exit_sensor": 5})
    assert info.value.key == "launcher.motor_enable"


def test_single_driver_cannot_be_given_a_reverse():
    with pytest.raises(ConfigError) as info:
        parse_config({"driver": "single", "motor_forward": 20, "exit_sensor": 5, "reverse_s": 1})
    assert info.value.key == "launcher.reverse_s"
    assert not parse_config({"driver": "single", "motor_forward": 20, "exit_sensor": 5}).can_reverse


def test_a_device_that_fails_to_build_releases_what_it_claimed(mock_factory):
    cfg = parse_config(EXAMPLE_SECTION)
    squatter = DigitalOutputDevice(13, pin_factory=mock_factory)  # the servo's pin
    with pytest.raises(Exception, match="13"):
        Launcher.from_config(cfg, pin_factory=mock_factory)
    squatter.close()
    # every pin the failed launcher had claimed is free again
    with Launcher.from_config(cfg, pin_factory=mock_factory) as launcher:
        assert launcher.get_status()["state"] == "idle"
