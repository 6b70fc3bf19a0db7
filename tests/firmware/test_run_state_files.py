"""`unotable run` and the files of its state directory, as systemd starts it.

A full disk after an orderly stop never makes it exit (systemd would restart it again
and again): the table opens paused with ``disk-full``, answers 507, and goes on once
there is room. A file of its state that it refuses (a link, a FIFO, a damaged or another
table's file) is exit status 2 (`RestartPreventExitStatus=2`) with one line naming it,
whatever the file, and the file a link points at keeps its bytes."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.config import DEFAULT_PATH
from tests.firmware.conftest import request
from tests.firmware.journal_files import fill, small_disk
from tests.firmware.test_daemon_startup import free_port

START_S = 90  # a slow machine under load starts the daemon in seconds


def run_args(tmp_path: Path) -> tuple[list[str], str]:
    """The command line of `unotable run` on the simulated twin, and its API's URL."""
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(DEFAULT_PATH.read_text().replace("port = 8080", f"port = {port}"))
    return ([sys.executable, "-m", "firmware", "run", "--config", str(config)],
            f"http://127.0.0.1:{port}")


def env(state: Path) -> dict[str, str]:
    return {**os.environ, "STATE_DIRECTORY": str(state)}


@contextlib.contextmanager
def running(tmp_path: Path, state: Path) -> Iterator[str]:
    """`unotable run` serving (its URL), then stopped as systemd stops it: exit 0."""
    args, url = run_args(tmp_path)
    proc = subprocess.Popen(args, env=env(state), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + START_S
        while True:
            assert proc.poll() is None, proc.communicate()[1]
            with contextlib.suppress(OSError):
                if request(url, "GET", "/api/state")[0] == 200:
                    break
            assert time.monotonic() < deadline, "the daemon never served"
            time.sleep(0.2)
        yield url
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def waiting(url: str) -> dict:
    return request(url, "GET", "/api/state")[1]["waiting"]


def test_a_full_disk_after_an_orderly_stop_opens_paused_answers_507_and_goes_on(tmp_path):
    with small_disk(tmp_path / "state", "4m") as state:
        with running(tmp_path, state):
            pass  # the journal, the seats' keys and the twin's world are made
        filler = fill(state)
        with running(tmp_path, state) as url:
            paused = waiting(url)
            assert (paused["kind"], paused["cause"]) == ("journal", "disk-full")
            assert str(state / "journal.db") in paused["message"]
            status, body = request(url, "POST", "/api/admin/resume", {})
            assert (status, body["key"], body["values"]["cause"]) == (
                507, "refused.journal", "disk-full")
            status, body = request(url, "GET", "/api/seats")  # no invitation could be made
            assert (status, body["key"]) == (507, "refused.files_full")
            filler.unlink()
            deadline = time.monotonic() + 30
            while waiting(url)["kind"] == "journal":  # it tries again every second
                assert time.monotonic() < deadline, waiting(url)
                time.sleep(0.2)
            status, body = request(url, "GET", "/api/seats")
            assert status == 200 and len(body["seats"]) == 4


def _link(target: Path):
    return lambda path: path.symlink_to(target)


STATE_FILES = {
    # a name in the state directory, what is put there, what the line says
    "world link": ("journal.db.world.json", _link, "is a symbolic link, not a regular file"),
    "world tmp link": ("journal.db.world.json.tmp", _link,
                       "is a symbolic link, not a regular file"),
    "world of another table": ("journal.db.world.json", lambda t: lambda p: p.write_text(
        '{"version": 1, "edition": "power", "seats": 2, "seed": 9}'), "holds another table"),
    "world damaged": ("journal.db.world.json", lambda t: lambda p: p.write_text("{"),
                      "is not the twin's world file"),
    "seats link": ("seats.json", _link, "is a symbolic link, not a regular file"),
    "seats tmp link": ("seats.json.tmp", _link, "is a symbolic link, not a regular file"),
    "seats damaged": ("seats.json", lambda t: lambda p: p.write_text("[1"), "is damaged"),
    "table-id FIFO": ("table-id", lambda t: os.mkfifo, "is a FIFO (named pipe), not a "
                      "regular file: the table refuses"),
    "mark link": ("journal.db.mark", _link, "is a symbolic link, not a regular file"),
    "lock link": ("journal.db.lock", _link, "is a symbolic link, not a regular file"),
}


@pytest.mark.parametrize("case", sorted(STATE_FILES))
def test_a_refused_state_file_is_exit_2_with_one_line_and_its_target_is_untouched(
        tmp_path, case):
    name, put, words = STATE_FILES[case]
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    target = tmp_path / "precious"
    target.write_bytes(b"someone else's file")
    put(target)(state / name)
    args, _ = run_args(tmp_path)
    proc = subprocess.run(args, env=env(state), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert str(state / name) in proc.stderr and words in proc.stderr, proc.stderr
    assert target.read_bytes() == b"someone else's file"
