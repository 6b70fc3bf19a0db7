# Frozen copy of uno_core (tests/oracle/freeze.py): the lockstep oracle. Do not edit.
"""The game state: one slotted object, treated as immutable.

``apply`` never mutates its input: it clones the state (a shallow copy of ~30
references) and replaces whole fields with new tuples. Hands, piles and the
obligation queue are tuples, so a clone shares them safely (copy-on-write).

Seats are 0..n-1; "left" is seat + 1. ``direction`` +1 means play goes left.
In table mode ``hands`` are empty tuples (only ``counts`` are known) and ``pile`` is
empty (only ``pile_count``); ``unseen`` counts the cards that are not public.
"""

from __future__ import annotations

from collections.abc import Mapping

from tests.oracle.uno_core_oracle.actions import CHANCE
from tests.oracle.uno_core_oracle.cards import TOWERS, Card, format_card
from tests.oracle.uno_core_oracle.editions import Edition
from tests.oracle.uno_core_oracle.options import Options

NOBODY = -2  # to_act when the match is over

# obligation kinds
OWE_DRAW = "draw"
OWE_PRESS = "press"
OWE_UNTIL = "until"
# obligation tags
TAG_TURN = "turn"  # the turn's own draw/press: afterwards the drawn card may be played
TAG_ALL = "all"  # one press of a Wild All Hit
TAG_PENALTY = "penalty"

Obligation = tuple[str, int, int, str]  # (kind, seat, count, tag)

SIMULATION = "simulation"
TABLE = "table"
MODES = (SIMULATION, TABLE)


class State:
    """Everything about a match at one moment. Do not mutate; use ``engine.apply``."""

    __slots__ = (
        "edition", "options", "table", "n", "hands", "counts", "pile", "pile_count",
        "discard", "colour", "direction", "dealer", "turn", "actor", "phase", "to_act",
        "chance", "queue", "drawn", "towers", "exposed", "skip_pending", "pending", "out",
        "scores", "round_no", "unseen", "since_eject", "winners", "entered", "colour_only",
    )

    edition: Edition
    options: Options
    table: bool
    n: int
    hands: tuple[tuple[Card, ...], ...]
    counts: tuple[int, ...]
    pile: tuple[Card, ...]
    pile_count: int
    discard: tuple[Card, ...]
    colour: str
    direction: int
    dealer: int
    turn: int
    actor: int
    phase: str
    to_act: int
    chance: str
    queue: tuple[Obligation, ...]
    drawn: tuple[Card, ...]
    towers: tuple[int, ...]
    exposed: int
    skip_pending: int
    pending: tuple[int, int, bool] | tuple[()]
    out: int
    scores: tuple[int, ...]
    round_no: int
    unseen: Mapping[Card, int]
    since_eject: int
    winners: tuple[int, ...]
    entered: tuple[bool, ...]
    # seed 000: on a turned Take-2-Towers the first player lays only a card of its colour;
    # true for that player's turn only
    colour_only: bool

    def clone(self) -> State:
        s = State.__new__(State)
        s.edition = self.edition
        s.options = self.options
        s.table = self.table
        s.n = self.n
        s.hands = self.hands
        s.counts = self.counts
        s.pile = self.pile
        s.pile_count = self.pile_count
        s.discard = self.discard
        s.colour = self.colour
        s.direction = self.direction
        s.dealer = self.dealer
        s.turn = self.turn
        s.actor = self.actor
        s.phase = self.phase
        s.to_act = self.to_act
        s.chance = self.chance
        s.queue = self.queue
        s.drawn = self.drawn
        s.towers = self.towers
        s.exposed = self.exposed
        s.skip_pending = self.skip_pending
        s.pending = self.pending
        s.out = self.out
        s.scores = self.scores
        s.round_no = self.round_no
        s.unseen = self.unseen
        s.since_eject = self.since_eject
        s.winners = self.winners
        s.entered = self.entered
        s.colour_only = self.colour_only
        return s

    @property
    def mode(self) -> str:
        return TABLE if self.table else SIMULATION

    @property
    def top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    @property
    def over(self) -> bool:
        return self.phase == "match_over"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in State.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        top = format_card(self.discard[-1]) if self.discard else "-"
        return (f"<State {self.edition.name} {self.mode} round={self.round_no} "
                f"phase={self.phase} to_act={self.to_act} top={top} colour={self.colour or '-'} "
                f"counts={list(self.counts)}>")


def public_state(state: State) -> dict[str, object]:
    """JSON-able public view: no hidden hands, no pile order."""
    s = state
    return {
        "edition": s.edition.name,
        "mode": s.mode,
        "seats": s.n,
        "round": s.round_no,
        "phase": s.phase,
        "to_act": s.to_act,
        "chance": s.chance or None,
        "turn": s.turn,
        "dealer": s.dealer,
        "direction": s.direction,
        "colour": s.colour or None,
        "colour_only": s.colour_only,
        "top": format_card(s.discard[-1]) if s.discard else None,
        "discard": [format_card(c) for c in s.discard],
        "pile_count": s.pile_count,
        "hand_counts": list(s.counts),
        "towers": ({t: (None if o < 0 else o) for t, o in zip(TOWERS, s.towers, strict=True)}
                   if s.edition.towers else None),
        "owed": [{"kind": k, "seat": seat, "count": c, "tag": tag} for k, seat, c, tag in s.queue],
        "uno_exposed": None if s.exposed < 0 else s.exposed,
        "challenge": ({"player": s.pending[0], "challenger": s.pending[1]} if s.pending else None),
        "drawn_count": len(s.drawn),
        "presses_since_ejection": s.since_eject if s.edition.launcher else None,
        "scores": list(s.scores),
        "winners": list(s.winners),
        "options": s.options.as_dict(),
    }


__all__ = ["State", "public_state", "CHANCE", "NOBODY", "SIMULATION", "TABLE"]
