"""What the table waits for: the ``waiting`` of ``GET /api/state`` (kinds:
`firmware.waits.Wait`) and the gate every request passes.

Something physical comes first, in the order of `firmware.controller.stops.ORDER` (the
journal, an ejection a crash cut off, a pause, a stopped launcher, a tower alarm, the
launcher at work, a captured tower on its way): the parts register the stops they
answer there, and `physical` takes the first that holds. Only then does the engine say
who decides what (`firmware.controller.engine_waits`). Every wait is typed; it becomes
JSON (`to_json(words)`) only where it leaves the table.
"""

from __future__ import annotations

from typing import Any

import uno_core as U
from firmware.controller.actions import Requests
from firmware.controller.context import Context, Part
from firmware.controller.engine_waits import MatchOver, NoMatch, Shuffle, engine_wait
from firmware.controller.faults import JournalWatch
from firmware.controller.hub import first_holding
from firmware.controller.round_end import RoundEnds
from firmware.errors import Rejected


class Waits(Part):
    """Walks the stops the parts registered, then asks the engine; owns nothing.
    `gate` raises `Rejected` while it waits."""

    name = "waits"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def physical(self) -> Any:
        """The first physical stop that holds now (None: nothing physical)."""
        return first_holding(self.ctx.stops)

    def current(self) -> Any:
        """What the table waits for now, typed."""
        s = self.ctx.state
        if s is None:
            return NoMatch()
        if s.over:
            return MatchOver(tuple(s.winners))
        return self.physical() or self.engine(s)

    def waiting(self) -> dict[str, Any]:
        said: dict[str, Any] = self.current().to_json(self.ctx.words)
        return said

    def engine(self, s: U.State) -> Any:
        """Who decides what, as the engine says it; while the table pauses after a
        round the shuffle waits for the pause (`round_end`)."""
        requests = self.ctx.optional(Requests)
        wait = engine_wait(s, requests.turned_for_dealer() if requests is not None else {})
        if isinstance(wait, Shuffle):
            round_end = self.ctx.optional(RoundEnds)
            pause = round_end.pause_wait() if round_end is not None else None
            if pause is not None:  # the round just over is on the screen
                return pause
        return wait

    def gate(self, *, chance_ok: bool = False) -> U.State:
        """Raise Rejected (409; 507 for the journal) while the table waits for something
        physical, or for the chance player unless `chance_ok`; else the engine state.
        Every press and request passes here, so it reads fields and calls nothing while
        nothing stops the table: the journal watch is asked only when there is
        something to retry, and a stop kept in a field is read, not called."""
        t = self.ctx
        watch = t.peer(JournalWatch)
        if watch.must_retry():
            watch.gate()  # tries again; raises the 507 while the journal still fails
        s = t.state
        if s is None:
            raise Rejected("refused.no_match")
        if s.to_act == U.NOBODY and s.over:  # (NOBODY acts once the match is over)
            raise Rejected("refused.match_over")
        stop = first_holding(t.stops)
        if stop is None and s.to_act == U.CHANCE and not chance_ok:
            stop = self.engine(s)
        if stop is not None:
            raise Rejected("refused.waits", message=stop)
        return s
