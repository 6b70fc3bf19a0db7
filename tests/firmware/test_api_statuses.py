"""Every status and error kind docs/api.md's error table lists is what the API answers
in the situation the table names: the transport's through the real server, the table's
(404 seat, 409 not to act, 422 against the rules, 507 journal) through the real
controller on the twin. A status documented without a case here, or a case the docs do
not list, fails too."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_api import TOKEN, FakeTable, with_api
from test_api_front_door import raw, request

from firmware.sim.testbed import SimTable
from tests.firmware.conftest import post

DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"
JSON = "Content-Type: application/json"


def documented() -> set[tuple[int, str]]:
    """(status, kind) of every row of the docs' error table."""
    table = DOCS.read_text().split("## Errors", 1)[1].split("\n## ", 1)[0]
    pairs = set()
    for status, kinds in re.findall(r"^\| (\d{3}) \| ([^|]+) \|", table, re.M):
        pairs.update((int(status), kind) for kind in re.findall(r"`([a-z_]+)`", kinds))
    return pairs


async def answer(port, head, body=b""):
    status, _, content = await raw(port, head, body)
    return status, json.loads(content)["error"]


async def stopping(port, server):
    """A request at the stop: the table's loop is closed, the listener not yet (the
    server's own shutdown runs last, so a callback added now runs before it)."""
    said = []

    async def knock():
        if not said:
            said.append(await answer(port, request("POST", "/api/uno", port, JSON), b'{"seat": 0}'))

    server.loop.on_shutdown(knock)
    await server.loop.close()
    return said[0]


async def slow_body(port, _server):
    return await answer(port, request("POST", "/api/play", port, JSON, "Content-Length: 100"),
                        b"")


async def throttled(port, _server):
    """Five wrong tokens from one address: the sixth request waits (429), its token unread."""
    wrong = request("GET", "/api/state", port, "Authorization: Bearer not-the-token-at-all")
    for _ in range(5):
        assert await answer(port, wrong) == (401, "unauthorized")
    return await answer(port, request("GET", "/api/state", port, f"Authorization: Bearer {TOKEN}"))


async def busy(port, server):
    streams = [await server.test_session.ws_connect("/api/ws") for _ in range(2)]
    try:
        return await answer(port, request("GET", "/api/state", port))
    finally:
        for ws in streams:
            await ws.close()


SERVED = {  # (status, kind): what the request is, as a coroutine on (port, server)
    (400, "bad_request"): lambda p, s: answer(p, request("POST", "/api/play", p, JSON), b"{no"),
    (401, "unauthorized"): lambda p, s: answer(p, request("GET", "/api/state", p)),
    (403, "foreign_origin"): lambda p, s: answer(p, request(
        "GET", "/api/state", p, "Origin: http://evil.example", f"Authorization: Bearer {TOKEN}")),
    (404, "not_found"): lambda p, s: answer(p, request(
        "GET", "/api/nothing", p, f"Authorization: Bearer {TOKEN}")),
    (405, "method_not_allowed"): lambda p, s: answer(p, request(
        "GET", "/api/play", p, f"Authorization: Bearer {TOKEN}")),
    (408, "timeout"): slow_body,
    (413, "too_large"): lambda p, s: answer(p, request("POST", "/api/play", p, JSON),
                                            b" " * (65 * 1024)),
    (415, "unsupported_media_type"): lambda p, s: answer(p, request(
        "POST", "/api/play", p, "Content-Type: text/plain", f"Authorization: Bearer {TOKEN}"),
        b'{"seat": 0, "card": "R7"}'),
    (417, "http_error"): lambda p, s: answer(p, request(
        "GET", "/api/state", p, "Expect: junk", f"Authorization: Bearer {TOKEN}")),
    (421, "wrong_host"): lambda p, s: answer(p, request("GET", "/api/state", p).replace(
        f"Host: 127.0.0.1:{p}", "Host: evil.example")),
    (429, "too_many_attempts"): throttled,
    (503, "busy"): busy,
    (503, "stopping"): stopping,
}
AT_THE_TABLE = {(403, "rejected"), (404, "rejected"), (409, "rejected"), (422, "rejected"),
                (507, "rejected")}


def test_every_documented_status_has_its_case_here():
    assert documented() == set(SERVED) | AT_THE_TABLE


@pytest.mark.parametrize(("status", "kind"), sorted(SERVED))
def test_the_server_answers_the_documented_status(status, kind):
    seen = []
    token = None if status in (400, 408, 413, 421, 503) else TOKEN

    async def test(session, _table, server):
        server.test_session = session
        seen.append(await SERVED[status, kind](server.port, server))

    with_api(test, token=token, body_timeout=0.05, max_connections=2)
    assert seen == [(status, kind)]


def test_the_table_answers_404_409_422_and_507_as_documented(tmp_path):
    with SimTable(tmp_path, "classic") as table:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn")
        seat = st["to_act"]
        other = (seat + 1) % 4
        assert post(table.url, "/api/play", {"seat": 7, "card": "R1"})[0] == 404
        status, body = post(table.url, "/api/play", {"seat": other, "card": "R1"})
        assert (status, body["error"], body["key"]) == (409, "rejected", "refusal.not_your_turn.you")
        top = st["top"]
        wrong = next(c for c in ("R1", "G2", "B3", "Y4")
                     if c[0] != st["colour"][0].upper() and c[1] != top[1:2])
        status, body = post(table.url, "/api/play", {"seat": seat, "card": wrong})
        assert (status, body["error"]) == (422, "rejected"), body
        table.call(lambda: table.controller.journal._conn.execute("PRAGMA query_only = ON"))
        status, body = post(table.url, "/api/admin/pause", {})
        assert (status, body["error"]) == (507, "rejected")


def test_the_table_answers_403_when_the_senders_role_may_not():
    """A seat's request for another seat (the server builds it with that seat's `by`;
    here the served table stands in for it): 403 rejected, the reason naming the role."""
    from firmware.api import requests as api
    from firmware.api.roles import refusal
    from firmware.errors import Rejected

    class SeatOne:
        def public_state(self):
            return {}

        def health(self):
            return {"ok": True}

        def submit(self, request):
            raise refusal(api.Who("seat", 1, "phone"), request) or Rejected("refused.no_match")

        refused = FakeTable.refused

    seen = []

    async def test(session, _table, _server):
        async with session.post("/api/play", json={"seat": 2, "card": "R1"}) as resp:
            seen.append((resp.status, await resp.json()))

    with_api(test, table=SeatOne())
    ((status, body),) = seen
    assert (status, body["error"]) == (403, "rejected")
    assert (body["key"], body["values"]) == ("role.for_itself", {"seat": 1, "other": 2})
