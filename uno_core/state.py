"""The game state: one mutable slotted object that ``apply`` changes in place.

``apply(state, action)`` validates the action completely before its first write, then
mutates `state` and returns it: an illegal action leaves the state exactly as it was.
A caller that needs the old state keeps ``state.clone()`` (a deep copy of the few
mutable containers).

The hot containers are private and mutable: ``_hands`` (per seat a list of card ids,
``Card.id``, in the order the player got them), ``_masks`` (per seat, the bits of the
card values held: ``Card.bit``), ``_counts``, ``_pile`` (top = last), ``_disc`` (top = last), ``_queue``
and ``_unseen``. The public names (``hands``, ``counts``, ``pile``, ``discard``,
``queue``, ``unseen``, ``pile_count``) are read-only views built on read, with the same
types as before (tuples, a dict), so nothing outside the engine can change the state
behind its back. Small values that change rarely (``towers``, ``scores``, ``drawn``,
``pending``, ``entered``, ``winners``) are plain attributes holding tuples.

Seats are 0..n-1; "left" is seat + 1. ``direction`` +1 means play goes left.
In table mode hands are empty (only counts are known) and the pile is only a count;
``unseen`` counts the cards that are not public.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from uno_core.actions import CHANCE
from uno_core.cards import BY_ID, TOWERS, Card, format_card
from uno_core.editions import Edition
from uno_core.listed import Decisions, Listing, lazy_listing
from uno_core.options import Options
from uno_core.tables import Tables, mask_of

NOBODY = -2  # to_act when the match is over
# How public_state says a tower on the neutral slot (the engine's effects.NEUTRAL, -1):
# the tray's own word, so every outside view says it alike (hal.tray.NEUTRAL, held equal
# by tests/test_layering.py).
NEUTRAL_SLOT = "neutral"



class Phase(StrEnum):
    """What the match waits for (``State.phase``). A StrEnum: it equals its text, which
    records, snapshots and the firmware use ("play" == Phase.PLAY)."""

    SHUFFLE = "shuffle"  # the deck is to be shuffled (a round's start)
    DEALER = "dealer"  # the seats turn a card each to choose the dealer
    REVEAL = "reveal"  # table mode: the first card is to be turned
    FIRST_COLOUR = "first_colour"  # the first player names the colour of a first wild
    PLAY = "play"  # the seat to act plays or draws
    DRAWN = "drawn"  # the seat may play what it drew, or pass
    EXTRA = "extra"  # an extra play after a Skip or Reverse (skip_reverse_extra_turn)
    CHALLENGE = "challenge"  # a Wild Draw 4's victim challenges or accepts
    VERDICT = "verdict"  # table mode: the challenger reports what the hand showed
    FOUR_TOWERS = "four_towers"  # Power: the four-tower discard may be made
    HAND_ENTRY = "hand_entry"  # table mode: the round's other hands are entered
    MATCH_OVER = "match_over"


class Chance(StrEnum):
    """The chance outcome the match waits for (``State.chance``; NONE: none)."""

    NONE = ""
    SHUFFLE = "shuffle"
    DEALER_CARDS = "dealer_cards"
    REVEAL = "reveal"
    EJECT = "eject"


class Owe(StrEnum):
    """What an obligation owes: cards from the pile, launcher presses, or presses until
    cards come (a Wild Hit Fire)."""

    DRAW = "draw"
    PRESS = "press"
    UNTIL = "until"


class Tag(StrEnum):
    """Why an obligation is owed, where that matters afterwards."""

    NONE = ""
    TURN = "turn"  # the turn's own draw/press: afterwards the drawn card may be played
    ALL = "all"  # one press of a Wild All Hit
    PENALTY = "penalty"


class Obligation(NamedTuple):
    """Cards or presses a seat owes (``State.queue``, the first is run first). Its `kind`
    and `tag` are always the members (the engine tells them by identity, as the phase
    and the chance: ``==`` on a StrEnum is a string compare), a snapshot's too."""

    kind: Owe
    seat: int
    amount: int  # cards or presses (OWE_UNTIL: 0)
    tag: Tag


