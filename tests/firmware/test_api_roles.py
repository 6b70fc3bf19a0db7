"""Who is who at the table's API: the owner, seats' phones, viewers; joining a seat."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging

import aiohttp
import pytest
from test_api import TOKEN, FakeTable, with_api

from firmware.api import Admin, CallUno, Play
from firmware.api.requests import Who
from firmware.seat_keys import SeatKeys
from tests.firmware.conftest import request

NAMES = ["Ada", "Bo", "Cy"]


class NamedTable(FakeTable):
    def public_state(self):
        return {**super().public_state(), "names": list(NAMES)}


def served(test, tmp_path, *, token=TOKEN, **kw):
    """`test(api, table, server)` on a served API with seat keys in `tmp_path`; the peer
    address is the ``X-Peer`` header (a seam: the tests come from one address)."""

    async def run(session, table, server):
        server.client_address = lambda request: request.headers.get("X-Peer", "127.0.0.1")
        api = Api(server, session)
        try:
            await test(api, table, server)
        finally:
            for stream_session in api.stream_sessions:
                await stream_session.close()

    keys = SeatKeys(tmp_path / "seats.json")
    with_api(run, token=token, table=NamedTable(), seat_keys=keys, **kw)


class Api:
    """Requests as one identity or another to the served API."""

    def __init__(self, server, owner_session):
        self.server = server
        self.owner_session = owner_session
        self.stream_sessions: list[aiohttp.ClientSession] = []  # closed when the test ends

    def headers(self, token, peer=None, **extra):
        out = {"Content-Type": "application/json", **extra}
        if token:
            out["Authorization"] = f"Bearer {token}"
        if peer:
            out["X-Peer"] = peer
        return out

    async def post(self, path, body=None, token=TOKEN, **kw):
        async with aiohttp.ClientSession(self.server.url) as s, s.post(
                path, data=json.dumps(body if body is not None else {}),
                headers=self.headers(token, **kw)) as resp:
            return resp.status, await resp.json(), resp.headers

    async def get(self, path, token=TOKEN, **kw):
        async with aiohttp.ClientSession(self.server.url) as s, s.get(
                path, headers=self.headers(token, **kw)) as resp:
            return resp.status, await resp.json(), resp.headers

    async def join(self, seat):
        """A phone taking a free seat with the screen's invitation: its token."""
        status, body, _ = await self.post("/api/seats/claim", {"seat": seat, "join": await self.invitation(seat)},
                                          token=None)
        assert status == 200 and body["seat"] == seat, body
        return body["token"]

    async def invitation(self, seat):
        status, listing, _ = await self.get("/api/seats")
        assert status == 200, listing
        return listing["seats"][seat]["url"].split("#join=")[1]

    async def stream(self, token):
        session = aiohttp.ClientSession(self.server.url)
        self.stream_sessions.append(session)
        query = f"?token={token}" if token else ""
        ws = await session.ws_connect(f"/api/ws{query}")
        first = await ws.receive_json(timeout=5)
        assert first["type"] == "state"
        return session, ws


async def closed(ws):
    """The code the server closed the stream with (events before it are skipped)."""
    msg = await ws.receive(timeout=5)
    while msg.type is aiohttp.WSMsgType.TEXT:
        msg = await ws.receive(timeout=5)
    assert msg.type is aiohttp.WSMsgType.CLOSE, msg
    return msg.data


def test_each_token_reaches_the_table_as_who_it_is_with_its_idempotency_key(tmp_path):
    async def test(api, table, _server):
        bo, cy = await api.join(1), await api.join(2)
        assert (await api.post("/api/uno", {"seat": 1}, token=bo, **{"Idempotency-Key": "k-1"}))[0] == 200
        assert (await api.post("/api/uno", {"seat": 2}, token=cy))[0] == 200
        assert (await api.post("/api/admin/pause", {}, **{"Idempotency-Key": "k-2"}))[0] == 200
        assert table.log == [CallUno(1), CallUno(2), Admin("pause", {})]
        assert [(r.by, r.key) for r in table.log] == [
            (Who("seat", 1, "phone"), "k-1"), (Who("seat", 2, "phone"), ""),
            (Who("owner", via="token"), "k-2")]

    served(test, tmp_path)


def test_whoami_names_the_role_and_the_seat(tmp_path):
    async def test(api, _table, _server):
        bo = await api.join(1)
        _, viewer, _ = await api.post("/api/viewers", {})
        assert (await api.get("/api/whoami"))[1] == {"role": "owner", "seat": None, "name": None}
        assert (await api.get("/api/whoami", token=bo))[1] == {"role": "seat", "seat": 1, "name": "Bo"}
        assert (await api.get("/api/whoami", token=viewer["token"]))[1] == {
            "role": "viewer", "seat": None, "name": None}
        assert (await api.get("/api/whoami", token=None))[0] == 401

    served(test, tmp_path)


