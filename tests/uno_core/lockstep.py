"""Lockstep differential test machinery: the live ``uno_core`` against the frozen oracle
(``tests/oracle/uno_core_oracle``, today's engine before the issue 11 rewrite).

Both engines play the same match side by side; the oracle's choices drive it. Each
engine only ever sees its own objects: an action goes from one to the other through
its JSON form (``action_to_dict`` / ``action_from_dict``), and states and effects are
compared in forms that do not depend on how an engine holds them. At every step:

* the states are equal: ``public_state`` exactly (but for the oracle's null for a neutral
  tower, "neutral" since issue 13), and ``snapshot`` with hands, drawn
  cards and a table's entered hands as multisets (their order is not a rule), unseen
  counts without zeros, the format version left out; pile and discard order count;
* at a seat's decision, the legal action sets are equal (a multiset of canonical
  actions; the order of a ``laid`` or ``towers`` tuple is the caller's, so it is
  compared as a multiset); at a chance node both list nothing;
* random actions, mostly illegal (every action type with random seats, cards, colours,
  targets, towers, laid cards, orders and counts, and small mutations of legal actions),
  get the same verdict: both refuse with the same rule text (``IllegalAction.rule``), or
  both raise the same other error, or both accept with equal next states and effects.
  The live engine judges a probe the oracle refuses on its live state, which must be
  unchanged afterwards (snapshot and public view, and the match goes on from it); a probe
  the oracle accepts is applied to ``state.clone()``;
* ``sample_outcome`` (and a table's ``sample_hand_entry``) from the same rng state give
  the same outcome;
* the chosen action is applied to both (to the live engine, alternately as the very
  object its ``legal_actions`` listed and as a new equal object, so both its checked and
  its listed path run): equal effects (``effect_to_dict``, in order), equal states;
* where the live ``apply`` takes ``effects=False``, every third step runs without
  effects and must reach the same state;
* now and then the caller empties the list ``legal_actions`` returned (later answers
  must not change), and the live engine goes on from ``restore(snapshot(state))`` (equal at once,
  and every later step from it), or from ``state.clone()`` (the original must not change).

`run_case` plays one match; `cases` builds a deterministic set of matches (every
edition, both modes, 2..max seats, random option sets, two launcher models).
``python -m tests.uno_core.lockstep --seeds N`` runs a soak and prints the steps agreed;
``UNOTABLE_LOCKSTEP_SEEDS=N`` sets the same for the pytest run (test_lockstep.py).
"""

from __future__ import annotations

import argparse
import inspect
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any

import tests.oracle.uno_core_oracle as OLD
import uno_core as NEW
from tests.oracle.uno_core_oracle import actions as OA
from tests.oracle.uno_core_oracle.cards import COLOURS, TOWERS
from tests.oracle.uno_core_oracle.chance import SIMPLE, SimpleLauncher
from uno_core.chance import SimpleLauncher as NewSimpleLauncher
from uno_core.state import NEUTRAL_SLOT

MODES = ("simulation", "table")
LAUNCHERS = {"measured": OLD.MEASURED, "simple": SIMPLE,
             "stingy": SimpleLauncher(p_eject=0.25, max_cards=2)}
ALL_CARDS = sorted({c for ed in OLD.EDITIONS.values() for c in ed.deck}, key=str)
_SORTED_FIELDS = ("laid", "towers", "cards")


class Mismatch(AssertionError):
    """The engines disagree; the message says where and how."""


# -- canonical forms ---------------------------------------------------------------------
def canon_action(engine: ModuleType, action: Any) -> tuple[Any, ...]:
    """An action as a hashable value both engines share (laid/towers/cards as multisets)."""
    d = engine.action_to_dict(action)
    return tuple(sorted((k, tuple(sorted(map(str, v))) if k in _SORTED_FIELDS
                         else tuple(v) if isinstance(v, list) else v)
                        for k, v in d.items()))


def canon_state(engine: ModuleType, state: Any) -> dict[str, Any]:
    snap = engine.snapshot(state)
    snap.pop("version", None)
    snap["hands"] = [sorted(h) for h in snap["hands"]]
    snap["drawn"] = sorted(snap["drawn"])
    snap["unseen"] = {k: v for k, v in sorted(snap["unseen"].items()) if v}
    public = engine.public_state(state)
    for view in (public, snap):  # house rules newer than the oracle are compared elsewhere
        if not view.get("stack"):
            view.pop("stack", None)  # stack_draws: nothing pending (the oracle has no key)
        if view.get("uno_called_ahead") is None:
            view.pop("uno_called_ahead", None)  # false_uno_penalty's: none (nor the oracle)
        if isinstance(view.get("options"), dict):
            view["options"] = {k: v for k, v in view["options"].items()
                               if k in OLD.OPTION_SPECS}
    return {"public": public, "full": snap}


