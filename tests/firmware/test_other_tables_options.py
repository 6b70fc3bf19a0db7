"""Issue 23: the rules other tables play are options like every other, accepted wherever
options are: `[table.options]`, `simulate --option`, `demo --option`, a new match over
the API (and the table), and `GET /api/editions`, which the set-up sheet reads."""

from __future__ import annotations

import json

import pytest

from firmware.api import requests as api
from firmware.cli import main
from firmware.config import load_config
from firmware.sim.demo import parse_options
from firmware.sim.testbed import SimTable
from tests.firmware.test_api import get, with_api
from tests.firmware.test_config import refused, write
from tests.firmware.test_controller import refused as table_refused
from uno_core import EDITIONS, OPTION_SPECS
from uno_core.record import read_record

NEW = ("stacked_draw4_challenge", "jump_in_wilds", "no_jump_in_on_stack", "no_draw_finish",
       "banned_finish_penalty", "false_uno_penalty", "swap_uno_called",
       "playable_draw_penalty")


def test_the_config_takes_the_new_options_and_names_a_bad_one(tmp_path):
    cfg = load_config(write(tmp_path, "[table]\nedition = 'classic'\n[table.options]\n"
                                      "false_uno_penalty = 2\nno_draw_finish = true\n"
                                      "stack_draws = 'up'\nstacked_draw4_challenge = true\n"))
    assert dict(cfg.table.options) == {"false_uno_penalty": 2, "no_draw_finish": True,
                                       "stack_draws": "up", "stacked_draw4_challenge": True}
    error = refused(tmp_path, "[table.options]\nplayable_draw_penalty = 21\n",
                    "table.options.playable_draw_penalty")
    assert "above the maximum 20" in error.message
    error = refused(tmp_path, "[table]\nedition = 'attack'\n[table.options]\n"
                              "stacked_draw4_challenge = true\n",
                    "table.options.stacked_draw4_challenge")
    assert "does not apply" in error.message


def test_simulate_plays_and_records_the_new_options(capsys, tmp_path):
    code = main(["simulate", "--variant", "classic", "--players", "3", "--games", "2",
                 "--seed", "4", "--option", "false_uno_penalty=2", "--option",
                 "stack_draws=up", "--option", "jump_in=on", "--option", "jump_in_wilds=on",
                 "--record", str(tmp_path), "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["errors"] == 0
    assert summary["options"] == {"false_uno_penalty": 2, "stack_draws": "up",
                                  "jump_in": True, "jump_in_wilds": True}
    for path in sorted(tmp_path.glob("*.jsonl")):
        assert read_record(path.read_text(encoding="utf-8")).options["stack_draws"] == "up"
    assert main(["simulate", "--variant", "classic", "--players", "3", "--option",
                 "banned_finish_penalty=lots"]) == 2
    err = capsys.readouterr().err
    assert "banned_finish_penalty" in err and "expected an integer" in err


def test_demo_reads_the_new_options_by_their_type():
    assert parse_options("classic", ["swap_uno_called=yes", "no_jump_in_on_stack=off",
                                     "playable_draw_penalty=2"]) == {
        "swap_uno_called": True, "no_jump_in_on_stack": False, "playable_draw_penalty": 2}


def test_editions_list_every_new_option_with_its_type_default_and_limits():
    async def test(session, _table, _server):
        _status, catalog = await get(session, "/api/editions")
        by_name = {e["name"]: e["options"] for e in catalog["editions"]}
        for edition, options in by_name.items():
            for name in NEW:
                assert (name in options) == (name in EDITIONS[edition].option_defaults)
                if name in options:
                    assert options[name]["doc"] == OPTION_SPECS[name].doc
        classic = by_name["classic"]
        assert classic["false_uno_penalty"] == {
            "type": "int", "default": 0, "minimum": 0, "maximum": 20,
            "doc": OPTION_SPECS["false_uno_penalty"].doc}
        assert classic["stacked_draw4_challenge"]["default"] is False
        assert classic["stack_draws"]["choices"] == ["off", "same", "cross", "up"]
        assert "stacked_draw4_challenge" not in by_name["extreme"]

    with_api(test)


def test_a_new_match_at_the_table_plays_the_new_options(tmp_path, mock_factory):
    table = SimTable(tmp_path, "power", seed=2, factory=mock_factory)
    try:
        result = table.submit(api.Admin("new-match", {
            "edition": "classic", "seats": 4,
            "options": {"false_uno_penalty": 2, "no_draw_finish": True}}))
        assert result == {"match": 2}
        assert table.state()["options"]["false_uno_penalty"] == 2
        err = table_refused(table, api.Admin("new-match", {
            "edition": "classic", "seats": 4, "options": {"swap_uno_called": 3}}))
        assert (err.status, err.key, err.values["option"]) == (422, "refused.option", "swap_uno_called")
    finally:
        table.stop()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_board_words_each_new_option_in_force_in_english_and_german(lang):
    from firmware.words.messages import text
    for name in NEW:
        spec = OPTION_SPECS[name]
        worded = text(lang, f"badge.{name}", value=2 if spec.type is int else True)
        assert worded and worded != f"badge.{name}"
    assert "2" in text(lang, "badge.false_uno_penalty", value=2)
