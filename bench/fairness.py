"""Launcher fairness: presses of each ejection model against the model's own distribution.

    python bench/fairness.py [--presses N] [--twin-presses M] [--seed S] [--json]

For each model (`measured`, `fixed`, `geometric`, `table`; hal.ejection), N presses
drawn with `hal.ejection.observe` (a seeded `random.Random`) give the observed cards
per press, cards per ejection and presses between ejections; `chi_square` (pooling
bins to >= 5 expected) compares each with the model's theory and prints its p-value.
A fair launcher's p-values are spread uniformly over 0..1; the target p >= 0.001 for
each of the 12 tests fails a correct model with a chance of about 1 % per run (the run
is seeded, so a given seed passes or fails every time).

Through the twin: M presses of the production `hal.launcher.Launcher` on the simulated
launcher (mock pins, virtual clock): the model draws, the motor runs, the exit sensor
counts the cards that really left the hopper; the counted cards per press are tested
the same way, so what reaches the table is what the model promises.
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import random
import sys
from typing import Any

from bench.common import (
    Figure,
    Result,
    at_least,
    exactly,
    machine_load,
    progress,
    report,
)

MODELS: dict[str, dict[str, Any]] = {
    "measured": {"name": "measured"},
    "fixed": {"name": "fixed", "cards": 2},
    "geometric": {"name": "geometric", "p_eject": 0.4, "p_more": 0.6, "max_cards": 13},
    "table": {"name": "table", "probabilities": [0.5, 0.2, 0.15, 0.1, 0.05]},
}
P_MIN = 0.001


def model_fit(section: dict[str, Any], presses: int, seed: int) -> dict[str, Any]:
    from hal.ejection import observe, parse_model_config

    model = parse_model_config(section).build()
    obs = observe(model, random.Random(f"{seed}:{section['name']}"), presses)
    fit = obs.fit(model)
    return {"presses": presses, "ejections": obs.ejections, "cards": obs.cards,
            "fit": {k: None if v is None else {"chi2": round(v[0], 2), "df": v[1],
                                                "p": round(v[2], 4)} for k, v in fit.items()}}


def twin_fit(section: dict[str, Any], presses: int, seed: int) -> dict[str, Any]:
    """Presses of the production Launcher on the simulated launcher; the exit sensor's
    count per press against the model's cards-per-press distribution."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from hal.ejection import chi_square
    from hal.launcher import parse_config
    from hal.sim.clock import VirtualClock
    from hal.sim.launcher import EXAMPLE_SECTION, SimLauncher

    cfg = parse_config({**EXAMPLE_SECTION, "model": section})
    twin = SimLauncher(cfg, factory=MockFactory(pin_class=MockPWMPin), clock=VirtualClock())
    launcher = twin.launcher(rng=random.Random(f"{seed}:twin:{section['name']}"))
    counted: dict[int, int] = {}
    drawn_total = 0
    try:
        for i in range(presses):
            if len(twin.stack) < 2 * cfg.max_cards:
                twin.load(range(i * 1000, i * 1000 + 500))
            result = launcher.fire(seat=0)
            if result.status != "ok":
                raise RuntimeError(f"press {i}: {result}")
            drawn_total += result.requested
            counted[result.counted] = counted.get(result.counted, 0) + 1
    finally:
        launcher.close()
    expected = launcher.model.cards_per_press()
    chi2, df, p = chi_square(counted, expected, open_tail=True)
    return {"presses": presses, "cards_counted": sum(k * c for k, c in counted.items()),
            "cards_drawn": drawn_total, "chi2": round(chi2, 2), "df": df, "p": round(p, 4)}


def run(quick: bool = False, *, presses: int | None = None, twin_presses: int | None = None,
        seed: int = 1) -> Result:
    presses = presses if presses is not None else (10_000 if quick else 100_000)
    twin_presses = twin_presses if twin_presses is not None else (300 if quick else 5_000)
    result = Result("fairness")
    models: dict[str, Any] = {}
    for name, section in MODELS.items():
        progress(f"fairness: {presses} presses of the {name} model")
        m = models[name] = model_fit(section, presses, seed)
        for dist, fit in m["fit"].items():
            if fit is None:
                result.add(Figure(f"{name}: {dist}", "nothing observed"))
            else:
                result.add(at_least(f"{name}: {dist} p (chi2 {fit['chi2']}, df {fit['df']})",
                                    fit["p"], P_MIN))
    twin: dict[str, Any] = {}
    for name, section in MODELS.items():
        progress(f"fairness: {twin_presses} presses of the {name} model on the launcher twin")
        t = twin[name] = twin_fit(section, twin_presses, seed)
        result.add(at_least(f"twin {name}: counted cards per press p (chi2 {t['chi2']}, "
                            f"df {t['df']})", t["p"], P_MIN))
        result.add(exactly(f"twin {name}: cards counted = cards drawn",
                           t["cards_counted"] == t["cards_drawn"], True))
    result.detail = {"presses": presses, "twin_presses": twin_presses, "seed": seed,
                     "models": models, "twin": twin, "load": machine_load()}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, help="presses per model (100000; --quick 10000)")
    parser.add_argument("--twin-presses", type=int,
                        help="presses per model through the launcher twin (5000; --quick 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if (args.presses is not None and args.presses < 1) or \
            (args.twin_presses is not None and args.twin_presses < 1):
        parser.error("--presses and --twin-presses must be at least 1")
    return report(run(args.quick, presses=args.presses, twin_presses=args.twin_presses,
                      seed=args.seed), args.json)


if __name__ == "__main__":
    sys.exit(main())