def effects_of(engine: ModuleType, fx: Any) -> list[dict[str, Any]]:
    return [engine.effect_to_dict(e) for e in fx]


def to_new(action: Any) -> Any:
    return NEW.action_from_dict(OLD.action_to_dict(action))


def as_today(oracle: dict[str, Any]) -> dict[str, Any]:
    """The oracle's canonical state in today's public words: it said a neutral tower
    as null, "neutral" since issue 13."""
    towers = oracle["public"]["towers"]
    if towers is not None:
        oracle["public"]["towers"] = {t: NEUTRAL_SLOT if o is None else o
                                      for t, o in towers.items()}
    return oracle


def _diff(a: dict[str, Any], b: dict[str, Any]) -> str:
    out = []
    for part in ("public", "full"):
        for k in sorted(set(a[part]) | set(b[part])):
            if a[part].get(k, "<missing>") != b[part].get(k, "<missing>"):
                out.append(f"  {part}.{k}: oracle {a[part].get(k, '<missing>')!r}\n"
                           f"  {' ' * len(part + k)}   live   {b[part].get(k, '<missing>')!r}")
    return "\n".join(out)


def verdict(engine: ModuleType, state: Any, action: Any) -> tuple[Any, ...]:
    """("ok", next state, effects) / ("illegal", rule) / ("error", type, text)."""
    try:
        after, fx = engine.apply(state, action)
    except engine.IllegalAction as exc:
        return ("illegal", exc.rule)
    except Exception as exc:  # noqa: BLE001 - compared between the engines
        return ("error", type(exc).__name__, str(exc))
    return ("ok", after, fx)


# -- random actions ----------------------------------------------------------------------
def _seat(rng: random.Random, n: int, s: Any) -> int:
    r = rng.random()
    if r < 0.45 and s.to_act >= 0:
        return int(s.to_act)
    if r < 0.95:
        return rng.randrange(n)
    return rng.choice((-1, n, 16))


def _cards(rng: random.Random, s: Any, seat: int, k: int) -> tuple[Any, ...]:
    pool = list(s.hands[seat]) if 0 <= seat < s.n and s.hands[seat] and rng.random() < 0.7 \
        else list(s.edition.deck)
    return tuple(rng.choice(pool) for _ in range(k))


def random_action(rng: random.Random, s: Any) -> Any:
    """Any action, mostly illegal: every type, random fields (oracle objects)."""
    n = s.n
    seat = _seat(rng, n, s)
    pick = rng.randrange(17)
    card = (rng.choice(ALL_CARDS) if rng.random() < 0.1
            else _cards(rng, s, seat, 1)[0])
    colour = rng.choice(("", "", *COLOURS, "X"))
    if pick <= 4:
        towers = tuple(rng.sample(TOWERS, rng.randrange(3))) if rng.random() < 0.3 else ()
        laid = _cards(rng, s, seat, rng.randrange(4)) if rng.random() < 0.2 else ()
        target = rng.choice((-1, -1, rng.randrange(n), seat, n))
        return OA.Play(seat, card, colour, target, towers, laid, rng.random() < 0.3)
    simple = {5: OA.Draw, 6: OA.Press, 7: OA.Pass, 8: OA.CallUno, 9: OA.Challenge,
              10: OA.Accept}
    if pick in simple:
        return simple[pick](seat)
    if pick == 11:
        return OA.Catch(seat, rng.choice((s.exposed, rng.randrange(n), seat, -1)))
    if pick == 12:
        return rng.choice((OA.Verdict(seat, rng.random() < 0.5), OA.ChooseColour(seat, colour),
                           OA.EnterHand(seat, _cards(rng, s, seat, rng.randrange(8)))))
    if pick == 13:
        k = max(0, s.counts[seat] - 1) if 0 <= seat < n else 2
        return OA.FourTowerDiscard(seat, _cards(rng, s, seat, k + rng.choice((0, 0, 1, -1))),
                                   rng.random() < 0.5)
    if pick == 14:
        size = rng.choice((0, len(s.discard) - 1, len(s.edition.deck), rng.randrange(5)))
        order = list(range(max(size, 0)))
        rng.shuffle(order)
        if order and rng.random() < 0.3:
            order[rng.randrange(len(order))] = order[0]  # not a permutation
        return OA.Shuffle(tuple(order))
    if pick == 15:
        return rng.choice((OA.DealerCards(_cards(rng, s, -1, n + rng.choice((0, 0, 1, -1)))),
                           OA.Reveal(card)))
    return OA.Eject(rng.choice((-1, 0, 1, rng.randrange(14), s.pile_count, s.pile_count + 1)))


