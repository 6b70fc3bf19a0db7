"""Phones asking for a held seat: the owner sees which phone asks (a code on the phone and
on the approval), an approval binds that one claim, a revoke from anywhere ends the
seat's claims, and claims without a token cost the table nothing."""

from __future__ import annotations

import json
import logging
import os
import urllib.error
import urllib.request

import aiohttp
import pytest
from test_api_roles import served

from firmware.api.claims import MAX_WAITING, Claims
from firmware.seat_keys import SeatKeys
from hal.sim.clock import VirtualClock

CLAIM = "/api/seats/claim"


async def ask(api, seat, peer="10.0.1.1"):
    """A second phone asks for `seat` with the screen's invitation: (join, the 202 body)."""
    join = await api.invitation(seat)
    status, body, _ = await api.post(CLAIM, {"seat": seat, "join": join}, token=None, peer=peer)
    assert status == 202, body
    return join, body


async def poll(api, seat, join, claim, peer="10.0.1.1"):
    status, body, _ = await api.post(CLAIM, {"seat": seat, "join": join, "claim": claim}, token=None, peer=peer)
    return status, body


def signature(path):
    st = os.stat(path)
    return st.st_ino, st.st_size, st.st_mtime_ns


# -- the owner sees which phone asks --------------------------------------------------------
def test_each_claim_shows_a_code_and_the_approval_of_a_code_lets_that_phone_in(tmp_path):
    async def test(api, _table, server):
        old = await api.join(0)
        join, p = await ask(api, 0, peer="10.0.1.1")
        _, q = await ask(api, 0, peer="10.0.1.2")
        assert p["code"] != q["code"] and all(len(c["code"]) == 4 and c["code"].isdigit() for c in (p, q))
        # the owner's screen now lists both phones, each by the code it shows
        claims = [{"seat": 0, "code": p["code"]}, {"seat": 0, "code": q["code"]}]
        assert (await api.get("/api/state"))[1]["claims"] == claims
        listing = (await api.get("/api/seats"))[1]["seats"][0]
        assert listing["pending"] and listing["codes"] == [p["code"], q["code"]]
        assert (await poll(api, 0, join, p["claim"]))[1]["code"] == p["code"]  # it keeps showing it
        # the owner approves P's code: P gets the seat, Q is told, the old phone is out
        assert (await api.post("/api/seats/approve", {"seat": 0, "code": p["code"]}))[0] == 200
        status, granted = await poll(api, 0, join, p["claim"])
        assert status == 200 and (await api.get("/api/whoami", token=granted["token"]))[1]["seat"] == 0
        status, told = await poll(api, 0, join, q["claim"], peer="10.0.1.2")
        assert (status, told["key"], told["values"]) == (403, "claim.taken", {"seat": 0})
        assert (await api.get("/api/state", token=old))[0] == 401
        assert (await api.get("/api/state"))[1]["claims"] == []

    served(test, tmp_path)


def test_a_later_claim_never_takes_an_approval_meant_for_another(tmp_path):
    async def test(api, _table, server):
        old = await api.join(1)
        join, p = await ask(api, 1, peer="10.0.1.1")
        _, q = await ask(api, 1, peer="10.0.1.2")  # Q asks after the owner read P's code
        assert (await api.post("/api/seats/approve", {"seat": 1, "code": p["code"]}))[0] == 200
        assert (await poll(api, 1, join, q["claim"], peer="10.0.1.2"))[0] == 403  # not Q
        assert (await poll(api, 1, join, p["claim"]))[0] == 200  # P
        # a code no phone shows (a stale prompt, a guess) approves nobody and changes nothing
        _, r = await ask(api, 1, peer="10.0.1.3")
        other = f"{(int(r['code']) + 1) % 10000:04d}"
        status, answer, _ = await api.post("/api/seats/approve", {"seat": 1, "code": other})
        assert (status, answer["key"], answer["values"]) == (
            409, "refused.no_claim", {"code": other, "seat": 1})
        assert (await api.post("/api/seats/approve", {"seat": 1}))[0] == 400  # no code: no approval
        assert (await api.post("/api/seats/approve", {"seat": 0, "code": r["code"]}))[0] == 409  # not seat 0's
        assert (await api.get("/api/state"))[1]["claims"] == [{"seat": 1, "code": r["code"]}]
        assert (await api.get("/api/state", token=old))[0] == 401  # P's approval, not R's, took it

    served(test, tmp_path)


def test_a_newer_claim_leaves_an_approved_phone_its_token_until_it_fetches_it(tmp_path):
    async def test(api, _table, server):
        await api.join(2)
        join, p = await ask(api, 2, peer="10.0.1.1")
        assert (await api.post("/api/seats/approve", {"seat": 2, "code": p["code"]}))[0] == 200
        _, q = await ask(api, 2, peer="10.0.1.2")  # P's phone has not polled yet
        status, granted = await poll(api, 2, join, p["claim"])
        assert status == 200, granted
        assert (await api.get("/api/whoami", token=granted["token"]))[1]["seat"] == 2
        assert (await api.get("/api/state"))[1]["claims"] == [{"seat": 2, "code": q["code"]}]

    served(test, tmp_path)


