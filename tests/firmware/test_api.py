"""The local API over real HTTP/WebSocket on the daemon's loop, against a fake table."""

from __future__ import annotations

import asyncio
import copy
import json

import aiohttp
import pytest

from firmware.api import Admin, ApiServer, CallUno, Catch, Hands, NextRound, Play
from firmware.api.schema import BODIES, openapi
from firmware.errors import ConfigError, Rejected
from firmware.loop import TableLoop
from firmware.words.messages import ANSWER_LANGUAGE, Words
from firmware.words.rejected import json_values
from uno_core import parse_card

TOKEN = "s3cret-token-for-tests"


class FakeTable:
    """A tiny game: seats take turns; a play must match the top card's colour letter."""

    def __init__(self, seats: int = 3) -> None:
        self.seats = seats
        self.turn = 0
        self.top = "R5"
        self.hidden_hands = {s: ["G1", "B2"] for s in range(seats)}
        self.paused = False
        self.log: list = []
        self.server: ApiServer | None = None

    def public_state(self):
        return {"turn": self.turn, "top": self.top, "paused": self.paused,
                "hand_counts": {str(s): len(h) for s, h in self.hidden_hands.items()}}

    def health(self):
        return {"ok": True, "launcher": "ok", "tray": {"readers": 4, "connected": 4}}

    def submit(self, request):
        if isinstance(request, NextRound):  # the one request without a seat
            self.log.append(request)
            return {}
        if isinstance(request, Admin):
            if request.action == "pause":
                self.paused = True
            self.log.append(request)
            return {"action": request.action}
        seat = request.seat
        if seat >= self.seats:
            raise Rejected("refused.no_seat", value=seat + 1, last=self.seats, field="seat",
                           status=404)
        if self.paused:
            raise Rejected("refused.already_paused")
        if isinstance(request, Play):
            if seat != self.turn:
                raise Rejected("refusal.not_your_turn", seat=seat, to_act=self.turn, field="seat")
            if request.card[0] != self.top[0] and request.card[0] != "W":
                raise Rejected("refusal.no_match", card=parse_card(request.card),
                               colour=self.top[0], top=parse_card(self.top), field="card",
                               status=422)
            self.top = request.card
            self.turn = (self.turn + 1) % self.seats
            self.log.append(request)
            if self.server:
                self.server.publish({"kind": "played", "seat": seat, "card": request.card})
            return {"next": self.turn}
        self.log.append(request)
        return {}

    def refused(self, refusal):  # as the table words it: in the language asked for
        words = Words(ANSWER_LANGUAGE.get() or "en")
        return {"reason": words.rejected(refusal), "key": refusal.key,
                "values": json_values(refusal.values, words)}


def with_api(test, *, token=None, host="127.0.0.1", table=None, **kw):
    """Run `test(session, table, server)` against a served API on a running TableLoop."""

    async def main():
        loop = TableLoop()
        await loop.start()
        fake = table or FakeTable()
        server = ApiServer(fake, loop, host=host, port=0, token=token, **kw)
        fake.server = server
        await server.start()
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            async with aiohttp.ClientSession(server.url, headers=headers) as session:
                await test(session, fake, server)
        finally:
            await loop.close()

    asyncio.run(main())


async def post(session, path, body=None, *, raw=None):
    data = raw if raw is not None else json.dumps(body)
    async with session.post(path, data=data, headers={"Content-Type": "application/json"}) as resp:
        return resp.status, await resp.json()


async def get(session, path):
    async with session.get(path) as resp:
        return resp.status, await resp.json()


def test_state_is_public_and_a_play_changes_it():
    async def test(session, table, _server):
        status, state = await get(session, "/api/state")
        assert status == 200 and state["top"] == "R5"
        assert "hidden_hands" not in json.dumps(state) and "G1" not in json.dumps(state)
        assert await post(session, "/api/play", {"seat": 0, "card": "R7"}) == (200, {"result": {"next": 1}})
        assert (await get(session, "/api/state"))[1]["top"] == "R7"
        assert table.log == [Play(0, "R7", {})]

    with_api(test)