def mutate(rng: random.Random, a: Any, s: Any) -> Any:
    """A small change to a legal action: another seat, UNO flipped, another colour,
    target, tower set, laid set or card. Often illegal, sometimes still legal."""
    n = s.n
    what = rng.randrange(6)
    fields: dict[str, Any] = {}
    if what == 0 or not isinstance(a, OA.Play | OA.FourTowerDiscard):
        if hasattr(a, "seat") and not isinstance(a, OA.Shuffle | OA.DealerCards):
            fields["seat"] = rng.randrange(n)
        if isinstance(a, OA.Catch):
            fields["target"] = rng.randrange(n)
        if isinstance(a, OA.ChooseColour):
            fields["colour"] = rng.choice(COLOURS)
        if isinstance(a, OA.Verdict):
            fields["guilty"] = not a.guilty
    elif what == 1:
        fields["uno"] = not a.uno
    elif isinstance(a, OA.FourTowerDiscard):
        laid = list(a.laid)
        if laid and rng.random() < 0.5:
            laid.pop(rng.randrange(len(laid)))
        else:
            laid.append(rng.choice(s.edition.deck))
        fields["laid"] = tuple(laid)
    elif what == 2:
        fields["colour"] = rng.choice(("", *COLOURS))
    elif what == 3:
        fields["target"] = rng.choice((-1, rng.randrange(n)))
    elif what == 4:
        fields["towers"] = tuple(rng.sample(TOWERS, rng.randrange(3)))
    else:
        if a.laid or rng.random() < 0.5:
            laid = list(a.laid)
            if laid and rng.random() < 0.5:
                laid.pop(rng.randrange(len(laid)))
            else:
                laid.append(_cards(rng, s, a.seat, 1)[0])
            fields["laid"] = tuple(laid)
        else:
            fields["card"] = _cards(rng, s, a.seat, 1)[0]
    return replace(a, **fields)


