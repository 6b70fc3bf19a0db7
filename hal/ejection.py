"""Ejection models: how many cards one press of the launcher button ejects.

A model is chance made explicit: ``press(rng)`` draws the outcome of one press
(0 = the launcher does not eject) from an injected random source —
``random.SystemRandom()`` in production, ``random.Random(seed)`` in simulation —
so a seeded run replays exactly. Every model also states its theoretical
distributions, which ``unotable launcher-stats`` and the fairness tests compare
with what was observed:

- ``cards_per_press()``: P(k cards on one press), k = 0, 1, ...
- ``cards_per_ejection()``: P(k cards | the press ejected), k >= 1
- ``presses_between()``: P(the next ejection comes g presses after the previous
  one), g >= 1 (the first ejection is counted from the start). For an unbounded
  gap the last key holds the whole remaining tail.

Models (``[launcher.model] name = ...``):

``measured`` (default)
    Fitted to the published measurement of 800 presses of a real launcher
    (ruvans/tts-uno-extreme): cards came out on the 1st..5th press since the
    previous ejection in 18/41/24/9/8 % of cases, never more than 5 presses
    apart, and 0–13 cards per press. It is a renewal process: after each ejection
    the gap to the next one is drawn from exactly that table, the presses in
    between eject nothing (these are the "0 cards" of the measurement), and the
    ejecting press ejects 1..13 cards. The measurement publishes no per-count
    frequencies, so the count is a geometric distribution with ratio 0.7
    truncated to 1..13 and renormalised (P(1) = 30 %, mean 3.2 cards, P(13) ≈ 0.4 %):
    mostly one to three cards, now and then a burst, never more than 13. Mean gap
    2.48 presses, so 40 % of presses eject and a press yields 1.3 cards on average.
``fixed``
    Every press ejects ``cards`` cards (default 1; 0 = never).
``geometric``
    Each press independently ejects with probability ``p_eject`` (default 0.4);
    an ejection has 1 card plus one more with probability ``p_more`` each time
    (default 0.6), at most ``max_cards`` (default 13).
``table``
    Each press independently ejects k cards with probability ``probabilities[k]``
    (a list for k = 0, 1, ..., summing to 1).
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from hal.config import Section, number_problem, shown
from hal.errors import ConfigError

MODEL_NAMES = ("measured", "fixed", "geometric", "table")

MEASURED_GAPS = {1: 0.18, 2: 0.41, 3: 0.24, 4: 0.09, 5: 0.08}
MEASURED_MAX_CARDS = 13
MEASURED_CARD_RATIO = 0.7
_TAIL = 1e-9


def _normalised(weights: Mapping[int, float]) -> dict[int, float]:
    total = sum(weights.values())
    return {k: w / total for k, w in sorted(weights.items()) if w > 0}


def truncated_geometric(ratio: float, maximum: int) -> dict[int, float]:
    """P(k) proportional to ratio**(k-1) for k = 1..maximum."""
    return _normalised({k: ratio ** (k - 1) for k in range(1, maximum + 1)})


def _draw(dist: Mapping[int, float], rng: random.Random) -> int:
    """Inverse-CDF draw: one ``rng.random()`` per call, so seeded runs replay."""
    u = rng.random()
    acc = 0.0
    last = 0
    for value, p in dist.items():
        acc += p
        last = value
        if u < acc:
            return value
    return last  # rounding: the sum may fall a hair short of 1


def _geometric_gaps(p: float) -> dict[int, float]:
    if p <= 0:
        return {}
    gaps: dict[int, float] = {}
    g, tail = 1, 1.0
    while tail > _TAIL and p < 1:
        gaps[g] = tail * p
        tail *= 1 - p
        g += 1
    if p >= 1:
        return {1: 1.0}
    gaps[g - 1] += tail
    return gaps


class Drawn(NamedTuple):
    """One press drawn (`EjectionModel.draw`): how many cards it ejects, and what the
    model remembered before and after it."""

    cards: int
    before: dict[str, Any]
    after: dict[str, Any]


class EjectionModel(ABC):
    name: str

    @abstractmethod
    def press(self, rng: random.Random) -> int:
        """Draw the number of cards the next press ejects (0 = none)."""

    def draw(self, rng: random.Random) -> Drawn:
        """`press`, with the model's state before and after it: a caller that keeps the
        press (the daemon journals `after` with it) can still put `before` back when it
        cannot keep it (`set_state`), as if the press never happened."""
        before = self.get_state()
        cards = self.press(rng)
        return Drawn(cards, before, self.get_state())

    @abstractmethod
    def cards_per_press(self) -> dict[int, float]: ...

    @abstractmethod
    def presses_between(self) -> dict[int, float]: ...

    def cards_per_ejection(self) -> dict[int, float]:
        return _normalised({k: p for k, p in self.cards_per_press().items() if k > 0})

    def get_state(self) -> dict[str, Any]:
        """What the model remembers between presses (journaled by the daemon)."""
        return {}

    def set_state(self, state: Mapping[str, Any]) -> None:
        if state:
            raise ConfigError(self.name, f"takes no state, not {dict(state)!r}")

    def describe(self) -> dict[str, Any]:
        return {"name": self.name}

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.describe().items() if k != "name")
        return f"<{type(self).__name__} {params}>".replace(" >", ">")


class MeasuredModel(EjectionModel):
    name = "measured"

    def __init__(self) -> None:
        self._gaps = dict(MEASURED_GAPS)
        self._cards = truncated_geometric(MEASURED_CARD_RATIO, MEASURED_MAX_CARDS)
        self._presses_left: int | None = None

    def press(self, rng: random.Random) -> int:
        if self._presses_left is None:
            self._presses_left = _draw(self._gaps, rng)
        self._presses_left -= 1
        if self._presses_left > 0:
            return 0
        self._presses_left = None
        return _draw(self._cards, rng)

    def mean_gap(self) -> float:
        return sum(g * p for g, p in self._gaps.items())

    def cards_per_press(self) -> dict[int, float]:
        rate = 1 / self.mean_gap()
        dist = {0: 1 - rate}
        dist.update({k: rate * p for k, p in self._cards.items()})
        return dist

    def cards_per_ejection(self) -> dict[int, float]:
        return dict(self._cards)

    def presses_between(self) -> dict[int, float]:
        return dict(self._gaps)

    def get_state(self) -> dict[str, Any]:
        return {"presses_left": self._presses_left}

    def set_state(self, state: Mapping[str, Any]) -> None:
        left = state.get("presses_left")
        if set(state) - {"presses_left"} or not (
            left is None or (isinstance(left, int) and 1 <= left <= max(self._gaps))
        ):
            raise ConfigError("measured", f"bad model state {dict(state)!r}")
        self._presses_left = left


class IndependentModel(EjectionModel):
    """Every press is drawn independently from one distribution of card counts."""

    def __init__(self, name: str, dist: Mapping[int, float], params: Mapping[str, Any]) -> None:
        self.name = name
        self._dist = _normalised(dist)
        self._params = dict(params)

    def press(self, rng: random.Random) -> int:
        return _draw(self._dist, rng)

    def cards_per_press(self) -> dict[int, float]:
        return dict(self._dist)

    def presses_between(self) -> dict[int, float]:
        return _geometric_gaps(1 - self._dist.get(0, 0.0))

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, **self._params}


def fixed_model(cards: int = 1) -> IndependentModel:
    return IndependentModel("fixed", {cards: 1.0}, {"cards": cards})


def geometric_model(
    p_eject: float = 0.4, p_more: float = 0.6, max_cards: int = 13
) -> IndependentModel:
    dist = {0: 1 - p_eject}
    dist.update({k: p_eject * p for k, p in truncated_geometric(p_more, max_cards).items()})
    return IndependentModel(
        "geometric", dist, {"p_eject": p_eject, "p_more": p_more, "max_cards": max_cards}
    )


def table_model(probabilities: Sequence[float]) -> IndependentModel:
    return IndependentModel(
        "table", dict(enumerate(probabilities)), {"probabilities": list(probabilities)}
    )


# The range of each model's numbers (docs/wiring.md): parse_model_config reads with them
# and a ModelConfig refuses anything else (NaN, inf) when it is built.
MODEL_BOUNDS: dict[str, dict[str, tuple[float, float]]] = {
    "fixed": {"cards": (0, MEASURED_MAX_CARDS)},
    "geometric": {"p_eject": (0, 1), "p_more": (0, 0.99), "max_cards": (1, 50)},
}
_WHOLE = ("cards", "max_cards")


@dataclass(frozen=True)
class ModelConfig:
    name: str
    params: tuple[tuple[str, Any], ...] = ()
    path: str = "launcher.model"

    def __post_init__(self) -> None:
        bounds = MODEL_BOUNDS.get(self.name, {})
        for name, value in self.params:
            if name in bounds:
                problem = number_problem(value, *bounds[name], integer=name in _WHOLE)
                if problem:
                    raise ConfigError(f"{self.path}.{name}", problem)

    def build(self) -> EjectionModel:
        params = dict(self.params)
        if self.name == "measured":
            return MeasuredModel()
        if self.name == "fixed":
            return fixed_model(**params)
        if self.name == "geometric":
            return geometric_model(**params)
        return table_model(**params)


def parse_model_config(
    mapping: Mapping[str, Any] | None, *, path: str = "launcher.model",
    errors: list[ConfigError] | None = None,
) -> ModelConfig:
    """Validate a ``[launcher.model]`` table; every error names its key (with ``errors``,
    collected there: a bad model name is checked no further)."""
    if errors is not None and mapping is not None and not isinstance(mapping, Mapping):
        errors.append(ConfigError(path, f"must be a table, not {type(mapping).__name__}"))
        mapping = {}
    sec = Section(mapping, path=path, errors=errors)
    name = sec.string("name", "measured", choices=MODEL_NAMES)
    params: dict[str, Any] = {}
    defaults = {"cards": 1, "p_eject": 0.4, "p_more": 0.6, "max_cards": 13}
    for option, (low, high) in MODEL_BOUNDS.get(name, {}).items():
        params[option] = sec.number(option, defaults[option], minimum=low, maximum=high,
                                    integer=option in _WHOLE)
    if name == "table":
        params["probabilities"] = _probabilities(sec, "probabilities")
    if sec.failed("name"):
        return ModelConfig("measured", (), path)
    sec.finish()
    return ModelConfig(name, tuple(params.items()), path)


def _probabilities(sec: Section, name: str) -> list[float]:
    value = sec.raw(name)
    key = sec.key(name)
    if not isinstance(value, list) or not value:
        sec.problem(key, f"must be a non-empty list of probabilities, not {shown(value)}")
        return [1.0]
    bad = [i for i, p in enumerate(value)
           if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= 1]
    for i in bad:
        sec.problem(f"{key}[{i}]", f"must be a probability 0-1, not {shown(value[i])}")
    if bad:
        return [1.0]
    if abs(sum(value) - 1) > 1e-6:
        sec.problem(key, f"must sum to 1, not {sum(value):g}")
        return [1.0]
    return [float(p) for p in value]


# --- goodness of fit, for launcher-stats and the fairness tests -------------

DISTRIBUTIONS = ("cards_per_press", "cards_per_ejection", "presses_between")


@dataclass(frozen=True)
class Observation:
    """What ``presses`` presses of a model produced, as counts per value."""

    presses: int
    cards_per_press: dict[int, int]
    cards_per_ejection: dict[int, int]
    presses_between: dict[int, int]

    @property
    def ejections(self) -> int:
        return sum(self.cards_per_ejection.values())

    @property
    def cards(self) -> int:
        return sum(k * c for k, c in self.cards_per_press.items())

    def fit(self, model: EjectionModel) -> dict[str, tuple[float, int, float] | None]:
        """Chi-square (statistic, df, p) of each distribution against the model's
        theory; None where nothing was observed."""
        out: dict[str, tuple[float, int, float] | None] = {}
        for name in DISTRIBUTIONS:
            observed = getattr(self, name)
            expected = getattr(model, name)()
            out[name] = (
                chi_square(observed, expected, open_tail=True)
                if sum(observed.values()) and expected
                else None
            )
        return out


def observe(model: EjectionModel, rng: random.Random, presses: int) -> Observation:
    """Press ``presses`` times; gaps count presses since the previous ejection
    (the first from the start)."""
    per_press: dict[int, int] = {}
    per_ejection: dict[int, int] = {}
    gaps: dict[int, int] = {}
    since = 0
    for _ in range(presses):
        cards = model.press(rng)
        per_press[cards] = per_press.get(cards, 0) + 1
        since += 1
        if cards:
            per_ejection[cards] = per_ejection.get(cards, 0) + 1
            gaps[since] = gaps.get(since, 0) + 1
            since = 0
    return Observation(
        presses,
        dict(sorted(per_press.items())),
        dict(sorted(per_ejection.items())),
        dict(sorted(gaps.items())),
    )


def chi_square(
    observed: Mapping[int, int],
    expected: Mapping[int, float],
    *,
    min_expected: float = 5.0,
    open_tail: bool = False,
) -> tuple[float, int, float]:
    """Pearson's chi-square of counts against probabilities: (statistic, df, p-value).

    Bins are taken in key order and neighbouring bins are pooled until each
    expects at least ``min_expected`` counts. Observed keys outside ``expected``
    make the fit impossible (p = 0), except, with ``open_tail``, keys above the
    largest expected key, which count into it (its probability holds the tail).
    """
    n = sum(observed.values())
    if n == 0:
        raise ValueError("no observations")
    if open_tail and expected:
        top = max(expected)
        pooled: dict[int, int] = {}
        for k, c in observed.items():
            pooled[min(k, top)] = pooled.get(min(k, top), 0) + c
        observed = pooled
    if any(k not in expected and c for k, c in observed.items()):
        return math.inf, 0, 0.0
    bins: list[tuple[float, int]] = []
    exp_acc, obs_acc = 0.0, 0
    for k in sorted(expected):
        exp_acc += expected[k] * n
        obs_acc += observed.get(k, 0)
        if exp_acc >= min_expected:
            bins.append((exp_acc, obs_acc))
            exp_acc, obs_acc = 0.0, 0
    if exp_acc or obs_acc:
        if bins:
            e, o = bins.pop()
            bins.append((e + exp_acc, o + obs_acc))
        else:
            bins.append((exp_acc, obs_acc))
    df = len(bins) - 1
    stat = sum((o - e) ** 2 / e for e, o in bins if e > 0)
    if df <= 0:
        return stat, 0, 1.0
    return stat, df, upper_gamma_regularized(df / 2, stat / 2)


def upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): the chi-square survival function at 2x with 2a df."""
    if x <= 0:
        return 1.0
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # series for P(a, x)
        term = total = 1.0 / a
        k = a
        while abs(term) > abs(total) * 1e-15:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    # continued fraction for Q(a, x) (modified Lentz)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, h * math.exp(log_prefix))