def test_requests_reach_the_table_as_typed_values_with_their_choices():
    async def test(session, table, _server):
        await post(session, "/api/play", {"seat": 0, "card": "W+4", "choices": {"color": "blue", "target": 2}})
        await post(session, "/api/uno", {"seat": 1})
        await post(session, "/api/catch", {"seat": 2, "target": 1})
        await post(session, "/api/hands", {"seat": 2, "cards": ["G1", "B4!"]})
        await post(session, "/api/admin/new-match", {"edition": "power", "seats": 4, "seed": 9})
        await post(session, "/api/admin/resume", raw="")
        assert table.log == [
            Play(0, "W+4", {"color": "blue", "target": 2}), CallUno(1), Catch(2, 1),
            Hands(2, ("G1", "B4!")), Admin("new-match", {"edition": "power", "seats": 4, "seed": 9}),
            Admin("resume", {}),
        ]

    with_api(test)


@pytest.mark.parametrize(
    ("path", "body", "status", "field", "reason"),
    [
        ("/api/admin/reboot", {}, 404, "action", "no admin action 'reboot'"),
    ],
)
def test_a_bad_request_gets_a_clear_4xx_and_changes_nothing(path, body, status, field, reason):
    async def test(session, table, _server):
        before = (await get(session, "/api/state"))[1]
        log_before = list(table.log)
        got_status, got = await post(session, path, body, raw="{not json" if body is None else None)
        assert got_status == status
        assert got["field"] == field
        assert reason in got["reason"]
        assert (await get(session, "/api/state"))[1] == before
        assert table.log == log_before

    with_api(test)


@pytest.mark.parametrize(
    ("path", "body", "field", "key", "values"),
    [
        ("/api/play", None, None, "field.not_json", {"line": 1, "column": 2}),
        ("/api/play", [], None, "field.type", {"kinds": ["object"], "value": "[]"}),
        ("/api/play", {"card": "R7"}, "seat", "field.required", {}),
        ("/api/play", {"seat": "0", "card": "R7"}, "seat", "field.type", {"kinds": ["integer"], "value": "'0'"}),
        ("/api/play", {"seat": True, "card": "R7"}, "seat", "field.type", {"kinds": ["integer"], "value": "True"}),
        ("/api/play", {"seat": 1.5, "card": "R7"}, "seat", "field.type", {"kinds": ["integer"], "value": "1.5"}),
        ("/api/play", {"seat": -1, "card": "R7"}, "seat", "field.minimum", {"limit": 0, "value": "-1"}),
        ("/api/play", {"seat": 0, "card": ""}, "card", "field.empty", {}),
        ("/api/play", {"seat": 0, "card": "R 7"}, "card", "field.pattern", {"value": "'R 7'"}),
        ("/api/play", {"seat": 0, "card": "R77"}, "card", "field.card", {"value": "'R77'"}),
        ("/api/play", {"seat": 0, "card": "W", "choices": {"cards": ["R1", "RX"]}}, "choices.cards[1]", "field.card", {"value": "'RX'"}),
        ("/api/hands", {"seat": 0, "cards": ["W+5"]}, "cards[0]", "field.card", {"value": "'W+5'"}),
        ("/api/admin/override", {"kind": "tower-seen", "tower": "X"}, "tower", "field.enum",
         {"choices": ["U", "N", "O", "!"], "value": "'X'"}),
        ("/api/play", {"seat": 0, "card": "R7", "extra": 1}, "extra", "field.unknown", {}),
        ("/api/play", {"seat": 0, "card": "W", "choices": {"color": "pink"}}, "choices.color", "field.enum",
         {"choices": ["red", "yellow", "green", "blue"], "value": "'pink'"}),
        ("/api/hands", {"seat": 0, "cards": ["R1", 5]}, "cards[1]", "field.type", {"kinds": ["string"], "value": "5"}),
        ("/api/hands", {"seat": 0, "cards": ["R1"] * 121}, "cards", "field.max_items", {"limit": 120}),
        ("/api/admin/override", {}, "kind", "field.required", {}),
        ("/api/admin/override", {"kind": "cards-out", "count": 500}, "count", "field.maximum", {"limit": 120, "value": "500"}),
        ("/api/admin/pause", {"reason": "x" * 201}, "reason", "field.max_length", {"limit": 200}),
        ("/api/admin/new-match", {"options": {"x": [1]}}, "options.x", "field.type",
         {"kinds": ["boolean", "integer", "string"], "value": "[1]"}),
        # an option's text too long: the problem of the kind the value has, not every kind
        ("/api/admin/new-match", {"options": {"x": "y" * 65}}, "options.x", "field.max_length", {"limit": 64}),
        ("/api/admin/new-match", {"options": {str(n): 1 for n in range(65)}}, "options", "field.max_entries", {"limit": 64}),
    ],
)
def test_a_bad_field_is_answered_400_with_its_problem_as_data_and_changes_nothing(path, body, field, key, values):
    async def test(session, table, _server):
        before = (await get(session, "/api/state"))[1]
        log_before = list(table.log)
        status, got = await post(session, path, body, raw="{not json" if body is None else None)
        assert (status, got["error"], got["field"], got["key"], got["values"]) == (
            400, "bad_request", field, key, values)
        assert got["reason"] and got["reason"] != key  # worded from the catalog (test_messages)
        assert (await get(session, "/api/state"))[1] == before
        assert table.log == log_before

    with_api(test)


