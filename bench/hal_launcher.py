"""Latency from a launcher-button edge to the motor output switching on, on the twin.

The path is the production one: the button pin's edge -> gpiozero `Button` ->
`hal.seats.SeatPanel` callback -> `hal.launcher.Launcher.fire` (draw from the
model, aim the servo, check the hopper) -> the motor's forward pin goes high.
The twin runs on virtual time, so only the code path is measured (the servo's
settle time and the card travel are virtual); each sample aims at another seat,
so the servo move is on the path. The daemon adds its event-loop hop on top.

    python bench/hal_launcher.py [samples]
"""

from __future__ import annotations

# Run as a script, this directory (with bench/hal.py) would shadow the `hal` package.
if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import statistics
import sys
import time
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

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


def _seats(cfg: LauncherConfig) -> int:
    return max(1, len(cfg.seat_angles))


def main(argv: list[str]) -> int:
    samples = int(argv[1]) if len(argv) > 1 else 2000
    result = measure_button_to_motor(samples)
    print(
        f"button edge -> motor on (twin, {result['samples']} presses): "
        f"median {result['median_us']} µs, p99 {result['p99_us']} µs, max {result['max_us']} µs"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
