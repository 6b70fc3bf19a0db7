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
    assert parse_options("classic", ["stack_draws=cross", "seven_zero=yes"]) == {
        "stack_draws": "cross", "seven_zero": True}
    assert parse_options("classic", []) == {}


@pytest.mark.parametrize("texts, words", [
    (["stacking=yes"], "--option stacking: unknown option (known: all_hit_scope,"),
    (["turn_timer_s"], "--option turn_timer_s: expected NAME=VALUE"),
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


@pytest.mark.parametrize("variant, seed, option, shows", [
    ("classic", 3, "stack_draws=cross", "(stack: 6 cards pending, West)"),
    ("attack", 3, "stack_draws=same", "presses pending"),
    ("classic", 3, "seven_zero=true", "(every hand passes on)"),
    ("classic", 1, "jump_in=true", "East jumps in with R6"),
    ("power", 3, "draw_until_playable=true", None),
    ("classic", 3, "forced_play=true", None),
])
def test_each_engine_rule_plays_a_fast_demo_where_the_world_agrees(capsys, variant, seed, option,
                                                                   shows):
    assert main(["demo", "--fast", "--variant", variant, "--seed", str(seed),
                 "--option", option]) == 0
    out = capsys.readouterr().out
    assert f"house rules: {option.replace('true', 'True')}" in out
    assert shows is None or shows in out
    assert "world and referee agreed at every step" in out