def test_a_body_that_is_no_text_or_nested_too_deeply_is_named_by_its_problem():
    async def test(session, _table, _server):
        for raw, key in ((b'{"seat": "\xc3\x28"}', "field.not_text"), ("[" * 30_000 + "]" * 30_000, "field.too_deep")):
            status, got = await post(session, "/api/play", None, raw=raw)
            assert (status, got["field"], got["key"], got["values"]) == (400, None, key, {})

    with_api(test)


@pytest.mark.parametrize(
    ("body", "status", "field", "key", "values"),
    [
        ({"seat": 5, "card": "R7"}, 404, "seat", "refused.no_seat", {"value": 6, "last": 3}),
        ({"seat": 1, "card": "R7"}, 409, "seat", "refusal.not_your_turn", {"seat": 1, "to_act": 0}),
        ({"seat": 0, "card": "G7"}, 422, "card", "refusal.no_match",
         {"card": "G7", "colour": "R", "top": "R5"}),
    ],
)
def test_a_refused_request_answers_its_key_and_values_beside_its_words(body, status, field, key,
                                                                      values):
    async def test(session, table, _server):
        before = (await get(session, "/api/state"))[1]
        got_status, got = await post(session, "/api/play", body)
        assert (got_status, got["error"], got["field"]) == (status, "rejected", field)
        assert (got["key"], got["values"]) == (key, values)
        assert got["reason"] and "{" not in got["reason"]  # worded, from the catalogue
        assert (await get(session, "/api/state"))[1] == before and table.log == []

    with_api(test)


def test_unknown_paths_and_methods_answer_in_json():
    async def test(session, _table, _server):
        assert (await get(session, "/api/nothing"))[0] == 404
        async with session.get("/api/play") as resp:
            assert resp.status == 405 and (await resp.json())["error"] == "method_not_allowed"
        async with session.post("/api/play", data=b"x" * (70 * 1024), headers={"Content-Type": "application/json"}) as resp:
            assert resp.status == 413

    with_api(test)


