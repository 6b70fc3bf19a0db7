"""The advice of `config check` when gpiozero finds no pin library for real pins: the
real cause first. An lgpio that is installed but finds no Pi is not a missing [pi] extra
(the search itself runs: its factories are stand-ins, no Pi here). On a Pi, GPIO chips
this user cannot open are a permissions problem, and none at all a hidden device."""

from __future__ import annotations

import os
import sys
import types

import pytest
from gpiozero import Device

from firmware.cli import main
from hal.pins import gpio_chip_problem, no_pin_library
from tests.pin_libraries import installed, missing

NO_PI = "unable to locate Pi revision in /proc/device-tree or /proc/cpuinfo"
CONFIG = """
[table]
edition = "classic"
seats = 2
[launcher]
motor_forward = 20
motor_backward = 21
exit_sensor = 5
[seats]
buttons = [4, 17]
leds = [23, 24]
launcher_button = 16
[sim]
enabled = false
"""


@pytest.fixture
def search(monkeypatch, mocker):
    """gpiozero's own search as `unotable run` meets it: no factory chosen yet."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    mocker.patch.object(Device, "pin_factory", None)
    monkeypatch.setitem(sys.modules, "gpiozero.pins.native", None)


def check(tmp_path, capsys) -> str:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    assert main(["config", "check", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1, lines
    return lines[0].partition("sim.enabled: is false (real pins), but ")[2]


def test_an_installed_lgpio_on_no_pi_says_so_first_and_never_asks_for_the_extra(
    tmp_path, capsys, monkeypatch, mocker, search
):
    monkeypatch.setitem(sys.modules, "lgpio", types.ModuleType("lgpio"))  # the [pi] extra
    installed(monkeypatch, mocker, "lgpio").side_effect = OSError(NO_PI)
    missing(monkeypatch, "rpigpio")
    missing(monkeypatch, "pigpio")
    advice = check(tmp_path, capsys)
    assert advice.startswith(f"lgpio cannot drive the pins of this machine: {NO_PI} "
                             "(lgpio is installed: run on a Raspberry Pi")
    assert "[pi] extra" not in advice and "pip install" not in advice
    assert advice.index("set [sim] enabled = true") < advice.index("also tried rpigpio")


def test_no_library_at_all_still_names_the_pi_extra(tmp_path, capsys, monkeypatch, search):
    for choice in ("lgpio", "rpigpio", "pigpio"):
        missing(monkeypatch, choice)
    advice = check(tmp_path, capsys)
    assert advice.startswith("no GPIO pin library works on this machine (lgpio: ")
    assert "install the [pi] extra (pip install 'unotable[pi]')" in advice


def test_the_advice_reads_gpiozeros_fallback_warnings(monkeypatch):
    monkeypatch.setitem(sys.modules, "lgpio", None)  # not installed
    assert "[pi] extra" in no_pin_library([f"lgpio: {NO_PI}"])
    monkeypatch.setitem(sys.modules, "lgpio", types.ModuleType("lgpio"))
    assert no_pin_library([f"lgpio: {NO_PI}"]).startswith("lgpio cannot drive")


PI4 = "Raspberry Pi 4 Model B Rev 1.5"


def a_pi(tmp_path, model: str | None, chips: dict[str, tuple[int, int]]):
    """A /dev with GPIO chips (name -> (gid, mode)) and a device-tree model."""
    dev = tmp_path / "dev"
    dev.mkdir()
    for name, (gid, mode) in chips.items():
        (dev / name).touch()
        os.chown(dev / name, 0, gid)
        (dev / name).chmod(mode)
    path = tmp_path / "model"
    if model is not None:
        path.write_bytes(model.encode() + b"\0")
    return dev, path


def test_chips_this_user_cannot_open_are_a_permissions_problem(tmp_path):
    dev, model = a_pi(tmp_path, PI4, {"gpiochip0": (0, 0o600), "gpiochip4": (0, 0o600)})
    problem = gpio_chip_problem(dev, model, uid=1000, groups=[1000])
    assert problem.startswith(f"gpiochip0, gpiochip4 under {dev} (root:root, mode 0600) cannot "
                              "be opened by user ")
    assert "a permissions problem, not a missing Pi" in problem
    assert "udev rule gives the chips to group gpio" in problem
    assert "container" not in problem


def test_chips_of_a_group_the_user_is_in_open(tmp_path):
    dev, model = a_pi(tmp_path, PI4, {"gpiochip0": (997, 0o660)})
    assert gpio_chip_problem(dev, model, uid=1000, groups=[1000, 997]) is None
    assert gpio_chip_problem(dev, model, uid=1000, groups=[1000]) is not None


def test_a_pi_that_shows_no_chip_is_told_they_are_hidden(tmp_path):
    dev, model = a_pi(tmp_path, PI4, {})
    problem = gpio_chip_problem(dev, model, uid=1000, groups=[1000])
    assert problem.startswith(f"this {PI4} shows no /dev/gpiochip*: a container or chroot hides")
    assert "permissions" not in problem


def test_off_a_pi_the_advice_stays_run_on_a_pi(tmp_path, monkeypatch):
    dev, model = a_pi(tmp_path, None, {})
    assert gpio_chip_problem(dev, model, uid=1000, groups=[1000]) is None
    monkeypatch.setattr("hal.pins.DEV", dev)
    monkeypatch.setattr("hal.board.MODEL", model)
    monkeypatch.setitem(sys.modules, "lgpio", types.ModuleType("lgpio"))
    assert "run on a Raspberry Pi, not in a container" in no_pin_library([f"lgpio: {NO_PI}"])


def test_the_advice_of_config_check_names_the_permissions_problem(
    tmp_path, capsys, monkeypatch, mocker, search
):
    dev, model = a_pi(tmp_path, PI4, {"gpiochip0": (0, 0o600)})
    monkeypatch.setattr("hal.pins.DEV", dev)
    monkeypatch.setattr("hal.board.MODEL", model)
    monkeypatch.setattr("os.geteuid", lambda: 1000)  # a user, not root: the tests run as root
    monkeypatch.setitem(sys.modules, "lgpio", types.ModuleType("lgpio"))
    installed(monkeypatch, mocker, "lgpio").side_effect = OSError("can not open gpiochip")
    missing(monkeypatch, "rpigpio")
    missing(monkeypatch, "pigpio")
    advice = check(tmp_path, capsys)
    assert advice.startswith(f"lgpio cannot drive the pins of this machine: gpiochip0 under {dev} "
                             "(root:root, mode 0600)")
    assert "not in a container" not in advice