def test_without_a_configured_token_a_local_program_is_the_owner(tmp_path):
    async def test(api, table, _server):
        assert (await api.get("/api/whoami", token=None))[1]["role"] == "owner"
        assert (await api.post("/api/admin/pause", {}, token=None))[0] == 200
        assert (await api.get("/api/seats", token=None))[0] == 200
        assert table.log[0].by == Who("owner")
        assert (await api.get("/api/state", token="a-revoked-or-made-up-token"))[0] == 401

    served(test, tmp_path, token=None)


def test_a_viewer_watches_and_may_post_nothing(tmp_path):
    async def test(api, table, _server):
        _, made, _ = await api.post("/api/viewers", {})
        viewer = made["token"]
        assert (await api.get("/api/state", token=viewer))[0] == 200
        assert (await api.get("/api/health", token=viewer))[0] == 200
        session, ws = await api.stream(viewer)
        await ws.close()
        await session.close()
        for path, body in (("/api/play", {"seat": 0, "card": "R1"}), ("/api/admin/pause", {}),
                           ("/api/next-round", {})):
            status, answer, _ = await api.post(path, body, token=viewer)
            assert status == 403 and answer["key"] in ("refused.viewer", "role.watches"), answer
        assert table.log == [] and not table.paused

    served(test, tmp_path)


@pytest.mark.parametrize(("method", "path", "body"), [
    ("post", "/api/admin/pause", {}), ("post", "/api/admin/new-match", {}),
    ("get", "/api/seats", None), ("post", "/api/seats/approve", {"seat": 0, "code": "1234"}),
    ("post", "/api/seats/refuse", {"seat": 0, "code": "1234"}), ("post", "/api/seats/revoke", {"seat": 0}),
    ("post", "/api/viewers", {})])
def test_only_the_owner_may_run_the_table_and_hand_out_seats(tmp_path, method, path, body):
    async def test(api, table, server):
        bo = await api.join(1)
        ada = await api.join(0)
        args = (path, body) if method == "post" else (path,)
        status, answer, _ = await getattr(api, method)(*args, token=bo)
        assert (status, answer["key"], answer["values"]["seat"]) == (403, "role.owners_only", 1), answer
        assert table.log == [] and not table.paused
        assert server.seat_keys.who(ada) == 0  # seat 0 still has its phone

    served(test, tmp_path)


def test_a_phone_for_a_held_seat_waits_for_the_owner_who_approves(tmp_path):
    async def test(api, _table, server):
        old = await api.join(0)
        session, old_stream = await api.stream(old)
        _, watcher = await api.stream(TOKEN)
        join = await api.invitation(0)
        status, waiting, _ = await api.post("/api/seats/claim", {"seat": 0, "join": join}, token=None)
        assert status == 202 and "another phone holds Ada" in waiting["reason"]
        asking = [{"seat": 0, "code": waiting["code"]}]  # the code the phone shows
        assert (await api.get("/api/state"))[1]["claims"] == asking
        event = await watcher.receive_json(timeout=5)
        while event["event"].get("claims") != asking:
            event = await watcher.receive_json(timeout=5)
        assert event["event"] == {"kind": "seats", "phones": {"0": True}, "claims": asking}
        poll = {"seat": 0, "join": join, "claim": waiting["claim"]}
        assert (await api.post("/api/seats/claim", poll, token=None))[0] == 202  # not yet
        assert (await api.post("/api/seats/approve", {"seat": 0, "code": waiting["code"]}))[0] == 200
        status, granted, headers = await api.post("/api/seats/claim", poll, token=None)
        assert status == 200 and granted["seat"] == 0 and headers["Cache-Control"] == "no-store"
        assert (await api.get("/api/whoami", token=granted["token"]))[1]["seat"] == 0
        assert (await api.get("/api/state", token=old))[0] == 401  # the old phone is out
        assert await closed(old_stream) == aiohttp.WSCloseCode.POLICY_VIOLATION
        assert (await api.get("/api/state"))[1]["claims"] == []
        assert (await api.post("/api/seats/claim", poll, token=None))[0] == 403  # answered once
        await session.close()

    served(test, tmp_path)