def test_websocket_sends_state_on_connect_then_each_event():
    async def test(session, _table, _server):
        async with session.ws_connect("/api/ws") as ws:
            first = await ws.receive_json(timeout=5)
            assert first == {"type": "state", "state": (await get(session, "/api/state"))[1]}
            await post(session, "/api/play", {"seat": 0, "card": "R1"})
            await post(session, "/api/play", {"seat": 1, "card": "G1"})  # rejected: no event
            await post(session, "/api/play", {"seat": 1, "card": "R2"})
            assert await ws.receive_json(timeout=5) == {"type": "event", "event": {"kind": "played", "seat": 0, "card": "R1"}}
            assert await ws.receive_json(timeout=5) == {"type": "event", "event": {"kind": "played", "seat": 1, "card": "R2"}}

    with_api(test)


def test_a_websocket_client_that_falls_behind_is_dropped_not_waited_for():
    async def test(session, table, server):
        async with session.ws_connect("/api/ws") as ws:
            await ws.receive_json(timeout=5)
            for n in range(5):  # the client reads nothing meanwhile; the backlog is 2
                server.publish({"n": n})
            messages = []
            async for msg in ws:
                messages.append(msg)
            assert ws.close_code == 1013
            assert len(messages) <= 2

    with_api(test, backlog=2)


def test_stopping_the_loop_closes_event_streams():
    async def test(session, _table, server):
        async with session.ws_connect("/api/ws") as ws:
            await ws.receive_json(timeout=5)
            closing = asyncio.ensure_future(server.loop.close())
            msg = await ws.receive(timeout=5)
            await closing
            assert msg.type == aiohttp.WSMsgType.CLOSE
            assert ws.close_code == 1001

    with_api(test)


def test_with_a_token_every_request_must_carry_it():
    async def test(session, _table, server):
        assert (await get(session, "/api/state"))[0] == 200
        async with aiohttp.ClientSession(server.url) as anonymous:
            for path in ("/api/state", "/api/openapi.json", "/api/health"):
                async with anonymous.get(path) as resp:
                    assert resp.status == 401
                    assert resp.headers["WWW-Authenticate"].startswith("Bearer")
            async with anonymous.post("/api/play", json={"seat": 0, "card": "R1"},
                                      headers={"Authorization": "Bearer wrong"}) as resp:
                assert resp.status == 401
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await anonymous.ws_connect("/api/ws")
        async with session.ws_connect("/api/ws") as ws:
            assert (await ws.receive_json(timeout=5))["type"] == "state"

    with_api(test, token=TOKEN)


def test_a_public_address_without_a_token_is_refused():
    loop = TableLoop()
    with pytest.raises(ConfigError) as info:
        ApiServer(FakeTable(), loop, host="0.0.0.0", port=0)
    assert info.value.key == "api.token"


def test_health_reports_the_hardware():
    async def test(session, _table, _server):
        assert await get(session, "/api/health") == (200, {"ok": True, "launcher": "ok", "tray": {"readers": 4, "connected": 4}})

    with_api(test)


def test_openapi_document_covers_every_route_the_server_has():
    async def test(session, _table, server):
        status, doc = await get(session, "/api/openapi.json")
        assert status == 200 and doc["openapi"].startswith("3.0")
        routes = {
            (r.method.lower(), r.resource.canonical)
            for r in server.app.router.routes()
            if r.method != "HEAD" and r.resource.canonical.startswith("/api/")  # not the static page
        }
        documented = {(m, p) for p, ops in doc["paths"].items() for m in ops}
        admin = {(m, p) for m, p in documented if p.startswith("/api/admin/")}
        assert routes - {("post", "/api/admin/{action}")} == documented - admin
        assert {p.rsplit("/", 1)[1] for _, p in admin} == {"new-match", "pause", "resume", "override"}
        assert "security" not in doc
        assert doc["paths"]["/api/play"]["post"]["requestBody"]["content"]["application/json"]["schema"] == BODIES["/api/play"][0]

    with_api(test)


