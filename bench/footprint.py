"""Footprint of the daemon on the simulated twin: memory, idle CPU, CPU in a match, start-up.

    python bench/footprint.py [--runs N] [--idle-s S] [--quick] [--json] [--pad]

The real processes, nothing special: `unotable run --config C` with the built-in default
config (the twin; only the API port changed to a free one, the journal in a fresh
$STATE_DIRECTORY), started with ``NOTIFY_SOCKET`` pointing at a unix datagram socket
this script binds, as systemd would. Per run:

- start-up: from spawning the process to the ``READY=1`` datagram;
- steady RSS (VmRSS, 1 s after READY), idle CPU over `--idle-s` seconds of wall time
  from /proc/PID/stat (the whole process, every thread; and the event-loop thread
  alone) and the wake-ups (context switches of every thread) over the same time, then
  peak RSS (VmHWM); then SIGTERM, which must end it with status 0;
- a match: `unotable demo --fast --json` (4-player classic, a whole match; --quick:
  one round), CPU time and
  peak RSS of the whole process from wait4's rusage, over its wall time.

- the card pad at rest (`--pad`: this section alone): the production `hal.pad.Pad` at
  its `[pad]` defaults watching the twin's PN532 on a pty, in this process: the CPU of
  its watcher thread over `--idle-s` at the idle pace (target: 0.3 % of a core) and at
  the fast pace, the twin's chip beside it, the process with and without the pad.

Figures are medians over `--runs` runs. Targets (issue 5): RSS <= 60 MB, idle CPU <= 1 %
of one core, start-up <= 1.5 s. On the twin the daemon process also hosts the simulated
devices (a thread per pty reader, the launcher's physics), which a real table has not.
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import (
    Figure,
    NotifySocket,
    Result,
    at_most,
    cpu_seconds,
    daemon_env,
    free_port,
    machine_load,
    median,
    memory_kb,
    progress,
    report,
    sim_config,
    unotable,
    workdir,
)

RSS_MB = 60.0
IDLE_CPU_PCT = 1.0
STARTUP_S = 1.5


def measure_daemon(idle_s: float) -> dict[str, float]:
    """One `unotable run` on the twin: start-up, steady and peak RSS, idle CPU."""
    with workdir("footprint") as tmp:
        notify = NotifySocket(tmp)
        config = sim_config(tmp, port=free_port())
        env = daemon_env(tmp, NOTIFY_SOCKET=notify.path)
        t0 = time.monotonic()
        proc = subprocess.Popen(unotable("run", "--config", str(config), "--log-level", "WARNING"),
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            ready = notify.wait_for("READY=1", timeout=30)
            if ready is None:
                raise RuntimeError(f"no READY=1 within 30 s; exit {proc.poll()}")
            time.sleep(1.0)
            steady = memory_kb(proc.pid)["VmRSS"]
            main_task = proc.pid  # the event loop runs on the main thread
            s0 = _switches(proc.pid)
            c0, l0, w0 = cpu_seconds(proc.pid), _task_cpu(proc.pid, main_task), time.monotonic()
            time.sleep(idle_s)
            c1, l1, w1 = cpu_seconds(proc.pid), _task_cpu(proc.pid, main_task), time.monotonic()
            s1 = _switches(proc.pid)
            peak = memory_kb(proc.pid)["VmHWM"]
            threads = len(os.listdir(f"/proc/{proc.pid}/task"))
            busiest = sorted((_task_cpu(proc.pid, int(t)) for t in os.listdir(
                f"/proc/{proc.pid}/task")), reverse=True)[:8]
            proc.send_signal(signal.SIGTERM)
            _out, err = proc.communicate(timeout=30)
            if proc.returncode != 0:
                raise RuntimeError(f"SIGTERM ended the daemon with {proc.returncode}: "
                                   f"{err.decode(errors='replace')[-500:]}")
            stopping = notify.wait_for("STOPPING=1", timeout=1) is not None
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            notify.close()
    return {"startup_s": ready - t0, "rss_steady_mb": steady / 1024, "rss_peak_mb": peak / 1024,
            "idle_cpu_pct": 100 * (c1 - c0) / (w1 - w0),
            "idle_loop_cpu_pct": 100 * (l1 - l0) / (w1 - w0),
            "idle_wakeups_per_s": sum(n - s0.get(t, 0) for t, n in s1.items()) / (w1 - w0),
            "threads": threads, "thread_cpu_s_since_start": [round(b, 2) for b in busiest],
            "stopping_sent": stopping}


def measure_twin_readers(idle_s: float) -> float:
    """CPU (% of one core) of the twin's simulated tray readers answering an idle tray:
    the same pty devices `unotable run` hosts on the twin (one per slot of the default
    config, paced), started in this process and polled by the production `Tray` at its
    idle pace, as in the daemon. A real table has no such threads: the daemon's idle
    CPU less this is what it would cost on a Pi."""
    from hal.sim.tray import SimTray
    from hal.tray import NEUTRAL, Tray

    me = os.getpid()
    before = set(os.listdir(f"/proc/{me}/task"))
    with SimTray((NEUTRAL, 0, 1, 2, 3), paced=True) as sim:
        tasks = [int(t) for t in set(os.listdir(f"/proc/{me}/task")) - before]
        stop = threading.Event()
        with Tray.from_config(sim.config()) as tray:
            watcher = threading.Thread(target=tray.watch, args=(lambda _event: None, stop))
            watcher.start()
            try:
                stop.wait(1.0)  # the readers' bring-up done: polled at the idle pace
                c0, w0 = sum(_task_run_s(me, t) for t in tasks), time.monotonic()
                stop.wait(idle_s)
                c1, w1 = sum(_task_run_s(me, t) for t in tasks), time.monotonic()
            finally:
                stop.set()
                watcher.join()
    return 100 * (c1 - c0) / (w1 - w0)


def _task_run_s(pid: int, tid: int) -> float:
    """Time a thread has run on a CPU (/proc schedstat, ns: finer than the CPU ticks of
    /proc stat, which a thread waking for a few microseconds at a time rarely meets)."""
    return int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0]) / 1e9


def _task_cpu(pid: int, tid: int) -> float:
    text = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _switches(pid: int) -> dict[int, int]:
    """Context switches so far per thread: how often each woke up (a few CPU ticks of
    idle time are noisy on a shared machine; the number of wake-ups is not)."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            text = Path(f"/proc/{pid}/task/{tid}/status").read_text()
        except FileNotFoundError:  # the thread ended meanwhile
            continue
        out[int(tid)] = sum(int(value) for key, _, value in
                            (line.partition(":") for line in text.splitlines())
                            if key.endswith("ctxt_switches"))
    return out


