"""`unotable results` as a process for the tests, its log in a file, and its results
read back through `unotable results show --json`."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.mqtt.broker import Broker, free_port

WAIT_S = 20.0  # a bound on waiting for the processes, not a timing being tested


def unotable(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware", *args], capture_output=True,
                          text=True, timeout=60)


def stored(db: Path) -> dict:
    done = unotable("results", "show", "--db", str(db), "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


class CollectorProcess:
    """`unotable results` as a process, its log in a file."""

    def __init__(self, broker: Broker, db: Path, log: Path) -> None:
        self.broker, self.db, self.log = broker, db, log
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> CollectorProcess:
        self.log.write_text("")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "firmware", "results", "--mqtt", self.broker.url,
             "--db", str(self.db), "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=self.log.open("w"))
        self.wait_for_log("results: subscribed")
        return self

    def wait_for_log(self, text: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while text not in self.log.read_text():
            assert self.process is not None and self.process.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, f"no {text!r} in: {self.log.read_text()}"
            time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=WAIT_S)


def wait_for_count(db: Path, count: int) -> dict:
    deadline = time.monotonic() + WAIT_S
    while True:
        found = stored(db) if db.exists() else {"results": []}
        if len(found["results"]) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.1)
