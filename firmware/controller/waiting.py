"""What the table waits for: the ``waiting`` of ``GET /api/state`` (kinds:
`firmware.waits.Wait`) and the gate every request passes.

Something physical comes first, in this order: the journal, an ejection a crash cut
off, a pause, a stopped launcher, a tower alarm, the launcher at work, a captured
tower on its way. Only then does the engine say who decides what.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import uno_core as U
from firmware.errors import Rejected
from firmware.messages import MESSAGES
from firmware.waits import PHASE_WAITS, Wait
from uno_core.state import OWE_UNTIL

if TYPE_CHECKING:
    from firmware.controller.table import Controller


class Waits:
    """Reads the other parts; owns nothing. `gate` raises `Rejected` while it waits."""

    def __init__(self, table: Controller) -> None:
        self.table = table

    def physical(self) -> dict[str, Any] | None:
        """What the table waits for before anyone may act (None: nothing physical)."""
        t = self.table
        ejections = t.ejections
        if t.journal_watch.fault is not None:
            return t.journal_watch.fault.to_json()
        if ejections.recover is not None:
            return ejections.recover.to_json(t.words)
        words = t.words
        if t.admin.paused is not None:
            return {"kind": Wait.PAUSED, "reason": t.admin.paused,
                    "message": words("wait.paused", reason=t.admin.paused)}
        if ejections.blocker is not None:
            return ejections.blocker.to_json(words)
        if t.towers.alarm is not None:
            return t.towers.alarm.to_json()
        return ejections.busy() or t.towers.wait()

    def waiting(self) -> dict[str, Any]:
        s = self.table.state
        words = self.table.words
        if s is None:
            return {"kind": Wait.NEW_MATCH, "message": words("wait.new_match")}
        if s.over:
            return {"kind": Wait.MATCH_OVER, "winners": list(s.winners),
                    "message": words("wait.match_over")}
        return self.physical() or self.engine(s)

    def engine(self, s: U.State) -> dict[str, Any]:
        """Who decides what, as the engine says it."""
        words = self.table.words
        if s.to_act == U.CHANCE:
            if s.chance == "dealer_cards":
                turned = self.table.requests.dealer_cards
                missing = [i for i in range(s.n) if i not in turned]
                return {"kind": Wait.DEALER_CARDS, "missing": missing,
                        "message": words("wait.dealer_cards")}
            if s.chance == "shuffle":
                pause = self.table.round_end.wait()
                if pause is not None:  # the round just over is on the screen
                    return pause
                start = s.phase == "shuffle"
                return {"kind": Wait.SHUFFLE, "round_start": start,
                        "message": words("wait.shuffle_start" if start else "wait.shuffle_pile")}
            if s.chance == "reveal":
                return {"kind": Wait.REVEAL, "seat": s.dealer,
                        "message": words("wait.reveal", seat=words.seat(s.dealer))}
            return {"kind": Wait.EJECTING, "seat": s.queue[0][1] if s.queue else None,
                    "message": words("wait.ejecting")}
        seat = s.to_act
        if s.queue:
            kind, _, count, _ = s.queue[0]
            until = kind == OWE_UNTIL
            return {"kind": Wait.PRESS, "seat": seat, "presses": 0 if until else count,
                    "until_cards": until,
                    "message": words("wait.press_until" if until else "wait.press",
                                     seat=words.seat(seat), count=count)}
        what = PHASE_WAITS.get(s.phase, s.phase)  # (an unknown phase is said as it is)
        key = f"wait.what.{what}"
        if what == Wait.PLAY_DRAWN and s.options.draw_until_playable:
            key = "wait.what.draw-until"  # no keeping it: play it if it fits, else draw again
        said = words(key) if key in MESSAGES[words.lang] else what
        return {"kind": what, "seat": seat,
                "message": words("wait.decide", seat=words.seat(seat), what=said)}

    def gate(self, *, chance_ok: bool = False) -> U.State:
        """Raise Rejected (409; 507 for the journal) while the table waits for something
        physical, or for the chance player unless `chance_ok`; else the engine state."""
        t = self.table
        t.journal_watch.gate()
        s = t.state
        words = t.words
        if s is None:
            raise Rejected(words("refused.no_match"))
        if s.over:
            raise Rejected(words("refused.match_over"))
        waiting = self.physical()
        if waiting is not None:
            raise Rejected(words("refused.waits", message=waiting["message"]))
        if s.to_act == U.CHANCE and not chance_ok:
            raise Rejected(words("refused.waits", message=self.engine(s)["message"]))
        return s