def measure_match(seed: int, rounds: int = 10_000) -> dict[str, float]:
    """`unotable demo --fast`: one 4-player classic match (whole, or `rounds` rounds) in
    its own process."""
    with workdir("match") as tmp:
        t0 = time.monotonic()
        proc = subprocess.Popen(unotable("demo", "--fast", "--json", "--rounds", str(rounds),
                                         "--seed", str(seed)),
                                env=daemon_env(tmp), stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        assert proc.stdout is not None
        out = proc.stdout.read()
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"demo --fast exited {proc.returncode}")
    summary = json.loads(out)
    cpu = usage.ru_utime + usage.ru_stime
    return {"wall_s": wall, "cpu_s": cpu, "cpu_pct": 100 * cpu / wall,
            "rss_peak_mb": usage.ru_maxrss / 1024, "actions": summary["actions"],
            "world_agrees": summary["world_agrees"]}


def run(quick: bool = False, *, runs: int | None = None, idle_s: float | None = None,
        match_rounds: int | None = None) -> Result:
    """`match_rounds`: rounds of the measured demo match (whole match; --quick 1)."""
    runs = runs if runs is not None else (2 if quick else 5)
    match_rounds = match_rounds if match_rounds is not None else (1 if quick else 10_000)
    idle_s = idle_s if idle_s is not None else (3.0 if quick else 10.0)
    result = Result("footprint")
    daemons = []
    for i in range(runs):
        progress(f"footprint: unotable run on the twin, run {i + 1}/{runs} ({idle_s:g} s idle)")
        daemons.append(measure_daemon(idle_s))
    twin = []
    for i in range(runs):
        progress(f"footprint: the twin's simulated readers, polled, run {i + 1}/{runs}")
        twin.append(measure_twin_readers(idle_s))
    matches = []
    for i in range(runs):
        progress(f"footprint: unotable demo --fast, match {i + 1}/{runs}")
        matches.append(measure_match(seed=1, rounds=match_rounds))

    def med(rows: list[dict[str, Any]], key: str) -> float:
        return round(median([r[key] for r in rows]), 3)

    result.add(at_most("RSS steady (daemon idle)", med(daemons, "rss_steady_mb"), RSS_MB, "MB"))
    result.add(at_most("RSS peak (daemon)", med(daemons, "rss_peak_mb"), RSS_MB, "MB"))
    result.add(at_most(f"idle CPU, whole process ({idle_s:g} s)",
                       med(daemons, "idle_cpu_pct"), IDLE_CPU_PCT, "% core"))
    result.add(at_most("idle CPU, event-loop thread", med(daemons, "idle_loop_cpu_pct"),
                       IDLE_CPU_PCT, "% core"))
    result.add(Figure("idle wake-ups, whole process", med(daemons, "idle_wakeups_per_s"), "/s"))
    result.add(Figure("threads (daemon idle)", med(daemons, "threads")))
    twin_pct = round(median(twin), 3)
    result.add(Figure("idle CPU of the twin's 5 simulated readers, polled", twin_pct, "% core"))
    result.add(at_most("idle CPU, whole process less simulated readers (estimate)",
                       round(max(0.0, med(daemons, "idle_cpu_pct") - twin_pct), 3),
                       IDLE_CPU_PCT, "% core"))
    result.add(at_most("start to READY=1", med(daemons, "startup_s"), STARTUP_S, "s"))
    result.add(at_most("RSS peak (demo --fast match)", med(matches, "rss_peak_mb"), RSS_MB, "MB"))
    result.add(Figure("CPU during demo --fast match", med(matches, "cpu_pct"), "% core"))
    result.add(Figure("demo --fast match wall time", med(matches, "wall_s"), "s"))
    result.detail = {"runs": runs, "idle_s": idle_s, "match_rounds": match_rounds,
                     "load": machine_load(),
                     "daemon": daemons, "twin_readers_idle_cpu_pct": twin,
                     "match": matches}
    pad_figures(result, runs, idle_s)
    return result


