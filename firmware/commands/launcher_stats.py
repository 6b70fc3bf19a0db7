"""`unotable launcher-stats`: press a simulated launcher many times and show that it is fair.

    unotable launcher-stats --model measured --presses 10000 --seed 1
    unotable launcher-stats --model table --table 0.5,0.3,0.2 --presses 5000 --json

Prints, for cards per press and for presses between ejections, the observed share
next to the model's theoretical one with a terminal histogram, and a chi-square
test of each; ``--json`` prints the same as one object.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from firmware.errors import UsageError

MODELS = ("measured", "fixed", "geometric", "table")
MAX_PRESSES = 10_000_000
BAR_WIDTH = 40
# model option -> the CLI flag that sets it (config errors are reported by flag)
FLAGS = {
    "name": "--model",
    "cards": "--cards",
    "p_eject": "--p-eject",
    "p_more": "--p-more",
    "max_cards": "--max-cards",
    "probabilities": "--table",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "launcher-stats",
        help="simulate presses of the launcher and show the distribution of cards",
        description="Draw N presses from an ejection model and print the observed "
        "distribution of cards per press and of presses between ejections, next to "
        "the model's theory, with a chi-square fit.",
    )
    parser.add_argument("--model", choices=MODELS, default="measured", help="ejection model")
    parser.add_argument("--presses", type=int, default=1000, metavar="N", help="presses")
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="seed (default: OS entropy)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--cards", type=int, metavar="K",
                        help="fixed: cards per press (default: 1)")
    parser.add_argument("--p-eject", type=float, metavar="P",
                        help="geometric: P(press ejects) (default: 0.4)")
    parser.add_argument("--p-more", type=float, metavar="P",
                        help="geometric: P(one more card) (default: 0.6)")
    parser.add_argument("--max-cards", type=int, metavar="K",
                        help="geometric: most cards (default: 13)")
    parser.add_argument(
        "--table", metavar="P0,P1,...",
        help="table: probability of 0, 1, 2, ... cards (no default: needed by --model table)"
    )
    parser.set_defaults(func=run)


def _model_section(args: argparse.Namespace) -> dict[str, Any]:
    section: dict[str, Any] = {"name": args.model}
    for option in ("cards", "p_eject", "p_more", "max_cards"):
        if getattr(args, option) is not None:
            section[option] = getattr(args, option)
    if args.table is not None:
        try:
            section["probabilities"] = [float(p) for p in args.table.split(",")]
        except ValueError:
            raise UsageError(
                f"--table must be numbers separated by commas, not {args.table!r}"
            ) from None
    return section


def build_model(args: argparse.Namespace) -> Any:
    from hal.ejection import parse_model_config
    from hal.errors import ConfigError

    try:
        return parse_model_config(_model_section(args), path="").build()
    except ConfigError as exc:
        option = exc.key.split("[")[0]
        flag = FLAGS.get(option, option)
        if exc.message == "unknown option":
            raise UsageError(f"{flag} does not apply to --model {args.model}") from None
        if exc.message == "is required":
            raise UsageError(f"--model {args.model} needs {flag}") from None
        raise UsageError(f"{flag}: {exc.message}") from None


def run(args: argparse.Namespace) -> int:
    from hal.ejection import DISTRIBUTIONS, observe

    if not 1 <= args.presses <= MAX_PRESSES:
        raise UsageError(f"--presses must be 1..{MAX_PRESSES}, not {args.presses}")
    model = build_model(args)
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    seen = observe(model, rng, args.presses)
    fits = seen.fit(model)
    report = {
        "model": model.describe(),
        "presses": seen.presses,
        "seed": args.seed,
        "ejections": seen.ejections,
        "cards": seen.cards,
        "max_presses_between": max(seen.presses_between, default=None),
    }
    for name in DISTRIBUTIONS:
        fit = fits[name]
        report[name] = {
            "observed": {str(k): v for k, v in getattr(seen, name).items()},
            "expected": {str(k): p for k, p in getattr(model, name)().items()},
            "fit": None
            if fit is None
            else dict(zip(("chi_square", "df", "p_value"), fit, strict=True)),
        }
    if args.json:
        print(json.dumps(report))
    else:
        print(render(report))
    return 0


TITLES = {
    "cards_per_press": "cards per press",
    "cards_per_ejection": "cards per ejection",
    "presses_between": "presses between ejections",
}


def render(report: dict[str, Any]) -> str:
    seed = "OS entropy" if report["seed"] is None else f"seed {report['seed']}"
    presses = report["presses"]
    lines = [
        f"model {report['model']['name']}, {presses} presses, {seed}: "
        f"{report['ejections']} ejections, {report['cards']} cards "
        f"({report['cards'] / presses:.2f} per press)"
    ]
    for name in ("cards_per_press", "presses_between"):
        data = report[name]
        lines += ["", f"{TITLES[name]:<{BAR_WIDTH + 5}}observed  expected"]
        lines += _histogram(data["observed"], data["expected"])
    lines.append("")
    for name in ("cards_per_press", "presses_between"):
        fit = report[name]["fit"]
        title = TITLES[name]
        if fit is None:
            lines.append(f"fit of {title}: nothing to test")
        else:
            lines.append(
                f"fit of {title}: chi-square {fit['chi_square']:.2f} with {fit['df']} df, "
                f"p = {fit['p_value']:.3f}"
                + (
                    "  (a fair launcher falls below 0.001 once in 1000 runs)"
                    if fit["p_value"] < 0.001
                    else ""
                )
            )
    return "\n".join(lines)


def _histogram(observed: dict[str, int], expected: dict[str, float]) -> list[str]:
    total = sum(observed.values())
    if not total:
        return ["  (none)"]
    counts = {int(k): v for k, v in observed.items()}
    theory = {int(k): p for k, p in expected.items()}
    # one row per value seen or expected at least 0.1 % of the time; the rest in one row
    last = max([*counts, *(k for k, p in theory.items() if p >= 0.001)])
    rows: list[tuple[str, float, float | None]] = [
        (str(k), counts.get(k, 0) / total, theory.get(k))
        for k in range(min([*counts, *theory]), last + 1)
    ]
    tail = sum(p for k, p in theory.items() if k > last)
    if tail:
        rows.append((f"{last + 1}+", 0.0, tail))
    top = max(max(share for _, share, _ in rows), max(theory.values(), default=0))
    out = []
    for label, share, want in rows:
        bar = "#" * round(BAR_WIDTH * share / top)
        want_text = "" if want is None else f"{100 * want:6.1f}%"
        out.append(f"{label:>3} |{bar:<{BAR_WIDTH}} {100 * share:6.1f}%   {want_text}")
    return out
