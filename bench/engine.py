"""Benchmark the rules engine, and RLCard's UNO on the same workload.

    python bench/engine.py [--rounds N] [--seed S] [--repeat R] [--json] [--profile]

Shared workload (issue 2, point 11): 4-player classic rounds with known hands; the
policy plays a uniformly random playable card (a wild gets a random colour) and
draws only when no card is playable, which is RLCard's action set; a fixed seed.
Ours runs the full engine: every action is validated by ``apply`` (there is no way
to turn checks off), shuffles and the dealer's cards are explicit chance outcomes,
and our figure includes computing ``legal_actions`` before every decision (RLCard's
``step`` computes its legal actions for the next state too). Both sides shuffle with
numpy's ``RandomState`` (RLCard's own generator; ours through the injected chance rng)
and choose with ``random.Random``; runs of the two sides alternate. RLCard (``rlcard==1.2.0``,
the ``bench`` extra) is driven through ``UnoGame`` directly, not its env.

Per edition we also print our rounds/s and actions/s with the same policy (random
playable card, draw or press only when nothing is playable, random choices
elsewhere). ``--json`` prints ``{"ours_rounds_per_s", "rlcard_rounds_per_s", "ratio",
"editions": {...}}``. ``--profile`` prints the top of a cProfile of our classic run.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path[0] = str(_HERE.parent)

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

from uno_core import CHANCE, EDITIONS, Play, apply, legal_actions, new_match  # noqa: E402
from uno_core import actions as A  # noqa: E402
from uno_core.cards import DISCARD_ALL  # noqa: E402
from uno_core.chance import sample_outcome  # noqa: E402
from uno_core.state import State  # noqa: E402

WORKLOAD_SEATS = 4
NEVER_ENDS = {"target_score": 100000}  # rounds follow each other; the match never ends


# editions where a play can lay several cards (Discard All), so leave one card from three
_LAYS_SEVERAL = frozenset(name for name, ed in EDITIONS.items()
                          if any(c.kind == DISCARD_ALL for c in ed.deck))


def _choose(state: State, rng: random.Random) -> A.Action:
    """A uniformly random playable action (as RLCard: one per card, one per colour of a
    wild), calling UNO with the second-to-last card; else the one other thing to do."""
    seat = state.to_act
    legal = legal_actions(state)
    if (type(legal[0]) is Play and state.counts[seat] != 2 and state.exposed < 0
            and state.edition.name not in _LAYS_SEVERAL):
        # the usual turn, no play leaves one card: the engine lists the plays first,
        # then at most a draw or pass
        return legal[rng.randrange(len(legal) - (type(legal[-1]) is not Play))]
    # otherwise only the plays, each with the UNO call when it leaves one card
    left = state.counts[seat] - 1
    plays = [a for a in legal if type(a) is Play and a.uno == (left - len(a.laid) == 1)]
    if plays:
        return plays[rng.randrange(len(plays))]
    own = [a for a in legal if a.seat == seat and not isinstance(a, A.CallUno | A.Catch)]
    return own[rng.randrange(len(own))]


class ChanceRng(random.Random):
    """Our chance player's source: shuffles come from numpy's Mersenne Twister, the
    generator RLCard's ``UnoGame`` shuffles with (``np_random.shuffle``), so both sides
    pay the same for their one shuffle a round; launcher draws use ``random``."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        import numpy as np
        self._np = np.random.RandomState(seed)

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        self._np.shuffle(x)


def _chance_rng(seed: int) -> random.Random:
    try:
        return ChanceRng(seed)
    except ImportError:  # no numpy (hence no rlcard either): shuffle with random
        return random.Random(seed)


def run_ours(edition: str, rounds: int, seed: int) -> tuple[int, float]:
    """Play `rounds` rounds; return (actions applied, seconds)."""
    rng = random.Random(seed)
    chance = _chance_rng(seed)
    state = new_match(edition, WORKLOAD_SEATS, NEVER_ENDS)
    done = actions = 0
    start = time.perf_counter()
    while done < rounds:
        action = (sample_outcome(state, chance) if state.to_act == CHANCE
                  else _choose(state, rng))
        before = state.round_no
        state, _ = apply(state, action)
        actions += 1
        done += state.round_no != before  # the next round starts when one is over
    return actions, time.perf_counter() - start