# -- the card pad at rest ------------------------------------------------------------
PAD_IDLE_CPU_PCT = 0.3  # the pad's idle polling, % of one core


def _process_run_s(pid: int) -> float:
    """Time every thread of a process has run on a CPU so far (schedstat, ns)."""
    total = 0.0
    for tid in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(FileNotFoundError):  # a thread that ended meanwhile
            total += _task_run_s(pid, int(tid))
    return total


def _task_switches(pid: int, tid: int) -> int:
    return _switches(pid).get(tid, 0)


def measure_pad(idle_s: float, *, fast: bool = False) -> dict[str, float]:
    """The card pad with nothing on it: the production `hal.pad.Pad` (its `[pad]`
    defaults: the idle pace, or with `fast` the pace while a card is awaited) watching
    the twin's PN532 on a pty (paced at 115200 baud), in this process. Over `idle_s` s of
    wall time: the CPU of the pad's watcher thread (what a table runs), of the twin's
    simulated chip (which a table has not), and of the whole process; then the same
    window with no pad, the process's baseline."""
    from hal.pad import Pad
    from hal.sim.pad import SimPad

    me = os.getpid()
    before = set(os.listdir(f"/proc/{me}/task"))
    with SimPad("classic", ()) as sim:
        twin = [int(t) for t in set(os.listdir(f"/proc/{me}/task")) - before]
        stop = threading.Event()
        with Pad.from_config(sim.config()) as pad:
            pad.set_pace(fast)
            watcher = threading.Thread(target=pad.watch, args=(lambda _event: None, stop),
                                       name="pad-watch")
            watcher.start()
            try:
                stop.wait(1.5)  # the chip's bring-up and the first reads done
                assert watcher.native_id is not None
                tid = watcher.native_id
                polls0, switches0 = pad.get_status()["polls"], _task_switches(me, tid)
                p0, t0 = _task_run_s(me, tid), sum(_task_run_s(me, t) for t in twin)
                a0, w0 = _process_run_s(me), time.monotonic()
                stop.wait(idle_s)
                p1, t1 = _task_run_s(me, tid), sum(_task_run_s(me, t) for t in twin)
                a1, w1 = _process_run_s(me), time.monotonic()
                polls1, switches1 = pad.get_status()["polls"], _task_switches(me, tid)
                status = pad.get_status()
            finally:
                stop.set()
                watcher.join()
    b0, v0 = _process_run_s(me), time.monotonic()
    time.sleep(w1 - w0)  # the same window, no pad: what this process costs by itself
    b1, v1 = _process_run_s(me), time.monotonic()
    wall = w1 - w0
    if not status["ok"]:
        raise RuntimeError(f"the pad did not read its twin: {status['error']}")
    return {"pad_cpu_pct": 100 * (p1 - p0) / wall, "twin_chip_cpu_pct": 100 * (t1 - t0) / wall,
            "process_cpu_pct": 100 * (a1 - a0) / wall,
            "process_cpu_pct_without_pad": 100 * (b1 - b0) / (v1 - v0),
            "reads_per_s": (polls1 - polls0) / wall,
            "pad_wakeups_per_s": (switches1 - switches0) / wall,
            "cpu_ms_per_read": 1000 * (p1 - p0) / max(1, polls1 - polls0)}


