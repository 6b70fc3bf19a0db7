"""Issue 10, point 1 and 2: no page of another origin can change or read the table, and
odd headers or bodies get the documented JSON 4xx.

Requests are written byte by byte (`raw`), as an attacker's browser or script would send
them: Host, Origin, Referer and Content-Type exactly as given.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from test_api import TOKEN, FakeTable, with_api

from firmware.api.guard import FrontDoor, Refused, split_host

EVIL = "http://evil.example"


async def raw(port: int, head: str | bytes, body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """Send one request (`head` without the blank line) and read the answer to EOF."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = head.encode() if isinstance(head, str) else head
    if body:
        data += f"\r\nContent-Length: {len(body)}".encode()
    writer.write(data + b"\r\nConnection: close\r\n\r\n" + body)
    answer = await reader.read()
    writer.close()
    status_line, _, rest = answer.partition(b"\r\n")
    header_text, _, content = rest.partition(b"\r\n\r\n")
    headers = {}
    for line in header_text.decode("latin-1").split("\r\n"):
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, content


def request(method: str, path: str, port: int, *extra: str) -> str:
    return "\r\n".join([f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", *extra])


def served(test, **kw):
    """Run `test(port, table)` against a served API (test_api.with_api)."""

    async def run(_session, table, server):
        await test(server.port, table)

    with_api(run, **kw)


def refused_without_change(table: FakeTable, status: int, content: bytes, want: int, kind: str) -> None:
    body = json.loads(content)
    assert (status, body["error"]) == (want, kind) and body["reason"]
    assert "hand_counts" not in content.decode()  # no state in the refusal
    assert table.log == [] and not table.paused


def test_a_simple_cross_origin_post_is_refused_and_changes_nothing():
    async def test(port, table):
        pause = b'{"reason": "pwned"}'
        for extra in (
            [f"Origin: {EVIL}", "Content-Type: text/plain"],  # the "simple" request a page may send
            [f"Origin: {EVIL}", "Content-Type: application/json"],
            [f"Origin: http://127.0.0.1:{port + 1}", "Content-Type: application/json"],  # another port
            ["Origin: null", "Content-Type: application/json"],  # sandboxed frame, file://
            [f"Referer: {EVIL}/attack.html", "Content-Type: application/json"],  # no Origin
        ):
            status, headers, content = await raw(port, request("POST", "/api/admin/pause", port, *extra), pause)
            refused_without_change(table, status, content, 403, "foreign_origin")
            assert "access-control-allow-origin" not in headers

    served(test)


def test_an_origin_that_only_begins_like_the_tables_is_another_origin():
    """The table on port 2000: a page of http://127.0.0.1:20001 (its origin begins with
    the table's) is refused, by POST, GET and Referer alike; the table's own passes."""
    async def test(port, table):
        host = "Host: 127.0.0.1:2000"
        pause = b'{"reason": "pwned"}'
        for extra in (["Origin: http://127.0.0.1:20001"], ["Origin: http://127.0.0.1:2000.evil.example"],
                      ["Origin: http://127.0.0.1:200"], ["Referer: http://127.0.0.1:20001/x.html"]):
            head = "\r\n".join(["POST /api/admin/pause HTTP/1.1", host, *extra,
                                 "Content-Type: application/json"])
            status, _, content = await raw(port, head, pause)
            refused_without_change(table, status, content, 403, "foreign_origin")
        status, _, _ = await raw(port, "\r\n".join(
            ["GET /api/state HTTP/1.1", host, "Origin: http://127.0.0.1:20001"]))
        assert status == 403
        status, _, _ = await raw(port, "\r\n".join(
            ["GET /api/state HTTP/1.1", host, "Origin: http://127.0.0.1:2000"]))
        assert status == 200

    served(test)
    door = FrontDoor("127.0.0.1")
    for origin in ("http://127.0.0.1:20001", "https://127.0.0.1:20001", "http://127.0.0.1:2000x"):
        with pytest.raises(Refused) as info:
            door.check("POST", host="127.0.0.1:2000", origin=origin, referer=None,
                       content_type="application/json", has_body=True)
        assert info.value.status == 403
    door.check("POST", host="127.0.0.1:2000", origin="http://127.0.0.1:2000", referer=None,
               content_type="application/json", has_body=True)


def test_post_bodies_must_be_json():
    async def test(port, table):
        for ctype, body in (("text/plain", b'{"reason": "x"}'),
                            ("application/x-www-form-urlencoded", b"reason=x"),
                            ("multipart/form-data; boundary=b", b"--b--"),
                            (None, b'{"reason": "x"}')):
            extra = [f"Content-Type: {ctype}"] if ctype else []
            status, _, content = await raw(port, request("POST", "/api/admin/pause", port, *extra), body)
            refused_without_change(table, status, content, 415, "unsupported_media_type")

    served(test)


def test_a_host_that_does_not_name_the_table_gets_no_state_and_changes_nothing():
    async def test(port, table):  # DNS rebinding: evil.example now resolves to 127.0.0.1
        for method, path, body in (("GET", "/api/state", b""), ("GET", "/", b""),
                                   ("POST", "/api/admin/pause", b"{}")):
            head = "\r\n".join([f"{method} {path} HTTP/1.1", f"Host: evil.example:{port}",
                                "Content-Type: application/json"])
            status, _, content = await raw(port, head, body)
            refused_without_change(table, status, content, 421, "wrong_host")
            assert b"allowed_hosts" in content

    served(test)


def test_reading_the_state_from_another_origin_is_refused():
    async def test(port, table):
        for path in ("/api/state", "/api/health", "/api/ws"):
            status, headers, content = await raw(port, request("GET", path, port, f"Origin: {EVIL}"))
            refused_without_change(table, status, content, 403, "foreign_origin")
            assert "access-control-allow-origin" not in headers
        # a CORS preflight is refused too, and never allows anything
        status, headers, _ = await raw(port, request("OPTIONS", "/api/admin/pause", port, f"Origin: {EVIL}",
                                                     "Access-Control-Request-Method: POST"))
        assert status == 403 and not any(h.startswith("access-control-") for h in headers)

    served(test)


def test_a_websocket_from_another_origin_is_not_upgraded():
    upgrade = ["Connection: Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 13",
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="]

    async def test(port, table):
        status, _, content = await raw(port, request("GET", "/api/ws", port, f"Origin: {EVIL}", *upgrade))
        refused_without_change(table, status, content, 403, "foreign_origin")
        # the table's own page, and a program without Origin, get their stream
        for extra in ([f"Origin: http://127.0.0.1:{port}"], []):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write("\r\n".join([request("GET", "/api/ws", port, *extra, *upgrade), "", ""]).encode())
            assert (await reader.readline()).startswith(b"HTTP/1.1 101")
            writer.close()

    served(test)


def test_programs_and_the_tables_own_page_keep_working():
    async def test(port, table):
        body = b'{"seat": 0, "card": "R7"}'
        json_type = "Content-Type: application/json"
        status, _, content = await raw(port, request("POST", "/api/play", port, json_type), body)  # curl
        assert status == 200, content
        own = (f"Origin: http://127.0.0.1:{port}", f"Referer: http://127.0.0.1:{port}/")
        status, _, content = await raw(port, request("POST", "/api/play", port, json_type, *own),
                                       b'{"seat": 1, "card": "R2"}')
        assert status == 200, content
        for host in (f"localhost:{port}", f"[::1]:{port}", "127.0.0.2", "localhost"):
            head = "\r\n".join(["GET /api/state HTTP/1.1", f"Host: {host}", f"Origin: http://{host}"])
            status, _, content = await raw(port, head)
            assert status == 200 and json.loads(content)["top"] == "R2", (host, content)
        # an empty POST needs no type (curl -X POST .../resume)
        status, _, _ = await raw(port, request("POST", "/api/admin/resume", port, "Content-Length: 0"))
        assert status == 200
        assert [type(r).__name__ for r in table.log] == ["Play", "Play", "Admin"]

    served(test)


def test_an_allowed_host_name_works_with_the_token_and_others_do_not():
    async def test(port, table):
        auth = f"Authorization: Bearer {TOKEN}"
        name = f"unotable.local:{port}"
        page = ["Host: " + name, f"Origin: http://{name}", auth, "Content-Type: application/json"]
        status, _, content = await raw(port, "\r\n".join(["POST /api/admin/pause HTTP/1.1", *page]), b"{}")
        assert status == 200, content
        status, _, _ = await raw(port, "\r\n".join(["GET /api/state HTTP/1.1", f"Host: other.local:{port}", auth]))
        assert status == 421
        status, _, _ = await raw(port, "\r\n".join(["GET /api/state HTTP/1.1", *page[:2]]))
        assert status == 401  # the right name is not a token

    served(test, token=TOKEN, allowed_hosts=["Unotable.LOCAL"])


@pytest.mark.parametrize("head", ["GET /api/state HTTP/1.0", "GET /api/state HTTP/1.1\r\nHost:",
                                  "GET /api/state HTTP/1.1\r\nHost:   ", "POST /api/admin/pause HTTP/1.0"])
def test_a_request_that_names_no_host_gets_nothing_and_changes_nothing(head):
    async def test(port, table):
        status, _, content = await raw(port, head)
        refused_without_change(table, status, content, 421, "wrong_host")

    served(test)
    with pytest.raises(Refused):
        FrontDoor("127.0.0.1").check("GET", host=None, origin=None, referer=None, content_type=None,
                                     has_body=False)


def test_host_names_the_daemon_by_loopback_configured_or_local_address():
    door = FrontDoor("0.0.0.0", ["table.lan"])
    assert door.host_ok("192.168.1.7:8080", local_address="192.168.1.7")  # the LAN address it was reached on
    assert door.host_ok("[::ffff:192.168.1.7]:8080", local_address="192.168.1.7")
    assert not door.host_ok("192.168.1.8:8080", local_address="192.168.1.7")
    assert door.host_ok("TABLE.LAN.", local_address=None)
    assert door.host_ok("127.9.9.9", local_address=None) and door.host_ok("localhost:1", local_address=None)
    assert not door.host_ok("localhost.evil.example", local_address=None)
    assert not door.host_ok("table.lan.evil.example", local_address=None)
    assert FrontDoor("192.168.1.7").host_ok("192.168.1.7", local_address=None)
    assert [split_host(h) for h in ("a.b:80", "[::1]:8", "::1", "x.")] == ["a.b", "::1", "::1", "x"]


def test_every_answer_carries_a_strict_content_security_policy():
    async def test(port, table):
        for path in ("/", "/static/app.js", "/api/state", "/api/nothing"):
            _, headers, _ = await raw(port, request("GET", path, port))
            csp = headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "default-src 'none'" in csp
            assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
            assert headers["x-content-type-options"] == "nosniff"
            assert "access-control-allow-origin" not in headers

    served(test)


# -- point 2: odd headers and bodies -----------------------------------------------------------
def test_odd_or_non_utf8_headers_get_a_json_4xx_not_a_crash():
    async def test(port, table):
        for header in (b"Authorization: Bearer \xff\xfe\xfd", b"Authorization: \xc3(", b"Origin: http://\xff",
                       b"Referer: \xff\xfe", b"Host: \xff\xfe", b"Expect: \xf4V", b"Expect: junk",
                       b"Cookie: \xff"):
            head = request("GET", "/api/state", port).encode().replace(b"Host: ", b"X-Host: ") \
                if header.startswith(b"Host") else request("GET", "/api/state", port).encode()
            status, _, content = await raw(port, head + b"\r\n" + header)
            body = json.loads(content)
            assert status in (400, 401, 403, 417, 421) and body["reason"], (header, status, content)

    served(test, token=TOKEN)


@pytest.mark.parametrize("body", [b"[" * 20_000 + b"]" * 20_000, b'{"":' * 12_000 + b"1" + b"}" * 12_000,
                                  b"[" * 20_000])
def test_a_deeply_nested_body_gets_400(body):
    async def test(port, table):
        status, _, content = await raw(port, request("POST", "/api/play", port, "Content-Type: application/json"), body)
        answer = json.loads(content)
        assert status == 400 and answer["error"] == "bad_request" and answer["reason"], content
        assert table.log == []

    served(test)


def test_a_body_that_never_finishes_gets_408():
    async def test(port, table):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write((request("POST", "/api/play", port, "Content-Type: application/json",
                              "Content-Length: 100") + "\r\n\r\n").encode() + b'{"seat": 0,')
        status_line = await reader.readline()
        rest = await reader.read()
        writer.close()
        assert status_line.startswith(b"HTTP/1.1 408")
        assert json.loads(rest.partition(b"\r\n\r\n")[2])["error"] == "timeout"
        assert table.log == []

    served(test, body_timeout=0.05)


@pytest.mark.parametrize("head, body", [
    (b"GARBAGE", b""),
    (b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 9000, b""),  # a header over 8 KiB
    (b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header", b""),
    (b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
     b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0", b""),  # broken chunked framing
    (b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5", b""),
])
def test_malformed_http_gets_the_json_400_too(head, body):
    async def test(port, table):
        status, headers, content = await raw(port, head, body)
        answer = json.loads(content)
        assert status == 400 and answer["error"] == "bad_request", content
        assert answer["reason"].startswith("malformed HTTP: ")
        assert table.log == []

    served(test)


def config_with(tmp_path, line: str):
    from firmware.config import DEFAULT_PATH

    text = DEFAULT_PATH.read_text().replace('[api]\n', f'[api]\n{line}\n', 1)
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_allowed_hosts_is_a_checked_config_option(tmp_path):
    from firmware.config import check_config, load_config

    cfg = load_config(config_with(tmp_path, 'allowed_hosts = ["Unotable.local", "192.168.1.7"]'))
    assert cfg.api.allowed_hosts == ("unotable.local", "192.168.1.7")
    assert load_config(config_with(tmp_path, "")).api.allowed_hosts == ()  # the default: none
    errors = check_config(config_with(tmp_path, 'allowed_hosts = ["http://x.lan", "*.lan", "a.lan:80", 7]'))
    assert [e.key for e in errors] == ["api.allowed_hosts"] * 4
    assert "'*.lan' is not a host name" in str(errors[1])
    errors = check_config(config_with(tmp_path, 'allowed_hosts = "unotable.local"'))
    assert [str(e) for e in errors] == ["api.allowed_hosts: must be a list of host names, not 'unotable.local'"]
    # and the daemon's server is built with them
    from firmware.api import ApiServer
    from firmware.loop import TableLoop

    server = ApiServer.from_config(cfg.api, FakeTable(), TableLoop())
    assert server.front_door.host_ok("unotable.local:8080", local_address=None)
    assert not server.front_door.host_ok("other.local:8080", local_address=None)
