"""Benchmark the rules engine, and RLCard's UNO on the same workload.

    python bench/engine.py [--rounds N] [--seed S] [--repeat R] [--clock cpu|wall] [--json]
                           [--profile]

Shared workload (issue 2, point 11; issue 11, point 4): 4-player classic rounds with
known hands, a fixed seed. The policy (`choose`) picks uniformly among the plays that
``legal_actions`` lists for the seat to act (a wild once per colour; a play that leaves
one card with the UNO call), otherwise among that seat's other actions (draw, pass...).
RLCard's action set is the same in kind: its plays, or a draw when nothing fits.

* The checked path (``ours``, ``ratio``): ``legal_actions`` before every decision and
  ``apply`` validating every action; shuffles and the dealer's cards are explicit chance
  outcomes. No shortcut: nothing is skipped because a list has one entry or a known order.
  Effects are off (``apply(state, action, effects=False)``, the simulation's call; RLCard
  builds none); ``ours_with_effects`` / ``ratio_with_effects`` time the same path
  building every effect, in the same run.
* ``ours_own_policy`` / ``ratio_own_policy``: the same checked path with the policy
  written here over the public ``legal_actions`` (`own_policy`: no ``choose_random``,
  no memo on the engine's listings), as a caller would write it; the same games
  (``own_policy_same_games``).
* The simulation kernel (``simulate``, ``simulate_ratio``): the engine's kernel
  (`simulation_kernel`, contract there) plays the same games from the same seeds;
  ``simulate_same_games`` checks the action counts agree.
* RLCard (``rlcard==1.2.0``, the ``bench`` extra) through ``UnoGame`` directly, not its
  env; its ``step`` computes the next legal actions too.

Both sides shuffle with numpy's ``RandomState`` (RLCard's generator; ours through the
injected chance rng) and choose with ``random.Random``; the runs of the sides alternate
and the fastest of `repeat` counts; each ``*_median`` ratio is the median over the
repetitions of the quotient of the two runs made in the same repetition. Per edition:
rounds/s and actions/s of the checked path building effects (as the engine before issue
11 always does) and the kernel's actions/s, with the same policy. ``--json`` prints
``{"ours_rounds_per_s", "rlcard_rounds_per_s", "ratio", "ratio_median",
"ratio_with_effects", "ratio_own_policy", "simulate_rounds_per_s", "simulate_ratio", "simulate_same_games",
"editions": {...}, ...}`` (a side that cannot run has ``null`` figures and an
``*_error``). ``--profile`` prints a cProfile of the checked classic run.
"""
from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from types import ModuleType  # noqa: E402
from typing import Any  # noqa: E402

import uno_core  # noqa: E402
from uno_core import CHANCE, EDITIONS, new_match  # noqa: E402
from uno_core import actions as A  # noqa: E402
from uno_core.state import State  # noqa: E402

WORKLOAD_SEATS = 4
# what a run is timed by (--clock): this process's CPU time, so that other work on a
# shared machine slows the figures less than wall time would; or wall time
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]
NEVER_ENDS = {"target_score": 100000}  # rounds follow each other; the match never ends


def policy(engine: ModuleType) -> Callable[[State, random.Random], A.Action]:
    """The workload's policy over `engine`: the engine's own ``choose_random`` where it
    has one (its simulation kernel plays exactly that policy), else `own_policy` (for
    the engine before issue 11, the same-run baseline)."""
    own = getattr(engine, "choose_random", None)
    if own is not None:
        return own  # type: ignore[no-any-return]
    return own_policy(engine)


def own_policy(engine: ModuleType) -> Callable[[State, random.Random], A.Action]:
    """The same policy written here, as a caller would, over `engine`'s public
    ``legal_actions`` alone (no engine helper, no memo on the engine's listings): the
    ``ratio_own_policy`` side, and the policy for an engine without ``choose_random``."""
    listed, play, four = engine.legal_actions, engine.Play, engine.FourTowerDiscard

    def choose(state: State, rng: random.Random) -> A.Action:
        """A uniformly random play among those `legal_actions` lists for the seat to act
        (one per card, colour of a wild, target, tower set; a play that leaves one card
        is taken with the UNO call: the player never forgets it); when there is none, a
        uniformly random other action of that seat. No other shortcut: every decision
        asks `legal_actions` and picks by `rng.randrange` over the returned list."""
        seat = state.to_act
        legal = listed(state)
        left = state.counts[seat] - 1
        plays = [a for a in legal if type(a) is play and a.seat == seat
                 and a.uno == (left - len(a.laid) == 1)]
        if plays:
            return plays[rng.randrange(len(plays))]
        own = [a for a in legal if a.seat == seat and (type(a) is not four or a.uno)]
        return own[rng.randrange(len(own))]  # type: ignore[no-any-return]

    return choose


