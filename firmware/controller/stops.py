"""What the table waits for, as the controller keeps it: typed here, turned into the
API's JSON (``waiting``, ``alarm``, ``blocked`` events) by `to_json(words)` only at the
edge, whose keys and their order are what the API has always sent. Each wait words its
message with the table's `Words` (its language and seat names).

`ORDER` is the order of the physical stops: each part registers the stops it answers
at their place in it (`Context.stop`), and the gate and `Waits.physical` walk them in
that order. After them the engine says who decides what (`EngineWait` and the rest)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from firmware.waits import Wait
from firmware.words.messages import Words


@dataclass(frozen=True)
class Jam:
    """The launcher jammed or faulted: clear it, then resume."""

    fault: str | None
    kind: ClassVar[Wait] = Wait.JAM

    def to_json(self, words: Words) -> dict[str, Any]:
        return {"kind": self.kind, "message": words("stop.jam", resume=words("resume")),
                "fault": self.fault}


@dataclass(frozen=True)
class Reload:
    """The launcher dealt fewer cards than it was asked: its hopper is empty."""

    kind: ClassVar[Wait] = Wait.RELOAD

    def to_json(self, words: Words) -> dict[str, Any]:
        return {"kind": self.kind, "message": words("stop.reload", resume=words("resume"))}


@dataclass(frozen=True)
class ExtraCards:
    """A double feed: the exit sensor saw `count` more cards than `seat` was dealt."""

    seat: int
    count: int
    kind: ClassVar[Wait] = Wait.EXTRA_CARDS

    def to_json(self, words: Words) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "count": self.count,
                "message": words("stop.extra_cards", count=self.count,
                                 seat=words.seat(self.seat), resume=words("resume"))}


Blocker = Jam | Reload | ExtraCards


@dataclass(frozen=True)
class Alarm:
    """A tower moved (`slot`; None: lifted off the tray) without a capture; it belongs
    at `expected`. The table stops until it is back or an admin clears the alarm."""

    tower: str
    slot: int | str | None
    expected: int | str
    message: str
    kind: ClassVar[Wait] = Wait.ALARM

    def to_json(self, words: Words | None = None) -> dict[str, Any]:
        return {"kind": self.kind, "tower": self.tower, "slot": self.slot,
                "expected": self.expected, "message": self.message}


@dataclass(frozen=True)
class CutOff:
    """An ejection (journal intent `intent`, `want` cards of a `job` to `seat`) that a
    crash cut off: the table asks how many cards came out (override cards-out)."""

    intent: int
    seat: int
    want: int
    job: str

    def to_json(self, words: Words) -> dict[str, Any]:
        """The wait it causes."""
        return {"kind": Wait.CARDS_OUT, "seat": self.seat, "want": self.want,
                "message": words("stop.cut_off", seat=words.seat(self.seat))}


@dataclass(frozen=True)
class JournalFault:
    """The journal cannot be written (`cause`, as `JournalUnwritable` names it): the
    table pauses and retries by itself."""

    cause: str
    reason: str
    kind: ClassVar[Wait] = Wait.JOURNAL

    @property
    def message(self) -> str:
        return f"{self.reason} (the table is paused)"

    def to_json(self, words: Words | None = None) -> dict[str, Any]:
        return {"kind": self.kind, "cause": self.cause, "message": self.message}


@dataclass(frozen=True)
class Paused:
    """The admin paused the table (`reason`)."""

    reason: str
    kind: ClassVar[Wait] = Wait.PAUSED

    def to_json(self, words: Words) -> dict[str, Any]:
        return {"kind": self.kind, "reason": self.reason,
                "message": words("wait.paused", reason=self.reason)}


@dataclass(frozen=True)
class Ejecting:
    """The launcher turns to `seat` (`job` "aim") or ejects a job's cards for it."""

    seat: int
    job: str
    kind: ClassVar[Wait] = Wait.EJECTING

    def to_json(self, words: Words) -> dict[str, Any]:
        key = "wait.aiming" if self.job == "aim" else "wait.ejecting_for"
        return {"kind": self.kind, "seat": self.seat, "job": self.job,
                "message": words(key, seat=words.seat(self.seat))}


@dataclass(frozen=True)
class TowerOnItsWay:
    """A captured tower is to be carried to `slot` ([table] tower_confirm "wait");
    `where` is how people hear the slot."""

    tower: str
    slot: int | str
    where: str
    kind: ClassVar[Wait] = Wait.TOWER

    def to_json(self, words: Words) -> dict[str, Any]:
        return {"kind": self.kind, "tower": self.tower, "slot": self.slot,
                "seat": self.slot if isinstance(self.slot, int) else None,
                "message": words("wait.tower", tower=self.tower, slot=self.where)}


# the physical stops, first to last: who answers each is the part that registers it
ORDER = ("journal", "cut-off", "paused", "launcher", "alarm", "ejecting", "tower")