_OBLIGATIONS: dict[tuple[Owe, int, int, Tag], Obligation] = {}


def obligation(kind: Owe, seat: int, amount: int, tag: Tag = Tag.NONE) -> Obligation:
    """The obligation of these fields, made once (a NamedTuple costs twenty plain tuples
    to make, and the launcher editions owe presses on most turns)."""
    key = (kind, seat, amount, tag)
    found = _OBLIGATIONS.get(key)
    if found is None:
        found = _OBLIGATIONS[key] = Obligation(kind, seat, amount, tag)
    return found


# the members by their own names: the hot paths read a module global, not the enum class,
# and compare a state's field with a member, not with its text: both are the same
# object then, which str's == finds at once (a StrEnum member against a plain str is
# the slow, unspecialised comparison; against "play" the answer is the same)
OWE_DRAW, OWE_PRESS, OWE_UNTIL = Owe.DRAW, Owe.PRESS, Owe.UNTIL
TAG_TURN, TAG_ALL, TAG_PENALTY, NO_TAG = Tag.TURN, Tag.ALL, Tag.PENALTY, Tag.NONE
PLAY, DRAWN, EXTRA, CHALLENGE = Phase.PLAY, Phase.DRAWN, Phase.EXTRA, Phase.CHALLENGE
MATCH_OVER = Phase.MATCH_OVER
NO_CHANCE, EJECT = Chance.NONE, Chance.EJECT

SIMULATION = "simulation"
TABLE = "table"
MODES = (SIMULATION, TABLE)

# the public fields compared by ==, in snapshot order
_COMPARED = ("edition", "options", "table", "n", "hands", "counts", "pile", "pile_count",
             "discard", "colour", "direction", "dealer", "turn", "actor", "phase", "to_act",
             "chance", "queue", "drawn", "towers", "exposed", "uno_ahead", "skip_pending", "pending",
             "out", "scores", "round_no", "unseen", "since_eject", "winners", "entered", "colour_only", "stack")