# -- one match ---------------------------------------------------------------------------
@dataclass
class Stats:
    steps: int = 0
    decisions: int = 0
    probes: int = 0
    refused: int = 0
    rounds: int = 0
    matches: int = 0
    over: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    verdicts: Counter[str] = field(default_factory=Counter)
    effects: Counter[str] = field(default_factory=Counter)

    def add(self, other: Stats) -> None:
        for k in ("steps", "decisions", "probes", "refused", "rounds", "matches", "over"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.kinds.update(other.kinds)
        self.verdicts.update(other.verdicts)
        self.effects.update(other.effects)


@dataclass(frozen=True)
class Case:
    edition: str
    mode: str
    seats: int
    options: dict[str, Any]
    seed: int
    launcher: str = "measured"
    max_steps: int = 1500
    start: dict[str, Any] | None = None  # position() arguments: start mid-round

    def __str__(self) -> str:
        return (f"{self.edition}/{self.mode}/{self.seats} seats/seed {self.seed}/"
                f"{self.launcher}/{self.options}" + (f"/position {self.start}"
                                                     if self.start else ""))


def _choose(rng: random.Random, s: Any, legal: list[Any]) -> Any:
    """The oracle's pick: catches and late calls sometimes, UNO forgotten sometimes,
    otherwise uniform over the seat's own actions."""
    calls = [a for a in legal if isinstance(a, OA.Catch | OA.CallUno)]
    if calls and rng.random() < 0.5:
        return rng.choice(calls)
    own = [a for a in legal if not isinstance(a, OA.Catch | OA.CallUno)] or legal
    if rng.random() < 0.3:  # forget UNO
        own = [a for a in own if not getattr(a, "uno", False)] or own
    return rng.choice(own)


class Lockstep:
    def __init__(self, case: Case, probes: int = 5) -> None:
        self.case = case
        self.probes = probes
        self.rng = random.Random(case.seed)
        self.chance = random.Random(case.seed + 1)
        self.launcher = LAUNCHERS[case.launcher]
        self.stats = Stats(matches=1)
        self.log: list[str] = []

    def fail(self, what: str) -> Mismatch:
        tail = "\n    ".join(self.log[-12:])
        return Mismatch(f"step {self.stats.steps}: {what}\n  match: {self.case}\n"
                        f"  last actions:\n    {tail}")

    def same_state(self, old: Any, new: Any, what: str = "states differ") -> dict[str, Any]:
        a, b = as_today(canon_state(OLD, old)), canon_state(NEW, new)
        if a != b:
            raise self.fail(f"{what}:\n{_diff(a, b)}")
        return b

    def same_legal(self, old: Any, new: Any) -> tuple[list[Any], list[Any]]:
        lo, ln = OLD.legal_actions(old), NEW.legal_actions(new)
        co = Counter(canon_action(OLD, a) for a in lo)
        cn = Counter(canon_action(NEW, a) for a in ln)
        if co != cn:
            raise self.fail(f"legal actions differ:\n  only oracle {sorted(co - cn)}\n"
                            f"  only live   {sorted(cn - co)}")
        return lo, ln

    def same_verdict(self, old: Any, new: Any, action: Any, mine: Any,
                     live_before: dict[str, Any]) -> None:
        """`action` (oracle object) and `mine` (the live engine's equal one) judged alike."""
        vo = verdict(OLD, old, action)
        self.stats.verdicts[vo[0]] += 1
        if vo[0] == "ok":
            vn = verdict(NEW, new.clone(), mine)
            if vn[0] != "ok":
                raise self.fail(f"{action}: oracle accepts, live says {vn[1:]}")
            self.compare_after(action, vo[1], vo[2], vn[1], vn[2])
            return
        self.stats.refused += 1
        vn = verdict(NEW, new, mine)
        if vn[0] == "ok":
            raise self.fail(f"{action}: oracle says {vo[1:]}, live accepts")
        if vn != vo:
            raise self.fail(f"{action}: refused differently:\n  oracle {vo[1:]}\n"
                            f"  live   {vn[1:]}")
        if canon_state(NEW, new) != live_before:
            raise self.fail(f"{action}: refused, but the live state changed:\n"
                            f"{_diff(live_before, canon_state(NEW, new))}")

    def compare_after(self, action: Any, old: Any, fx_old: Any, new: Any, fx_new: Any) -> None:
        """Equal states after `action`, and equal effects (`fx_new` None: not asked for)."""
        if fx_new is not None:
            eo, en = effects_of(OLD, fx_old), effects_of(NEW, fx_new)
            if eo != en:
                raise self.fail(f"{action}: effects differ:\n  oracle {eo}\n  live   {en}")
        self.same_state(old, new, f"after {action}")

    def probe(self, old: Any, new: Any, legal: list[Any], stale: list[Any]) -> None:
        """Random actions; mutations of legal ones; and actions the live engine listed for
        the state before the last step (its listed objects must not outlive their state)."""
        live_before = canon_state(NEW, new)
        for _ in range(self.probes):
            r = self.rng.random()
            if stale and r < 0.15:
                mine = self.rng.choice(stale)
                action = OLD.action_from_dict(NEW.action_to_dict(mine))
            else:
                if legal and r < 0.5:
                    action = mutate(self.rng, self.rng.choice(legal), old)
                else:
                    action = random_action(self.rng, old)
                mine = to_new(action)
            self.stats.probes += 1
            self.same_verdict(old, new, action, mine, live_before)

    def chance_outcome(self, old: Any, new: Any) -> Any:
        state = self.chance.getstate()
        if old.to_act == OLD.CHANCE:
            if old.chance == "eject" and not old.table and self.rng.random() < 0.05:
                return OA.Eject(old.pile_count)  # empty the launcher: void presses, reshuffles
            a = OLD.sample_outcome(old, self.chance, self.launcher)
            twin = random.Random()
            twin.setstate(state)
            b = NEW.sample_outcome(new, twin, LAUNCHERS_NEW[self.case.launcher])
        else:
            a = OLD.sample_hand_entry(old, self.chance)
            twin = random.Random()
            twin.setstate(state)
            b = NEW.sample_hand_entry(new, twin)
        if canon_action(OLD, a) != canon_action(NEW, b) or twin.getstate() != \
                self.chance.getstate():
            raise self.fail(f"the chance player differs: oracle {a}, live {b}")
        return a

    def run(self) -> Stats:
        c = self.case
        if c.start is None:
            old = OLD.new_match(c.edition, c.seats, c.options, c.mode)
            new = NEW.new_match(c.edition, c.seats, c.options, c.mode)
        else:
            kw = {**c.start, "options": c.options, "mode": c.mode}
            vo, vn = _made(OLD, c.edition, kw), _made(NEW, c.edition, kw)
            if isinstance(vo, tuple) or isinstance(vn, tuple):
                if vo != vn:
                    raise self.fail(f"position(): oracle {vo}, live {vn}")
                return self.stats
            old, new = vo, vn
        st = self.stats
        flip = False
        stale: list[Any] = []
        while st.steps < c.max_steps and not old.over:
            self.same_state(old, new)
            legal, returned = self.same_legal(old, new)
            legal_new = list(returned)
            if st.steps % 5 == 4:
                returned.clear()  # a caller may change its list: the next answers stay right
            chance_node = old.to_act == OLD.CHANCE or (old.table and old.phase == "hand_entry")
            if chance_node and legal and old.to_act == OLD.CHANCE:
                raise self.fail(f"actions listed at a chance node: {legal}")
            self.probe(old, new, legal, stale)
            stale = legal_new
            if chance_node:
                action = self.chance_outcome(old, new)
            else:
                action = _choose(self.rng, old, legal)
                st.decisions += 1
            st.kinds[type(action).__name__] += 1
            self.log.append(str(action))
            vo = verdict(OLD, old, action)
            if vo[0] != "ok":  # an impossible setup (e.g. hands that do not fit the deck)
                vn = verdict(NEW, new, to_new(action))
                if vn != vo:
                    raise self.fail(f"{action}: oracle says {vo[1:]}, live {vn[1:]}")
                break
            kept = None
            if st.steps % 37 == 36:  # go on from restore(snapshot()): it must rebuild it all
                new = NEW.restore(NEW.snapshot(new))
                self.same_state(old, new, "restore(snapshot(state)) is another state")
            elif st.steps % 23 == 22:  # go on from a clone: the original must not change
                kept = (new, canon_state(NEW, new))
                new = new.clone()
            mine = to_new(action)
            flip = not flip
            if flip:  # the very object the live engine listed (its listed path)
                key = canon_action(NEW, mine)
                mine = next((a for a in legal_new if canon_action(NEW, a) == key), mine)
            quiet = QUIET and st.steps % 3 == 1  # effects switched off: the same game
            try:
                new, fx_new = NEW.apply(new, mine, effects=False) if quiet else \
                    NEW.apply(new, mine)
            except NEW.RuleError as exc:
                raise self.fail(f"{action}: oracle accepts, live says {exc}") from None
            before_round = old.round_no
            old, fx_old = vo[1], vo[2]
            st.effects.update(e.name if e.name != "prompt" else f"prompt:{e.kind}"
                              for e in fx_old)
            self.compare_after(action, old, fx_old, new, None if quiet else fx_new)
            if kept is not None and canon_state(NEW, kept[0]) != kept[1]:
                raise self.fail(f"{action} applied to a clone changed the original:\n"
                                f"{_diff(kept[1], canon_state(NEW, kept[0]))}")
            st.rounds += old.round_no != before_round
            st.steps += 1
        self.same_state(old, new)
        st.over += old.over
        return st


def _made(engine: ModuleType, edition: str, kw: dict[str, Any]) -> Any:
    """``position(edition, **kw)``, or ("refused", error type, text)."""
    try:
        return engine.position(edition, **kw)
    except Exception as exc:  # noqa: BLE001 - compared between the engines
        return ("refused", type(exc).__name__, str(exc))


def random_position(rng: random.Random, edition: str, mode: str, seats: int) -> dict[str, Any]:
    """``position()`` arguments for a random mid-round position: random hand sizes (some of
    one card, maybe an open UNO), a discard pile from one card to most of the deck (so the
    pile may be nearly empty), the pile's order, towers with random owners."""
    ed = OLD.EDITIONS[edition]
    deck = list(ed.deck)
    rng.shuffle(deck)
    sizes = [rng.choice((1, 1, 2, 3, 5, 7, 10)) for _ in range(seats)]
    hands, i = [], 0
    for k in sizes:
        hands.append(" ".join(map(str, deck[i:i + k])))
        i += k
    rest = deck[i:]
    cut = rng.randrange(1, len(rest)) if rng.random() < 0.4 else rng.randrange(1, 12)
    discard = rest[:cut]
    kw: dict[str, Any] = {"discard": " ".join(map(str, discard)), "turn": rng.randrange(seats),
                          "direction": rng.choice((1, -1))}
    if discard[-1].colour == "":
        kw["colour"] = rng.choice(COLOURS)
    if mode == "table":
        kw["counts"] = sizes
    else:
        kw["hands"] = hands
        kw["pile"] = " ".join(map(str, rest[cut:]))
    if ed.towers:
        kw["towers"] = {t: rng.randrange(-1, seats) for t in TOWERS if rng.random() < 0.7}
    ones = [seat for seat, k in enumerate(sizes) if k == 1]
    if ones and rng.random() < 0.3:
        kw["exposed"] = rng.choice(ones)
    if ed.launcher:
        kw["since_eject"] = rng.randrange(5)
    return kw


# the live engine can switch effects off (issue 11): then every third step runs without
QUIET = "effects" in inspect.signature(NEW.apply).parameters
LAUNCHERS_NEW = {"measured": NEW.MEASURED, "simple": NEW.SIMPLE,
                 "stingy": NewSimpleLauncher(p_eject=0.25, max_cards=2)}


# -- the cases ---------------------------------------------------------------------------
def random_options(rng: random.Random, edition: str, seats: int) -> dict[str, Any]:
    """Up to five of the edition's options with random values (a short match)."""
    ed = OLD.EDITIONS[edition]
    names = sorted(ed.option_defaults)
    out: dict[str, Any] = {}
    for name in rng.sample(names, rng.randrange(min(6, len(names)))):
        spec = OLD.OPTION_SPECS[name]
        if spec.type is bool:
            out[name] = rng.random() < 0.5
        elif spec.choices:
            out[name] = rng.choice(spec.choices)
        elif name == "hand_size":
            out[name] = rng.randrange(1, min(15, (len(ed.deck) - 1) // seats) + 1)
        elif name == "target_score":
            continue
        else:
            out[name] = rng.randrange(spec.minimum or 0, min(spec.maximum or 100, 100) + 1)
    out["target_score"] = rng.choice((60, 150, 300))
    return out


def cases(edition: str, mode: str, seeds: int, max_steps: int = 1500) -> list[Case]:
    """`seeds` matches of `edition` in `mode`: the first with 4 seats and the edition's
    defaults, then the most seats, two seats, then random counts; random option sets;
    every third starts from a random mid-round position."""
    ed = OLD.EDITIONS[edition]
    out = []
    for i in range(seeds):
        seed = _seed(edition, mode, i)
        rng = random.Random(seed)
        seats = ((4, ed.max_players, 2)[i] if i < 3
                 else rng.randint(ed.min_players, ed.max_players))
        options = {"target_score": 150} if i == 0 else random_options(rng, edition, seats)
        if mode == "table":  # table rounds are short (any unseen card may be declared)
            options["target_score"] = options["target_score"] * 3
        launcher = ("measured", "simple", "stingy")[i % 3] if ed.launcher else "measured"
        start = random_position(rng, edition, mode, seats) if i % 3 == 2 else None
        out.append(Case(edition, mode, seats, options, seed, launcher, max_steps, start))
    return out


def _seed(edition: str, mode: str, i: int) -> int:
    return sorted(OLD.EDITIONS).index(edition) * 100_000 + MODES.index(mode) * 50_000 + i


def run_all(seeds: int, max_steps: int, out: Any = None) -> Stats:
    total = Stats()
    for edition in OLD.EDITIONS:
        for mode in MODES:
            start = time.perf_counter()
            st = Stats()
            for case in cases(edition, mode, seeds, max_steps):
                st.add(Lockstep(case).run())
            total.add(st)
            if out is not None:
                print(f"{edition:<12} {mode:<10} {st.matches:>4} matches ({st.over} finished) "
                      f"{st.rounds:>5} rounds {st.steps:>8} steps {st.probes:>8} probes "
                      f"({st.refused} refused) agreed  {time.perf_counter() - start:6.1f} s",
                      file=out, flush=True)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="lockstep soak: live uno_core vs the oracle")
    parser.add_argument("--seeds", type=int, default=40, help="matches per edition and mode")
    parser.add_argument("--max-steps", type=int, default=3000, help="steps per match at most")
    args = parser.parse_args(argv)
    total = run_all(args.seeds, args.max_steps, sys.stdout)
    print(f"total: {total.matches} matches, {total.rounds} rounds, {total.steps} steps, "
          f"{total.decisions} seat decisions, {total.probes} probes agreed "
          f"({dict(total.verdicts)})")
    print(f"actions taken: {dict(total.kinds)}")
    print(f"effects seen: {dict(total.effects)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