@pytest.mark.parametrize("where", ["screen", "terminal"])
def test_a_revoke_from_anywhere_ends_every_claim_of_the_seat_granted_or_waiting(tmp_path, where):
    async def test(api, _table, server):
        await api.join(0)
        join, granted = await ask(api, 0, peer="10.0.1.1")
        assert (await api.post("/api/seats/approve", {"seat": 0, "code": granted["code"]}))[0] == 200
        _, waiting = await ask(api, 0, peer="10.0.1.2")  # asks for the phone just approved
        await api.join(1)
        _, elsewhere = await ask(api, 1, peer="10.0.1.3")  # another seat's claim stays
        if where == "screen":
            assert (await api.post("/api/seats/revoke", {"seat": 0}))[0] == 200
        else:
            SeatKeys(server.seat_keys.path).revoke(0)  # `unotable seats revoke 1`, another process
            server.tick()  # what the sweeper does every second
        assert (await api.get("/api/state"))[1]["claims"] == [{"seat": 1, "code": elsewhere["code"]}]
        status, answer = await poll(api, 0, join, granted["claim"])
        assert status == 403 and "token" not in answer, answer  # the approved phone gets nothing
        assert (await poll(api, 0, join, waiting["claim"], peer="10.0.1.2"))[0] == 403
        status, _, _ = await api.post("/api/seats/approve", {"seat": 0, "code": waiting["code"]})
        assert status == 409 and not server.seat_keys.claimed(0)

    served(test, tmp_path)


def test_an_approval_right_after_a_revoke_in_another_process_hands_out_nothing(tmp_path):
    async def test(api, _table, server):
        await api.join(0)
        _, waiting = await ask(api, 0)
        SeatKeys(server.seat_keys.path).revoke(0)  # before the sweeper's next look
        status, _, _ = await api.post("/api/seats/approve", {"seat": 0, "code": waiting["code"]})
        assert status == 409 and not server.seat_keys.claimed(0)

    served(test, tmp_path)


# -- the claims themselves -----------------------------------------------------------------
def test_a_revoke_refuses_the_seats_granted_and_waiting_claims_and_no_other():
    claims = Claims(clock=VirtualClock())
    granted_id, _ = claims.open(0, "join-a")
    claims.find(granted_id, 0, "join-a").state = "granted"
    waiting_id, _ = claims.open(0, "join-a")
    other_id, _ = claims.open(1, "join-b")
    claims.drop(0, "claim.seat_revoked")
    assert [claims.find(i, 0, "join-a").state for i in (granted_id, waiting_id)] == ["refused"] * 2
    assert claims.find(granted_id, 0, "join-a").token is None
    assert claims.find(other_id, 1, "join-b").state == "waiting"


def test_one_seat_has_a_bounded_number_of_waiting_claims_with_distinct_codes():
    claims = Claims(clock=VirtualClock())
    opened = [claims.open(0, "join") for _ in range(MAX_WAITING + 2)]
    assert len({code for _, code in opened}) == len(opened)
    assert [c["code"] for c in claims.waiting()] == [code for _, code in opened[-MAX_WAITING:]]
    assert claims.find(opened[0][0], 0, "join").state == "refused"  # the oldest was pushed out


# -- strangers: every refused claim is a failed attempt ------------------------------------
def test_a_claim_polled_without_its_invitation_is_refused_and_counted(tmp_path):
    async def test(api, _table, server):
        await api.join(0)
        join, waiting = await ask(api, 0)
        wrong = (await api.invitation(1))  # a real invitation, of another seat
        for other in (wrong, "made-up-invitation"):
            status, answer = await poll(api, 0, other, waiting["claim"], peer="10.0.2.2")
            assert status == 403 and answer["field"] == "claim", answer
        assert (await poll(api, 0, join, waiting["claim"]))[0] == 202  # its own invitation: still waits
        for _ in range(3):
            await poll(api, 0, "made-up-invitation", waiting["claim"], peer="10.0.2.2")
        assert (await poll(api, 0, join, waiting["claim"], peer="10.0.2.2"))[0] == 429

    served(test, tmp_path)


@pytest.mark.parametrize("wrong", ["invitation", "claim"])
def test_wrong_invitations_and_unknown_claims_are_failed_attempts(tmp_path, wrong):
    async def test(api, _table, server):
        join = await api.invitation(0)
        body = ({"seat": 0, "join": "a-guessed-invitation"} if wrong == "invitation"
                else {"seat": 0, "join": join, "claim": "a-guessed-claim-id"})
        answers = [(await api.post(CLAIM, body, token=None, peer="10.0.3.3"))[0] for _ in range(6)]
        assert answers == [403] * 5 + [429]
        status, _, headers = await api.post(CLAIM, {"seat": 0, "join": join}, token=None, peer="10.0.3.3")
        assert status == 429 and int(headers["Retry-After"]) >= 1  # even the right one must wait
        assert (await api.post(CLAIM, {"seat": 0, "join": join}, token=None, peer="10.0.3.4"))[0] == 200

    served(test, tmp_path)


