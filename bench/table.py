"""Benchmark the whole simulated table: the daemon, controller, journal and twin.

    python bench/table.py [--seed S] [--json] [--commits N]

For every edition, one complete match with `unotable demo --fast` semantics (bots
through the controller, launcher on virtual time, tray readers on ptys, journal on
disk with durable commits), 4 players (3 for Power, whose tower moves wait for the
tray). Prints wall seconds, actions, actions per second, journal entries per second
and how many of the wall seconds were spent in the journal's commits.

`--commits N` instead times N single-entry commits of the journal alone, with and
without its high-water mark (`firmware.journal.mark`: one more `fdatasync` per commit),
in turns in the same process on the same disk, and prints both medians and the ratio.
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from firmware.journal.store import Journal
from firmware.sim.demo import run_demo

CASES = (("classic", 4), ("power", 3), ("attack", 4), ("attack-1999", 4), ("extreme", 4))


def measure(edition: str, players: int, seed: int) -> dict[str, float | int | bool]:
    commit = {"s": 0.0, "n": 0}
    real = Journal.append_all

    def timed(self, items, *, ref=None):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        try:
            return real(self, items, ref=ref)
        finally:
            commit["s"] += time.perf_counter() - t0
            commit["n"] += 1

    Journal.append_all = timed  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            result = run_demo(edition, players, seed, 10_000, fast=True,
                              journal=Path(tmp) / "journal.db")
            wall = time.perf_counter() - t0
            with Journal.open(Path(tmp) / "journal.db", readonly=True) as j:
                entries = j.last_seq
    finally:
        Journal.append_all = real  # type: ignore[method-assign]
    s = result.summary
    return {"players": players, "wall_s": round(wall, 2), "rounds": s["rounds"],
            "actions": s["actions"], "actions_per_s": round(s["actions"] / wall, 1),
            "journal_entries": entries, "entries_per_s": round(entries / wall, 1),
            "commit_s": round(commit["s"], 2), "commits": commit["n"],
            "world_agrees": s["world_agrees"]}


def commit_cost(commits: int) -> dict[str, float]:
    """Median seconds per commit with and without the mark, batches of 20 in turns."""
    import statistics

    times: dict[str, list[float]] = {"with_mark": [], "without_mark": []}
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as tmp:
        journals = {name: Journal.open(Path(tmp) / f"{name}.db") for name in times}
        journals["without_mark"]._mark = None  # the journal as it was before the mark
        for journal in journals.values():
            journal.start_match(edition="classic", options={}, seats=4, seed=1,
                                config_hash="bench")
        for _ in range(max(1, commits // 20)):
            for name, journal in journals.items():
                for _ in range(20):
                    t0 = time.perf_counter()
                    journal.append("action", {"type": "draw", "seat": 1})
                    times[name].append(time.perf_counter() - t0)
        for journal in journals.values():
            journal.close()
    out = {name: statistics.median(t) * 1000 for name, t in times.items()}
    return {"with_mark_ms": round(out["with_mark"], 3),
            "without_mark_ms": round(out["without_mark"], 3),
            "ratio": round(out["with_mark"] / out["without_mark"], 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--commits", type=int, help="time N journal commits alone (see above)")
    args = parser.parse_args()
    if args.commits is not None:
        cost = commit_cost(args.commits)
        print(json.dumps(cost) if args.json else
              f"per commit: {cost['with_mark_ms']} ms with the mark, "
              f"{cost['without_mark_ms']} ms without, ratio {cost['ratio']}")
        return 0
    results = {ed: measure(ed, n, args.seed) for ed, n in CASES}
    if args.json:
        print(json.dumps(results, sort_keys=True))
        return 0
    print(f"{'edition':12} {'pl':>2} {'wall s':>7} {'rounds':>6} {'actions':>7} "
          f"{'act/s':>7} {'entries':>7} {'ent/s':>7} {'commit s':>8}")
    for ed, r in results.items():
        print(f"{ed:12} {r['players']:>2} {r['wall_s']:>7} {r['rounds']:>6} {r['actions']:>7} "
              f"{r['actions_per_s']:>7} {r['journal_entries']:>7} {r['entries_per_s']:>7} "
              f"{r['commit_s']:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
