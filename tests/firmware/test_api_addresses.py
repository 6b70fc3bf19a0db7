"""Who a token is, and where it came from: a bearer token in its header (the WebSocket's
``?token=`` on the WebSocket only), failed attempts counted per real client address, and a
local proxy named in ``[api] trusted_proxy`` passing the client's address on.

The clients here connect from real loopback addresses (127.0.0.1, 127.0.0.2, ...), not
through the roles tests' ``X-Peer`` seam."""

from __future__ import annotations

import base64

import aiohttp
import pytest
from test_api import TOKEN, with_api
from test_api_front_door import config_with

WRONG = "a-wrong-token-guessed-here"


async def get(server, path, *, source="127.0.0.1", headers=None):
    """GET `path` from the loopback address `source`: (status, JSON)."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(server.url, connector=connector) as s, s.get(path, headers=headers or {}) as r:
        return r.status, await r.json()


def bearer(token, **more):
    return {"Authorization": f"Bearer {token}", **more}


def test_a_token_in_the_query_is_taken_on_the_websocket_only():
    async def test(session, _table, server):
        async with aiohttp.ClientSession(server.url) as bare:
            ws = await bare.ws_connect(f"/api/ws?token={TOKEN}")
            assert (await ws.receive_json(timeout=5))["type"] == "state"
            await ws.close()
            for path in (f"/api/state?token={TOKEN}", f"/api/whoami?token={TOKEN}", f"/api/seats?token={TOKEN}"):
                async with bare.get(path) as r:
                    assert r.status == 401, path
            async with bare.post(f"/api/uno?token={TOKEN}", json={"seat": 0}) as r:
                assert r.status == 401

    with_api(test, token=TOKEN)


@pytest.mark.parametrize("authorization", [
    f"Basic {TOKEN}", f"Basic {base64.b64encode(f'owner:{TOKEN}'.encode()).decode()}",
    f"Token {TOKEN}", TOKEN, f"Bearer{TOKEN}"])
def test_only_a_bearer_token_is_a_token(authorization):
    async def test(session, table, server):
        async with aiohttp.ClientSession(server.url) as bare, bare.post(
                "/api/admin/pause", json={}, headers={"Authorization": authorization}) as r:
            assert r.status == 401
        assert table.log == [] and (await get(server, "/api/state", headers=bearer(TOKEN)))[0] == 200

    with_api(test, token=TOKEN)


def test_failed_attempts_count_against_each_clients_own_address():
    async def test(session, _table, server):
        answers = [(await get(server, "/api/state", source="127.0.0.2", headers=bearer(WRONG)))[0]
                   for _ in range(6)]
        assert answers == [401] * 5 + [429]
        assert (await get(server, "/api/state", source="127.0.0.2", headers=bearer(TOKEN)))[0] == 429
        assert (await get(server, "/api/state", source="127.0.0.1", headers=bearer(TOKEN)))[0] == 200
        assert (await get(server, "/api/state", source="127.0.0.3", headers=bearer(WRONG)))[0] == 401
        # a client's own X-Forwarded-For is only its word: it is still counted as itself
        forged = bearer(TOKEN, **{"X-Forwarded-For": "127.0.0.9"})
        assert (await get(server, "/api/state", source="127.0.0.2", headers=forged))[0] == 429

    with_api(test, token=TOKEN)


def test_a_trusted_proxy_passes_on_the_address_it_added_and_no_one_else_can():
    async def test(session, _table, server):
        # the proxy (127.0.0.5) appends the address it was reached from: the last one counts
        for i in range(5):
            headers = bearer(WRONG, **{"X-Forwarded-For": f"203.0.113.{i}, 192.168.1.66"})
            assert (await get(server, "/api/state", source="127.0.0.5", headers=headers))[0] == 401
        slowed = bearer(TOKEN, **{"X-Forwarded-For": "192.168.1.66"})
        assert (await get(server, "/api/state", source="127.0.0.5", headers=slowed))[0] == 429
        kiosk = bearer(TOKEN, **{"X-Forwarded-For": "192.168.1.7"})  # another client, same proxy
        assert (await get(server, "/api/state", source="127.0.0.5", headers=kiosk))[0] == 200
        assert (await get(server, "/api/state", source="127.0.0.5", headers=bearer(TOKEN)))[0] == 200
        # anyone but the proxy: its X-Forwarded-For is ignored
        for _ in range(5):
            spoofed = bearer(WRONG, **{"X-Forwarded-For": "192.168.1.7"})
            await get(server, "/api/state", source="127.0.0.6", headers=spoofed)
        assert (await get(server, "/api/state", source="127.0.0.5", headers=kiosk))[0] == 200
        assert (await get(server, "/api/state", source="127.0.0.6", headers=bearer(TOKEN)))[0] == 429

    with_api(test, token=TOKEN, trusted_proxy="127.0.0.5")


def test_trusted_proxy_is_a_checked_config_option(tmp_path):
    from firmware.config import check_config, load_config

    token = 'token = "Zq8vN3kLm2Pq7Rt5Wx9Yb4Cd6Fg1Hj0"'
    cfg = load_config(config_with(tmp_path, f'trusted_proxy = "127.0.0.1"\n{token}'))
    assert cfg.api.trusted_proxy == "127.0.0.1"
    assert load_config(config_with(tmp_path, "")).api.trusted_proxy is None  # the default: none
    for value in ('"proxy.lan"', '"localhost"', '"127.0.0.1:8443"', "7"):
        errors = check_config(config_with(tmp_path, f"trusted_proxy = {value}\n{token}"))
        assert [e.key for e in errors] == ["api.trusted_proxy"], (value, errors)
    errors = check_config(config_with(tmp_path, 'trusted_proxy = "127.0.0.1"'))  # no token
    assert [str(e) for e in errors] == ["api.trusted_proxy: needs an [api] token: behind a proxy on "
                                        "this machine every client would otherwise be the owner"]
