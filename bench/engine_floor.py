"""How fast could a decision be in CPython? A floor for `bench/engine.py`'s figure.

    python bench/engine_floor.py [--json]

Times, in the same process and on the same positions of the engine benchmark's
workload: (a) our full decision (``legal_actions``, the random-playable-card policy,
``apply``), and (b) a hand-written best case of a plain play that keeps only what any
referee with an immutable state must do: list the matching cards (cached Play
values), pick one, copy the state, take the card out of the hand, put it on the
discard pile, emit its effect, pass the turn. No other rule is checked. The quotient
(a)/(b) bounds what tuning the rules code in pure Python can still win.
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

from bench.engine import NEVER_ENDS, WORKLOAD_SEATS, _chance_rng, _choose  # noqa: E402
from uno_core import CHANCE, Play, apply, new_match  # noqa: E402
from uno_core import effects as E  # noqa: E402
from uno_core.cards import Card  # noqa: E402
from uno_core.chance import sample_outcome  # noqa: E402
from uno_core.matching import match_set  # noqa: E402
from uno_core.state import State  # noqa: E402

_PLAYS: dict[tuple[int, Card], Play] = {}
_PLAYED: dict[tuple[int, Card], E.CardPlayed] = {}


def best_case(s: State, rng: random.Random) -> tuple[State, list[E.Effect]] | None:
    seat = s.to_act
    hand = s.hands[seat]
    ok = match_set(s)
    legal = []
    for card in dict.fromkeys(hand):
        if card in ok:
            play = _PLAYS.get((seat, card))
            if play is None:
                play = _PLAYS[seat, card] = Play(seat, card)
            legal.append(play)
    if not legal:
        return None
    card = legal[rng.randrange(len(legal))].card
    n = s.clone()
    i = hand.index(card)
    rest = hand[:i] + hand[i + 1:]
    hands = list(s.hands)
    hands[seat] = rest
    n.hands = tuple(hands)
    counts = list(s.counts)
    counts[seat] = len(rest)
    n.counts = tuple(counts)
    n.discard = s.discard + (card,)
    n.colour = card.colour or "R"
    effect = _PLAYED.get((seat, card))
    if effect is None:
        effect = _PLAYED[seat, card] = E.CardPlayed(seat, card)
    n.turn = n.actor = n.to_act = (s.turn + s.direction) % s.n
    return n, [effect]


def positions(count: int, seed: int) -> list[State]:
    """Positions of the workload where the seat to act can play a card."""
    rng, chance = random.Random(seed), _chance_rng(seed)
    state = new_match("classic", WORKLOAD_SEATS, NEVER_ENDS)
    found: list[State] = []
    while len(found) < count:
        if state.to_act == CHANCE:
            action = sample_outcome(state, chance)
        else:
            action = _choose(state, rng)
            if type(action) is Play and state.phase == "play":
                found.append(state)
        state, _ = apply(state, action)
    return found


def _best_seconds(run, repeat: int) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    states = positions(args.positions, 1)

    def ours() -> None:
        rng = random.Random(2)
        for s in states:
            apply(s, _choose(s, rng))

    def floor() -> None:
        rng = random.Random(2)
        for s in states:
            best_case(s, rng)

    ours_ns = _best_seconds(ours, args.repeat) / len(states) * 1e9
    floor_ns = _best_seconds(floor, args.repeat) / len(states) * 1e9
    result = {"ours_ns_per_play": round(ours_ns), "floor_ns_per_play": round(floor_ns),
              "quotient": round(ours_ns / floor_ns, 2)}
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(f"our decision (legal + policy + apply)   {ours_ns:8.0f} ns per play")
        print(f"best case (list, pick, new state)       {floor_ns:8.0f} ns per play")
        print(f"quotient                                {ours_ns / floor_ns:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
