"""Regenerate the golden game records in tests/uno_core/golden/.

    python -m tests.uno_core.regen_golden          # rewrite every golden record
    python -m tests.uno_core.regen_golden classic  # only some

Each record is one seeded match between heuristic bots that sometimes forget UNO,
with every action's effects and the result stored, so that test_golden.py catches any
change in what the engine does. Regenerate only for an intended rule change, and
review the diff.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from uno_core.bots import HeuristicBot, play_match
from uno_core.record import write_record

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
# name -> (edition, seats, mode, options, seed)
GOLDEN: dict[str, tuple[str, int, str, dict[str, object], int]] = {
    "classic": ("classic", 3, "simulation", {"target_score": 150}, 1),
    # classic with seed 000's catch window: the catches and late calls of the old default
    "classic-catch": ("classic", 3, "simulation",
                      {"target_score": 150, "forgotten_uno": "catch"}, 1),
    "power": ("power", 3, "simulation", {"target_score": 400}, 1),
    "attack": ("attack", 3, "simulation", {"target_score": 150}, 1),
    "attack-1999": ("attack-1999", 3, "simulation", {"target_score": 150}, 1),
    "extreme": ("extreme", 3, "simulation", {"target_score": 300}, 1),
    "power-table": ("power", 3, "table", {"target_score": 200}, 2),
}


def golden_record(name: str) -> str:
    edition, seats, mode, options, seed = GOLDEN[name]
    rng = random.Random(seed)
    bots = [HeuristicBot(rng, forget_uno=0.3) for _ in range(seats)]
    log = play_match(edition, seats, bots, rng, options=options, mode=mode)
    return write_record(edition, seats, log.actions, options=options, mode=mode, seed=seed,
                        meta={"bots": "heuristic", "forget_uno": 0.3},
                        effects=log.effects, final=log.state)


def main(argv: list[str]) -> int:
    names = argv or list(GOLDEN)
    unknown = [n for n in names if n not in GOLDEN]
    if unknown:
        print(f"unknown golden record {unknown[0]!r} (known: {', '.join(GOLDEN)})",
              file=sys.stderr)
        return 2
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name in names:
        path = GOLDEN_DIR / f"{name}.jsonl"
        text = golden_record(name)
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