BAD_BODIES = [
    b'{"seat": 2, "join": "\\ud800"}',  # a lone surrogate
    b'{"seat": 2, "join": "\\udc80"}',
    b'{"seat": 2, "join": "ok", "claim": "\\udfff"}',
    b'{"seat": 2, "join": "\\u0000"}',
    '{"seat": 2, "join": "jöin-ünicode"}'.encode(),
    '{"seat": 2, "join": "\u202eevil"}'.encode(),  # a right-to-left override
    '{"seat": 2, "join": "😀"}'.encode(),
    b'{"seat": 2, "join": "with space"}',
    b'{"seat": 2, "join": "' + b"x" * 129 + b'"}',
    b'{"seat": 2, "join": 12}',
    b'{"seat": "2", "join": "abc"}',
    b'{"seat": -1, "join": "abc"}',
    b'{"seat": 1.5, "join": "abc"}',
    b'{"seat": true, "join": "abc"}',
    b'{"seat": 2}',
    b'{"seat": 2, "join": "abc", "extra": 1}',
    b'{"seat": 2, "join": "abc"',  # no JSON
    b'\xff\xfe{"seat": 2}',  # no UTF-8
    b'[]',
]


def test_bad_claim_bodies_get_400_count_as_failed_attempts_and_cost_nothing(tmp_path, caplog):
    async def test(api, _table, server):
        keys = server.seat_keys.path
        before = signature(keys)
        for i, body in enumerate(BAD_BODIES):
            async with aiohttp.ClientSession(server.url) as s, s.post(
                    CLAIM, data=body, headers=api.headers(None, peer=f"10.0.4.{i}")) as resp:
                answer = await resp.json()
                assert resp.status == 400 and answer["error"] == "bad_request" and answer["reason"], (body, answer)
        # five from one address, and the sixth request of that address must wait
        async with aiohttp.ClientSession(server.url) as s:
            statuses = []
            for _ in range(6):
                async with s.post(CLAIM, data=BAD_BODIES[0], headers=api.headers(None, peer="10.0.5.5")) as resp:
                    statuses.append(resp.status)
        assert statuses == [400] * 5 + [429]
        # a flood from 300 addresses: no 5xx, no traceback, a bounded log, no write
        logged = len(caplog.text)
        async with aiohttp.ClientSession(server.url) as s:
            for i in range(300):
                async with s.post(CLAIM, data=BAD_BODIES[0], headers=api.headers(None, peer=f"10.1.{i // 200}.{i % 200}")) as resp:
                    assert resp.status == 400
        assert len(caplog.text) - logged < 2000, caplog.text[logged:]
        assert "Traceback" not in caplog.text and "UnicodeEncodeError" not in caplog.text
        assert not any(r.levelno >= logging.ERROR for r in caplog.records)
        assert signature(keys) == before and not any(s["claimed"] for s in server.seat_keys.status())

    with caplog.at_level(logging.INFO):
        served(test, tmp_path)


def test_claims_of_a_held_seat_are_slowed_and_write_nothing(tmp_path):
    async def test(api, _table, server):
        await api.join(0)
        join = await api.invitation(0)
        before = signature(server.seat_keys.path)
        answers = [(await api.post(CLAIM, {"seat": 0, "join": join}, token=None, peer="10.0.6.6"))[0]
                   for _ in range(6)]
        assert answers == [202] * 5 + [429]
        assert signature(server.seat_keys.path) == before  # no rewrite of seats.json per claim
        assert len((await api.get("/api/state"))[1]["claims"]) == MAX_WAITING

    served(test, tmp_path)


def test_the_seat_keys_hash_any_text_a_lone_surrogate_too(tmp_path):
    keys = SeatKeys(tmp_path / "seats.json")
    keys.invite(0)
    assert not keys.valid_join(0, "\ud800") and keys.who("\udfff\ud800") is None


# -- the twin: the real daemon's claim door -----------------------------------------------
def test_the_daemon_answers_the_lone_surrogate_claim_400(tmp_path):
    from firmware.sim.testbed import SimTable
    from tests.firmware.conftest import request

    with SimTable(tmp_path, "classic", players=4) as table:
        req = urllib.request.Request(table.url + CLAIM, data=b'{"seat":3,"join":"\\ud800"}', method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(req, timeout=10)
            raise AssertionError("a lone surrogate was taken")
        except urllib.error.HTTPError as exc:
            assert exc.code == 400 and json.load(exc)["field"] == "join"
        assert request(table.url, "GET", "/api/health")[0] == 200
