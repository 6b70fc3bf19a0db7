"""A crowd of idle and slowloris sockets against `unotable run`, then a stop (issue 10,
points 6 and 7).

    python bench/connections.py [--idle 1100] [--slow 200] [--hold 12] [--nofile 1024] [--json]

The daemon runs on the simulated twin on loopback (default config, a free port), with
its open-files limit set to `--nofile` (the unit's LimitNOFILE). The script opens
`--idle` sockets that send nothing and `--slow` slowloris sockets that send a header
line every 2 s and never finish it, then asks `GET /api/state` as a new client: the
seconds until it is answered (target <= 2 s), right away and again after `--hold`
seconds of dripping (past the 10 s header deadline). Then it opens `--slow`
half-sent requests (half a header, or a header and half a body), sends SIGTERM and
measures until the process has exited (target <= 2 s).

Figures: answer times, the crowd's sockets the daemon closed, its open descriptors
and threads at the peak, what it wrote to its log (bytes, EMFILE lines), stop time.
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import contextlib
import http.client
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import (
    Figure,
    NotifySocket,
    Result,
    at_most,
    daemon_env,
    exactly,
    free_port,
    memory_kb,
    progress,
    report,
    sim_config,
    unotable,
    workdir,
)
from firmware.api.server import HEADER_TIMEOUT

ANSWER_S = 2.0  # issue 10: a new client is answered within 2 s
OPEN_BUDGET_S = 60.0  # opening the crowd stops here (a daemon that no longer accepts)
STOP_S = 2.0  # issue 10: SIGTERM to the API closed


def _open(port: int, first: bytes = b"") -> socket.socket | None:
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=2)
        if first:
            sock.sendall(first)
    except OSError:
        return None
    sock.setblocking(False)
    return sock


def _alive(sock: socket.socket) -> bool:
    """Whether the daemon still holds this connection open (no EOF, no reset)."""
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def _drip(socks: list[socket.socket], n: int) -> None:
    for sock in socks:
        with contextlib.suppress(OSError):
            sock.send(f"X-Drip-{n}: {'a' * 8}\r\n".encode())


def _ask(port: int) -> tuple[float, int | None]:
    """Seconds until `GET /api/state` is answered (10 s at most), and the status."""
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/api/state")
        resp = conn.getresponse()
        resp.read()
        return time.monotonic() - start, resp.status
    except (OSError, http.client.HTTPException):
        return time.monotonic() - start, None
    finally:
        conn.close()


def _proc_status(pid: int) -> dict[str, int]:
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    threads = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            threads = int(line.split()[1])
    return {"fds": fds, "threads": threads, "rss_peak_kb": memory_kb(pid)["VmHWM"]}


def _limit_files(nofile: int) -> Any:
    def preexec() -> None:
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(nofile, hard), hard))

    return preexec


def run(*, idle: int = 1100, slow: int = 200, hold: float = 12.0, nofile: int = 1024) -> Result:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(4096, 2 * (idle + slow) + 64)), hard))
    result = Result("connections")
    detail: dict[str, Any] = {"idle": idle, "slow": slow, "hold_s": hold, "nofile": nofile}
    with workdir("connections") as tmp:
        notify = NotifySocket(tmp)
        port = free_port()
        log_path = tmp / "daemon.log"
        with log_path.open("wb") as log:
            proc = subprocess.Popen(unotable("run", "--config", str(sim_config(tmp, port=port))),
                                    env=daemon_env(tmp, NOTIFY_SOCKET=notify.path),
                                    stdout=log, stderr=subprocess.STDOUT, preexec_fn=_limit_files(nofile))
        crowd: list[socket.socket] = []
        try:
            if notify.wait_for("READY=1", timeout=30) is None:
                raise RuntimeError("the daemon did not become ready")
            peak = _proc_status(proc.pid)
            progress(f"connections: {idle} idle and {slow} slowloris sockets")
            started = time.monotonic()
            budget = started + OPEN_BUDGET_S
            for _ in range(idle):
                if time.monotonic() < budget and (sock := _open(port)) is not None:
                    crowd.append(sock)
            slowloris = [s for s in (_open(port, b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                                     for _ in range(slow) if time.monotonic() < budget) if s is not None]
            crowd += slowloris
            detail["crowd_opened"] = len(crowd)
            detail["crowd_open_s"] = round(time.monotonic() - started, 2)
            first = [_ask(port) for _ in range(5)]
            peak = {k: max(v, _proc_status(proc.pid)[k]) for k, v in peak.items()}
            progress(f"connections: holding the crowd {hold:g} s")
            end, n = time.monotonic() + hold, 0
            while time.monotonic() < end:
                _drip(slowloris, n)
                n += 1
                peak = {k: max(v, _proc_status(proc.pid)[k]) for k, v in peak.items()}
                time.sleep(2)
            later = [_ask(port) for _ in range(5)]
            still_open = sum(_alive(s) for s in crowd)
            slow_open = sum(_alive(s) for s in slowloris)

            progress(f"connections: SIGTERM with {slow} half-sent requests open")
            half = []
            budget = time.monotonic() + OPEN_BUDGET_S
            for i in range(slow):
                if time.monotonic() > budget:
                    break
                head = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: " if i % 2 else \
                    (b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 64\r\n\r\n{\"seat\": 0,")
                if (sock := _open(port, head)) is not None:
                    half.append(sock)
            time.sleep(0.2)
            stop_at = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
                stop_s = time.monotonic() - stop_at
            except subprocess.TimeoutExpired:
                stop_s = float("inf")
            for sock in crowd + half:
                sock.close()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            notify.close()
        text = log_path.read_bytes()
    worst_first = max(t for t, _ in first)
    worst_later = max(t for t, _ in later)
    answered = sum(status == 200 for _, status in first + later)
    result.add(at_most("new client answered, crowd just opened (worst of 5)", round(worst_first, 3), ANSWER_S, "s"))
    result.add(at_most(f"new client answered, after {hold:g} s of dripping (worst of 5)",
                       round(worst_later, 3), ANSWER_S, "s"))
    result.add(exactly("new-client requests answered 200", answered, len(first) + len(later)))
    result.add(Figure("crowd sockets opened", len(crowd)))
    result.add(Figure("crowd sockets the daemon still holds at the end", still_open))
    if hold > HEADER_TIMEOUT:
        result.add(exactly("slowloris sockets still open after the header deadline", slow_open, 0))
    result.add(at_most("daemon open descriptors (peak)", peak["fds"], nofile))
    result.add(Figure("daemon threads (peak)", peak["threads"]))
    result.add(Figure("daemon RSS (peak)", round(peak["rss_peak_kb"] / 1024, 1), "MB"))
    result.add(Figure("daemon log written", len(text), "bytes"))
    result.add(exactly("accept errors (EMFILE, ...) logged", text.count(b"out of system resource"), 0))
    result.add(at_most(f"SIGTERM to exit, {len(half)} half-sent requests open", round(stop_s, 3), STOP_S, "s"))
    result.add(exactly("exit status after SIGTERM", proc.returncode, 0))
    motor, closed = text.find(b"safe state reached (motor off)"), text.find(b"API closed")
    result.add(exactly("motor off logged before the API closed", 0 <= motor < closed, True))
    detail["first_s"] = [round(t, 4) for t, _ in first]
    detail["later_s"] = [round(t, 4) for t, _ in later]
    detail["log_tail"] = text[-600:].decode(errors="replace")
    result.detail = detail
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=1100)
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--hold", type=float, default=12.0, help="seconds of dripping (default 12)")
    parser.add_argument("--nofile", type=int, default=1024, help="the daemon's open-files limit")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not (0 <= args.idle <= 5000 and 0 <= args.slow <= 2000 and 0 <= args.hold <= 120):
        parser.error("--idle at most 5000, --slow at most 2000, --hold at most 120 s")
    return report(run(idle=args.idle, slow=args.slow, hold=args.hold, nofile=args.nofile), args.json)


if __name__ == "__main__":
    sys.exit(main())