def test_a_refused_phone_is_told_and_the_seat_keeps_its_phone(tmp_path):
    async def test(api, _table, _server):
        old = await api.join(2)
        join = await api.invitation(2)
        _, waiting, _ = await api.post("/api/seats/claim", {"seat": 2, "join": join}, token=None)
        answer = {"seat": 2, "code": waiting["code"]}
        assert (await api.post("/api/seats/refuse", answer))[0] == 200
        status, refused, _ = await api.post(
            "/api/seats/claim", {"seat": 2, "join": join, "claim": waiting["claim"]}, token=None)
        assert (status, refused["key"], refused["values"]) == (403, "claim.refused", {"seat": 2})
        assert (await api.get("/api/whoami", token=old))[1]["seat"] == 2
        status, nothing, _ = await api.post("/api/seats/approve", answer)
        assert (status, nothing["key"], nothing["values"]) == (
            409, "refused.no_claim", {"code": answer["code"], "seat": 2})

    served(test, tmp_path)


def test_a_wrong_invitation_gets_no_seat_and_names_no_secret(tmp_path):
    async def test(api, _table, server):
        join = await api.invitation(1)
        for body in ({"seat": 0, "join": join}, {"seat": 1, "join": "guess-guess-guess"},
                     {"seat": 1, "join": join, "claim": "made-up-claim-id"}):
            status, answer, _ = await api.post("/api/seats/claim", body, token=None)
            assert status == 403 and join not in json.dumps(answer), answer
        assert (await api.post("/api/seats/claim", {"seat": 7, "join": join}, token=None))[0] == 404
        assert not any(s["claimed"] for s in server.seat_keys.status())

    served(test, tmp_path)


def test_a_revoked_token_is_refused_at_once_and_its_stream_closed(tmp_path):
    async def test(api, _table, server):
        bo = await api.join(1)
        session, stream = await api.stream(bo)
        assert (await api.get("/api/state"))[1]["phones"] == {"1": True}
        assert (await api.post("/api/seats/revoke", {"seat": 1}))[0] == 200
        assert await closed(stream) == aiohttp.WSCloseCode.POLICY_VIOLATION
        assert (await api.post("/api/uno", {"seat": 1}, token=bo))[0] == 401
        assert (await api.get("/api/state"))[1]["phones"] == {}
        await api.join(1)  # the screen's link works again for a new phone
        await session.close()

    served(test, tmp_path)


def test_a_revoke_by_another_process_closes_the_stream_within_the_sweep(tmp_path):
    async def test(api, _table, server):
        cy = await api.join(2)
        session, stream = await api.stream(cy)
        SeatKeys(server.seat_keys.path).revoke(2)  # `unotable seats revoke` elsewhere
        assert (await api.get("/api/state", token=cy))[0] == 401
        server.tick()  # what the sweeper does every second
        assert await closed(stream) == aiohttp.WSCloseCode.POLICY_VIOLATION
        await session.close()

    served(test, tmp_path)


def test_the_sweeper_itself_notices_a_revoke_by_another_process(tmp_path):
    async def test(api, _table, server):
        cy = await api.join(2)
        session, stream = await api.stream(cy)
        SeatKeys(server.seat_keys.path).revoke(2)
        assert await closed(stream) == aiohttp.WSCloseCode.POLICY_VIOLATION  # within ~1 s
        await session.close()

    served(test, tmp_path)


def test_wrong_tokens_are_slowed_per_address_and_never_echoed(tmp_path, caplog):
    async def test(api, _table, _server):
        bo = await api.join(1)
        guesses = [f"guess-number-{i}-abcdefgh" for i in range(6)]
        answers = [await api.get("/api/state", token=g, peer="10.0.0.66") for g in guesses]
        assert [a[0] for a in answers] == [401] * 5 + [429]
        status, body, headers = answers[-1]
        assert int(headers["Retry-After"]) >= 1 and body["error"] == "too_many_attempts"
        assert (await api.get("/api/state", token=TOKEN, peer="10.0.0.66"))[0] == 429  # even right
        assert (await api.get("/api/state", token=TOKEN, peer="10.0.0.7"))[0] == 200
        assert (await api.get("/api/state", token=bo, peer="10.0.0.8"))[0] == 200
        assert (await api.post("/api/seats/claim", {"seat": 1, "join": "x"}, token=None,
                               peer="10.0.0.66"))[0] == 429
        texts = json.dumps([a[1] for a in answers]) + caplog.text
        assert not any(g in texts for g in guesses) and TOKEN not in texts and bo not in texts
        assert "10.0.0.66" in caplog.text

    with caplog.at_level(logging.INFO):
        served(test, tmp_path)


def test_an_idempotency_key_over_64_characters_is_refused_and_changes_nothing(tmp_path):
    async def test(api, table, _server):
        status, body, _ = await api.post("/api/uno", {"seat": 0}, **{"Idempotency-Key": "k" * 65})
        assert status == 400 and body["field"] == "Idempotency-Key"
        assert table.log == []

    served(test, tmp_path)


