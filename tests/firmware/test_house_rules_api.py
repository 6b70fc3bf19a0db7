"""House rules over the API (issue 12): GET /api/editions describes every option of every
edition (type, default, choices or limits, doc) and what each preset sets; a new match
may name a preset, and a preset the table does not know is a 400 naming it."""

from __future__ import annotations

from firmware.api import Admin
from tests.firmware.test_api import get, post, with_api
from uno_core import EDITIONS, OPTION_SPECS


def test_editions_describe_every_option_with_its_type_default_limits_and_doc():
    async def test(session, _table, _server):
        status, catalog = await get(session, "/api/editions")
        assert status == 200
        by_name = {e["name"]: e for e in catalog["editions"]}
        assert set(by_name) == set(EDITIONS)
        for name, ed in EDITIONS.items():
            options = by_name[name]["options"]
            assert set(options) == set(ed.option_defaults), name
            for option, entry in options.items():
                assert entry["default"] == ed.option_defaults[option]
                assert entry["doc"] == OPTION_SPECS[option].doc and entry["doc"]
        classic = by_name["classic"]["options"]
        assert classic["turn_timer_s"] == {"type": "int", "default": 0, "minimum": 0,
                                           "maximum": 600, "doc": classic["turn_timer_s"]["doc"]}
        assert classic["timeout_action"]["choices"] == ["draw", "pass", "warn"]
        assert classic["stack_draws"]["choices"] == ["off", "same", "cross", "up"]  # issue 23
        assert "draw_until_playable" in classic  # a pile edition
        assert "draw_until_playable" not in by_name["attack"]["options"]  # a launcher edition

    with_api(test)


def test_editions_say_what_each_preset_sets_there():
    async def test(session, _table, _server):
        _status, catalog = await get(session, "/api/editions")
        for edition in catalog["editions"]:
            presets = edition["presets"]
            assert presets["seed"] == {}  # the seed's rules: every house rule off
            party = presets["party"]
            assert party["jump_in"] is True and party["seven_zero"] is True
            assert party["stack_draws"] in ("same", "cross")
            assert set(party) <= set(edition["options"])  # only what applies there

    with_api(test)


def test_a_new_match_names_a_preset_and_an_unknown_one_is_refused_by_name():
    async def test(session, table, _server):
        status, _body = await post(session, "/api/admin/new-match",
                                   {"edition": "classic", "preset": "party",
                                    "options": {"jump_in": False}})
        assert status == 200
        assert table.log[-1] == Admin("new-match", {"edition": "classic", "preset": "party",
                                                    "options": {"jump_in": False}})
        status, body = await post(session, "/api/admin/new-match", {"preset": "casino"})
        assert status == 400 and body["field"] == "preset" and "casino" in body["reason"]
        assert len(table.log) == 1

    with_api(test)


def test_the_table_starts_a_match_with_the_presets_rules_under_the_requests_own(
        tmp_path, monkeypatch):
    from firmware.api import requests as api
    from firmware.errors import Rejected
    from firmware.sim.testbed import SimTable
    from uno_core.options import PRESETS

    monkeypatch.setitem(PRESETS, "blitz", {"turn_timer_s": 20, "timeout_action": "pass",
                                           "wild_restricted": True})  # (not classic's)
    table = SimTable(tmp_path, "classic", seed=2)
    try:
        table.submit(api.Admin("new-match", {"preset": "blitz",
                                             "options": {"timeout_action": "warn"}}))
        options = table.state()["options"]
        assert (options["turn_timer_s"], options["timeout_action"]) == (20, "warn")
        assert options["wild_restricted"] is False  # not an option of classic: left out
        before = table.journal_seq
        try:
            table.submit(api.Admin("new-match", {"preset": "casino"}))
        except Rejected as exc:
            assert (exc.status, exc.key, exc.values["option"]) == (422, "refused.option", "preset")
        else:
            raise AssertionError("an unknown preset was taken")
        assert table.journal_seq == before
    finally:
        table.stop()
