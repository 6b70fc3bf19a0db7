"""Property test: any body to any endpoint gets a 2xx or a clear 4xx, never a 5xx, and a
refused request leaves the table exactly as it was."""

from __future__ import annotations

import http.client
import json
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_api import FakeTable

from firmware.api import ApiServer
from firmware.api.schema import ADMIN_BODIES, BODIES
from firmware.loop import TableLoop

PATHS = [*BODIES, *(f"/api/admin/{a}" for a in ADMIN_BODIES), "/api/admin/unknown"]


@pytest.fixture(scope="module")
def served():
    """A real server on a loop in a background thread, shared by all examples."""
    loop = TableLoop()
    table = FakeTable()
    started = threading.Event()
    holder: dict = {}

    async def main():
        server = ApiServer(table, loop, host="127.0.0.1", port=0)
        table.server = server
        await server.start()
        holder["port"] = server.port
        started.set()

    thread = threading.Thread(target=loop.run, args=(main,), kwargs={"signals": False})
    thread.start()
    assert started.wait(10)
    yield table, holder["port"]
    loop.stop("tests done")
    thread.join(10)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=8) | st.sampled_from(["R7", "W+4", "G3!", "red", "U", "neutral"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
field_names = st.sampled_from(["seat", "card", "choices", "target", "cards", "color", "kind",
                               "tower", "count", "edition", "seats", "seed", "options", "reason"])
plausible = st.dictionaries(field_names, json_values | st.integers(-2, 12), max_size=5)
bodies = (
    json_values.map(json.dumps)
    | plausible.map(json.dumps)
    | st.binary(max_size=32).map(lambda b: b.decode("latin-1"))
)

seat = st.integers(-1, 10)
card = st.sampled_from(["R5", "R7", "G7", "W", "W+4", "B4!", "YS", "RX", ""])
well_formed = st.one_of(
    st.tuples(st.just("/api/play"), st.fixed_dictionaries(
        {"seat": seat, "card": card},
        optional={"choices": st.fixed_dictionaries({}, optional={
            "color": st.sampled_from(["red", "blue", "pink"]), "target": seat,
            "cards": st.lists(card, max_size=2)})})),
    st.tuples(st.just("/api/uno"), st.fixed_dictionaries({"seat": seat})),
    st.tuples(st.just("/api/catch"), st.fixed_dictionaries({"seat": seat, "target": seat})),
    st.tuples(st.just("/api/challenge"), st.fixed_dictionaries({"seat": seat})),
    st.tuples(st.just("/api/hands"), st.fixed_dictionaries({"seat": seat, "cards": st.lists(card, max_size=3)})),
    st.tuples(st.just("/api/admin/pause"), st.fixed_dictionaries({}, optional={"reason": st.text(max_size=5)})),
    st.tuples(st.just("/api/admin/resume"), st.just({})),
).map(lambda pair: (pair[0], json.dumps(pair[1])))
requests = st.tuples(st.sampled_from(PATHS), bodies) | well_formed


def request(port: int, method: str, path: str, body: str | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body.encode("utf-8", "surrogatepass") if body else None,
                     headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(requests)
def test_no_body_causes_a_5xx_and_refusals_change_nothing(served, path_body):
    path, body = path_body
    table, port = served
    before = request(port, "GET", "/api/state")[1]
    log_before = list(table.log)
    status, answer = request(port, "POST", path, body)
    assert status in (200, 400, 404, 409, 422), (status, answer)
    if status != 200:
        # a bad field's answer and a refusal carry their key and values (docs/api.md)
        keyed = {"key", "values"} if status == 400 or answer["error"] == "rejected" else set()
        assert set(answer) == {"error", "reason", "field", *keyed} and answer["reason"]
        assert request(port, "GET", "/api/state")[1] == before
        assert table.log == log_before
    else:
        assert isinstance(answer["result"], dict)




def origins(port: int):
    own = f"http://127.0.0.1:{port}".encode()
    return st.sampled_from([own, b"http://evil.example", b"null", f"http://127.0.0.1:{port + 1}".encode(),
                            b"https://127.0.0.1", b"http://\xff\xfe", b"", own + b"/x"])


def hosts(port: int):
    return st.sampled_from([f"127.0.0.1:{port}".encode(), f"localhost:{port}".encode(), b"[::1]",
                            b"evil.example", f"evil.example:{port}".encode(), b"127.0.0.1.evil.example",
                            b"\xff\xfe", b""])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_origin_and_host_variants_never_pass_from_outside_nor_cause_a_5xx(served, data):
    table, port = served
    headers = data.draw(st.fixed_dictionaries({}, optional={
        "Origin": origins(port), "Referer": origins(port).map(lambda o: o + b"/page"), "Host": hosts(port)}))
    path, body = data.draw(well_formed | st.tuples(st.just("/api/state"), st.just("")))
    method = "GET" if path == "/api/state" else "POST"
    own_host = headers.get("Host", f"127.0.0.1:{port}".encode())
    name = own_host.rsplit(b":", 1)[0] if not own_host.startswith(b"[") else b"[::1]"
    own = b"http://" + own_host
    foreign = (own_host != b"" and name not in (b"127.0.0.1", b"localhost", b"[::1]")) \
        or ("Origin" in headers and headers["Origin"] != own) \
        or (method == "POST" and "Origin" not in headers and "Referer" in headers
            and not headers["Referer"].startswith(own + b"/"))
    log_before = list(table.log)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body.encode() if body else None,
                     headers={"Content-Type": "application/json", **headers})
        resp = conn.getresponse()
        status, answer = resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()
    assert status < 500, (headers, status, answer)
    if foreign:
        assert status in (403, 421) and answer["reason"], (headers, status, answer)
        assert table.log == log_before
        assert "hand_counts" not in json.dumps(answer)
