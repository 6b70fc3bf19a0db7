"""`unotable selftest` times how long one card darkens the launcher's exit beam: the
value to set as ``[launcher] card_dark_s``, checked against the one set."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from firmware.cli import main
from firmware.commands.selftest import FAIL, NOTE, OK, Selftest, beam_timing
from firmware.sim.demo import sim_config
from firmware.sim.world import World
from hal.launcher import parse_config
from hal.sim.launcher import EXAMPLE_SECTION

CARD_S = 0.3 / 8  # the twin's pulse at its default 8 cards/s


@pytest.fixture
def twin_with(tmp_path, mock_factory):
    """twin_with(card_dark_s) -> (world, hardware) on virtual time."""
    made = []

    def make(card_dark_s):
        config = sim_config("power", 4, 1, tmp_path / "journal.db")
        launcher = replace(config.hardware["launcher"], card_dark_s=card_dark_s)
        world = World("power", 4, 1, launcher=launcher, panel=config.hardware["seats"],
                      factory=mock_factory, fast=True)
        made.append((world, world.hardware()))
        return made[-1]

    yield make
    for world, hardware in made:
        hardware.close()
        world.close()


def beam_check(world, hardware):
    checks = Selftest(hardware, twin=world, say=lambda line: None).run()
    return next(c for c in checks if c.name == "exit beam timing")


def test_the_default_twin_prints_the_card_time_to_set(capsys):
    assert main(["selftest", "--yes", "--json"]) == 0
    got = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    beam = got["exit beam timing"]
    assert beam["outcome"] == NOTE
    assert "37.5 ms (median of 5 cards" in beam["detail"]
    assert "set [launcher] card_dark_s = 0.0375" in beam["detail"]


def test_a_card_time_that_matches_is_ok(twin_with):
    check = beam_check(*twin_with(0.04))
    assert check.outcome == OK and "card_dark_s is 0.04" in check.detail


def test_a_card_time_far_off_fails_and_says_what_to_set(twin_with):
    check = beam_check(*twin_with(0.06))
    assert check.outcome == FAIL
    assert check.detail.endswith("but card_dark_s is 0.06: set [launcher] card_dark_s = 0.0375")


def test_a_beam_too_uneven_to_tell_stuck_cards_fails(twin_with):
    world, hardware = twin_with(None)
    world.launcher_sim.pulse_jitter = 0.5
    check = beam_check(world, hardware)
    assert check.outcome == FAIL and "too uneven" in check.detail


def test_beam_timing_reads_single_cards_pulses():
    config = parse_config({**EXAMPLE_SECTION, "card_dark_s": 0.05})
    assert beam_timing([], config)[0] == FAIL
    outcome, detail = beam_timing([0.049, 0.05, 0.052], config)
    assert outcome == OK
    assert detail == ("one card darkens the exit beam for 50.0 ms (median of 3 cards, "
                      "49.0-52.0); card_dark_s is 0.05")
