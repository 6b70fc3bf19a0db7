"""The end of a round, announced: the table keeps every round's result (who went out,
the points each hand gave, the totals after it) and pauses after a round that does
not end the match, so the screen can show it, until someone taps "next round"
(``POST /api/next-round``) or `[table] round_pause_s` passes on the loop's clock
(0: only the tap ends it).

Both are rebuilt from the journal: the results from the actions' `RoundOver`
effects, the pause from the action that ended the round, until a ``next_round``
entry (or, in a journal written before the pause existed, the next action: the
shuffle, the one action that can follow a round's end) ends it.
A crash during the pause comes back to it, with its timer started afresh.

While the admin pauses the table the timer is held: it runs on with the time it had
left after Resume (after a restart too, a held timer waits for Resume).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import uno_core as U
from firmware.api import requests as api
from firmware.controller.context import (
    Adopted,
    By,
    Context,
    Part,
    PauseChanged,
    Replayed,
    RoundEnded,
)
from firmware.controller.declared import by_of, signed
from firmware.controller.faults import JournalWatch
from firmware.controller.hub import first_holding
from firmware.controller.stops import ORDER
from firmware.errors import Rejected
from firmware.waits import Wait
from firmware.words.messages import Words
from hal.clock import Cancellable
from uno_core import effects as E

NEXT_ROUND = "next_round"  # journal kind: {"round", "by": "tap"|"timer"} ends the pause


@dataclass(frozen=True)
class RoundPauseOver:
    """Posted by the pause's timer: `round` (the one that ended) is to end its pause."""

    round: int


@dataclass(frozen=True)
class RoundOver:
    """The wait while the table pauses after round `result["round"]` (`pause_s` on the
    loop's clock, 0: until someone taps next round)."""

    result: dict[str, Any]
    pause_s: float
    kind: ClassVar[Wait] = Wait.ROUND_OVER

    def to_json(self, words: Words) -> dict[str, Any]:
        p, pause_s = self.result, self.pause_s
        after = (words("wait.next_round_in", seconds=f"{pause_s:g}") if pause_s
                 else words("wait.next_round_tap"))
        return {"kind": self.kind, **p, "pause_s": pause_s,
                "message": words("wait.round_over", round=p["round"],
                                 seat=words.seat(p["winner"]), next=after)}


_PAUSED = ORDER.index("paused")


class RoundEnds(Part):
    """Owns the rounds' results and the pause after a round; handles `RoundPauseOver`."""

    name = "round_end"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.timer: Cancellable | None = None
        self.deadline = 0.0  # the running timer's end, on the loop's clock
        self.held: tuple[int, float] | None = None  # (round, seconds left) while paused
        self.reset()
        ctx.on(RoundPauseOver, self._on_timer)
        # a round's end says itself (`RoundEnded`); the shuffle is the one action that
        # can follow it, so only a shuffle ends a pause no ``next_round`` ended (a
        # journal from before the pause); the timer starts with the pause, or after the
        # replay that came back to it
        ctx.subscribe(RoundEnded, lambda e: self.ended(e.over, e.match_over, live=e.live))
        ctx.subscribe(Adopted, lambda _a: self.went_on(), actions=(U.Shuffle,))
        ctx.subscribe(Replayed, lambda _e: self.settle())
        ctx.subscribe(PauseChanged, lambda _e: self.settle())  # the timer holds or runs on
        ctx.journal_kind(NEXT_ROUND, lambda e: self.replay(e.payload))
        ctx.answers(api.NextRound, lambda r: self.next_round(signer=by_of(r)))

    def reset(self) -> None:
        self.rounds: list[dict[str, Any]] = []  # one per round played, in order
        self.pause: dict[str, Any] | None = None  # the round just over, while the table pauses
        self.held = None
        self._stop_timer()

    def get_status(self) -> dict[str, Any]:
        return {"rounds": [dict(r) for r in self.rounds],
                "round_pause": None if self.pause is None else self.pause["round"]}

    def journaled(self) -> dict[str, Any]:
        return self.get_status()

    def stats(self) -> dict[str, int]:
        return {"rounds": len(self.rounds)}

    def public(self, state: U.State | None) -> dict[str, Any]:
        # each round's result; the round just over, while the table pauses
        return {"rounds": [dict(r) for r in self.rounds], "round_end": self.pause}

    def ended(self, over: E.RoundOver, match_over: bool, *, live: bool) -> None:
        """A round ended (live and in replay): its result; the pause, unless the match
        ended with it, and live its timer."""
        result = {"round": len(self.rounds) + 1, "winner": over.winner,
                  "points": list(over.points), "scores": list(over.scores)}
        self.rounds.append(result)
        self.pause = None if match_over else result
        if live:
            self.settle()

    def went_on(self) -> None:
        """The next round was shuffled: any pause is over (a journal written before the
        pause has no ``next_round``)."""
        self.pause = None

    def replay(self, payload: dict[str, Any]) -> None:
        """A journaled ``next_round``: the pause it ended is over."""
        if self.pause is not None and self.pause["round"] == payload.get("round"):
            self.pause = None

    def pausing(self) -> bool:
        """The table pauses after a round (until next round)."""
        return self.pause is not None

    def pause_wait(self) -> RoundOver | None:
        """The ``round-over`` wait while the table pauses (None otherwise)."""
        if self.pause is None:
            return None
        return RoundOver(self.pause, self.ctx.config.table.round_pause_s)

    def next_round(self, by: str = "tap", *, signer: By = None) -> dict[str, Any]:
        """End the pause (``POST /api/next-round`` from `signer`, or the timer): journal,
        then go on."""
        t = self.ctx
        t.peer(JournalWatch).gate()
        if self.pause is None:
            raise Rejected("refused.no_pause")
        payload = {"round": self.pause["round"], "by": by}
        t.journal.append(NEXT_ROUND, signed(payload, signer))
        self.replay(payload)
        self._stop_timer()
        t.publish({"kind": "next_round", **payload})
        t.settle()
        return {"next_round": payload["round"], "step": t.step}

    def settle(self) -> None:
        """While the table pauses after a round, its timer runs (started again after a
        restart); while the admin pauses the table it is held with the time it had left."""
        pause_s = self.ctx.config.table.round_pause_s
        if self.pause is None or not pause_s:
            return
        loop, round_ = self.ctx.loop, self.pause["round"]
        if self._admin_paused():
            if self.timer is not None:
                self.held = (round_, max(0.0, self.deadline - loop.now()))
                self._stop_timer()
            return
        if self.timer is None:
            left = self.held[1] if self.held is not None and self.held[0] == round_ else pause_s
            self.held = None
            self.deadline = loop.now() + left
            self.timer = loop.after(left, RoundPauseOver(round_))

    def _admin_paused(self) -> bool:
        """Whether the admin's pause holds, asked of its stop (the admin part asks this
        one, so it is not asked back)."""
        return first_holding(at for at in self.ctx.stops if at.rank == _PAUSED) is not None

    def _on_timer(self, event: RoundPauseOver) -> None:
        self.timer = None
        if self.pause is None or self.pause["round"] != event.round:
            return  # tapped meanwhile, or rebuilt from the journal
        if self._admin_paused():  # posted just before the pause: held with no time left
            self.held = (event.round, 0.0)
            return
        try:
            self.next_round(by="timer")
        except Rejected:  # the journal cannot be written: a new timer tries again
            self.settle()

    def _stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
