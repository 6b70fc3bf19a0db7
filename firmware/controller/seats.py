"""The seat panel (`hal.seats.SeatPanel`): a button and a light at every seat, the
launcher button, the buzzer.

While the card pad awaits a targeted card's seat, a seat's button names that seat
(`SeatChosen`, answered by the pad). Otherwise a seat's own button calls UNO: at once when the seat is open to a catch (a late
call), else it arms the call for the seat's next play that leaves one card. Pressed
while another seat is open to a catch, it catches that seat. The launcher button
presses for whoever is to press (`press_action`). A press the table refuses clicks the
buzzer and says why on the event stream.

The seats' lights and the buzzer are this part's alone: every other part asks it
(`buzz`, `light`), so one place says what the panel shows.
"""

from __future__ import annotations

from typing import Any

import uno_core as U
from firmware.controller.context import (
    Adopted,
    Blinking,
    By,
    Context,
    Part,
    SeatChosen,
    ShowTurn,
)
from firmware.controller.declared import signed
from firmware.controller.events import LauncherPressed, SeatPressed
from firmware.errors import Rejected
from firmware.words.refusals import refusal_key
from firmware.words.rejected import json_values
from hal.seats import SeatPanel

ARM = "arm"  # journal kind: a UNO call made before the play that leaves one card


def refused_by_rules(exc: U.IllegalAction, status: int) -> Rejected:
    """The engine's refusal as the daemon's: its rule's key (in the form that speaks to
    the seat that asked, where the rule names it) and its values."""
    refused = Rejected(refusal_key(exc), status=status)
    refused.values = dict(exc.values)
    return refused


def refusal_said(t: Context, exc: Rejected) -> dict[str, Any]:
    """A refusal as the event stream says it: worded in the table's language (the screen
    shows it, the voice speaks it), with its key and values."""
    words = t.words
    edition = t.state.edition.name if t.state is not None else None
    return {"reason": words.rejected(exc, edition), "key": exc.key,
            "values": json_values(exc.values, words)}


def press_action(s: U.State) -> U.Action:
    """The launcher button (it does not know who pressed): the seat to act accepts a
    challenge's draw, presses (launcher editions, or presses it owes) or draws."""
    seat = s.to_act
    if seat < 0:
        raise Rejected("refused.no_press")
    if s.phase == "challenge":
        return U.Accept(seat)
    if s.tables.launcher or s.queue:  # (the tables' field: Edition.launcher is a property)
        return U.Press(seat)
    return U.Draw(seat)


class SeatButtons(Part):
    """Owns the armed UNO calls; handles `SeatPressed` and `LauncherPressed`; shows
    whose turn it is (`ShowTurn`): lights the seat to act."""

    name = "seats"

    def __init__(self, ctx: Context, panel: SeatPanel) -> None:
        self.ctx = ctx
        self.panel = panel
        self.panel_seats: int = self.panel.config.seats  # seats with a button and a light
        self.reset()
        # who would answer, as the hub lists them: a question nobody hears is not asked
        # (no card pad awaits a seat, no tower or turn timer blinks: a press's usual case)
        self.choosers, self.blinkers = ctx.hearing(SeatChosen), ctx.hearing(Blinking)
        ctx.on(LauncherPressed, self._on_launcher)
        ctx.on(SeatPressed, self._on_seat)
        ctx.subscribe(Adopted, lambda a: self.adopt(a.action),
                      actions=(U.Play, U.FourTowerDiscard))
        ctx.subscribe(ShowTurn, lambda _e: self.lights(set().union(
            *ctx.announce(Blinking())) if self.blinkers else set()))
        ctx.journal_kind(ARM, lambda e: self.replay_arm(e.payload))

    def reset(self) -> None:
        self.armed: set[int] = set()  # seats whose UNO call waits for their play

    def get_status(self) -> dict[str, Any]:
        return {"armed": sorted(self.armed)}

    def journaled(self) -> dict[str, Any]:
        return self.get_status()

    def public(self, state: U.State | None) -> dict[str, Any]:
        return {} if state is None else {"uno_armed": sorted(self.armed)}

    def buttons(self) -> int:
        """How many seats have a button and a light."""
        return self.panel_seats

    def is_armed(self, seat: int) -> bool:
        """Whether `seat`'s UNO call waits for its play."""
        return seat in self.armed

    def adopt(self, action: U.Action) -> None:
        """A play (or a four-tower discard) uses the seat's armed call (live and replay)."""
        if isinstance(action, U.Play | U.FourTowerDiscard):
            self.armed.discard(action.seat)

    def replay_arm(self, payload: dict[str, Any]) -> None:
        self.armed.add(int(payload["seat"]))

    def call_uno(self, seat: int, *, by: By = None) -> dict[str, Any]:
        """A seat's own button (or POST /api/uno, declared `by`): call UNO now if the seat
        is open to a catch, else arm the call for its next play that leaves one card. Where the call
        belongs before the card (forgotten_uno "at_play", classic) a later press is
        refused: the play has already drawn the penalty, and nobody catches."""
        t = self.ctx
        s = t.gate()
        if s.exposed == seat:
            t.accept(U.CallUno(seat), by=by)
            return {"called": True, "step": t.step}
        if s.counts[seat] == 2 or (s.phase == "four_towers" and s.to_act == seat):
            if seat not in self.armed:
                t.journal.append(ARM, signed({"seat": seat}, by))
                self.armed.add(seat)
            t.publish({"kind": "uno_armed", "seat": seat})
            return {"armed": True, "step": t.step}
        at_play = s.options.forgotten_uno == "at_play"
        raise Rejected("refused.nothing_to_call_at_play" if at_play else "refused.nothing_to_call",
                       seat=seat, count=s.counts[seat], status=422)

    def _on_seat(self, event: SeatPressed) -> None:
        t = self.ctx
        s = t.state
        seat = event.seat
        if self.choosers and any(t.announce(SeatChosen(seat))):  # a card's target named
            return
        try:
            if s is None or seat >= s.n:
                raise Rejected("refused.not_playing", seat=seat)
            if s.exposed >= 0 and s.exposed != seat:
                t.gate()
                t.accept(U.Catch(seat, s.exposed))
            else:
                self.call_uno(seat)
        except Rejected as exc:
            self._refuse(t.words("button.seat", seat=t.words.seat(seat)), exc)

    def _on_launcher(self, _event: LauncherPressed) -> None:
        t = self.ctx
        try:
            t.accept(press_action(t.gate()))
        except Rejected as exc:
            self._refuse("launcher", exc)

    def _refuse(self, what: str, exc: Rejected) -> None:
        self.buzz("click")
        self.ctx.publish({"kind": "refused", "what": what, **refusal_said(self.ctx, exc)})

    def lights(self, blinking: set[int]) -> None:
        """The seat to act is lit; seats a tower is carried to blink (one call to the
        panel, which leaves alone a light already as it should be)."""
        s = self.ctx.state
        if s is None:
            return
        to_act = s.to_act
        self.panel.show(["blink" if seat in blinking else seat == to_act
                         for seat in range(min(s.n, self.panel_seats))])

    def buzz(self, pattern: Any) -> None:
        """Sound `pattern` on the buzzer (a name, (on_s, off_s, repeats), None: quiet)."""
        self.panel.buzz(pattern)

    def light(self, seat: int, how: Any) -> None:
        """Set one seat's light (True, False or "blink")."""
        self.panel.light(seat, how)
