"""The admin's requests (``POST /api/admin/<action>``): a new match, pause and resume,
and the overrides where people tell the table what it cannot see (the cards a cut-off
ejection left, a tower it did not see arrive, a tower to accept where it stands).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import uno_core as U
from firmware.api import requests as api
from firmware.controller.context import By, Context, Part, PauseChanged
from firmware.controller.declared import by_of, signed
from firmware.controller.ejections import Ejections
from firmware.controller.faults import JournalWatch
from firmware.controller.hub import first_holding
from firmware.controller.round_end import RoundEnds
from firmware.controller.seats import SeatButtons
from firmware.controller.stops import Paused
from firmware.controller.towers import TowerWatch, refuse_accept, refuse_seen
from firmware.errors import Rejected
from firmware.words.problems import problem
from uno_core.options import preset_options

ADMIN = "admin"  # journal kind: {"action": "pause"|"resume", "reason"?}


def match_asked(config: Any, p: Mapping[str, Any], seed: int | None = None
                ) -> tuple[str, int, dict[str, Any], int | None, list[str]]:
    """(edition, seats, options, seed, names) of the match `p` asks for; the config's
    [table] fills in what it leaves out (its options only for its own edition)."""
    table = config.table
    edition = p.get("edition", table.edition)
    options = p.get("options", dict(table.options) if edition == table.edition else {})
    return (edition, p.get("seats", table.seats), options, p.get("seed", seed),
            list(p.get("names", table.names)))


class Admin(Part):
    """Owns the pause (the stop ``paused``); answers `api.Admin` requests."""

    name = "admin"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.reset()
        ctx.journal_kind(ADMIN, lambda e: self.effect(e.payload))
        ctx.stop("paused", (self, "stopped"))
        ctx.answers(api.Admin, self.submit)

    def reset(self) -> None:
        self.paused: str | None = None  # why the admin paused the table

    @property
    def paused(self) -> str | None:
        """Why the admin paused the table (None: it did not)."""
        return None if self.stopped is None else self.stopped.reason

    @paused.setter
    def paused(self, reason: str | None) -> None:
        self.stopped = None if reason is None else Paused(reason)

    def get_status(self) -> dict[str, Any]:
        return {"paused": self.paused}

    def journaled(self) -> dict[str, Any]:
        return self.get_status()

    def public(self, state: U.State | None) -> dict[str, Any]:
        return self.get_status()

    def submit(self, r: api.Admin) -> dict[str, Any]:
        t = self.ctx
        p = dict(r.params)
        by = by_of(r)
        if r.action == "new-match":
            return self._new_match(p, by)
        if r.action == "pause":
            if self.paused is not None:
                raise Rejected("refused.already_paused")
            payload = {"action": "pause", "reason": p.get("reason") or "paused"}
            t.journal.append(ADMIN, signed(payload, by))
            self.effect(payload)
            t.publish({"kind": "paused", "reason": self.paused})
            t.announce(PauseChanged())
            t.settle()  # the timers that move the game on are held
            return {"paused": self.paused}
        if r.action == "resume":
            return self._resume(by)
        return self._override(p, by)

    def effect(self, payload: Mapping[str, Any]) -> None:
        """What a journaled pause or resume leaves (live and in replay): a resume ends
        the pause, or else the launcher's stop (jam, reload, double feed)."""
        action = payload["action"]
        if action == "pause":
            self.paused = payload.get("reason") or "paused"
        elif action == "resume":
            if self.paused is not None:
                self.paused = None
            else:
                self.ctx.peer(Ejections).clear_blocker()

    def _new_match(self, p: Mapping[str, Any], by: By) -> dict[str, Any]:
        t = self.ctx
        edition, seats, options, seed, names = match_asked(t.config, p)
        buttons = t.peer(SeatButtons).buttons()
        if seats > buttons:
            raise Rejected("refused.buttons", seats=seats, buttons=buttons, field="seats",
                           status=422)
        t.check_new_match(edition, seats)
        try:
            if "preset" in p:  # the preset's house rules, under the request's own options
                options = {**preset_options(p["preset"], U.get_edition(edition)),
                           **p.get("options", {})}
            t.peer(Ejections).check_idle()
            t.start_match(edition, seats, options, seed, names, by=by)
        except U.OptionError as exc:
            raise Rejected("refused.option", option=exc.name, problem=problem(exc),
                           status=422) from None
        except U.SetupError as exc:
            raise Rejected("refused.setup", problem=problem(exc), status=422) from None
        t.settle()
        return {"match": t.match.id}

    def _resume(self, by: By) -> dict[str, Any]:
        t = self.ctx
        t.peer(JournalWatch).gate()
        s = t.state
        if self.paused is None and not t.peer(Ejections).is_blocked():
            if s is not None and s.to_act == U.CHANCE and s.chance == "shuffle" \
                    and first_holding(t.stops) is None:
                if t.peer(RoundEnds).pausing():
                    raise Rejected("refused.round_over")
                t.accept(U.Shuffle(()), by=by)
                return {"shuffled": True, "step": t.step}
            raise Rejected("refused.nothing_to_resume")
        payload = {"action": "resume"}
        t.journal.append(ADMIN, signed(payload, by))
        was_blocked = self.paused is None
        self.effect(payload)
        if was_blocked:
            t.peer(Ejections).reset_fault()
        t.publish({"kind": "resumed"})
        if not was_blocked:
            t.announce(PauseChanged())
        t.settle()
        return {"resumed": True}

    def _override(self, p: Mapping[str, Any], by: By) -> dict[str, Any]:
        t = self.ctx
        kind = p["kind"]
        if kind == "cards-out":
            ejections = t.peer(Ejections)
            if not ejections.cut_off_pending():
                raise Rejected("refused.nothing_to_count")
            if "count" not in p:
                raise Rejected("refused.count_missing", field="count", status=400)
            ejections.recovered(int(p["count"]), by=by)
            return {"recovered": p["count"], "step": t.step}
        towers = t.optional(TowerWatch)  # none on a table without towers: nothing to confirm
        if kind == "tower-seen":
            if towers is None:
                raise refuse_seen(p.get("tower"), p.get("seat"))
            return towers.confirm_seen(p.get("tower"), p.get("seat"), by=by)
        if towers is None:
            raise refuse_accept()
        return towers.accept_alarm(kind, by=by)
