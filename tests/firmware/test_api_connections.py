"""Issue 10, point 6: idle and slowloris sockets cannot lock the table's players out,
and accept errors do not flood the log. Small limits, and time from a fake clock: no
test here waits for a real timeout (bench/connections.py measures the real thing)."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import socket

from test_api import with_api
from test_api_front_door import raw, request

from firmware.api.connections import ACCEPT_BURST, RESERVED_FILES, Connections
from firmware.api.log_limit import accept_errors_rate_limited
from hal.sim.clock import VirtualClock


async def closed_by_server(reader: asyncio.StreamReader) -> bool:
    """Whether the server closed this connection (EOF or reset) rather than waiting."""
    try:
        return await asyncio.wait_for(reader.read(1), 5) == b""
    except ConnectionError:
        return True
    except TimeoutError:
        return False


async def state_of(port: int) -> dict:
    status, _, content = await raw(port, request("GET", "/api/state", port))
    assert status == 200, content
    return json.loads(content)


def test_a_crowd_of_idle_and_half_sent_sockets_does_not_lock_out_a_new_client():
    async def test(_session, _table, server):
        port = server.port
        crowd = []
        for i in range(12):  # three times the cap: silent sockets and half-sent headers
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            if i % 2:
                writer.write(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            crowd.append((reader, writer))
        assert (await state_of(port))["top"] == "R5"  # answered although the cap was reached
        assert len(server.connections) <= 4
        # the oldest ones made room; the newest are still open
        assert all([await closed_by_server(r) for r, _ in crowd[:8]])
        assert server.connections.evicted >= 8
        for _, w in crowd:
            w.close()

    with_api(test, max_connections=4)


def test_when_every_connection_is_busy_a_newcomer_gets_a_json_503():
    async def test(session, _table, server):
        streams = [await session.ws_connect("/api/ws") for _ in range(2)]  # streams are never evicted
        for ws in streams:
            assert (await ws.receive_json())["type"] == "state"
        status, _, content = await raw(server.port, request("GET", "/api/state", server.port))
        assert status == 503 and json.loads(content)["error"] == "busy"
        assert server.connections.refused == 1
        await streams[0].close()
        await asyncio.sleep(0.05)
        assert (await state_of(server.port))["top"] == "R5"
        await streams[1].close()

    with_api(test, max_connections=2)


def test_a_header_not_complete_within_the_timeout_is_closed():
    clock = VirtualClock(1000.0)

    async def test(_session, _table, server):
        port = server.port
        silent = await asyncio.open_connection("127.0.0.1", port)
        slow = await asyncio.open_connection("127.0.0.1", port)
        slow[1].write(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        await asyncio.sleep(0.05)
        clock.advance(9)  # within the 10 s: nothing closed
        assert server.connections.sweep() == 0
        slow[1].write(b"X-Still: coming\r\n")  # dripping bytes does not extend the deadline
        await asyncio.sleep(0.05)
        clock.advance(1.5)
        assert server.connections.sweep() == 2
        assert await closed_by_server(silent[0]) and await closed_by_server(slow[0])
        assert (await state_of(port))["top"] == "R5"  # the API still answers

    with_api(test, header_timeout=10.0, clock=clock)


def test_a_keep_alive_client_gets_a_fresh_deadline_after_each_answer():
    clock = VirtualClock(1000.0)

    async def test(session, _table, server):
        for _ in range(3):
            clock.advance(8)  # 24 s in all, never 10 s without a request
            server.connections.sweep()
            async with session.get("/api/state") as resp:
                assert resp.status == 200
        assert server.connections.timed_out == 0
        clock.advance(11)  # idle too long now: closed, and the client just reconnects
        assert server.connections.sweep() == 1
        async with session.get("/api/state") as resp:
            assert resp.status == 200

    with_api(test, header_timeout=10.0, clock=clock)


def test_accept_errors_are_logged_at_most_once_a_second(caplog):
    clock = VirtualClock(1000.0)

    async def main():
        aio = asyncio.get_running_loop()
        with socket.socket() as sock, accept_errors_rate_limited(clock=clock):
            for _ in range(50):  # what asyncio reports each time accept() fails with EMFILE
                aio.call_exception_handler({
                    "message": "socket.accept() out of system resource",
                    "exception": OSError(errno.EMFILE, "Too many open files"), "socket": sock})
                clock.advance(0.01)
            clock.advance(1)
            aio.call_exception_handler({
                "message": "socket.accept() out of system resource",
                "exception": OSError(errno.EMFILE, "Too many open files"), "socket": sock})
            aio.call_exception_handler({"message": "something else went wrong"})

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        asyncio.run(main())
    lines = [r.getMessage() for r in caplog.records if r.name == "asyncio"]
    assert len(lines) == 3, lines
    assert lines[0].startswith("socket.accept() out of system resource")
    assert "and 49 more like it" in lines[1]
    assert lines[2].startswith("something else went wrong")  # other errors are not held back


def test_the_cap_stays_below_the_open_files_limit():
    # room for the daemon's own files and one burst of accepts: EMFILE is never reached
    assert Connections(limit=256, files=1024).limit == 256
    assert Connections(limit=256, files=300).limit == 300 - RESERVED_FILES - ACCEPT_BURST
    assert Connections(limit=256, files=100).limit == 8  # a tiny limit still serves someone
