"""What the table waits for once nothing physical stops it: the engine's side (who
decides what), typed like the physical stops (`firmware.controller.stops`) and turned
into the API's ``waiting`` by `to_json(words)` at the edge only.

`Owed` reads the engine's obligation tuples (``State.queue``) by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

import uno_core as U
from firmware.waits import PHASE_WAITS, Wait
from firmware.words.messages import MESSAGES, Words
from uno_core.state import OWE_UNTIL


class Owed(NamedTuple):
    """One obligation of the engine's queue: `seat` owes `count` presses or draws."""

    kind: str
    seat: int
    count: int
    tag: str


def first_owed(s: U.State) -> Owed | None:
    """The obligation the engine serves next (None: nobody owes anything)."""
    queue = s.queue
    return Owed(*queue[0]) if queue else None


@dataclass(frozen=True)
class NoMatch:
    kind: ClassVar[Wait] = Wait.NEW_MATCH

    def to_json(self, words: Words) -> dict[str, Any]:
        return {"kind": self.kind, "message": words("wait.new_match")}


@dataclass(frozen=True)
class MatchOver:
    winners: tuple[int, ...]
    kind: ClassVar[Wait] = Wait.MATCH_OVER

    def to_json(self, words: Words) -> dict[str, Any]:
        return {"kind": self.kind, "winners": list(self.winners),
                "message": words("wait.match_over")}


@dataclass(frozen=True)
class DealerCards:
    """Seats still to turn a card to choose the dealer."""

    missing: tuple[int, ...]
    kind: ClassVar[Wait] = Wait.DEALER_CARDS

    def to_json(self, words: Words) -> dict[str, Any]:
        return {"kind": self.kind, "missing": list(self.missing),
                "message": words("wait.dealer_cards")}


@dataclass(frozen=True)
class Shuffle:
    round_start: bool
    kind: ClassVar[Wait] = Wait.SHUFFLE

    def to_json(self, words: Words) -> dict[str, Any]:
        key = "wait.shuffle_start" if self.round_start else "wait.shuffle_pile"
        return {"kind": self.kind, "round_start": self.round_start, "message": words(key)}


@dataclass(frozen=True)
class Reveal:
    seat: int
    kind: ClassVar[Wait] = Wait.REVEAL

    def to_json(self, words: Words) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat,
                "message": words("wait.reveal", seat=words.seat(self.seat))}


@dataclass(frozen=True)
class ChanceEject:
    """The chance player ejects for `seat` (None: the engine names nobody)."""

    seat: int | None
    kind: ClassVar[Wait] = Wait.EJECTING

    def to_json(self, words: Words) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "message": words("wait.ejecting")}


@dataclass(frozen=True)
class Press:
    """`seat` owes `count` presses, or presses until cards come (`until`)."""

    seat: int
    count: int
    until: bool
    kind: ClassVar[Wait] = Wait.PRESS

    def to_json(self, words: Words) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat,
                "presses": 0 if self.until else self.count, "until_cards": self.until,
                "message": words("wait.press_until" if self.until else "wait.press",
                                 seat=words.seat(self.seat), count=self.count)}


@dataclass(frozen=True)
class Decide:
    """`seat` decides `what` (a `Wait` of the engine's phase, or an unknown phase as
    it is); `drawn_until`: the drawn card under draw_until_playable."""

    what: str
    seat: int
    drawn_until: bool = False

    @property
    def kind(self) -> str:
        return self.what

    def to_json(self, words: Words) -> dict[str, Any]:
        key = "wait.what.draw-until" if self.drawn_until else f"wait.what.{self.what}"
        said = words(key) if key in MESSAGES[words.lang] else self.what
        return {"kind": self.what, "seat": self.seat,
                "message": words("wait.decide", seat=words.seat(self.seat), what=said)}


def engine_wait(s: U.State, dealer_cards: dict[int, Any]) -> Any:
    """Who decides what, as the engine says it (the round pause aside: `Waits`)."""
    if s.to_act == U.CHANCE:
        if s.chance == "dealer_cards":
            return DealerCards(tuple(i for i in range(s.n) if i not in dealer_cards))
        if s.chance == "shuffle":
            return Shuffle(s.phase == "shuffle")
        if s.chance == "reveal":
            return Reveal(s.dealer)
        owed = first_owed(s)
        return ChanceEject(owed.seat if owed is not None else None)
    owed = first_owed(s)
    if owed is not None:
        return Press(s.to_act, owed.count, owed.kind == OWE_UNTIL)
    what = PHASE_WAITS.get(s.phase, s.phase)  # (an unknown phase is said as it is)
    # no keeping the drawn card under draw_until_playable: play it if it fits, else draw
    return Decide(what, s.to_act, what == Wait.PLAY_DRAWN and s.options.draw_until_playable)
