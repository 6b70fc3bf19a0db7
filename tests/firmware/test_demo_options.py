"""`unotable demo --option NAME=VALUE` (issue 12): each value read by its option's type and
checked by the rules engine before anything starts; the match then plays with it."""

from __future__ import annotations

import json

import pytest

from firmware.cli import main
from firmware.sim.demo import DemoError, parse_options


def test_values_are_read_by_their_options_type():
    assert parse_options("classic", ["turn_timer_s=12", "timeout_action=pass",
                                     "draw_then_play=on"]) == {
        "turn_timer_s": 12, "timeout_action": "pass", "draw_then_play": True}
    assert parse_options("classic", []) == {}


@pytest.mark.parametrize("texts, words", [
    (["stacking=yes"], "--option 'stacking=yes': write NAME=VALUE with one of"),
    (["turn_timer_s"], "--option 'turn_timer_s': write NAME=VALUE"),
    (["turn_timer_s=soon"], "--option turn_timer_s: expected an integer, got 'soon'"),
    (["turn_timer_s=601"], "--option turn_timer_s: 601 is above the maximum 600"),
    (["timeout_action=sleep"], "--option timeout_action: 'sleep' is not one of draw, pass, warn"),
    (["wild_restricted=true"], "--option wild_restricted: does not apply to edition 'classic'"),
])
def test_a_bad_option_is_named(texts, words):
    with pytest.raises(DemoError) as err:
        parse_options("classic", texts)
    assert str(err.value).startswith(words)


def test_the_cli_refuses_a_bad_option_in_one_line_before_starting(capsys):
    assert main(["demo", "--fast", "--option", "turn_timer_s=-1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--option turn_timer_s: -1 is below the minimum 0" in err and "\n" not in err


def test_the_demo_plays_with_the_house_rules_and_says_so(tmp_path, capsys):
    assert main(["demo", "--fast", "--json", "--seed", "5", "--option", "timeout_action=pass",
                 "--option", "uno_penalty=4"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["house_rules"] == {"timeout_action": "pass", "uno_penalty": 4}
    assert summary["world_agrees"] is True
