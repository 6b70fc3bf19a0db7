"""Many tables on one broker: N tables of bots against one mosquitto and one collector.

    python bench/mqtt_tables.py [--tables 20] [--rounds 3] [--json]

Each table is `unotable demo --fast --mqtt URL` as its own process (the real daemon on
the twin, bots playing `--rounds` rounds, its own journal and so its own identity), all
started together against one mosquitto on loopback (its own config, as the tests start
it), with one `unotable results` collecting. Once every table stopped and the collector
kept what it will keep, it prints:

- results stored against those expected (every `mqtt_result` the tables journaled),
  and duplicates among the stored (one table, match, round and kind kept twice: must
  be 0);
- the collector's lag, p50 and p99: from a result's `at` (the table's clock when the
  round ended) to its `stored_at` (the collector's clock when it committed it), both
  this machine's wall clock;
- the messages the broker routed from the tables (a client subscribed to them all
  counts them), and the broker's CPU seconds over the run, in all and per 1000
  messages, and each table's (the demo process: engine,
  twin, bots, HTTP and its MQTT link together), with the wall time of the run.
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import asyncio
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import (
    PYTHON,
    Figure,
    Result,
    cpu_seconds,
    exactly,
    machine_load,
    progress,
    report,
)
from tests.mqtt.broker import Broker
from tests.mqtt.collector_process import CollectorProcess, stored
from tests.mqtt.watch import broker_client

STORE_WITHIN_S = 120.0  # a bound on waiting for the collector, not a figure


class Counter:
    """A client on every table's topics in a thread of its own: the messages the broker
    routed out of the tables (states, events, results, discovery, availability)."""

    def __init__(self, broker: Broker) -> None:
        self.broker, self.count = broker, 0
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    async def _run(self) -> None:
        async with broker_client(self.broker) as client:
            await client.subscribe("unotable/#", qos=0)
            self._ready.set()

            async def count() -> None:
                async for _message in client.messages:
                    self.count += 1

            task = asyncio.create_task(count())
            while not self._stop.is_set():
                await asyncio.sleep(0.2)
            task.cancel()

    def __enter__(self) -> Counter:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def journaled_results(journal: Path) -> int:
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT count(*) FROM entries WHERE kind = 'mqtt_result'")
                   .fetchone()[0])


def run_tables(broker: Broker, directory: Path, tables: int, rounds: int
               ) -> list[dict[str, Any]]:
    """Start every table at once; each one's exit status, CPU seconds and results."""
    started = []
    for n in range(tables):
        journal = directory / f"table{n + 1}" / "journal.db"
        journal.parent.mkdir(parents=True)
        process = subprocess.Popen(
            [PYTHON, "-m", "firmware", "demo", "--fast", "--json", "--rounds", str(rounds),
             "--seed", str(n + 1), "--journal", str(journal), "--mqtt", broker.url],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        started.append((journal, process))
    out = []
    for journal, process in started:
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        err = process.stderr.read().decode(errors="replace") if process.stderr else ""
        out.append({"journal": str(journal), "status": process.returncode,
                    "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
                    "results": journaled_results(journal), "error": err[-500:] if
                    process.returncode else ""})
    return out


def run(tables: int = 20, rounds: int = 3) -> Result:
    result = Result("mqtt_tables")
    with tempfile.TemporaryDirectory(prefix="unotable-mqtt-bench-") as tmp:
        directory = Path(tmp)
        broker = Broker.plain(directory / "broker").start()
        collector = CollectorProcess(broker, directory / "results.db", directory / "collector.log")
        try:
            collector.start()
            assert broker.process is not None
            broker_before = cpu_seconds(broker.process.pid)
            began = time.monotonic()
            progress(f"{tables} tables of bots, {rounds} rounds each, on {broker.url}")
            with Counter(broker) as counter:
                each = run_tables(broker, directory, tables, rounds)
                wall = time.monotonic() - began
            expected = sum(t["results"] for t in each)
            deadline = time.monotonic() + STORE_WITHIN_S
            while len(kept := stored(collector.db)["results"]) < expected \
                    and time.monotonic() < deadline:
                time.sleep(0.5)
            broker_cpu = cpu_seconds(broker.process.pid) - broker_before
        finally:
            collector.kill()
            broker.kill()
    keys = [(r["table"], r["match"], r["kind"], r["round"]) for r in kept]
    lags = [r["stored_at"] - r["at"] for r in kept]
    cpus = [t["cpu_s"] for t in each]
    result.add(exactly("tables that played to the end", sum(t["status"] == 0 for t in each),
                       tables))
    result.add(exactly("results stored", len(kept), expected))
    result.add(exactly("duplicates stored", len(keys) - len(set(keys)), 0))
    result.add(Figure("collector lag p50", round(percentile(lags, 0.5) * 1000, 1), "ms"))
    result.add(Figure("collector lag p99", round(percentile(lags, 0.99) * 1000, 1), "ms"))
    result.add(Figure("messages from the tables", counter.count))
    result.add(Figure("broker CPU", round(broker_cpu, 2), "s"))
    result.add(Figure("broker CPU per 1000 messages", round(
        broker_cpu / max(1, counter.count) * 1000, 3), "s"))
    result.add(Figure("table CPU, median", sorted(cpus)[len(cpus) // 2], "s"))
    result.add(Figure("table CPU, most", max(cpus), "s"))
    result.add(Figure("wall time of the run", round(wall, 1), "s"))
    result.detail = {"tables": each, "load": machine_load(), "cpus": os.cpu_count(),
                     "rounds": rounds}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    outcome = run(args.tables, args.rounds)
    if not args.json:
        for table in outcome.detail["tables"]:
            print(f"{Path(table['journal']).parent.name}: status {table['status']}, "
                  f"{table['results']} results, {table['cpu_s']} s CPU", file=sys.stderr)
    return report(outcome, args.json)


if __name__ == "__main__":
    sys.exit(main())