def test_the_owners_list_has_a_link_and_its_qr_code_for_every_seat(tmp_path):
    async def test(api, _table, server):
        await api.join(1)
        status, listing, _ = await api.get("/api/seats")
        assert status == 200 and listing["reachable"] is False  # served on loopback
        seats = listing["seats"]
        assert [(s["seat"], s["name"], s["claimed"], s["pending"]) for s in seats] == [
            (0, "Ada", False, False), (1, "Bo", True, False), (2, "Cy", False, False)]
        for entry in seats:
            assert entry["url"].startswith(f"http://127.0.0.1:{server.port}/seat/{entry['seat']}#join=")
            assert entry["svg"].lstrip().startswith(("<?xml", "<svg")) and "</svg>" in entry["svg"]
        assert TOKEN not in json.dumps(listing)

    served(test, tmp_path)


def test_the_public_state_names_no_secret(tmp_path):
    async def test(api, _table, server):
        bo = await api.join(1)
        session, _ws = await api.stream(bo)
        await asyncio.sleep(0)
        status, state, _ = await api.get("/api/state")
        assert status == 200 and state["phones"] == {"1": True} and state["claims"] == []
        text = json.dumps(state)
        assert bo not in text and await api.invitation(0) not in text
        await session.close()

    served(test, tmp_path)


def test_a_seat_acting_for_another_is_refused_on_the_table_and_nothing_changes(tmp_path):
    """The controller judges the roles (firmware.api.roles); here through the server."""
    roles = pytest.importorskip("firmware.api.roles")

    class JudgedTable(NamedTable):
        def submit(self, request):
            refused = roles.refusal(request.by, request)
            if refused is not None:
                raise refused
            return super().submit(request)

    async def test(api, table, _server):
        bo = await api.join(1)
        status, answer, _ = await api.post("/api/play", {"seat": 2, "card": "R1"}, token=bo)
        assert (status, answer["key"], answer["values"]) == (
            403, "role.for_itself", {"seat": 1, "other": 2}), answer
        assert table.log == [] and table.turn == 0
        assert (await api.post("/api/play", {"seat": 0, "card": "R1"}))[0] == 200
        assert table.log == [Play(0, "R1")]

    keys = SeatKeys(tmp_path / "seats.json")

    async def run(session, table, server):
        server.client_address = lambda request: "127.0.0.1"
        await test(Api(server, session), table, server)

    with_api(run, token=TOKEN, table=JudgedTable(), seat_keys=keys)


call = request  # a blocking request to the twin's API: (status, JSON)


def test_the_daemon_keeps_the_seats_beside_its_journal_and_a_phone_joins_the_twin(tmp_path):
    from firmware.sim.testbed import SimTable

    with SimTable(tmp_path, "classic", players=2) as table:
        status, listing = call(table.url, "GET", "/api/seats")  # loopback, no token: the owner
        assert status == 200 and [s["seat"] for s in listing["seats"]] == [0, 1]
        join = listing["seats"][1]["url"].split("#join=")[1]
        status, joined = call(table.url, "POST", "/api/seats/claim", {"seat": 1, "join": join})
        assert status == 200
        assert call(table.url, "GET", "/api/whoami", token=joined["token"])[1]["seat"] == 1
        assert (tmp_path / "seats.json").is_file()
        assert joined["token"] not in (tmp_path / "seats.json").read_text()
        if importlib.util.find_spec("firmware.api.roles") is not None:  # the controller's judge
            before = table.state()
            status, body = call(table.url, "POST", "/api/uno", {"seat": 0}, token=joined["token"])
            assert (status, body["key"], body["values"]) == (
                403, "role.for_itself", {"seat": 1, "other": 0}), body
            assert table.state() == before


def test_a_claim_nobody_answers_expires_and_the_screen_is_told(tmp_path):
    from hal.sim.clock import VirtualClock

    clock = VirtualClock()

    async def test(api, _table, server):
        await api.join(0)
        join = await api.invitation(0)
        _, waiting, _ = await api.post("/api/seats/claim", {"seat": 0, "join": join}, token=None)
        _, watcher = await api.stream(TOKEN)
        clock.advance(server.door.claims.ttl + 1)
        server.tick()
        event = await watcher.receive_json(timeout=5)
        assert event["event"] == {"kind": "seats", "phones": {}, "claims": []}
        status, gone, _ = await api.post(
            "/api/seats/claim", {"seat": 0, "join": join, "claim": waiting["claim"]}, token=None)
        assert (status, gone["key"], gone["field"]) == (403, "claim.unknown", "claim")

    served(test, tmp_path, clock=clock)
