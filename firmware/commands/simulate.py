"""`unotable simulate`: play full bot matches (to 500) and print a summary.

    unotable simulate                      (one classic match, 4 players, seed 0)
    unotable simulate --variant power --players 4 --games 100 --seed 1
    unotable simulate --variant attack --players 3 --games 5 --seed 7 --json --record out/
    unotable simulate --variant classic --players 2 --record out/ --effects
    unotable simulate --variant classic --players 4 --option stack_draws=cross \
        --option no_action_finish=true

Same arguments, same output: every match is seeded from --seed and its index.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from firmware.errors import UsageError

BOT_NAMES = ("heuristic", "random")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play full bot matches and print a summary",
        description="Play GAMES full matches (to the target score, 500) of VARIANT between "
        "bots and print rounds, turns, errors and wins per seat. Deterministic per --seed.",
    )
    parser.add_argument("--variant", default="classic",
                        help="edition: classic, power, attack, attack-1999, extreme")
    parser.add_argument("--players", type=int, default=4, help="seats at the table")
    parser.add_argument("--games", type=int, default=1, help="matches to play")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    parser.add_argument("--bot", choices=BOT_NAMES, default="heuristic",
                        help="who plays every seat")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--record", metavar="DIR",
                        help="write one game record per match into DIR (created if "
                        "missing; default: no records)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="set an option of the edition (house rules too), e.g. "
                        "stack_draws=cross or forced_play=true; repeatable")
    parser.add_argument("--effects", action="store_true",
                        help="with --record: store every action's effects in the records "
                        "(what the table did; replaying checks them line by line)")
    parser.set_defaults(func=run)


class _ProgressBar:
    """A one-line bar on stderr, redrawn as matches finish."""

    WIDTH = 30

    def __init__(self, stream: object) -> None:
        self.stream = stream

    def __call__(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // total
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        end = "\n" if done == total else ""
        print(f"\r[{bar}] {done}/{total} matches", end=end, file=self.stream, flush=True)  # type: ignore[call-overload]


def run(args: argparse.Namespace) -> int:
    from firmware.simulate import check_arguments, simulate
    from uno_core.errors import OptionError
    from uno_core.options import option_from_text

    options: dict[str, object] = {}
    try:
        for text in args.option:
            name, value = option_from_text(text)
            options[name] = value
        check_arguments(args.variant, args.players, args.games, args.bot, options)
    except OptionError as exc:
        raise UsageError(f"--option {exc}") from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    record_dir: Path | None = None
    if args.record:
        record_dir = Path(args.record)
        try:
            record_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--record {args.record}: {exc.strerror}") from None
    elif args.effects:
        raise UsageError("--effects stores effects in the records: it needs --record DIR")

    def write(index: int, text: str) -> None:
        assert record_dir is not None
        name = f"{args.variant}-p{args.players}-s{args.seed}-{index:04d}.jsonl"
        (record_dir / name).write_text(text, encoding="utf-8")

    progress = _ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    summary = simulate(args.variant, args.players, args.games, args.seed, bot=args.bot,
                       on_match=write if record_dir is not None else None,
                       on_progress=progress, record_effects=args.effects,
                       options=options)
    if args.json:
        print(json.dumps(summary.to_json(), sort_keys=True))
    else:
        print(summary.to_text())
    return 1 if summary.errors else 0
