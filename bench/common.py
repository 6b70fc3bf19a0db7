"""What every benchmark shares: figures with their targets, medians, the table and JSON
they print, progress on stderr, and the daemon's process as /proc shows it.

A benchmark module has ``run(quick: bool) -> Result``; ``python -m bench`` calls them all.
A `Figure` is one number with its unit and, where the issue sets one, its target and
whether it holds; a `Result` is a benchmark's figures plus any detail for ``--json``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True)
class Figure:
    name: str
    value: Any
    unit: str = ""
    target: str | None = None  # e.g. "<= 60"; None: a figure without a target
    ok: bool | None = None  # None: no target

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "unit": self.unit,
                "target": self.target, "ok": self.ok}


def at_most(name: str, value: float, limit: float, unit: str = "") -> Figure:
    return Figure(name, value, unit, f"<= {limit:g}", value <= limit)


def at_least(name: str, value: float, limit: float, unit: str = "") -> Figure:
    return Figure(name, value, unit, f">= {limit:g}", value >= limit)


def exactly(name: str, value: Any, want: Any, unit: str = "") -> Figure:
    return Figure(name, value, unit, f"= {want}", value == want)


@dataclass
class Result:
    bench: str
    figures: list[Figure] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(f.ok is not False for f in self.figures)

    def add(self, figure: Figure) -> Figure:
        self.figures.append(figure)
        return figure

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "figures": [f.to_json() for f in self.figures],
                "detail": self.detail}


def median(values: Sequence[float]) -> float:
    if not values:
        raise ValueError("median of no values")
    return float(statistics.median(values))


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def table(results: Sequence[Result]) -> str:
    """One table of every figure: bench, figure, value, unit, target, pass."""
    rows = [("bench", "figure", "value", "unit", "target", "pass")]
    for r in results:
        for f in r.figures:
            verdict = "" if f.ok is None else ("PASS" if f.ok else "FAIL")
            rows.append((r.bench, f.name, _cell(f.value), f.unit, f.target or "", verdict))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        lines.append("  ".join(c.rjust(w) if i == 2 else c.ljust(w)
                               for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def dump(results: Sequence[Result], **extra: Any) -> str:
    return json.dumps({**extra, "ok": all(r.ok for r in results),
                       "benches": {r.bench: r.to_json() for r in results}}, sort_keys=True)


def report(result: Result, as_json: bool) -> int:
    """A benchmark script's own output: its table or its JSON; exit 1 when a target fails."""
    print(dump([result]) if as_json else table([result]))
    return 0 if result.ok else 1


def machine_load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


# -- a process as /proc shows it -------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), in seconds."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # fields 14, 15 of proc(5)


def memory_kb(pid: int) -> dict[str, int]:
    """VmRSS (now) and VmHWM (peak resident) of a process, in kB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


def rss_mb(pid: int | None = None) -> float:
    return memory_kb(os.getpid() if pid is None else pid)["VmRSS"] / 1024


def cpu_percent(pid: int, seconds: float) -> float:
    """CPU of `pid` over the next `seconds` of wall time, in % of one core."""
    c0, t0 = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    c1, t1 = cpu_seconds(pid), time.monotonic()
    return 100 * (c1 - c0) / (t1 - t0)


# -- running the daemon ------------------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class NotifySocket:
    """A service manager's notify socket: a unix datagram socket the daemon's
    ``NOTIFY_SOCKET`` points at; `wait_for("READY=1")` returns when that line arrived."""

    def __init__(self, directory: Path) -> None:
        self.path = str(directory / "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.lines: list[tuple[float, str]] = []

    def wait_for(self, line: str, timeout: float) -> float | None:
        """time.monotonic() when `line` arrived, or None after `timeout`."""
        deadline = time.monotonic() + timeout
        for at, got in self.lines:
            if got == line:
                return at
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                return None
            at = time.monotonic()
            got = data.decode(errors="replace").splitlines()
            self.lines += [(at, g) for g in got]  # the whole datagram, then the verdict
            if line in got:
                return at
        return None

    def close(self) -> None:
        self.sock.close()


def sim_config(directory: Path, *, port: int, edition: str = "classic", seats: int = 4,
               seed: int = 1) -> Path:
    """The built-in default config (the simulated twin) with its API on `port`, written
    to `directory/config.toml`; the journal is `journal.db` in $STATE_DIRECTORY."""
    import tomlkit

    from firmware.config import DEFAULT_PATH

    doc = tomlkit.parse(DEFAULT_PATH.read_text())
    doc["api"]["port"] = port  # type: ignore[index]
    doc["table"]["edition"] = edition  # type: ignore[index]
    doc["sim"]["seed"] = seed  # type: ignore[index]
    if seats != doc["table"]["seats"]:  # type: ignore[index]
        raise ValueError("the default config describes 4 seats")
    path = directory / "config.toml"
    path.write_text(tomlkit.dumps(doc))
    return path


def daemon_env(directory: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    env.update(STATE_DIRECTORY=str(directory), PYTHONPATH=str(REPO), **extra)
    return env


def unotable(*args: str) -> list[str]:
    return [PYTHON, "-m", "firmware", *args]


@contextlib.contextmanager
def workdir(prefix: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix=f"unotable-bench-{prefix}-") as tmp:
        yield Path(tmp)


@dataclass
class Served:
    """A daemon `served_daemon` runs; once the block is left: whether it was still
    alive, whether SIGTERM stopped it cleanly, and what it wrote on stderr."""

    proc: subprocess.Popen[bytes]
    alive: bool = False
    stopped_cleanly: bool = False
    err: bytes = b""

    @property
    def tracebacks(self) -> int:
        return self.err.decode(errors="replace").count("Traceback")


@contextlib.contextmanager
def served_daemon(tmp: Path, config: Path) -> Iterator[Served]:
    """`unotable run --config config` until it says READY=1; after the block, SIGTERM
    and its stop are judged (`Served`); killed whatever happens."""
    notify = NotifySocket(tmp)
    proc = subprocess.Popen(unotable("run", "--config", str(config), "--log-level", "ERROR"),
                            env=daemon_env(tmp, NOTIFY_SOCKET=notify.path),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    served = Served(proc)
    try:
        if notify.wait_for("READY=1", timeout=30) is None:
            raise RuntimeError("the daemon did not become ready")
        yield served
        served.alive = proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        _out, served.err = proc.communicate(timeout=30)
        served.stopped_cleanly = proc.returncode == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        notify.close()
