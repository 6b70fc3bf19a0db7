"""Bots: a uniformly random legal player and a simple heuristic player, and the loop
that plays a whole match between them with the chance player.

Bots draw every decision from an injected rng (``random()`` and ``randrange()``;
``random.Random(seed)`` fits), so a seeded match replays bit for bit.
Both call UNO with the play that leaves them one card (``Play(uno=True)``: said before
the card is laid) and sometimes forget (``forget_uno``, a probability), so that
penalties happen: drawn at once with the play (option ``forgotten_uno`` "at_play",
classic), or after a catch ("catch", the other editions): then ``play_match`` asks every
seat, the forgetful one first (a late call), whether it interjects before the next
player acts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from uno_core import actions as A
from uno_core.actions import CHANCE, Action
from uno_core.cards import COLOURS, TOWER_INDEX, Card
from uno_core.chance import MEASURED, LauncherModel, sample_hand_entry, sample_outcome
from uno_core.effects import Effect
from uno_core.engine import apply, hand_points, legal_actions, new_match
from uno_core.errors import RuleError
from uno_core.state import State


class BotRng(Protocol):
    def random(self) -> float: ...

    def randrange(self, stop: int) -> int: ...

    def shuffle(self, x: list[int]) -> None: ...


class Bot(Protocol):
    def act(self, state: State, legal: Sequence[Action]) -> Action:
        """The action of ``state.to_act`` (a seat), one of `legal` (its own actions)."""
        ...

    def interject(self, state: State, seat: int, legal: Sequence[Action]) -> Action | None:
        """A call or catch `seat` makes out of turn (from `legal`), or None."""
        ...


def _pick(rng: BotRng, items: Sequence[Action]) -> Action:
    return items[rng.randrange(len(items))]


def _say_uno(rng: BotRng, forget: float, actions: Sequence[Action]) -> list[Action]:
    """Collapse the uno=True/False twins: call UNO, unless this time the bot forgets."""
    forgets = forget > 0 and rng.random() < forget
    # the uno=True twins, by value (cheaper than `replace(a, uno=True) in actions`)
    twins = set() if forgets else {_twin_key(a) for a in actions
                                   if isinstance(a, A.Play | A.FourTowerDiscard) and a.uno}
    out: list[Action] = []
    for a in actions:
        if isinstance(a, A.Play | A.FourTowerDiscard):
            if a.uno and forgets:
                continue
            if not a.uno and not forgets and _twin_key(a) in twins:
                continue
        out.append(a)
    return out


def _twin_key(a: A.Play | A.FourTowerDiscard) -> tuple[object, ...]:
    """Everything of `a` but its UNO call."""
    if isinstance(a, A.Play):
        return (A.Play, a.seat, a.card, a.colour, a.target, a.towers, a.laid)
    return (A.FourTowerDiscard, a.seat, a.laid)


@dataclass
class RandomBot:
    """Plays a uniformly random legal action (a play with and without the UNO call count
    as one: it calls UNO unless it forgets, probability `forget_uno`); catches a
    forgotten UNO, or jumps in (jump_in), with probability `catch`."""

    rng: BotRng
    forget_uno: float = 0.1
    catch: float = 0.5

    def act(self, state: State, legal: Sequence[Action]) -> Action:
        return _pick(self.rng, _say_uno(self.rng, self.forget_uno, legal))

    def interject(self, state: State, seat: int, legal: Sequence[Action]) -> Action | None:
        mine = [a for a in legal if a.seat == seat]
        if mine and self.rng.random() < self.catch:
            return _pick(self.rng, mine)
        return None


def _best_colour(hand: Sequence[Card]) -> str:
    count = Counter(c.colour for c in hand if c.colour)
    return max(COLOURS, key=lambda col: (count[col], -COLOURS.index(col)))


@dataclass
class HeuristicBot:
    """A simple, sensible player (simulation: it looks at its own hand only).

    Plays a coloured card before a wild (keeps wilds for later), the highest-scoring
    playable coloured card first, picks the colour it holds most, targets the seat with
    the fewest cards, plays a drawn card when it can, takes the four-tower discard keeping
    its best card, challenges a Wild Draw 4 from a player with many cards, always catches
    a forgotten UNO, always jumps in (jump_in), and calls UNO unless it forgets
    (`forget_uno`). In table mode (no hand known) it plays like RandomBot.
    """

    rng: BotRng
    forget_uno: float = 0.05
    challenge_from: int = 5  # challenge a Wild Draw 4 played by a seat still holding this many

    def act(self, state: State, legal: Sequence[Action]) -> Action:
        seat = state.to_act
        legal = _say_uno(self.rng, self.forget_uno, legal)
        if state.table:
            return _pick(self.rng, legal)
        hand = state.hand(seat)
        plays = [a for a in legal if isinstance(a, A.Play)]
        if plays:
            return self._choose_play(state, seat, hand, plays)
        four = [a for a in legal if isinstance(a, A.FourTowerDiscard)]
        if four:  # keep the card most likely to be playable next: a wild, else the colour
            colour = _best_colour(hand)
            return max(four, key=lambda a: self._keep_value(hand, a.laid, colour))
        challenges = [a for a in legal if isinstance(a, A.Challenge)]
        if challenges and state.pending:
            player = state.pending[0]
            if state.counts[player] >= self.challenge_from:
                return challenges[0]
            return next(a for a in legal if isinstance(a, A.Accept))
        colours = [a for a in legal if isinstance(a, A.ChooseColour)]
        if colours:
            best = _best_colour(hand)
            return next(a for a in colours if a.colour == best)
        return _pick(self.rng, legal)

    @staticmethod
    def _keep_value(hand: Sequence[Card], laid: Sequence[Card], colour: str) -> tuple[int, int]:
        kept = list((Counter(hand) - Counter(laid)).elements())
        card = kept[0]
        return (2 if card.is_wild else 1 if card.colour == colour else 0, -len(laid))

    def _choose_play(self, state: State, seat: int, hand: Sequence[Card],
                     plays: list[A.Play]) -> Action:
        coloured = [p for p in plays if not p.card.is_wild]
        pool = coloured or plays
        # most cards laid (Discard All), then highest points, then a stable order
        best = max(pool, key=lambda p: (len(p.laid), hand_points(state, (p.card,)),
                                        str(p.card)))
        options = [p for p in pool if p.card == best.card]
        rest = [c for c in hand if c != best.card]
        colour = _best_colour(rest) if rest else best.colour or COLOURS[0]
        if best.card.is_wild:
            options = [p for p in options if p.colour == colour] or options
        targets = {p.target for p in options if p.target >= 0}
        if targets:
            weakest = min(targets, key=lambda t: (state.counts[t], t))
            options = [p for p in options if p.target == weakest]
        if any(p.towers for p in options):
            # take towers from opponents rather than from the neutral spot
            def owned(p: A.Play) -> int:
                return sum(1 for t in p.towers if state.towers[TOWER_INDEX[t]] >= 0)
            top = max(owned(p) for p in options)
            options = [p for p in options if owned(p) == top]
        return _pick(self.rng, options)

    def interject(self, state: State, seat: int, legal: Sequence[Action]) -> Action | None:
        mine = [a for a in legal if a.seat == seat]
        late = [a for a in mine if isinstance(a, A.CallUno)]
        if late:
            return late[0] if self.rng.random() < 0.5 else None
        jumps = [a for a in mine if isinstance(a, A.Play)]
        if jumps:  # jump in, saying UNO with it; with a 7 (seven_zero), at the weakest
            said = _say_uno(self.rng, self.forget_uno, jumps)
            return self._choose_play(state, seat, state.hand(seat),
                                     [a for a in said if isinstance(a, A.Play)])
        return mine[0] if mine else None


BOTS: Mapping[str, Callable[[BotRng], Bot]] = {
    "random": lambda rng: RandomBot(rng),
    "heuristic": lambda rng: HeuristicBot(rng),
}


@dataclass(frozen=True, slots=True)
class MatchLog:
    """A finished (or stopped) match: every action in order with its effects."""

    state: State
    actions: tuple[Action, ...]
    effects: tuple[tuple[Effect, ...], ...]


class MatchError(RuleError):
    """A match stopped on an exception (an illegal bot action or an engine bug); `log`
    holds every action applied before it, so the match can be replayed to that point."""

    def __init__(self, log: MatchLog, cause: Exception) -> None:
        super().__init__(f"after {len(log.actions)} actions: {type(cause).__name__}: {cause}")
        self.log = log
        self.cause = cause


Observer = Callable[[State, Action, State, Sequence[Effect]], None]
Ahead = Callable[[State, Action], None]


def _turn_actions(state: State, legal: list[Action]) -> tuple[list[Action], list[Action]]:
    """The seat to act's own actions, and what other seats may do out of turn: call or
    catch a forgotten UNO, and (jump_in, simulation: bots know their own hands) jump in."""
    seat = state.to_act
    own: list[Action] = [a for a in legal
                         if a.seat == seat and not isinstance(a, A.CallUno | A.Catch)]
    calls: list[Action] = [a for a in legal if isinstance(a, A.CallUno | A.Catch)
                           or a.seat != seat and not state.table and isinstance(a, A.Play)]
    return own, calls


def play_match(edition: str, seats: int, bots: Sequence[Bot], chance_rng: BotRng, *,
               options: Mapping[str, object] | None = None, mode: str = "simulation",
               launcher: LauncherModel = MEASURED, max_actions: int = 200_000,
               observe: Observer | None = None, ahead: Ahead | None = None,
               effects: bool = True) -> MatchLog:
    """Play one match to its end: `bots[i]` plays seat i, `chance_rng` drives the chance
    player (and table-mode hand entries). `observe(before, action, after, effects)` sees
    every step (it costs a copy of the state per step: apply changes the state in
    place); `ahead(state, action)` sees each action before it is applied, for free.
    With ``effects=False`` (the simulation kernel) no effects are built and the log has
    none; the match is the same. Stops after `max_actions` (the log then ends before the
    match does). Raises MatchError (with the log so far) if anything goes wrong."""
    state = new_match(edition, seats, options, mode)
    actions: list[Action] = []
    logged: list[tuple[Effect, ...]] = []

    def step(action: Action) -> None:
        nonlocal state
        if ahead is not None:
            ahead(state, action)
        before = state.clone() if observe is not None else state  # apply mutates `state`
        state, fx = apply(state, action, effects)
        actions.append(action)
        if effects:
            logged.append(tuple(fx))
        if observe is not None:
            observe(before, action, state, fx)

    try:
        while not state.over and len(actions) < max_actions:
            if state.to_act == CHANCE:
                step(sample_outcome(state, chance_rng, launcher))
                continue
            if state.phase == "hand_entry" and state.table:
                step(sample_hand_entry(state, chance_rng))
                continue
            legal = legal_actions(state)
            own, calls = _turn_actions(state, legal)
            if calls:
                first = state.exposed if state.exposed >= 0 else state.to_act
                order = [(first + i) % seats for i in range(seats)]
                taken = next((a for a in (bots[s].interject(state, s, calls) for s in order)
                              if a is not None), None)
                if taken is not None:
                    step(taken)
                    continue
            step(bots[state.to_act].act(state, own))
    except Exception as exc:
        raise MatchError(MatchLog(state, tuple(actions), tuple(logged)), exc) from exc
    return MatchLog(state, tuple(actions), tuple(logged))


__all__ = ["BOTS", "Bot", "HeuristicBot", "MatchError", "MatchLog", "RandomBot", "play_match"]