def run_rlcard(rounds: int, seed: int) -> tuple[int, float] | str:
    """RLCard's UnoGame, same policy; (steps, seconds) or why it cannot run."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError as exc:
        return f"rlcard is not installed ({exc}); pip install 'unotable[bench]'"
    game = UnoGame(num_players=WORKLOAD_SEATS)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(rounds):
        state, _player = game.init_game()
        while not game.is_over():
            legal = state["legal_actions"]
            state, _player = game.step(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, time.perf_counter() - start


def _faster(best: Any, got: Any) -> Any:
    """The faster of two (count, seconds) results; a reason (str) wins, it ends the runs."""
    if isinstance(got, str) or best is None or isinstance(best, str) or got[1] < best[1]:
        return got
    return best


def _best(run: Callable[..., Any], repeat: int, *args: Any) -> Any:
    """The fastest of `repeat` identical runs (the others were disturbed by the machine)."""
    best = None
    for _ in range(max(1, repeat)):
        best = _faster(best, run(*args))
    return best


def _best_pair(repeat: int, rounds: int, seed: int) -> tuple[Any, Any]:
    """Ours and RLCard's, alternating run by run so a busy spell of the shared machine
    hits both sides alike; the fastest run of each counts."""
    ours = theirs = None
    for _ in range(max(1, repeat)):
        ours = _faster(ours, run_ours("classic", rounds, seed))
        if not isinstance(theirs, str):
            theirs = _faster(theirs, run_rlcard(rounds, seed))
    return ours, theirs


def _figures(actions: int, rounds: int, seconds: float) -> dict[str, float]:
    return {"rounds_per_s": round(rounds / seconds, 1),
            "actions_per_s": round(actions / seconds, 1),
            "actions_per_round": round(actions / rounds, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per run (2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per figure; the fastest counts (3)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", action="store_true", help="cProfile our classic run")
    args = parser.parse_args(argv)
    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.runcall(run_ours, "classic", args.rounds, args.seed)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return 0
    (ours_actions, ours_s), theirs_run = _best_pair(args.repeat, args.rounds, args.seed)
    ours = _figures(ours_actions, args.rounds, ours_s)
    result: dict[str, Any] = {"workload": f"{WORKLOAD_SEATS}-player classic rounds, random "
                                          f"playable card, seed {args.seed}",
                              "rounds": args.rounds,
                              "ours_rounds_per_s": ours["rounds_per_s"],
                              "ours_actions_per_s": ours["actions_per_s"]}
    if isinstance(theirs_run, str):
        result.update(rlcard_rounds_per_s=None, ratio=None, rlcard_error=theirs_run)
    else:
        theirs = _figures(theirs_run[0], args.rounds, theirs_run[1])
        result.update(rlcard_rounds_per_s=theirs["rounds_per_s"],
                      rlcard_actions_per_s=theirs["actions_per_s"],
                      ratio=round(ours["rounds_per_s"] / theirs["rounds_per_s"], 2))
    editions: dict[str, dict[str, float]] = {}
    per_edition = max(1, args.rounds // 4)
    for name in EDITIONS:
        n_actions, seconds = _best(run_ours, args.repeat, name, per_edition, args.seed)
        editions[name] = _figures(n_actions, per_edition, seconds)
    result["editions"] = editions
    if args.json:
        print(json.dumps(result, sort_keys=True))
        return 0
    print(f"workload: {result['workload']}, {args.rounds} rounds")
    print(f"ours   {ours['rounds_per_s']:>10.1f} rounds/s  {ours['actions_per_s']:>10.1f} "
          f"actions/s  ({ours['actions_per_round']} actions/round incl. chance)")
    if result["ratio"] is None:
        print(f"rlcard unavailable: {result['rlcard_error']}")
    else:
        print(f"rlcard {result['rlcard_rounds_per_s']:>10.1f} rounds/s  "
              f"{result['rlcard_actions_per_s']:>10.1f} actions/s")
        print(f"ratio  {result['ratio']:.2f} (ours / rlcard rounds per second; target >= 2)")
    print(f"per edition ({per_edition} rounds each, {WORKLOAD_SEATS} players):")
    for name, f in editions.items():
        print(f"  {name:<12} {f['rounds_per_s']:>9.1f} rounds/s {f['actions_per_s']:>10.1f} "
              f"actions/s  {f['actions_per_round']:>6.1f} actions/round")
    return 0


if __name__ == "__main__":
    sys.exit(main())
