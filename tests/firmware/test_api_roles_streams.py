"""Event streams shared out by identity: the table's screen and the seats always get one."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from test_api import TOKEN
from test_api_roles import closed, served

from firmware.api.streams import Streams


def test_an_identity_over_its_quota_loses_its_own_oldest_stream():
    streams = Streams(cap=16, per_identity=2)
    assert streams.admit("a1", "seat 1", viewer=False) == []
    assert streams.admit("a2", "seat 1", viewer=False) == []
    assert streams.admit("b1", "seat 2", viewer=False) == []
    assert streams.admit("a3", "seat 1", viewer=False) == ["a1"]
    assert "a1" not in streams and len(streams) == 3


def test_at_the_cap_the_owner_or_a_seat_push_out_the_one_holding_most_never_the_owner():
    streams = Streams(cap=5, per_identity=3)
    for name in ("o1", "o2", "o3"):
        streams.admit(name, "owner", viewer=False)
    streams.admit("v1", "viewer x", viewer=True)
    streams.admit("s1", "seat 0", viewer=False)
    assert streams.admit("v2", "viewer y", viewer=True) is None  # no room for a viewer
    assert streams.admit("s2", "seat 1", viewer=False) == ["v1"]  # as many: the viewer goes
    assert streams.admit("s3", "seat 1", viewer=False) == ["s1"]
    assert streams.admit("s4", "seat 1", viewer=False) is None  # only the owner's are left
    assert streams.admit("o4", "owner", viewer=False) == ["o1"]  # its own quota
    assert len(streams) == 5


def test_nothing_changes_when_there_is_no_room():
    streams = Streams(cap=1, per_identity=1)
    streams.admit("o1", "owner", viewer=False)
    assert streams.admit("v1", "viewer", viewer=True) is None
    assert "v1" not in streams and "o1" in streams
    with pytest.raises(ValueError):
        Streams(cap=0)


async def open_streams(api, token, count):
    opened = [await api.stream(token) for _ in range(count)]
    await asyncio.sleep(0.05)
    return opened


async def close_all(opened):
    for session, ws in opened:
        await ws.close()
        await session.close()


def test_one_local_program_opening_sixteen_streams_keeps_four_and_the_screen_gets_in(tmp_path):
    async def test(api, _table, server):
        crowd = await open_streams(api, None, 16)
        codes = [await closed(ws) for _, ws in crowd[:12]]
        assert codes == [aiohttp.WSCloseCode.TRY_AGAIN_LATER] * 12  # its own oldest, to make room
        screen = await open_streams(api, None, 1)  # the table's own screen, also the owner
        assert server._streams.counts() == {"owner": 4}
        await close_all(crowd + screen)

    served(test, tmp_path, token=None)


def test_viewers_filling_every_stream_cannot_keep_the_screen_or_a_seat_out(tmp_path):
    async def test(api, _table, server):
        viewers = [(await api.post("/api/viewers", {}))[1]["token"] for _ in range(5)]
        crowd = []
        for viewer in viewers[:4]:
            crowd += await open_streams(api, viewer, 6)  # each keeps its newest 4
        assert len(server._streams) == 16
        async with aiohttp.ClientSession(server.url) as s, s.get(f"/api/ws?token={viewers[4]}") as resp:
            assert resp.status == 503 and (await resp.json())["error"] == "busy"
        screen = await open_streams(api, TOKEN, 1)
        bo = await api.join(1)
        phone = await open_streams(api, bo, 1)
        assert (await api.get("/api/state"))[1]["phones"] == {"1": True}
        counts = server._streams.counts()
        assert (counts.pop("owner"), counts.pop("seat 1")) == (1, 1)
        assert sorted(counts.values()) == [3, 3, 4, 4]  # two viewers gave up their oldest
        await close_all(crowd + screen + phone)

    served(test, tmp_path)
