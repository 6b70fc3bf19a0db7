"""Run every benchmark and print one table of figures.

    python -m bench [--quick] [--json] [--only NAME ...]

`--quick` is the CI-sized run (about two minutes on a busy 2-core machine; the whole
table match per edition of bench/table.py is left out); without it the full run takes
the better part of an hour (docs/operations.md, "Figures"). `--json` prints one JSON
object: {"ok", "quick", "load", "benches": {NAME: {"ok", "figures": [...], "detail"}}}.
Progress goes to stderr. Exit status 0 when every figure that has a target meets it,
1 otherwise.

Every benchmark runs as its own script in its own process (`--json`), so that memory
figures are not those of the benchmarks before it; progress lines pass through on
stderr. The engine, hal and table figures are put in the same table as the others'.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

from bench.common import (
    PYTHON,
    REPO,
    Figure,
    Result,
    at_least,
    dump,
    exactly,
    machine_load,
    progress,
    table,
)

OWN = ("footprint", "crash", "serial_soak", "fuzz", "longrun", "fairness", "latency")
SCRIPTS = ("engine", "hal", "table")
ALL = SCRIPTS + OWN
QUICK_ARGS = {"engine": ["--rounds", "300", "--repeat", "1"],
              "hal": ["--runs", "5", "--samples", "100"]}
ENGINE_RATIO = 2.0  # bench/engine.py: checked path / RLCard rounds per second (issue 11)
SIMULATE_RATIO = 4.0  # bench/engine.py: simulation kernel / RLCard, in the same run (issue 23)
# per-edition actions/s of the checked path before the issue 11 rewrite, for runs without
# the frozen engine in tests/oracle: the last idle full run (bench/README.md, "Engine
# baseline"); with the oracle, bench/engine.py times both in the same run
EDITION_BASELINE = {"classic": 174_100.0, "power": 129_600.0, "attack": 159_300.0,
                    "attack-1999": 174_100.0, "extreme": 151_000.0}
EDITION_SPEEDUP = 2.0


def _script(name: str, quick: bool) -> dict[str, Any]:
    args = QUICK_ARGS.get(name, []) if quick else []
    done = subprocess.run([PYTHON, str(REPO / "bench" / f"{name}.py"), "--json", *args],
                          capture_output=True, text=True, cwd=REPO, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"bench/{name}.py exited {done.returncode}: {done.stderr[-400:]}")
    return dict(json.loads(done.stdout))


def engine_figures(data: dict[str, Any], result: Result) -> None:
    result.add(Figure("checked path (effects off), 4-player classic", data["ours_rounds_per_s"],
                      "rounds/s"))
    rlcard = data.get("rlcard_rounds_per_s")
    if rlcard is None:
        result.add(Figure("RLCard", f"unavailable: {data.get('rlcard_error', '?')[:60]}"))
    else:
        result.add(Figure("RLCard, same workload", rlcard, "rounds/s"))
        result.add(at_least("ratio checked / RLCard (same run)", data["ratio"], ENGINE_RATIO))
        for key, label in (("ratio_median", "ratio, median of paired runs"),
                           ("ratio_own_policy", "ratio, the bench's own policy over legal_actions"),
                           ("ratio_with_effects", "ratio, checked path building effects"),
                           ("simulate_ratio_median", "simulate_ratio, median of paired runs")):
            if data.get(key) is not None:  # shown beside the judged figures, no target
                result.add(Figure(label, data[key], "x"))
    if data.get("simulate_rounds_per_s") is None:
        result.add(Figure("simulation kernel", f"unavailable: "
                                               f"{data.get('simulate_error', '?')[:60]}",
                          "", f">= {SIMULATE_RATIO:g} x RLCard", False))
    else:
        result.add(Figure("simulation kernel, same workload", data["simulate_rounds_per_s"],
                          "rounds/s"))
        result.add(exactly("kernel plays the checked path's games",
                           data["simulate_same_games"], True))
        if rlcard is not None:
            result.add(at_least("simulate_ratio kernel / RLCard (same run)",
                                data["simulate_ratio"], SIMULATE_RATIO))
    for name, f in data.get("editions", {}).items():
        if "speedup" in f:  # against the engine before issue 11, timed in the same run
            result.add(Figure(f"{name}", f["actions_per_s"], "actions/s"))
            result.add(at_least(f"{name}: x before (same run)", f["speedup"], EDITION_SPEEDUP))
        elif name in EDITION_BASELINE:
            base = EDITION_BASELINE[name]
            result.add(at_least(f"{name} (x{EDITION_SPEEDUP:g} of {base:,.0f} recorded)",
                                f["actions_per_s"], EDITION_SPEEDUP * base, "actions/s"))
        else:
            result.add(Figure(f"{name}", f["actions_per_s"], "actions/s"))


def hal_figures(data: dict[str, Any], result: Result) -> None:
    for key in ("tray_scan", "tray_scan_four_on_one_slot"):
        scan = data[key]
        result.add(Figure(f"{key}: {scan['readers']} readers, median", scan["scan_median_ms"],
                          "ms"))
        result.add(Figure(f"{key}: / wire-time bound", scan["ratio"], "x"))
    motor = data.get("button_to_motor")
    if motor:
        result.add(Figure("button edge -> motor on, median", motor["median_us"], "us"))
        result.add(Figure("button edge -> motor on, p99", motor["p99_us"], "us"))


def table_figures(data: dict[str, Any], result: Result) -> None:
    for edition, r in data.items():
        result.add(Figure(f"{edition}: whole match, {r['actions']} actions", r["actions_per_s"],
                          "actions/s"))
        result.add(exactly(f"{edition}: world and referee agree", r["world_agrees"], True))


CONVERT: dict[str, Callable[[dict[str, Any], Result], None]] = {
    "engine": engine_figures, "hal": hal_figures, "table": table_figures}


def _own(name: str, quick: bool) -> Result:
    """One of this package's benchmarks, in a process of its own (its memory figures are
    its own, not those of the benchmarks before it)."""
    done = subprocess.run([PYTHON, str(REPO / "bench" / f"{name}.py"), "--json",
                           *(["--quick"] if quick else [])],
                          stdout=subprocess.PIPE, text=True, cwd=REPO, timeout=4 * 3600)
    try:
        data = json.loads(done.stdout.splitlines()[-1])["benches"][name]
    except (IndexError, ValueError, KeyError):
        raise RuntimeError(f"bench/{name}.py exited {done.returncode} without figures") from None
    return Result(name, [Figure(**{k: f[k] for k in ("name", "value", "unit", "target", "ok")})
                         for f in data["figures"]], data["detail"])


def run_one(name: str, quick: bool) -> Result:
    progress(f"{name} ...")
    try:
        if name in SCRIPTS:
            result = Result(name)
            data = _script(name, quick)
            CONVERT[name](data, result)
            result.detail = data
            return result
        return _own(name, quick)
    except Exception as exc:  # one broken benchmark must not hide the others' figures
        result = Result(name)
        result.add(Figure("error", f"{type(exc).__name__}: {exc}"[:200], "", "runs", False))
        return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench",
                                     description="Run every benchmark; one table of figures.")
    parser.add_argument("--quick", action="store_true", help="the fast, CI-sized version")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", nargs="+", choices=ALL, metavar="NAME",
                        help=f"run only these: {', '.join(ALL)}")
    args = parser.parse_args(argv)
    names = list(args.only or ALL)
    if args.quick and not args.only:
        names.remove("table")  # one whole match per edition: minutes, not CI-sized
        progress("table: left out of --quick (python bench/table.py runs it)")
    load_before = machine_load()
    results = [run_one(name, args.quick) for name in names]
    load = {"before": load_before, "after": machine_load()}
    if args.json:
        print(dump(results, quick=args.quick, load=load))
    else:
        print(table(results))
        print(f"\nload average (1, 5, 15 min): before {load['before']}, after {load['after']}")
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
