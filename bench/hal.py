"""Benchmark the hardware layer on its simulated twin.

    python bench/hal.py [--json] [--runs N]

Tower tray: the time for one full scan of seven PN532 readers at 115200 baud
(the twin spends each byte's wire time, 10 bits, in both directions), next to
the wire-time bound of the bytes that scan exchanged, and their ratio; medians
over N scans after a warm-up that brings the readers up. If
`bench/hal_launcher.py` exists, its button-edge-to-motor figures are printed too.
"""

from __future__ import annotations

# Run as a script, this directory would shadow the `hal` package with this file.
if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from hal.sim.ptydevice import WIRE_BITS_PER_BYTE
from hal.sim.tray import SimTray
from hal.tray import Tray

BAUD = 115200  # what SimTray(paced=True) spends per PN532 byte
SLOTS = ("neutral", 0, 1, 2, 3, 4, 5)
# Mid-game: two towers with seat 0, one neutral, one with seat 3, four seats empty.
LAYOUT = {"U": 0, "N": 0, "O": "neutral", "!": 3}


def _bytes_on_line(tray: Tray) -> int:
    readers = tray.get_status()["readers"].values()
    return sum(r["bytes_written"] + r["bytes_read"] for r in readers)


def measure_tray_scan(runs: int, layout: dict[str, Any]) -> dict[str, Any]:
    with SimTray(SLOTS, paced=True) as sim, Tray.from_config(sim.config()) as tray:
        for tower, slot in layout.items():
            sim.place(tower, slot)
        for _ in range(3):
            tray.scan()  # bring-up and debounce, not measured
        seconds, bounds, exchanged = [], [], []
        for _ in range(runs):
            before = _bytes_on_line(tray)
            start = time.perf_counter()
            tray.scan()
            seconds.append(time.perf_counter() - start)
            n = _bytes_on_line(tray) - before
            exchanged.append(n)
            bounds.append(n * WIRE_BITS_PER_BYTE / BAUD)
        assert tray.positions() == layout, tray.positions()
    median_s = statistics.median(seconds)
    bound_s = statistics.median(bounds)
    return {
        "readers": len(SLOTS),
        "baud": BAUD,
        "towers": {t: str(s) for t, s in layout.items()},
        "runs": runs,
        "scan_median_ms": round(median_s * 1000, 2),
        "scan_p90_ms": round(statistics.quantiles(seconds, n=10)[-1] * 1000, 2),
        "bytes_per_scan": int(statistics.median(exchanged)),
        "wire_bound_ms": round(bound_s * 1000, 2),
        "ratio": round(median_s / bound_s, 2),
    }


def launcher_figures(samples: int) -> dict[str, Any] | None:
    path = Path(__file__).resolve().parent / "hal_launcher.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("bench_hal_launcher", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.measure_button_to_motor(samples))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--runs", type=int, default=30, help="scans to time (default 30)")
    parser.add_argument("--samples", type=int, default=200, help="launcher samples (default 200)")
    args = parser.parse_args(argv)
    if args.runs < 2 or args.samples < 1:
        parser.error("--runs must be at least 2 and --samples at least 1")
    result: dict[str, Any] = {
        "tray_scan": measure_tray_scan(args.runs, LAYOUT),
        "tray_scan_four_on_one_slot": measure_tray_scan(args.runs, dict.fromkeys("UNO!", 2)),
        "button_to_motor": launcher_figures(args.samples),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for name in ("tray_scan", "tray_scan_four_on_one_slot"):
        r = result[name]
        print(
            f"{name}: {r['readers']} PN532 readers at {r['baud']} baud, towers {r['towers']}\n"
            f"  one full scan: median {r['scan_median_ms']} ms (p90 {r['scan_p90_ms']} ms) "
            f"over {r['runs']} scans\n"
            f"  wire-time bound of the {r['bytes_per_scan']} bytes exchanged: "
            f"{r['wire_bound_ms']} ms  ->  ratio {r['ratio']}"
        )
    launcher = result["button_to_motor"]
    if launcher is None:
        print("button_to_motor: bench/hal_launcher.py not present")
    else:
        print("button_to_motor: " + ", ".join(f"{k} {v}" for k, v in launcher.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
