"""[gpio] pin_factory in the config: validated at load, probed by `config check` with
real pins, and made gpiozero's factory by `unotable run` before it builds the devices."""

from __future__ import annotations

import pytest
from gpiozero import Device

from firmware.cli import main
from firmware.config import DEFAULT_PATH, check_config, load_config
from tests.pin_libraries import installed, missing

HARDWARE = DEFAULT_PATH.read_text().split("# ---- the daemon ----")[0]


def real_pins(tmp_path, pin_factory: str, extra: str = ""):
    path = tmp_path / "config.toml"
    path.write_text(HARDWARE + f'[sim]\nenabled = false\n\n[gpio]\npin_factory = "{pin_factory}"\n'
                    + extra)
    return path


@pytest.fixture
def no_factory_yet(mocker):
    mocker.patch.object(Device, "pin_factory", None)


def test_the_default_is_auto_and_the_built_in_config_says_so():
    assert load_config(DEFAULT_PATH).gpio.pin_factory == "auto"
    assert 'pin_factory = "auto"' in DEFAULT_PATH.read_text()


def test_unknown_values_and_options_are_each_listed(tmp_path):
    path = real_pins(tmp_path, "wiringpi", "pins = 40\n")
    errors = {(e.key, e.message) for e in check_config(path)}
    assert errors == {
        ("gpio.pin_factory", "must be one of 'auto', 'lgpio', 'rpigpio', 'pigpio', not 'wiringpi'"),
        ("gpio.pins", "unknown option"),
    }


def test_a_named_library_that_is_missing_is_one_line_in_check_and_run(
    tmp_path, monkeypatch, no_factory_yet, capsys
):
    missing(monkeypatch, "rpigpio")
    path = real_pins(tmp_path, "rpigpio")
    assert main(["config", "check", str(path)]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(f"{path}: gpio.pin_factory: rpigpio: RPi.GPIO is not installed")
    assert "pip install 'unotable[pi]'" in line
    assert main(["run", "--config", str(path)]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"unotable run: error: {path}: gpio.pin_factory: rpigpio:")


def test_check_loads_the_named_library_and_releases_it(
    tmp_path, monkeypatch, mocker, no_factory_yet
):
    factory_class = installed(monkeypatch, mocker, "lgpio")
    assert check_config(real_pins(tmp_path, "lgpio")) == []
    factory_class.return_value.close.assert_called_once_with()
    assert Device.pin_factory is None


def test_run_builds_the_devices_on_the_chosen_library(
    tmp_path, monkeypatch, mocker, no_factory_yet
):
    factory_class = installed(monkeypatch, mocker, "pigpio")
    chosen = []
    daemon = mocker.patch("firmware.daemon.Daemon")
    daemon.side_effect = lambda *a, **k: chosen.append(Device.pin_factory) or mocker.DEFAULT
    daemon.return_value.run.return_value = 0
    assert main(["run", "--config", str(real_pins(tmp_path, "pigpio"))]) == 0
    # when the daemon (and so the table's devices) was made, gpiozero had pigpio's factory
    assert chosen == [factory_class.return_value]