def test_openapi_document_declares_the_token_when_one_is_required():
    doc = openapi(token_required=True)
    assert doc["security"] == [{"bearer": []}]
    assert all("401" in op["responses"] for ops in doc["paths"].values() for op in ops.values())
    assert openapi(token_required=False) == copy.deepcopy(openapi(token_required=False))


def test_a_failing_table_answers_500_in_json_and_stops_the_loop_in_safe_state():
    class BrokenTable(FakeTable):
        def submit(self, request):
            raise KeyError("bug")

    off = []

    async def test(session, _table, server):
        server.loop.on_safe_state(lambda: off.append(True))
        status, body = await post(session, "/api/uno", {"seat": 0})
        assert (status, body["error"], body["reason"]) == (500, "internal", "the table failed: KeyError")
        await server.loop.wait()  # the loop asked itself to stop
        assert isinstance(server.loop.failure, KeyError)

    with_api(test, table=BrokenTable())
    assert off == [True]


def test_the_screen_loads_without_the_token_but_the_api_still_needs_it():
    async def test(session, _table, _server):
        async with aiohttp.ClientSession(_server.url) as bare:  # no Authorization header
            async with bare.get("/") as resp:
                assert resp.status == 200 and "<html" in (await resp.text()).lower()
            async with bare.get("/static/app.js") as resp:
                assert resp.status == 200 and "javascript" in resp.content_type
            async with bare.get("/static/vendor/idiomorph-0.8.0.esm.js") as resp:  # the page's redraws
                assert resp.status == 200 and "javascript" in resp.content_type
                assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
            async with bare.get("/api/editions") as resp:
                assert resp.status == 401
            async with bare.ws_connect(f"/api/ws?token={TOKEN}") as ws:  # browsers cannot set WS headers
                assert (await ws.receive_json())["type"] == "state"
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await bare.ws_connect("/api/ws?token=wrong-token-wrong-token")
        status, catalog = await get(session, "/api/editions")
        power = next(e for e in catalog["editions"] if e["name"] == "power")
        assert status == 200 and power["towers"] and "G3O" in power["deck"] and "G3" in power["deck"]
        assert power["options"]["wild_draw4_restricted"] == {
            "type": "bool", "default": True, "doc": power["options"]["wild_draw4_restricted"]["doc"]}
        assert power["options"]["target_score"]["minimum"] == 1

    with_api(test, token=TOKEN)


def test_decisions_and_revealed_cards_reach_the_table_as_the_controllers_requests():
    from firmware.api.requests import DECISIONS, Decide, Reveal

    async def test(session, table, _server):
        assert await post(session, "/api/decide", {"seat": 1, "decision": "colour", "color": "red"}) == (200, {"result": {}})
        await post(session, "/api/decide", {"seat": 0, "decision": "four-towers", "cards": ["G1", "B2"]})
        await post(session, "/api/reveal", {"card": "Y7"})
        await post(session, "/api/reveal", {"card": "R3", "seat": 2})
        status, body = await post(session, "/api/decide", {"seat": 0, "decision": "fold"})
        assert status == 400 and body["field"] == "decision"
        status, body = await post(session, "/api/reveal", {"card": "Q9"})
        assert status == 400 and body["field"] == "card"
        assert table.log == [Decide(1, "colour", "red"), Decide(0, "four-towers", "", ("G1", "B2")),
                             Reveal("Y7"), Reveal("R3", 2)]

    class Recorder(FakeTable):
        def submit(self, request):
            self.log.append(request)
            return {}

    assert schema_decisions() == DECISIONS
    with_api(test, table=Recorder())


def schema_decisions():
    from firmware.api.schema import BODIES as bodies
    return tuple(bodies["/api/decide"][0]["properties"]["decision"]["enum"])


def test_a_real_table_has_no_on_screen_launcher_button():
    async def test(session, _table, _server):
        status, body = await post(session, "/api/screen/launcher", {})
        assert status == 404 and "pressed by hand" in body["reason"]

    with_api(test)
