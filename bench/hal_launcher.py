"""Latency from a launcher-button edge to the motor output switching on, on the twin.

The path is the production one: the button pin's edge -> gpiozero `Button` ->
`hal.seats.SeatPanel` callback -> `hal.launcher.Launcher.fire` (draw from the
model, aim the servo, check the hopper) -> the motor's forward pin goes high.
The twin runs on virtual time, so only the code path is measured (the servo's
settle time and the card travel are virtual); each sample aims at another seat,
so the servo move is on the path. The daemon adds its event-loop hop on top.

Then miscounts with stuck cards: many presses of the measured model on the twin, whose
cards darken the beam unevenly (each pulse ±15 %), with cards stuck together injected
on some presses (2 cards, now and then 3, shifted by 0-1 of a card's length). A press is
miscounted when the launcher's count differs from the cards that left the hopper; the
same pulses counted as edges (one per pulse, as before pulses were timed) are shown
beside it, for a launcher calibrated by selftest and for one that learned its card time.

    python bench/hal_launcher.py [samples] [presses]
"""

from __future__ import annotations

# Run as a script, this directory (with bench/hal.py) would shadow the `hal` package.
if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import random
import statistics
import sys
import time
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from hal.ejection import MeasuredModel
from hal.launcher import LauncherConfig
from hal.launcher import parse_config as parse_launcher
from hal.seats import parse_config as parse_seats
from hal.sim.clock import VirtualClock
from hal.sim.launcher import EXAMPLE_SECTION as LAUNCHER_SECTION
from hal.sim.launcher import SimLauncher
from hal.sim.seats import EXAMPLE_SECTION as SEATS_SECTION
from hal.sim.seats import SimSeats


def measure_button_to_motor(samples: int = 2000) -> dict[str, Any]:
    """Median and p99 (µs) from the button edge to the motor pin switching on."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples!r}")
    factory = MockFactory(pin_class=MockPWMPin)
    clock = VirtualClock()
    cfg = parse_launcher({**LAUNCHER_SECTION, "model": {"name": "fixed", "cards": 1}})
    twin = SimLauncher(cfg, factory=factory, clock=clock)
    twin.load(range(samples))
    seats = SimSeats(parse_seats(SEATS_SECTION), factory=factory)
    launcher = twin.launcher()
    panel = seats.panel()
    motor_on: list[int] = []
    forward = factory.pin(f"GPIO{cfg.motor_forward}")

    def stamp() -> None:
        if forward.state > 0:
            motor_on.append(time.perf_counter_ns())

    forward.observers.insert(0, stamp)  # before the twin's own physics
    turn = {"seat": 0}

    def on_press() -> None:
        launcher.fire(seat=turn["seat"])

    panel.on_launcher_press(on_press)
    latencies = []
    try:
        for i in range(samples):
            turn["seat"] = i % _seats(cfg)
            motor_on.clear()
            start = time.perf_counter_ns()
            seats.press_launcher()
            if len(motor_on) != 1:
                raise RuntimeError(f"press {i}: motor switched on {len(motor_on)} times")
            latencies.append((motor_on[0] - start) / 1000)
    finally:
        panel.close()
        launcher.close()
    if len(twin.exited) != samples:
        raise RuntimeError(f"{samples} presses but {len(twin.exited)} cards came out")
    latencies.sort()
    return {
        "samples": samples,
        "median_us": round(statistics.median(latencies), 1),
        "p99_us": round(latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], 1),
        "max_us": round(latencies[-1], 1),
    }


def measure_stuck_miscounts(presses: int = 5000, *, calibrated: bool = True,
                            stuck_rate: float = 0.1, jitter: float = 0.15,
                            seed: int = 1) -> dict[str, Any]:
    """Presses miscounted with stuck cards injected, by timed pulses and by edges alone."""
    if presses < 1:
        raise ValueError(f"presses must be at least 1, not {presses!r}")
    rng = random.Random(seed)
    twin_cfg = parse_launcher(LAUNCHER_SECTION)
    twin = SimLauncher(twin_cfg, factory=MockFactory(pin_class=MockPWMPin), clock=VirtualClock(),
                       pulse_jitter=jitter, rng=random.Random(seed + 1))
    if calibrated:  # what selftest measures on this twin, set as card_dark_s
        twin.config = parse_launcher({**LAUNCHER_SECTION, "card_dark_s": twin.pulse_s})
    model = MeasuredModel()
    out = {"presses": presses, "ejecting": 0, "stuck": 0, "detectable": 0, "cards": 0,
           "miscounted": 0, "overcounted": 0, "miscounted_detectable": 0,
           "miscounted_by_edges": 0}
    with twin.launcher() as launcher:
        for i in range(presses):
            cards = model.press(rng)
            if not cards:
                continue
            out["ejecting"] += 1
            offset = None
            if rng.random() < stuck_rate:
                offset = rng.random()
                twin.inject_stuck_cards(3 if rng.random() < 0.2 else 2, offset=offset)
                out["stuck"] += 1
                out["detectable"] += offset > twin.config.stuck_ratio - 1
            if len(twin.stack) < 20:
                twin.load(range(200))
            before = len(twin.exited)
            result = launcher.deal(cards, seat=i % _seats(twin.config))
            came_out = len(twin.exited) - before
            out["cards"] += came_out
            wrong = result.counted != came_out
            out["miscounted"] += wrong
            out["overcounted"] += result.counted > came_out
            out["miscounted_detectable"] += wrong and offset is not None \
                and offset > twin.config.stuck_ratio - 1
            out["miscounted_by_edges"] += len(result.dark_s) != came_out
    return out


def _seats(cfg: LauncherConfig) -> int:
    return max(1, len(cfg.seat_angles))


def main(argv: list[str]) -> int:
    samples = int(argv[1]) if len(argv) > 1 else 2000
    presses = int(argv[2]) if len(argv) > 2 else 5000
    result = measure_button_to_motor(samples)
    print(
        f"button edge -> motor on (twin, {result['samples']} presses): "
        f"median {result['median_us']} µs, p99 {result['p99_us']} µs, max {result['max_us']} µs"
    )
    for calibrated in (True, False):
        r = measure_stuck_miscounts(presses, calibrated=calibrated)
        print(
            f"stuck cards ({'calibrated' if calibrated else 'learned card time'}): "
            f"{r['presses']} presses, {r['ejecting']} ejected {r['cards']} cards, "
            f"{r['stuck']} with cards stuck together ({r['detectable']} shifted over half a "
            f"card); miscounted presses: {r['miscounted']} timed ({r['overcounted']} over, "
            f"{r['miscounted_detectable']} of the shifted), {r['miscounted_by_edges']} by edges"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
