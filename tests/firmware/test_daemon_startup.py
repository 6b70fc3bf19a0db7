"""The daemon's start-up and stop sequence with a real notify socket, HTTP and journal."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from firmware.api import Request
from firmware.config import DEFAULT_PATH, load_config
from firmware.daemon import Daemon, Services
from firmware.errors import JournalCorrupt, JournalError, StartRefused
from firmware.journal.store import Journal


class RecordingTable:
    def __init__(self, services: Services, order: list[str]) -> None:
        self.services = services
        services.loop.on_safe_state(lambda: order.append("motor off"))
        if services.journal.match is None:
            services.journal.start_match(edition="classic", options={}, seats=2, seed=1,
                                         config_hash=services.config.digest)

    def public_state(self):
        return {"entries": self.services.journal.last_seq}

    def health(self):
        return {"ok": True}

    def submit(self, request: Request):
        entry = self.services.journal.append("request", {"type": type(request).__name__})
        self.services.publish({"seq": entry.seq})
        return {"seq": entry.seq}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def manager(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(10)
    yield sock
    sock.close()


def messages_until(sock, line: str) -> list[str]:
    seen: list[str] = []
    while line not in seen:
        seen.extend(sock.recv(4096).decode().split("\n"))
    return seen


def start(tmp_path, manager, order):
    cfg_path = tmp_path / "config.toml"
    cfg_path.write_text(DEFAULT_PATH.read_text().replace("port = 8080", f"port = {free_port()}"))
    env = {"NOTIFY_SOCKET": manager.getsockname(), "WATCHDOG_USEC": "4000000",
           "STATE_DIRECTORY": str(tmp_path / "state")}
    daemon = Daemon(load_config(cfg_path), lambda s: RecordingTable(s, order), env=env)
    status: list[int | Exception] = []

    def run() -> None:
        try:
            status.append(daemon.run(signals=False))
        except JournalError as exc:  # refused before anything started
            status.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return daemon, thread, status


def test_ready_only_when_serving_then_orderly_stop(tmp_path, manager):
    order: list[str] = []
    daemon, thread, status = start(tmp_path, manager, order)
    before_ready = messages_until(manager, "READY=1")
    assert "STATUS=opening the journal" in before_ready
    # READY=1 came after the API listens: a request works right away
    url = daemon.server.url
    with urllib.request.urlopen(url + "/api/state", timeout=10) as resp:
        assert json.load(resp) == {"entries": 0, "phones": {}, "claims": [], "recent": []}  # the door adds seats
    req = urllib.request.Request(url + "/api/uno", data=b'{"seat": 1}', method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        assert json.load(resp) == {"result": {"seq": 1}}
    assert "WATCHDOG=1" in before_ready + messages_until(manager, "WATCHDOG=1")

    daemon.stop("test over")
    thread.join(timeout=20)
    assert status == [0]
    assert any(m.startswith("STOPPING=1") for m in messages_until(manager, "STOPPING=1"))
    assert order == ["motor off"]
    with Journal.open(tmp_path / "state" / "journal.db") as journal:  # closed and durable
        assert [e.payload for e in journal.entries()] == [{"type": "CallUno"}]


def test_a_corrupt_journal_stops_start_up_in_safe_state_without_ready(tmp_path, manager):
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "journal.db").write_bytes(b"garbage" * 1000)
    order: list[str] = []
    daemon, thread, status = start(tmp_path, manager, order)
    thread.join(timeout=20)
    assert [type(s) for s in status] == [JournalCorrupt]
    assert daemon.server is None and order == []  # nothing was started
    manager.settimeout(0.5)
    lines = []
    try:
        while True:
            lines.extend(manager.recv(4096).decode().split("\n"))
    except TimeoutError:
        pass
    assert "READY=1" not in lines
    assert any("cannot start" in line and "corrupt" in line for line in lines)


def test_a_port_already_in_use_fails_start_up_without_ready(tmp_path, manager, caplog):
    order: list[str] = []
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        cfg_path = tmp_path / "config.toml"
        cfg_path.write_text(DEFAULT_PATH.read_text().replace("port = 8080", f"port = {port}"))
        env = {"NOTIFY_SOCKET": manager.getsockname(), "STATE_DIRECTORY": str(tmp_path)}
        daemon = Daemon(load_config(cfg_path), lambda s: RecordingTable(s, order), env=env)
        assert daemon.run(signals=False) == 1
    failure = daemon.loop.failure
    assert isinstance(failure, StartRefused) and isinstance(failure.__cause__, OSError)
    # said in one line that names the port and where to change it, without a traceback
    refused = [r for r in caplog.records if r.getMessage().startswith("start-up failed")]
    assert [r.exc_info for r in refused] == [None]
    assert f"127.0.0.1:{port}" in refused[0].getMessage()
    assert f"[api] port in {cfg_path}" in refused[0].getMessage()
    assert order == ["motor off"]  # the table was built, so its safe state ran
    manager.settimeout(0.5)
    lines: list[str] = []
    with contextlib.suppress(TimeoutError):
        while True:
            lines.extend(manager.recv(4096).decode().split("\n"))
    assert "READY=1" not in lines


CHILD = """
import sys
sys.path.insert(0, sys.argv[3])
from test_daemon_startup import RecordingTable
from firmware.config import load_config
from firmware.daemon import Daemon

order = []
daemon = Daemon(load_config(sys.argv[1]), lambda s: RecordingTable(s, order))
status = daemon.run()
open(sys.argv[2], "w").write(" ".join(order))
sys.exit(status)
"""


def test_sigterm_to_the_daemon_process_is_an_orderly_stop(tmp_path, manager):
    cfg_path = tmp_path / "config.toml"
    cfg_path.write_text(DEFAULT_PATH.read_text().replace("port = 8080", f"port = {free_port()}"))
    env = {**os.environ, "NOTIFY_SOCKET": manager.getsockname(), "STATE_DIRECTORY": str(tmp_path)}
    marker = tmp_path / "safe"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(cfg_path), str(marker), str(Path(__file__).parent)], env=env
    )
    try:
        messages_until(manager, "READY=1")
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=20) == 0
    finally:
        child.kill()
    assert "STOPPING=1" in messages_until(manager, "STOPPING=1")
    assert marker.read_text() == "motor off"
