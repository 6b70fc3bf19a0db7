"""Issue 10, point 7: a stop turns the motor off first, then closes the API without
waiting for clients that never finish their requests. (bench/connections.py measures
SIGTERM to exit of `unotable run` with 200 half-sent requests open.)"""

from __future__ import annotations

import asyncio
import contextlib
import threading

import pytest
from test_api import FakeTable
from test_api_front_door import request

from firmware.api import ApiServer, Play, Request
from firmware.errors import LoopStopped
from firmware.loop import TableLoop


def serve_in_thread(table, **kw):
    """(loop, server, thread): the API on a TableLoop run in a thread, like the daemon."""
    loop = TableLoop()
    ready = threading.Event()
    holder = {}

    async def main():
        holder["server"] = server = ApiServer(table, loop, host="127.0.0.1", port=0, **kw)
        await server.start()
        ready.set()

    thread = threading.Thread(target=loop.run, args=(main,), kwargs={"signals": False})
    thread.start()
    assert ready.wait(10)
    return loop, holder["server"], thread


def test_the_motor_is_off_before_the_api_closes():
    table = FakeTable()
    seen = []
    loop, server, thread = serve_in_thread(table)
    loop.on_safe_state(lambda: seen.append(("motor off", server.serving)))
    loop.stop("SIGTERM")
    thread.join(10)
    assert seen == [("motor off", True)]  # the API was still open when the motor stopped
    assert not server.serving


def test_a_stop_does_not_wait_for_half_sent_requests():
    table = FakeTable()
    # were the close to wait for these clients, it would take this long: the test would hang
    loop, server, thread = serve_in_thread(table, stop_timeout=3600, header_timeout=3600, body_timeout=3600)
    port = server.port

    async def clients_then_stop():
        conns = []
        for i in range(30):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            if i % 3 == 1:  # half a header
                writer.write(request("GET", "/api/state", port).encode())
            elif i % 3 == 2:  # a whole header, half the body
                writer.write((request("POST", "/api/play", port, "Content-Type: application/json",
                                      "Content-Length: 50") + "\r\n\r\n").encode() + b'{"seat": 0,')
            conns.append((reader, writer))
        # a well-behaved event stream as well
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write((request("GET", "/api/ws", port, "Connection: Upgrade", "Upgrade: websocket",
                         "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==")
                 + "\r\n\r\n").encode())
        assert (await r.readline()).startswith(b"HTTP/1.1 101")
        await asyncio.sleep(0.1)
        loop.stop("SIGTERM")
        ended = await asyncio.to_thread(thread.join, 30)
        assert ended is None and not thread.is_alive(), "the stop waited for the clients"
        for reader, writer in conns:
            with contextlib.suppress(ConnectionError):  # closed by the server: EOF or reset
                assert await reader.read() == b""
            writer.close()
        w.close()

    asyncio.run(clients_then_stop())
    assert table.log == []  # nothing half-sent reached the table


def test_a_request_still_queued_at_the_stop_never_reaches_the_table_and_is_told_why():
    table = FakeTable()

    async def main():
        loop = TableLoop()
        loop.on(Request, table.submit)
        await loop.start()
        queued = asyncio.ensure_future(loop.call(Play(0, "R7")))
        await asyncio.sleep(0)  # queued; the dispatcher has not taken it yet
        loop.on_safe_state(lambda: table.log.append("motor off"))
        await loop.close()
        with pytest.raises(LoopStopped):  # the API answers this 503 "stopping"
            await queued

    asyncio.run(main())
    assert table.log == ["motor off"]
