"""Long run: many simulated matches in one daemon process, and its memory over them.

    python bench/longrun.py [--matches N] [--variant V] [--json]

One `firmware.daemon.Daemon` (journal on disk with durable commits, loop, controller,
API) runs on the simulated twin inside this process (`firmware.sim.testbed.SimTable`),
and the seated bots play complete matches through it exactly as in `unotable demo
--fast` (they declare over HTTP, press the simulated buttons). When a match is over,
the next one starts with ``POST /api/admin/new-match``'s request (another seed each
time: the world shuffles, the launcher draws and the bots decide by it). The process's
RSS (VmRSS) is read after the first match (warm: imports, caches, first allocations)
and after the last; growth per match = (end - warm) / (matches - 1), the slope of a
least-squares line through every reading is printed too. Every match must end with
the world and the referee agreeing.

RSS counts the simulated hardware too, which keeps records a real table has not (the
mock pins' recent state changes, the launcher twin's recent cards and motor changes, the
PN532 twins' recent commands). Those records are bounded (`hal.sim.records`): they fill
during the first few matches and then keep their size, as do SQLite's page cache and
the allocator's arenas. So growth is judged on the second half of the run: the RSS
slope, the slope of Python's allocated heap blocks (`sys.getallocatedblocks`, a
count) and, with glibc, of the bytes malloc has handed out and not got back
(`mallinfo2`: SQLite's page cache, large Python objects; RSS also moves with the free
memory malloc keeps, up and down by a MB) over the second half's readings; every twin record's size and bound is printed
(`World.records`), and one without a bound is a failure.

After the measured matches, `--traced` more are played under tracemalloc (10 frames;
it slows Python down a lot) to warm it up, and `--traced` more after a snapshot: what
those allocated and still hold is split by who allocated it, the twin (any frame in
hal/sim, firmware/sim or gpiozero's mock pins) or the daemon and everything else. The
warm-up matters: a bounded record drops an entry allocated before tracing began for
each new one it keeps, and tracemalloc sees only the new one, so without it a full
record looks like growth.

The issue's full figure is 1,000 matches (about an hour on a busy 2-core machine):
``python bench/longrun.py --matches 1000``.
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import gc
import sys
import time
import tracemalloc
from typing import Any

from bench.common import (
    Figure,
    Result,
    at_most,
    exactly,
    machine_load,
    progress,
    report,
    rss_mb,
    workdir,
)

JUDGED_FROM = 20  # matches: fewer leave too few readings in the second half to judge
GROWTH_KB_PER_MATCH = 20.0  # an allowance for noise; a leak of one match's game is ~100 kB
TWIN_CODE = ("/hal/sim/", "/firmware/sim/", "/gpiozero/pins/mock.py")
MATCH_TIMEOUT_S = 600


def slope(ys: list[float]) -> float:
    """Least-squares slope of ys against 0, 1, 2, ..."""
    n = len(ys)
    if n < 2:
        return 0.0
    mx, my = (n - 1) / 2, sum(ys) / n
    return sum((x - mx) * (y - my) for x, y in enumerate(ys)) / sum((x - mx) ** 2
                                                                  for x in range(n))


def heap_growth(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot) -> dict[str, Any]:
    """Bytes the heap grew by, split into the twin's and the rest; the biggest of each."""
    split = {"twin": 0, "daemon": 0}
    top: dict[str, list[tuple[int, str]]] = {"twin": [], "daemon": []}
    for stat in after.compare_to(before, "traceback"):
        frames = [f.filename for f in stat.traceback]
        who = "twin" if any(part in f for f in frames for part in TWIN_CODE) else "daemon"
        split[who] += stat.size_diff
        origin = stat.traceback[-1]  # the innermost frame
        top[who].append((stat.size_diff, f"{origin.filename.split('/')[-1]}:{origin.lineno}"))
    return {**split, "top": {k: [f"{where} {size // 1024:+d} KiB" for size, where in
                                 sorted(v, reverse=True)[:5]] for k, v in top.items()}}