class State:
    """Everything about a match at one moment. ``apply`` mutates it in place."""

    __slots__ = (
        "edition", "options", "tables", "table", "n", "_hands", "_masks", "_counts",
        "_pile", "_pcount", "_disc", "colour", "direction", "dealer", "turn", "actor",
        "phase", "to_act", "chance", "_queue", "drawn", "towers", "exposed", "uno_ahead",
        "skip_pending", "pending", "out", "scores", "round_no", "_unseen", "since_eject",
        "winners", "entered", "colour_only", "stack", "_listed", "_decisions", "_lazy",
    )

    edition: Edition
    options: Options
    tables: Tables
    table: bool
    n: int
    _hands: list[list[int]]  # card ids
    _masks: list[int]
    _counts: list[int]
    _pile: list[Card]
    _pcount: int  # table mode: cards in the pile (simulation: len(_pile))
    _disc: list[Card]
    colour: str
    direction: int
    dealer: int
    turn: int
    actor: int
    phase: Phase
    to_act: int
    chance: Chance
    _queue: list[Obligation]
    drawn: tuple[Card, ...]
    towers: tuple[int, ...]
    exposed: int
    # false_uno_penalty under forgotten_uno "catch": the seat that called UNO holding two
    # cards on its turn, before laying the second-last (seed 002), else -1
    uno_ahead: int
    skip_pending: int
    pending: tuple[int, int, bool] | tuple[()]
    out: int
    scores: tuple[int, ...]
    round_no: int
    _unseen: dict[Card, int]
    since_eject: int
    winners: tuple[int, ...]
    entered: tuple[bool, ...]
    # seed 000: on a turned Take-2-Towers the first player lays only a card of its colour;
    # true for that player's turn only
    colour_only: bool
    # stack_draws: (total, seat) while a stack of draw cards waits for `seat` to answer
    # or take it (uno_core.house_stack), else ()
    stack: tuple[int, int] | tuple[()]
    # what legal_actions listed for the state as it is now (a shared listed.Listing), or
    # None; every write clears it (apply, the engine's writers), copies and restores
    # start without it
    _listed: Listing | None
    # the parts the common decisions' listings are built from, for this edition, options
    # and seats (listing.decisions_for; simulation, no house rule), else None
    _decisions: Decisions | None
    # this state's own listing of its decisions of two playable faces or more, set anew
    # for each (listed.Listing); never shared with another state
    _lazy: Listing

    def clone(self) -> State:
        """An independent copy: applying actions to one never changes the other."""
        s = State.__new__(State)
        for k in State.__slots__:
            object.__setattr__(s, k, getattr(self, k))
        s._hands = [h[:] for h in self._hands]
        s._masks = self._masks[:]
        s._counts = self._counts[:]
        s._pile = self._pile[:]
        s._disc = self._disc[:]
        s._queue = self._queue[:]
        s._unseen = dict(self._unseen)
        s._listed = None
        s._lazy = lazy_listing()
        return s

    def assume_hands(self, hands: Sequence[Sequence[Card]]) -> None:
        """Replace every hand (counts stay): a player's view of a table-mode state
        (``table = False`` and only its own hand), for bots that decide from it."""
        self._hands = [[c.id for c in h] for h in hands]
        self._masks = [mask_of(h) for h in hands]
        self._listed = None

    # -- read-only views (built on read: callers get values, not the engine's lists)
    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        by_id = BY_ID.__getitem__
        return tuple(tuple(map(by_id, h)) for h in self._hands)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """`seat`'s cards (simulation), in the order held."""
        return tuple(map(BY_ID.__getitem__, self._hands[seat]))

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(self._counts)

    @property
    def pile(self) -> tuple[Card, ...]:
        return tuple(self._pile)

    @property
    def pile_count(self) -> int:
        return self._pcount if self.table else len(self._pile)

    @property
    def discard(self) -> tuple[Card, ...]:
        return tuple(self._disc)

    @property
    def queue(self) -> tuple[Obligation, ...]:
        return tuple(self._queue)

    @property
    def unseen(self) -> dict[Card, int]:
        return dict(self._unseen)

    @property
    def mode(self) -> str:
        return TABLE if self.table else SIMULATION

    @property
    def top(self) -> Card | None:
        return self._disc[-1] if self._disc else None

    @property
    def over(self) -> bool:
        return self.phase == "match_over"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in _COMPARED)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        top = format_card(self._disc[-1]) if self._disc else "-"
        return (f"<State {self.edition.name} {self.mode} round={self.round_no} "
                f"phase={self.phase} to_act={self.to_act} top={top} colour={self.colour or '-'} "
                f"counts={self._counts}>")


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
        "top": format_card(s._disc[-1]) if s._disc else None,
        "discard": [format_card(c) for c in s._disc],
        "pile_count": s.pile_count,
        "hand_counts": list(s._counts),
        "towers": ({t: (NEUTRAL_SLOT if o < 0 else o) for t, o in zip(TOWERS, s.towers, strict=True)}
                   if s.edition.towers else None),
        "owed": [{"kind": k, "seat": seat, "count": c, "tag": tag}
                 for k, seat, c, tag in s._queue],
        "uno_exposed": None if s.exposed < 0 else s.exposed,
        "uno_called_ahead": None if s.uno_ahead < 0 else s.uno_ahead,
        "challenge": ({"player": s.pending[0], "challenger": s.pending[1]} if s.pending else None),
        "drawn_count": len(s.drawn),
        "presses_since_ejection": s.since_eject if s.edition.launcher else None,
        "scores": list(s.scores),
        "winners": list(s.winners),
        "options": s.options.as_dict(),
        "stack": ({"count": s.stack[0], "unit": "presses" if s.edition.launcher else "cards",
                   "seat": s.stack[1]} if s.stack else None),
    }


__all__ = ["State", "public_state", "CHANCE", "NEUTRAL_SLOT", "NOBODY", "SIMULATION", "TABLE"]
