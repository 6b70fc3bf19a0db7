"""The chance player: samples outcomes from an injected random source.

``sample_outcome(state, rng, launcher=MEASURED)`` returns the chance action the state
needs (``state.to_act == CHANCE``). `rng` is any object with ``random()``,
``randrange(n)`` and ``shuffle(list)`` (``random.Random(seed)`` fits); uno_core never
imports ``random``. Same rng seed, same actions: a game replays bit for bit.

Launcher models (how many cards one press ejects):

* ``MeasuredLauncher`` (default): from 800 presses of a real launcher (ruvans/tts-uno-extreme):
  cards came out on the 1st..5th press since the last ejection in 18/41/24/9/8 % of
  cases, never more than 5 presses apart. The model turns that into a per-press hazard
  (P(eject | k presses since the last) = p_k / (p_k + ... + p_5)), so it needs the
  public ``state.since_eject``. The measurement gives only the range 0-13 cards per
  ejection; we assume 1..13 with weights falling geometrically (ratio 0.7, mean ~3).
* ``SimpleLauncher(p_eject, max_cards)``: each press ejects with probability `p_eject`,
  then 1..max_cards cards uniformly.

Ejections never exceed the cards in the launcher.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from uno_core import actions as A
from uno_core.actions import CHANCE, Action
from uno_core.cards import Card
from uno_core.errors import RuleError
from uno_core.state import EJECT, State


class Rng(Protocol):
    def random(self) -> float: ...

    def randrange(self, stop: int) -> int: ...

    def shuffle(self, x: list[int]) -> None: ...


class LauncherModel(Protocol):
    def eject(self, rng: Rng, presses_since: int) -> int:
        """Cards ejected by one press, given presses since the last ejection."""
        ...


@dataclass(frozen=True, slots=True)
class MeasuredLauncher:
    gap_weights: tuple[float, ...] = (0.18, 0.41, 0.24, 0.09, 0.08)
    count_ratio: float = 0.7
    max_cards: int = 13
    # the sums `eject` needs, computed once (the same floats, summed in the same order,
    # as computing them on every press): per gap (weight, rest), count weights, total
    _gaps: tuple[tuple[float, float], ...] = field(init=False, repr=False, compare=False)
    _counts: tuple[float, ...] = field(init=False, repr=False, compare=False)
    _total: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        g = self.gap_weights
        weights = tuple(self.count_ratio ** i for i in range(self.max_cards))
        object.__setattr__(self, "_gaps", tuple((g[k], sum(g[k:])) for k in range(len(g))))
        object.__setattr__(self, "_counts", weights)
        object.__setattr__(self, "_total", sum(weights))

    def eject(self, rng: Rng, presses_since: int) -> int:
        gaps = self._gaps
        weight, rest = gaps[presses_since] if presses_since < len(gaps) else gaps[-1]
        if rng.random() * rest >= weight:
            return 0
        x = rng.random() * self._total
        for i, w in enumerate(self._counts, 1):
            x -= w
            if x < 0:
                return i
        return self.max_cards


@dataclass(frozen=True, slots=True)
class SimpleLauncher:
    p_eject: float = 0.5
    max_cards: int = 4

    def eject(self, rng: Rng, presses_since: int) -> int:
        if rng.random() >= self.p_eject:
            return 0
        return 1 + rng.randrange(self.max_cards)


MEASURED = MeasuredLauncher()
SIMPLE = SimpleLauncher()


def _permutation(rng: Rng, n: int) -> tuple[int, ...]:
    order = list(range(n))
    rng.shuffle(order)
    return tuple(order)


def shuffle_order(state: State, rng: Rng) -> list[int]:
    """A simulated Shuffle's order, drawn from `rng`: a permutation of the deck's
    indices at a round's start, else of the discard pile's under its top card."""
    s = state
    size = len(s.edition.deck) if s.phase == "shuffle" else len(s._disc) - 1
    order = list(_RANGES.get(size) or _range(size))  # (a copy: cheaper than a new range)
    rng.shuffle(order)
    return order


_RANGES: dict[int, tuple[int, ...]] = {}


def _range(size: int) -> tuple[int, ...]:
    found = _RANGES[size] = tuple(range(size))
    return found


def _sample_card(rng: Rng, pool: dict[Card, int]) -> Card:
    total = sum(pool.values())
    x = rng.randrange(total)
    for card, k in sorted(pool.items(), key=lambda kv: str(kv[0])):
        x -= k
        if x < 0:
            return card
    raise RuleError("empty card pool")  # unreachable: total > 0


_EJECTS = tuple(A.Eject(k) for k in range(64))  # immutable: one value per count, reused


def sample_outcome(state: State, rng: Rng, launcher: LauncherModel = MEASURED) -> Action:
    """The chance action `state` waits for, sampled from `rng`."""
    s = state
    if s.to_act != CHANCE:
        raise RuleError(f"no chance outcome is due (to act: seat {s.to_act})")
    need = s.chance
    if need is EJECT:  # the common one: launcher editions press ~25 times a round
        k = launcher.eject(rng, s.since_eject)
        left = s._pcount if s.table else len(s._pile)
        if k > left:
            k = left
        return _EJECTS[k] if k < 64 else A.Eject(k)
    if need == "dealer_cards":
        order = _permutation(rng, len(s.edition.deck))
        return A.DealerCards(tuple(s.edition.deck[i] for i in order[:s.n]))
    if need == "shuffle":
        return A.Shuffle(() if s.table else tuple(shuffle_order(s, rng)))
    if need == "reveal":
        return A.Reveal(_sample_card(rng, {c: k for c, k in s._unseen.items() if k > 0}))
    raise RuleError(f"unknown chance kind {need!r}")


def sample_hand_entry(state: State, rng: Rng) -> Action:
    """Table mode, round over: a random hand for the seat that must enter one, drawn
    from the unseen cards (for simulated tables and tests; real players enter theirs)."""
    s = state
    if s.phase != "hand_entry" or s.to_act < 0:
        raise RuleError("no hand entry is due")
    pool = {c: k for c, k in s._unseen.items() if k > 0}
    cards: list[Card] = []
    for _ in range(s.counts[s.to_act]):
        card = _sample_card(rng, pool)
        pool[card] -= 1
        if not pool[card]:
            del pool[card]
        cards.append(card)
    return A.EnterHand(s.to_act, tuple(cards))
