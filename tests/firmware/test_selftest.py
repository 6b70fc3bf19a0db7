"""`unotable selftest` on the simulated twin: what works is reported ok, a broken
device is reported by name, and steps that need a person are prompted or skipped."""

from __future__ import annotations

import json

import pytest

from firmware.cli import main
from firmware.commands.selftest import FAIL, OK, SKIP, Selftest, safe_pins_check
from firmware.sim.demo import sim_config
from firmware.sim.world import World


@pytest.fixture
def twin(tmp_path, mock_factory):
    config = sim_config("power", 4, 1, tmp_path / "journal.db")
    world = World("power", 4, 1, launcher=config.hardware["launcher"],
                  panel=config.hardware["seats"], factory=mock_factory)
    hardware = world.hardware()
    yield world, hardware
    hardware.close()
    world.close()


def outcomes(checks):
    return {c.name: c.outcome for c in checks}


def test_default_config_runs_on_the_twin_and_everything_works(capsys):
    assert main(["selftest", "--yes", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["simulated"] is True
    got = {c["name"]: c for c in report["checks"]}
    assert got["motor pulse"]["outcome"] == OK
    assert "ejected 1 card, exit sensor counted 1" in got["motor pulse"]["detail"]
    assert got["seat 4 button"]["outcome"] == OK and got["reader at the neutral slot"]["outcome"] == OK


def test_a_jammed_launcher_and_a_dead_reader_are_named(twin):
    world, hardware = twin
    world.launcher_sim.inject_jam(clears_on_reverse=False)
    world.tray_sim.reader(2).close()
    checks = Selftest(hardware, twin=world, say=lambda line: None).run()
    got = outcomes(checks)
    # readers and towers named as the screen counts seats, from 1 (tray slot 2 is seat 3)
    assert got["motor pulse"] == FAIL and got["reader at seat 3"] == FAIL
    assert not any("seat 0" in c.name or "reader 0" in c.name for c in checks)
    assert got["reader at seat 2"] == OK and got["launcher button"] == OK
    motor = next(c for c in checks if c.name == "motor pulse")
    assert "status jam" in motor.detail


def test_real_hardware_without_a_person_skips_what_needs_one(twin):
    _world, hardware = twin
    checks = Selftest(hardware, twin=None, interactive=False, say=lambda line: None).run()
    got = outcomes(checks)
    assert got["motor pulse"] == SKIP and got["buttons"] == SKIP
    assert got["seat LEDs"] == OK and got["reader at seat 1"] == OK


def test_prompts_ask_a_person_to_load_a_card_and_press_each_button(twin):
    world, hardware = twin
    asked, said = [], []

    def say(line):
        said.append(line)
        if line.startswith("press the launcher button"):
            world.seats_sim.press_launcher()
        elif line.startswith("press the seat 2 button"):  # counted from 1: engine seat 1
            world.seats_sim.press_seat(1)

    checks = Selftest(hardware, twin=None, interactive=True, timeout=0.2,
                      ask=asked.append, say=say).run()
    got = outcomes(checks)
    assert asked == ["put 5 cards in the launcher's hopper, not stuck together, then press Enter: "]
    assert got["motor pulse"] == OK
    assert got["launcher button"] == OK and got["seat 2 button"] == OK
    assert got["seat 1 button"] == FAIL  # nobody pressed it


# -- the motor safety helper systemd runs after every stop -----------------------------


def path_with(tmp_path, monkeypatch, *tools):
    """PATH = a folder holding only fake `tools` (each exits 0)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in tools:
        (folder / name).write_text("#!/bin/sh\nexit 0\n")
        (folder / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))
    return folder


REAL_PINS = "[launcher]\nmotor_forward = 20\n[sim]\nenabled = false\n"


def test_selftest_reports_which_tool_the_helper_uses(tmp_path, monkeypatch, capsys):
    folder = path_with(tmp_path, monkeypatch, "pinctrl")
    assert main(["selftest", "--yes", "--json"]) == 0
    got = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert got["motor safety helper"]["outcome"] == OK
    assert got["motor safety helper"]["detail"].startswith(f"can run: uses pinctrl ({folder}/pinctrl)")

    config = tmp_path / "config.toml"
    config.write_text(REAL_PINS)
    assert safe_pins_check(config, simulated=False) == (
        OK, f"can run: uses pinctrl ({folder}/pinctrl); "
            "launcher.motor_forward (GPIO 20): ok: would run pinctrl set 20 op dl")


def test_selftest_fails_when_the_helper_cannot_drive_the_motor_pins(tmp_path, monkeypatch):
    path_with(tmp_path, monkeypatch)
    config = tmp_path / "config.toml"
    config.write_text(REAL_PINS)
    outcome, detail = safe_pins_check(config, simulated=False)
    assert outcome == FAIL
    assert detail.startswith("cannot run: neither pinctrl nor gpioset is installed")
    assert "apt-get install gpiod" in detail
    # the twin needs no helper: reported, not failed
    outcome, detail = safe_pins_check(config, simulated=True)
    assert outcome == SKIP and "neither pinctrl nor gpioset" in detail


def test_selftest_reports_a_missing_helper(tmp_path, monkeypatch):
    monkeypatch.setattr("firmware.commands.selftest.SAFE_PINS", tmp_path / "nope")
    monkeypatch.setattr("firmware.commands.selftest.CHECKOUT_SAFE_PINS", tmp_path / "nope")
    assert safe_pins_check(tmp_path / "config.toml", simulated=False) == (
        FAIL, f"{tmp_path / 'nope'} is missing: run systemd/install.sh")