choose = policy(uno_core)


def engine_before() -> ModuleType | str:
    """uno_core as it was before issue 11 (the lockstep oracle, tests/oracle/), the
    per-edition baseline run in the same process; or why it is not there."""
    try:
        return importlib.import_module("tests.oracle.uno_core_oracle")
    except ImportError as exc:
        return f"no frozen engine in tests/oracle ({exc})"


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


def run_ours(edition: str, rounds: int, seed: int, engine: ModuleType = uno_core,
             effects: bool = True, own: bool = False) -> tuple[int, float]:
    """Play `rounds` rounds on the checked path; return (actions applied, seconds).
    ``effects=False``: ``apply(state, action, effects=False)``, the simulation's call (the
    same checks and writes, no effect objects; the engine before issue 11 has no such
    switch and always builds them). ``own``: the policy is `own_policy`."""
    rng = random.Random(seed)
    chance = _chance_rng(seed)
    new_match, apply, sample_outcome = engine.new_match, engine.apply, engine.sample_outcome
    pick = (own_policy(engine) if own else choose if engine is uno_core
            else policy(engine))
    state = new_match(edition, WORKLOAD_SEATS, NEVER_ENDS)
    stop = state.round_no + rounds  # round_no goes up by one as each round is over
    actions = 0
    start = clock()
    while state.round_no < stop:
        action = (sample_outcome(state, chance) if state.to_act == CHANCE
                  else pick(state, rng))
        state, _ = apply(state, action) if effects else apply(state, action, False)
        actions += 1
    return actions, clock() - start


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
    start = clock()
    for _ in range(rounds):
        state, _player = game.init_game()
        while not game.is_over():
            legal = state["legal_actions"]
            state, _player = game.step(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, clock() - start


def simulation_kernel() -> Callable[..., int] | str:
    """The engine's simulation kernel (issue 11, point 3), or why there is none.

    Contract: ``kernel(state, rng, chance, rounds) -> actions`` plays on from `state`
    (a match from ``new_match``, simulation mode) until `rounds` rounds have ended,
    deciding exactly as `choose` does with the same calls on `rng`, and taking chance
    outcomes as ``sample_outcome(state, chance)`` does; it returns the actions applied
    (chance outcomes included). Same seeds, same games as `run_ours`."""
    module, _, name = KERNEL.partition(":")
    try:
        kernel = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        return f"no simulation kernel {KERNEL} in uno_core yet ({type(exc).__name__})"
    return kernel  # type: ignore[no-any-return]


KERNEL = "uno_core:run_random"  # module:function, the entry point the engine exposes


def run_simulated(edition: str, rounds: int, seed: int) -> tuple[int, float] | str:
    """`run_ours`'s games through the simulation kernel: (actions, seconds) or why not."""
    kernel = simulation_kernel()
    if isinstance(kernel, str):
        return kernel
    rng = random.Random(seed)
    chance = _chance_rng(seed)
    state = new_match(edition, WORKLOAD_SEATS, NEVER_ENDS)
    start = clock()
    actions = kernel(state, rng, chance, rounds)
    return actions, clock() - start


def _faster(best: Any, got: Any) -> Any:
    """The faster of two (count, seconds) results; a reason (str) wins, it ends the runs."""
    if isinstance(got, str) or best is None or isinstance(best, str) or got[1] < best[1]:
        return got
    return best


WARM_UP_SEED = 10_000  # added to the seed for the untimed run: games no timed run plays
WARM = "warm-up"  # _best_runs' `every`: the untimed runs (same seed for every side)


def _best_runs(repeat: int, seed: int, runs: dict[str, Callable[[int], Any]],
               every: dict[str, list[Any]] | None = None) -> dict[str, Any]:
    """Each run once untimed (imports, tables), then `repeat` times, taking turns run by
    run so that a busy spell of the shared machine hits every side alike; the fastest run
    of each counts (a side that cannot run gives its reason). `every` collects each timed
    run, and (as ``WARM``) the untimed runs, which all play the same games. Every timed run
    plays games of its own (no two runs share a seed): a run never replays games an
    earlier run played, so the engine's memoized listings help only as much as they would
    in a long simulation of new games."""
    best: dict[str, Any] = {}
    for name, run in runs.items():
        got = run(seed + WARM_UP_SEED)
        best[name] = got if isinstance(got, str) else None
        if every is not None:
            every.setdefault(WARM, {})[name] = got  # type: ignore[call-overload]
    for k in range(max(1, repeat)):
        for i, (name, run) in enumerate(runs.items()):
            if not isinstance(best[name], str):
                got = run(seed + k * len(runs) + i)
                best[name] = _faster(best[name], got)
                if every is not None:
                    every.setdefault(name, []).append(got)
    return best


def _paired_speedup(ours: list[tuple[int, float]], before: list[tuple[int, float]]) -> float:
    """The median over repetitions of ours / before actions per second, each pair run back
    to back: steadier on a loaded machine than the quotient of the two fastest runs."""
    return statistics.median((a / t) / (b / u) for (a, t), (b, u) in zip(ours, before,
                                                                           strict=True))


def _figures(actions: int, rounds: int, seconds: float) -> dict[str, float]:
    return {"rounds_per_s": round(rounds / seconds, 1),
            "actions_per_s": round(actions / seconds, 1),
            "actions_per_round": round(actions / rounds, 1)}


def _paired_ratio(ours: list[Any], theirs: list[Any]) -> float | None:
    """The median over repetitions of the speed ratio of two sides' runs made in the same
    repetition (one after the other), or None when a side could not run."""
    if not ours or not theirs or any(isinstance(r, str) for r in ours + theirs):
        return None
    return round(statistics.median(u / t for (_, t), (_, u) in zip(ours, theirs,
                                                                     strict=True)), 2)


def measure(rounds: int, seed: int, repeat: int) -> dict[str, Any]:
    """Every figure of this benchmark as one JSON-able dict."""
    every: dict[str, list[Any]] = {}
    best = _best_runs(repeat, seed, {
        "ours": lambda k: run_ours("classic", rounds, k, effects=False),
        "simulate": lambda k: run_simulated("classic", rounds, k),
        "rlcard": lambda k: run_rlcard(rounds, k),
        "ours_with_effects": lambda k: run_ours("classic", rounds, k),
        "ours_own_policy": lambda k: run_ours("classic", rounds, k, effects=False,
                                              own=True)}, every)
    ours = _figures(best["ours"][0], rounds, best["ours"][1])
    result: dict[str, Any] = {
        "workload": (f"{WORKLOAD_SEATS}-player classic rounds, random play, seeds from "
                     f"{seed}, new games in every run"),
        "rounds": rounds, "ours_rounds_per_s": ours["rounds_per_s"],
        "ours_actions_per_s": ours["actions_per_s"],
        "ours_actions_per_round": ours["actions_per_round"], "ours_effects": False}
    for side in ("rlcard", "simulate", "ours_with_effects", "ours_own_policy"):
        got = best[side]
        if isinstance(got, str):
            result.update({f"{side}_rounds_per_s": None, f"{side}_error": got})
            continue
        f = _figures(got[0], rounds, got[1])
        result.update({f"{side}_rounds_per_s": f["rounds_per_s"],
                       f"{side}_actions_per_s": f["actions_per_s"],
                       f"{side}_actions_per_round": f["actions_per_round"]})
    rl = result["rlcard_rounds_per_s"]
    sim = result["simulate_rounds_per_s"]
    fx = result["ours_with_effects_rounds_per_s"]
    result["ratio"] = round(ours["rounds_per_s"] / rl, 2) if rl else None
    result["ratio_with_effects"] = round(fx / rl, 2) if rl and fx else None
    own = result["ours_own_policy_rounds_per_s"]
    result["ratio_own_policy"] = round(own / rl, 2) if rl and own else None
    result["simulate_ratio"] = round(sim / rl, 2) if rl and sim else None
    theirs = every.get("rlcard", [])
    for key, side in (("ratio", "ours"), ("ratio_with_effects", "ours_with_effects"),
                      ("ratio_own_policy", "ours_own_policy"), ("simulate_ratio", "simulate")):
        result[f"{key}_median"] = _paired_ratio(every.get(side, []), theirs)
    # the kernel plays the checked path's games: the same seed gives the same action count
    warm: Any = every[WARM]
    result["simulate_same_games"] = (None if sim is None
                                     else warm["simulate"][0] == warm["ours"][0])
    result["own_policy_same_games"] = warm["ours_own_policy"][0] == warm["ours"][0]
    per_edition = max(1, rounds // 4)
    before = engine_before()
    result["before_error"] = before if isinstance(before, str) else None
    editions: dict[str, dict[str, Any]] = {}
    for name in EDITIONS:
        runs = {"ours": lambda k, name=name: run_ours(name, per_edition, k),
                "simulate": lambda k, name=name: run_simulated(name, per_edition, k)}
        if not isinstance(before, str):
            runs["before"] = lambda k, name=name: run_ours(name, per_edition, k, before)
        every: dict[str, list[Any]] = {}
        got = _best_runs(repeat, seed, runs, every)
        f: dict[str, Any] = _figures(got["ours"][0], per_edition, got["ours"][1])
        if not isinstance(got["simulate"], str):
            f["simulate_actions_per_s"] = round(got["simulate"][0] / got["simulate"][1], 1)
        if "before" in got:
            f["before_actions_per_s"] = round(got["before"][0] / got["before"][1], 1)
            f["speedup"] = round(_paired_speedup(every["ours"], every["before"]), 2)
            warm = every[WARM]
            f["same_games_as_before"] = warm["before"][0] == warm["ours"][0]
        editions[name] = f
    result["editions_rounds"] = per_edition
    result["editions"] = editions
    return result


def _print(result: dict[str, Any]) -> None:
    print(f"workload: {result['workload']}, {result['rounds']} rounds, timed by "
          f"{result.get('clock', 'cpu')} time")
    print(f"checked  {result['ours_rounds_per_s']:>10.1f} rounds/s  "
          f"{result['ours_actions_per_s']:>10.1f} actions/s  "
          f"({result['ours_actions_per_round']} actions/round incl. chance)")
    for side, label in (("ours_with_effects", "+effects"), ("ours_own_policy", "own pol."),
                        ("simulate", "simulate"), ("rlcard", "rlcard")):
        if result[f"{side}_rounds_per_s"] is None:
            print(f"{label:<8} unavailable: {result[f'{side}_error']}")
        else:
            print(f"{label:<8} {result[f'{side}_rounds_per_s']:>10.1f} rounds/s  "
                  f"{result[f'{side}_actions_per_s']:>10.1f} actions/s  "
                  f"({result[f'{side}_actions_per_round']} actions/round)")
    if result["ratio"] is not None:
        print(f"ratio           {result['ratio']:.2f}  (checked, effects off / rlcard rounds "
              f"per second, fastest runs; median of paired runs {result['ratio_median']}; "
              "target >= 2)")
    if result["ratio_own_policy"] is not None:
        print(f"  own policy    {result['ratio_own_policy']:.2f}  (the bench's own policy over "
              f"legal_actions, no choose_random; median {result['ratio_own_policy_median']})")
    if result["ratio_with_effects"] is not None:
        print(f"  with effects  {result['ratio_with_effects']:.2f}  (median "
              f"{result['ratio_with_effects_median']})")
    if result["simulate_ratio"] is not None:
        print(f"simulate_ratio  {result['simulate_ratio']:.2f}  (kernel / rlcard; median "
              f"{result['simulate_ratio_median']}; target >= 3; "
              f"same games as checked: {result['simulate_same_games']})")
    print(f"per edition ({result['editions_rounds']} rounds each, {WORKLOAD_SEATS} players):")
    for name, f in result["editions"].items():
        sim = f.get("simulate_actions_per_s")
        print(f"  {name:<12} {f['rounds_per_s']:>9.1f} rounds/s {f['actions_per_s']:>10.1f} "
              f"actions/s  {f['actions_per_round']:>6.1f} actions/round"
              + (f"  x{f['speedup']:.2f} of before ({f['before_actions_per_s']:.1f}; "
                 f"same games: {f['same_games_as_before']})" if "speedup" in f else "")
              + (f"  kernel {sim:>10.1f} actions/s" if sim else ""))
    if result["before_error"]:
        print(f"  (no same-run baseline: {result['before_error']})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per run (2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs per figure; the fastest counts, the median of paired "
                             "runs is shown beside it (5)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="time runs by this process's CPU time (cpu, the default: a "
                             "busy shared machine moves it less) or by wall time")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", action="store_true",
                        help="cProfile our classic run (the ratio's: effects off)")
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.runcall(run_ours, "classic", args.rounds, args.seed, effects=False)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return 0
    result = measure(args.rounds, args.seed, args.repeat)
    result["clock"] = args.clock
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        _print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