def pad_figures(result: Result, runs: int, idle_s: float) -> None:
    """The card pad's section: the idle pad's CPU (target), the same at the fast pace."""
    idle, fast = [], []
    for i in range(runs):
        progress(f"footprint: the card pad at rest, idle pace, run {i + 1}/{runs} ({idle_s:g} s)")
        idle.append(measure_pad(idle_s))
        progress(f"footprint: the card pad, fast pace, run {i + 1}/{runs} ({idle_s:g} s)")
        fast.append(measure_pad(idle_s, fast=True))

    def med(rows: list[dict[str, float]], key: str) -> float:
        return round(median([r[key] for r in rows]), 3)

    result.add(at_most("pad idle: its watcher's CPU (idle pace)", med(idle, "pad_cpu_pct"),
                       PAD_IDLE_CPU_PCT, "% core"))
    result.add(Figure("pad idle: reads", med(idle, "reads_per_s"), "/s"))
    result.add(Figure("pad idle: CPU per read (watcher)", med(idle, "cpu_ms_per_read"), "ms"))
    result.add(Figure("pad idle: watcher wake-ups", med(idle, "pad_wakeups_per_s"), "/s"))
    result.add(Figure("pad idle: the twin's simulated chip", med(idle, "twin_chip_cpu_pct"),
                      "% core"))
    result.add(Figure("pad idle: whole process with / without the pad",
                      f"{med(idle, 'process_cpu_pct')} / "
                      f"{med(idle, 'process_cpu_pct_without_pad')}", "% core"))
    result.add(Figure("pad awaiting a card: its watcher's CPU (fast pace)",
                      med(fast, "pad_cpu_pct"), "% core"))
    result.add(Figure("pad awaiting a card: reads", med(fast, "reads_per_s"), "/s"))
    result.add(Figure("pad fast / idle: watcher CPU",
                      round(med(fast, "pad_cpu_pct") / max(med(idle, "pad_cpu_pct"), 1e-6), 1),
                      "x"))
    result.detail["pad"] = {"idle": idle, "fast": fast,
                            "spread_pad_cpu_pct": [round(min(r["pad_cpu_pct"] for r in idle), 3),
                                                   round(max(r["pad_cpu_pct"] for r in idle), 3)]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, help="runs per figure (5; --quick 2)")
    parser.add_argument("--idle-s", type=float, help="seconds of idle measured (10; --quick 3)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--pad", action="store_true", help="only the card pad's section")
    args = parser.parse_args(argv)
    if (args.runs is not None and args.runs < 1) or (args.idle_s is not None and args.idle_s <= 0):
        parser.error("--runs must be at least 1 and --idle-s positive")
    if args.pad:
        result = Result("footprint")
        pad_figures(result, args.runs or (2 if args.quick else 5),
                    args.idle_s or (3.0 if args.quick else 10.0))
        result.detail["load"] = machine_load()
        return report(result, args.json)
    return report(run(args.quick, runs=args.runs, idle_s=args.idle_s), args.json)


if __name__ == "__main__":
    sys.exit(main())
