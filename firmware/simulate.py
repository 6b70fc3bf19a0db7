"""Play many bot matches and sum them up: the loop behind `unotable simulate` (and a
demo table later). Deterministic: match i of seed S uses ``random.Random(f"{S}:{i}")``
for its bots and chance player, so the same arguments give the same matches.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware.counting import count_of
from uno_core import EDITIONS, get_edition
from uno_core import actions as A
from uno_core.actions import Action
from uno_core.bots import BOTS, MatchError, play_match
from uno_core.errors import OptionError
from uno_core.options import make_options
from uno_core.record import write_record
from uno_core.state import State

OnMatch = Callable[[int, str], None]  # (match index, record text)
OnProgress = Callable[[int, int], None]  # (matches done, matches total)


@dataclass
class Summary:
    variant: str
    players: int
    games: int
    seed: int
    bot: str
    rounds: int = 0
    turns: int = 0
    actions: int = 0
    errors: int = 0
    wins: list[int] = field(default_factory=list)
    uno_penalties: int = 0
    challenges: int = 0
    error_messages: list[str] = field(default_factory=list)
    options: dict[str, object] = field(default_factory=dict)  # --option overrides

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "players": self.players, "games": self.games,
            "seed": self.seed, "bot": self.bot, "rounds": self.rounds, "turns": self.turns,
            "actions": self.actions, "errors": self.errors,
            "wins": {str(i): w for i, w in enumerate(self.wins)},
            "uno_penalties": self.uno_penalties, "challenges": self.challenges,
            "error_messages": self.error_messages, "options": self.options,
        }

    def to_text(self) -> str:
        lines = [
            f"{count_of(self.games, 'match', 'matches')} of {self.variant}, {self.players} players, "
            f"{self.bot} bots, seed {self.seed}"
            + "".join(f", {k}={v}" for k, v in self.options.items()),
            f"rounds {self.rounds}  turns {self.turns}  actions {self.actions}  "
            f"errors {self.errors}",
            f"UNO penalties {self.uno_penalties}  Wild Draw 4 challenges {self.challenges}",
            "wins: " + "  ".join(f"seat {i}: {w}" for i, w in enumerate(self.wins, 1)),  # as the screen
        ]
        lines.extend(f"error: {m}" for m in self.error_messages)
        return "\n".join(lines)


def check_arguments(variant: str, players: int, games: int, bot: str,
                    options: Mapping[str, object] | None = None) -> None:
    """Raise ValueError naming the bad argument."""
    if variant not in EDITIONS:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(EDITIONS)})")
    ed = get_edition(variant)
    if not ed.min_players <= players <= ed.max_players:
        raise ValueError(f"{variant} is for {ed.min_players}-{ed.max_players} players, "
                         f"not {players}")
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    if bot not in BOTS:
        raise ValueError(f"unknown bot {bot!r} (known: {', '.join(BOTS)})")
    try:
        make_options(ed, options)
    except OptionError as exc:
        raise ValueError(f"--option {exc}") from None


def simulate(variant: str, players: int, games: int, seed: int, *, bot: str = "heuristic",
             on_match: OnMatch | None = None, on_progress: OnProgress | None = None,
             max_actions: int = 200_000, record_effects: bool = False,
             options: Mapping[str, object] | None = None) -> Summary:
    """Play `games` full matches between bots; see the module docstring. With
    `record_effects` the records passed to `on_match` store every action's effects;
    `options` (house rules too) override the edition's defaults."""
    check_arguments(variant, players, games, bot, options)
    summary = Summary(variant, players, games, seed, bot, wins=[0] * players,
                      options=dict(options or {}))
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        bots = [BOTS[bot](rng) for _ in range(players)]
        turns = 0

        def count_turn(before: State, action: Action) -> None:
            nonlocal turns
            # a turn starts when the seat on turn plays, draws or presses in the play phase
            if (before.phase == "play" and action.seat == before.turn
                    and isinstance(action, A.Play | A.Draw | A.Press) and not before.queue):
                turns += 1

        try:  # the simulation kernel: no effects built, the state changed in place
            log = play_match(variant, players, bots, rng, max_actions=max_actions,
                             ahead=count_turn, effects=record_effects, options=options)
        except MatchError as exc:  # an engine (or bot) bug: count it, keep the record
            summary.errors += 1
            summary.error_messages.append(f"match {i}: {exc}")
            if on_match is not None:
                on_match(i, write_record(variant, players, exc.log.actions, seed=seed,
                                         options=options,
                                         meta={"match": i, "bot": bot, "error": str(exc)},
                                         effects=exc.log.effects if record_effects else None))
            if on_progress is not None:
                on_progress(i + 1, games)
            continue
        state = log.state
        if not state.over:
            summary.errors += 1
            summary.error_messages.append(f"match {i}: not over after {max_actions} actions")
        for w in state.winners:
            summary.wins[w] += 1
        summary.actions += len(log.actions)
        summary.turns += turns
        # without effects, counted from the actions: every round but a running one ended
        # (RoundOver), every catch is a penalty (UnoPenalty), every challenge is resolved
        summary.rounds += state.round_no if state.over else max(0, state.round_no - 1)
        for action in log.actions:
            if isinstance(action, A.Catch):
                summary.uno_penalties += 1
            elif isinstance(action, A.Challenge | A.Verdict):
                summary.challenges += 1
        if on_match is not None:
            on_match(i, write_record(variant, players, log.actions, seed=seed,
                                     options=options,
                                     meta={"match": i, "bot": bot}, final=state,
                                     effects=log.effects if record_effects else None))
        if on_progress is not None:
            on_progress(i + 1, games)
    return summary
