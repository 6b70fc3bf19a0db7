"""Serial soak: the tower tray's readers misbehave for a while under the running daemon.

    python bench/serial_soak.py [--seconds T] [--seed S] [--json]

The real daemon (`firmware.sim.testbed.SimTable`: journal, loop, controller, API, the
production `Tray` and its watcher thread polling PN532 twins on ptys) runs a Power
match at 4 seats. For `T` seconds, random events drawn from `random.Random(S)` hit the
simulated readers (`hal.sim.pn532.SimPN532`): line damage to the next answers (noise
bytes, a flipped bit, a bad checksum, a dropped byte), NACKs, error frames, silence
(a command never answered), a reader unplugged and replugged later, and towers lifted
and put down on other slots (each such move without a capture raises the table's
alarm; moving it back clears it).

Then the faults stop, every reader is plugged in, every tower goes back where the
referee says it stands, and the tray must report exactly that (`towers_seen` equal to
the physical positions, no alarm) with the daemon still running and every reader
healthy. Figures: faults by kind, unplugs, tower moves, the driver's counts of bad
frames, timeouts and reconnects, alarms raised and cleared.
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import random
import sys
import time
from collections import Counter
from typing import Any

from bench.common import (
    Figure,
    Result,
    at_least,
    exactly,
    machine_load,
    progress,
    report,
    workdir,
)

LINE_FAULTS = ("garbage", "bitflip", "bad_checksum", "drop", "nack", "error", "silence")
SETTLE_S = 30.0


def _reader_totals(health: dict[str, Any]) -> dict[str, int]:
    totals: Counter[str] = Counter()
    for status in health["tray"]["readers"].values():
        for key in ("frames_ok", "frames_bad", "timeouts", "reconnects", "resends", "nacks_sent"):
            totals[key] += int(status.get(key) or 0)
    return dict(totals)


def soak(seconds: float, seed: int) -> dict[str, Any]:
    from firmware.sim.testbed import SimTable

    rng = random.Random(seed)
    faults: Counter[str] = Counter()
    unplugs = moves = 0
    with workdir("serial") as tmp:
        table = SimTable(tmp, "power", 4, seed=seed)
        try:
            world = table.world
            readers = world.tray_sim.readers
            slots = list(readers)
            true_slot = {t: s for t, s in world.towers.items()}  # where the referee has them
            start = time.monotonic()
            table.wait_for(lambda st: all(st["towers_seen"][t] == s
                                          for t, s in true_slot.items()), timeout=SETTLE_S)
            unplugged: dict[Any, float] = {}  # slot -> when to replug
            while (now := time.monotonic()) < start + seconds:
                for slot, when in list(unplugged.items()):
                    if now >= when:
                        readers[slot].replug()
                        del unplugged[slot]
                roll = rng.random()
                slot = rng.choice(slots)
                if roll < 0.70:
                    kind = rng.choice(LINE_FAULTS)
                    readers[slot].inject(kind, rng.randint(1, 3))
                    faults[kind] += 1
                elif roll < 0.80 and slot not in unplugged:
                    readers[slot].unplug()
                    unplugged[slot] = now + rng.uniform(0.05, 1.0)
                    unplugs += 1
                else:
                    tower = rng.choice(sorted(world.towers))
                    target = rng.choice(slots) if rng.random() < 0.7 else true_slot[tower]
                    world.move_tower(tower, target)
                    moves += 1
                time.sleep(rng.uniform(0.005, 0.05))
            progress("serial soak: faults stop; readers plugged in, towers put back")
            for reader in readers.values():
                if not reader.plugged:
                    reader.replug()
                reader.clear_faults()
            for tower, slot in true_slot.items():
                world.move_tower(tower, slot)
            try:
                final = table.wait_for(
                    lambda st: st["towers_seen"] == {t: true_slot.get(t) for t in st["towers_seen"]}
                    and st["alarm"] is None
                    and all(r["ok"] for r in table.call(table.controller.health)["tray"]["readers"]
                            .values()), timeout=SETTLE_S)
                settled = True
            except TimeoutError:
                final, settled = table.state(), False
            health = table.call(table.controller.health)
            alive = not table.daemon.loop.closed and table._thread.is_alive()
            kinds = Counter(e.get("kind") for e in table.events)
            tray_events = Counter(e.get("event") for e in table.events if e.get("kind") == "tray")
        finally:
            status = table.stop()
    return {"seconds": seconds, "faults": dict(faults), "unplugs": unplugs, "moves": moves,
            "settled": settled, "alive": alive, "stop_status": status,
            "towers_seen": final.get("towers_seen"), "towers_true": true_slot,
            "readers": _reader_totals(health), "health_ok": health["ok"],
            "alarms": kinds["alarm"], "alarms_cleared": kinds["alarm_cleared"],
            "reader_down": tray_events["ReaderDown"], "reader_up": tray_events["ReaderUp"]}


def run(quick: bool = False, *, seconds: float | None = None, seed: int = 1) -> Result:
    seconds = seconds if seconds is not None else (5.0 if quick else 120.0)
    progress(f"serial soak: {seconds:g} s of faults under the daemon (seed {seed})")
    r = soak(seconds, seed)
    result = Result("serial_soak")
    result.add(Figure("soak time", r["seconds"], "s"))
    result.add(Figure("line faults injected", sum(r["faults"].values())))
    result.add(Figure("unplug/replug", r["unplugs"]))
    result.add(Figure("towers moved by hand", r["moves"]))
    result.add(at_least("bad frames counted by the driver", r["readers"].get("frames_bad", 0), 1))
    result.add(Figure("timeouts", r["readers"].get("timeouts", 0)))
    result.add(Figure("reconnects", r["readers"].get("reconnects", 0)))
    result.add(Figure("reader down/up events", f"{r['reader_down']}/{r['reader_up']}"))
    result.add(Figure("alarms raised/cleared", f"{r['alarms']}/{r['alarms_cleared']}"))
    result.add(exactly("tray ends in the true state", r["settled"], True))
    result.add(exactly("daemon still running", r["alive"], True))
    result.add(exactly("daemon's exit status at the end", r["stop_status"], 0))
    result.detail = {**r, "seed": seed, "load": machine_load()}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, help="soak time (120; --quick 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.seconds is not None and args.seconds <= 0:
        parser.error("--seconds must be positive")
    return report(run(args.quick, seconds=args.seconds, seed=args.seed), args.json)


if __name__ == "__main__":
    sys.exit(main())
