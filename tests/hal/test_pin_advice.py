"""The advice of `config check` when gpiozero finds no pin library for real pins: the
real cause first. An lgpio that is installed but finds no Pi is not a missing [pi] extra
(the search itself runs: its factories are stand-ins, no Pi here)."""

from __future__ import annotations

import sys
import types

import pytest
from gpiozero import Device

from firmware.cli import main
from hal.pins import no_pin_library
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
