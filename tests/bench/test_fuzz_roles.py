"""bench/fuzz_roles.py: the judge of who may get a 2xx, and a short run against the real
daemon with an owner token and a seats store."""

from __future__ import annotations

import json

import pytest

from bench import fuzz_roles
from bench.fuzz_roles import Tokens, forged, waited_on, wrong_role


@pytest.mark.parametrize(("identity", "seat", "method", "path", "body", "wrong"), [
    # the owner may do everything
    ("owner", None, "POST", "/api/admin/pause", {}, False),
    ("owner", None, "POST", "/api/play", {"seat": 3, "card": "R5"}, False),
    # a seat's phone: for itself yes, for another seat never
    ("seat", 2, "POST", "/api/play", {"seat": 2, "card": "R5"}, False),
    ("seat", 2, "POST", "/api/play", {"seat": 1, "card": "R5"}, True),
    ("seat", 2, "POST", "/api/reveal", {"card": "R5", "seat": 1}, True),
    ("seat", 2, "POST", "/api/reveal", {"card": "R5"}, True),  # the first card: the owner's
    ("seat", 2, "POST", "/api/catch", {"seat": 2, "target": 0}, False),  # its own catch
    ("seat", 2, "POST", "/api/next-round", {}, False),  # anyone at the table taps it
    ("seat", 2, "POST", "/api/admin/new-match", {}, True),
    ("seat", 2, "POST", "/api/seats/revoke", {"seat": 2}, True),
    ("seat", 2, "POST", "/api/viewers", {}, True),
    ("seat", 2, "GET", "/api/seats", None, True),  # the invitations are the owner's
    ("seat", 2, "GET", "/api/state", None, False),
    # a viewer reads only
    ("viewer", None, "GET", "/api/state", None, False),
    ("viewer", None, "POST", "/api/uno", {"seat": 0}, True),
    # without a valid token only the page is served
    ("forged", None, "GET", "/api/state", None, True),
    ("revoked", None, "POST", "/api/uno", {"seat": 1}, True),
    ("none", None, "GET", "/api/health", None, True),
    ("none", None, "GET", "/", None, False),
    ("forged", None, "GET", "/static/app.js", None, False),
    ("none", None, "GET", "/seat/2", None, False),
    ("none", None, "POST", "/api/seats/claim", {"seat": 1, "join": "x"}, False),
])
def test_the_judge_knows_what_each_role_may_get(identity, seat, method, path, body, wrong):
    assert wrong_role(identity, seat, method, path, body) is wrong


def test_the_seats_the_table_waits_on_come_from_the_state():
    assert waited_on(json.dumps({"to_act": 2}).encode()) == [2]
    assert waited_on(json.dumps({"to_act": -1, "waiting": {"kind": "dealer-cards",
                                                           "missing": [0, 3]}}).encode()) == [0, 3]
    assert waited_on(b"not json") == [] and waited_on(b'{"to_act": null}') == []


def test_a_forged_token_is_nobodys():
    tokens = Tokens("o" * 43, {0: "s" * 32, 1: "t" * 32}, "v" * 32, [])
    real = {tokens.owner, tokens.viewer, *tokens.seats.values()}
    made = {forged(tokens, draw) for draw in range(60)}
    assert made.isdisjoint(real) and len(made) > 10


def test_a_short_run_finds_no_wrong_role_answered_and_no_5xx():
    result = fuzz_roles.fuzz_roles(40, seed=3)
    assert result["tried"] == 40 and result["no_answer"] == 0
    assert result["seats_held"] == [0, 1, 2, 3, 4]  # every granted device token is a seat
    assert result["5xx"] == 0 and result["changed_on_reject"] == 0 and result["unclear"] == 0
    assert result["wrong_role_2xx"] == 0, result["problems"]
    assert result["not_theirs"] > 0  # it did send what roles may not do
    assert result["stopped_cleanly"] and result["tracebacks_logged"] == 0