def malloc_in_use_kb() -> float | None:
    """kB that glibc's malloc has handed out and not got back (every arena), or None
    without glibc."""
    import ctypes

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
            "uordblks", "fordblks", "keepcost")]

    try:
        mallinfo2 = ctypes.CDLL("libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return None
    mallinfo2.restype = MallInfo2
    info = mallinfo2()
    return (info.uordblks + info.hblkhd) / 1024


def play_match(table: Any, k: int, seed: int) -> dict[str, Any]:
    """Match number `k` (0-based) of a long run on `table` (a `SimTable`): the first is
    the one the daemon started with; each later one starts with ``new-match`` and its
    own seed (the world shuffles, the launcher draws and the bots decide by it). Plays
    it to the end and returns the settled public state."""
    from firmware.api import requests as api

    bots = table.bots
    if k:
        match_seed = seed + k
        table.seed = table.world.seed = bots.seed = match_seed
        table.submit(api.Admin("new-match", {"seed": match_seed}))
    table.on_loop(bots._run, timeout=MATCH_TIMEOUT_S)
    st: dict[str, Any] = table.settle()
    if not st["match"] or st["waiting"]["kind"] != "match-over":
        raise RuntimeError(f"match {k + 1} did not end: {st['waiting']}")
    return st


def second_half_slope(ys: list[float]) -> float:
    """The slope over the second half of the readings (the first half fills caches and
    the twin's bounded records)."""
    return slope(ys[len(ys) // 2:])


def long_run(matches: int, variant: str, seed: int, traced: int = 3) -> dict[str, Any]:
    """`matches` matches measured by RSS, then 2 x `traced` more under tracemalloc."""
    from firmware.sim.testbed import SimTable

    readings: list[float] = []
    blocks: list[int] = []
    in_use: list[float] = []
    disagreements: list[str] = []
    actions = 0
    heap: dict[str, Any] = {}
    t0 = time.monotonic()
    with workdir("longrun") as tmp:
        table = SimTable(tmp, variant, 4, seed=seed)
        assert table.bots is not None

        def play(k: int) -> int:
            st = play_match(table, k, seed)
            if table.world.check(st) or not table.world.agree:
                disagreements.append(f"match {k + 1}: {table.world.mismatches[:3]}")
            table.events.clear()  # the test bed's own record of events, not the daemon's
            gc.collect()
            return int(st["step"])

        try:
            for k in range(matches):
                actions += play(k)
                readings.append(rss_mb())
                blocks.append(sys.getallocatedblocks())
                malloc_kb = malloc_in_use_kb()
                if malloc_kb is not None:
                    in_use.append(malloc_kb)
                if k == 0 or (k + 1) % max(1, matches // 10) == 0 or k + 1 == matches:
                    progress(f"longrun: {k + 1}/{matches} matches, RSS {readings[-1]:.1f} MB, "
                             f"{time.monotonic() - t0:.0f} s")
            records = table.world.records()
            if traced:
                progress(f"longrun: {2 * traced} more matches under tracemalloc")
                tracemalloc.start(10)
                for k in range(matches, matches + traced):
                    play(k)  # warm-up: see the module's docstring
                gc.collect()
                before = tracemalloc.take_snapshot()
                for k in range(matches + traced, matches + 2 * traced):
                    play(k)
                gc.collect()
                heap = heap_growth(before, tracemalloc.take_snapshot())
                tracemalloc.stop()
        finally:
            status = table.stop()
    wall = time.monotonic() - t0
    per_match = (readings[-1] - readings[0]) * 1024 / (matches - 1) if matches > 1 else 0.0
    return {"matches": matches, "variant": variant, "seed": seed, "wall_s": round(wall, 1),
            "actions": actions, "rss_first_mb": round(readings[0], 2),
            "rss_last_mb": round(readings[-1], 2), "rss_max_mb": round(max(readings), 2),
            "growth_kb_per_match": round(per_match, 2),
            "slope_kb_per_match": round(slope(readings) * 1024, 2),
            "late_slope_kb_per_match": round(second_half_slope(readings) * 1024, 2),
            "late_blocks_per_match": round(second_half_slope([float(b) for b in blocks]), 1),
            "late_malloc_kb_per_match": round(second_half_slope(in_use), 2) if in_use else None,
            "malloc_in_use_kb": [round(m) for m in in_use],
            "records": {name: list(v) for name, v in records.items()},
            "traced_matches": traced,
            "heap_twin_kb_per_match": round(heap["twin"] / 1024 / traced, 2) if heap else None,
            "heap_daemon_kb_per_match": round(heap["daemon"] / 1024 / traced, 2)
            if heap else None,
            "heap_top": heap.get("top"),
            "disagreements": disagreements, "stop_status": status,
            "readings_mb": [round(r, 2) for r in readings]}


def run(quick: bool = False, *, matches: int | None = None, variant: str = "classic",
        seed: int = 1, traced: int | None = None) -> Result:
    matches = matches if matches is not None else (3 if quick else 100)
    progress(f"longrun: {matches} {variant} matches in one daemon")
    traced = traced if traced is not None else (1 if quick else 3)
    r = long_run(matches, variant, seed, traced)
    result = Result("longrun")
    result.add(Figure("matches in one daemon", r["matches"]))
    result.add(Figure("actions", r["actions"]))
    result.add(Figure("wall time", r["wall_s"], "s"))
    result.add(Figure("RSS after first match", r["rss_first_mb"], "MB"))
    result.add(Figure("RSS after last match", r["rss_last_mb"], "MB"))
    if matches > 1:
        result.add(Figure("RSS growth per match (last - first, twin included)",
                          r["growth_kb_per_match"], "kB"))
        result.add(Figure("RSS slope per match (least squares)", r["slope_kb_per_match"], "kB"))
        late = f"second half, matches {matches // 2 + 1}-{matches}"
        if matches >= JUDGED_FROM:
            result.add(at_most(f"RSS slope per match ({late})", r["late_slope_kb_per_match"],
                               GROWTH_KB_PER_MATCH, "kB"))
        else:
            result.add(Figure(f"RSS slope per match ({late})", r["late_slope_kb_per_match"], "kB"))
        result.add(Figure(f"Python heap blocks per match ({late})",
                          r["late_blocks_per_match"], "blocks"))
        if r["late_malloc_kb_per_match"] is not None:
            result.add(Figure(f"malloc in use per match ({late})",
                              r["late_malloc_kb_per_match"], "kB"))
        if r["heap_daemon_kb_per_match"] is not None:
            result.add(Figure("heap growth per match: simulated hardware",
                              r["heap_twin_kb_per_match"], "kB"))
            result.add(at_most("heap growth per match: daemon and the rest",
                               r["heap_daemon_kb_per_match"], GROWTH_KB_PER_MATCH, "kB"))
    records = r["records"]
    full = sum(1 for kept, bound in records.values() if bound is not None and kept >= bound)
    result.add(Figure("twin records full (at their bound) / all", f"{full}/{len(records)}"))
    result.add(exactly("twin records without a bound",
                       sum(1 for _kept, bound in records.values() if bound is None), 0))
    result.add(exactly("matches where world and referee disagreed", len(r["disagreements"]), 0))
    result.add(exactly("daemon's exit status at the end", r["stop_status"], 0))
    result.detail = {**r, "load": machine_load()}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, help="matches to play (100; --quick 3; "
                        "the issue's full figure: 1000)")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--traced", type=int, help="matches played afterwards under "
                        "tracemalloc to split the heap's growth (3; --quick 1; 0: none)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if (args.matches is not None and args.matches < 1) or (args.traced or 0) < 0:
        parser.error("--matches must be at least 1 and --traced not negative")
    return report(run(args.quick, matches=args.matches, variant=args.variant, seed=args.seed,
                      traced=args.traced), args.json)


if __name__ == "__main__":
    sys.exit(main())
