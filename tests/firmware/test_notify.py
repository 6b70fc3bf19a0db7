"""sd_notify over a real unix datagram socket, as systemd's manager would receive it."""

from __future__ import annotations

import asyncio
import os
import socket

import pytest

from firmware.notify import Notifier


@pytest.fixture
def manager(tmp_path):
    """A listening datagram socket standing in for systemd's notify socket."""
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


def received(sock) -> list[str]:
    return sock.recv(4096).decode().split("\n")


def test_ready_status_stopping_reach_the_manager(manager):
    path, sock = manager
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.ready("serving on 127.0.0.1:8080")
    assert received(sock) == ["READY=1", "STATUS=serving on 127.0.0.1:8080"]
    assert notifier.status("paused:\nhopper empty")
    assert received(sock) == ["STATUS=paused: hopper empty"]
    assert notifier.stopping()
    assert received(sock) == ["STOPPING=1"]
    notifier.close()
    notifier.close()  # idempotent


def test_abstract_socket_address(manager):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"unotable-test-{os.getpid()}"
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).watchdog()
        assert received(sock) == ["WATCHDOG=1"]
    finally:
        sock.close()


def test_without_notify_socket_everything_is_a_no_op():
    notifier = Notifier({})
    assert not notifier.enabled
    assert notifier.ready() is False
    assert notifier.watchdog_interval() is None


def test_missing_manager_is_reported_not_raised(tmp_path, caplog):
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    assert notifier.ready() is False
    assert "sd_notify" in caplog.text


@pytest.mark.parametrize(
    ("env", "interval"),
    [
        ({"WATCHDOG_USEC": "20000000"}, 10.0),
        ({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": str(os.getpid())}, 10.0),
        ({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}, None),  # meant for another process
        ({"WATCHDOG_USEC": "junk"}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({}, None),
    ],
)
def test_watchdog_interval_is_half_of_watchdog_usec(env, interval, manager):
    assert Notifier({"NOTIFY_SOCKET": manager[0], **env}).watchdog_interval() == interval


def test_keep_alive_pings_at_half_the_watchdog_period(manager):
    path, sock = manager
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "6000000"})
    waits: list[float] = []

    async def fake_sleep(seconds):
        waits.append(seconds)
        if len(waits) == 3:
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(notifier.keep_alive(sleep=fake_sleep))
    assert waits == [3.0, 3.0, 3.0]
    assert [received(sock) for _ in range(3)] == [["WATCHDOG=1"]] * 3


def test_keep_alive_returns_without_watchdog(manager):
    asyncio.run(Notifier({"NOTIFY_SOCKET": manager[0]}).keep_alive())
