"""Tower watch (Power editions): where the tray sees the four towers, the captures the
table waits to see carried out, and the alarm when a tower moves without one.

The tray's watcher thread posts `TrayChanged`; `TrayView` (built when the table has a
tray) keeps where it sees each tower and says so, and hands a tower's move on
(`TrayMoved`); `TowerWatch` (built only for a match whose edition has towers) compares
it with the engine's owners (`expected`). Ownership stays the engine's: the watch only
says where a tower should stand, waits for it there, and stops the table while one
stands where it does not belong (or an admin accepts it there: override clear-alarm).

Journal kind (registered by the watch): ``override`` {"kind": "tower-seen" |
"clear-alarm", "tower", "slot"}.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from firmware.controller.context import Adopted, Blinking, By, Context, MatchBegins, Part, Said
from firmware.controller.declared import signed
from firmware.controller.events import TrayChanged
from firmware.controller.seats import SeatButtons
from firmware.controller.slots import NEUTRAL, Slot, slot_name, slot_of
from firmware.controller.stops import Alarm, TowerOnItsWay
from firmware.errors import Rejected
from firmware.words.rejected import Phrase
from hal.tray import TowerPlaced, TowerRemoved
from uno_core import effects as E
from uno_core.cards import TOWERS

OVERRIDE = "override"  # journal kind: an admin confirmed a tower, or cleared an alarm


@dataclass(frozen=True)
class TrayMoved:
    """The tray saw a tower placed or removed (`TowerPlaced` | `TowerRemoved`)."""

    event: TowerPlaced | TowerRemoved


class Carried(NamedTuple):
    """What only the tray knows, kept across a rebuild from the journal."""

    waits: dict[str, Slot]
    alarm: Alarm | None


def refuse_seen(tower: str | None, seat: int | None) -> Rejected:
    """Override tower-seen where the table waits for no such tower."""
    if tower is None:
        return Rejected("refused.tower_missing", field="tower", status=400)
    slot = Phrase("slot.neutral") if seat is None else seat
    return Rejected("refused.no_tower_wait", tower=tower, slot=slot, field="tower")


def refuse_accept() -> Rejected:
    """Override clear-alarm without an alarm."""
    return Rejected("refused.no_alarm")


class TrayView(Part):
    """Owns where the tray sees each tower (physical: kept from match to match);
    handles `TrayChanged`, says what the tray saw and hands a move on (`TrayMoved`)."""

    name = "tray"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.seen: dict[str, Slot | None] = {}
        ctx.on(TrayChanged, self._on_tray)

    def get_status(self) -> dict[str, Any]:
        return {"seen": {t: self.seen.get(t) for t in TOWERS}}

    def where(self) -> dict[str, Slot | None]:
        """Where the tray saw each tower last (None: lifted off it)."""
        return dict(self.seen)

    def _on_tray(self, event: TrayChanged) -> None:
        ev = event.event
        if isinstance(ev, TowerPlaced):
            self.seen[ev.tower] = ev.slot
            self.ctx.announce(TrayMoved(ev))
        elif isinstance(ev, TowerRemoved):
            self.seen[ev.tower] = None
            self.ctx.publish({"kind": "tower_lifted", "tower": ev.tower, "slot": ev.slot})
            self.ctx.announce(TrayMoved(ev))
        else:
            self.ctx.publish({"kind": "tray", "event": type(ev).__name__,
                              "slot": getattr(ev, "slot", None)})


class TowerWatch(Part):
    """Owns the waits for captures and the alarm (the stops ``alarm`` and ``tower``);
    follows `TrayMoved`. `confirm` is the config's [table] tower_confirm: "wait" (the
    table waits for a captured tower to arrive), "warn" (it only announces the capture
    and blinks the seat), "off" (no waits; the tray still raises alarms). Built when a
    match whose edition has towers begins: every tower starts on the neutral slot."""

    name = "towers"

    def __init__(self, ctx: Context, confirm: str) -> None:
        self.ctx = ctx
        self.confirm = confirm
        self.reset()
        ctx.subscribe(TrayMoved, self._on_tray)
        ctx.subscribe(Adopted, lambda a: self.adopt(a.effects, live=a.live))
        ctx.subscribe(Said, self._on_said)
        ctx.journal_kind(OVERRIDE, lambda e: self.overridden(e.payload))
        ctx.stop("alarm", (self, "alarm"))
        ctx.stop("tower", self.on_its_way)
        ctx.subscribe(Blinking, lambda _e: self.seats_awaited())
        ctx.subscribe(MatchBegins, lambda _e: self.begin())

    @property
    def seen(self) -> dict[str, Slot | None]:
        tray = self.ctx.optional(TrayView)
        return {} if tray is None else tray.where()

    def reset(self) -> None:
        self.waits: dict[str, Slot] = {}  # tower -> the slot it is to be carried to
        self.alarm: Alarm | None = None
        # towers an admin accepted where they stand (override clear-alarm): tower -> slot
        self.accepted: dict[str, Slot | None] = {}
        self.moves = 0

    def begin(self) -> None:
        """A match begins (or is replayed): every tower starts on the neutral slot."""
        s = self.ctx.state
        if s is not None and s.edition.towers and self.confirm != "off":
            seen = self.seen
            self.waits = {t: NEUTRAL for t in TOWERS if seen.get(t) != NEUTRAL}

    def carried(self) -> Carried:
        return Carried(dict(self.waits), self.alarm)

    def carry(self, kept: Carried) -> None:
        self.waits, self.alarm = kept.waits, kept.alarm

    def get_status(self) -> dict[str, Any]:
        seen = self.seen
        return {"seen": {t: seen.get(t) for t in TOWERS}, "waits": dict(self.waits),
                "alarm": None if self.alarm is None else self.alarm.to_json(),
                "accepted": dict(self.accepted), "confirm": self.confirm}

    def journaled(self) -> dict[str, Any]:
        return {"accepted": dict(self.accepted)}

    def public(self, state: Any) -> dict[str, Any]:
        seen = self.seen
        return {"alarm": None if self.alarm is None else self.alarm.to_json(),
                **({} if state is None else {"towers_seen": {t: seen.get(t) for t in TOWERS}})}

    def stats(self) -> dict[str, int]:
        return {"tower_moves": self.moves}


    def awaited(self) -> bool:
        """True while the table waits for a tower to move (the tray polls faster then).
        Read from the tray's watcher thread: a stale answer only delays a round."""
        return bool(self.waits) or self.alarm is not None

    def seats_awaited(self) -> set[int]:
        """Seats a captured tower is being carried to (their lights blink)."""
        return {slot for slot in self.waits.values() if isinstance(slot, int)}

    def on_its_way(self) -> TowerOnItsWay | None:
        """The stop for a capture to be carried out ([table] tower_confirm "wait")."""
        if not self.waits or self.confirm != "wait":
            return None
        tower, slot = next(iter(self.waits.items()))
        return TowerOnItsWay(tower, slot, slot_name(slot, self.ctx.words))

    def expected(self, tower: str) -> Slot:
        s = self.ctx.state
        assert s is not None
        return slot_of(s.towers[TOWERS.index(tower)])

    # ------------------------------------------------------------------ captures
    def adopt(self, fx: list[Any], *, live: bool) -> None:
        """Captures an accepted action makes (live and in replay)."""
        for e in fx:
            if not isinstance(e, E.TowerMoved):
                continue
            self.moves += 1
            self.accepted.pop(e.tower, None)
            if self.confirm != "off":
                slot = slot_of(e.seat)
                self.waits[e.tower] = slot
                if live and self.seen.get(e.tower) == slot:
                    del self.waits[e.tower]

    def _on_said(self, said: Said) -> None:
        if isinstance(said.effect, E.TowerMoved):
            self.announce(said.effect)

    def announce(self, e: E.TowerMoved) -> None:
        """Tell the table where a captured tower goes (its new owner's light blinks)."""
        slot = slot_of(e.seat)
        if isinstance(slot, int):
            self.ctx.peer(SeatButtons).light(slot, "blink")
        words = self.ctx.words
        self.ctx.publish({"kind": "tower_capture", "tower": e.tower, "slot": slot,
                            "message": words("wait.tower", tower=e.tower,
                                             slot=slot_name(slot, words))})

    def _seen_at(self, tower: str, slot: Slot, *, by: str) -> None:
        del self.waits[tower]
        if isinstance(slot, int):
            self.ctx.peer(SeatButtons).light(slot, False)
        self.ctx.publish({"kind": "tower_seen", "tower": tower, "slot": slot, "by": by})
        self.ctx.settle()

    # ------------------------------------------------------------------ the tray
    def _on_tray(self, event: TrayMoved) -> None:
        ev = event.event
        s = self.ctx.state
        if isinstance(ev, TowerPlaced):
            if s is None or not s.edition.towers:
                return
            if self.waits.get(ev.tower) == ev.slot:
                self._seen_at(ev.tower, ev.slot, by="tray")
                return
            expected = self.expected(ev.tower)
            if ev.slot != expected and ev.tower not in self.waits \
                    and self.accepted.get(ev.tower) != ev.slot:
                self._raise_alarm(ev.tower, ev.slot, "alarm.moved", ev.slot)
            elif self.alarm is not None and self.alarm.tower == ev.tower:
                self._clear_alarm(ev.tower)
        else:
            if s is None or not s.edition.towers:
                return
            # Lifted from where it belongs while no capture moves it: someone took it.
            # (A tower being carried to its new owner is in waits, or in "off" mode was
            # lifted from its old slot, which is no longer the expected one.)
            expected = self.expected(ev.tower)
            if ev.slot == expected and ev.tower not in self.waits:
                self._raise_alarm(ev.tower, None, "alarm.lifted", ev.slot)

    def _raise_alarm(self, tower: str, slot: Slot | None, key: str, where: Slot | None) -> None:
        """A tower moved without a capture: the table stops until it is back (or an
        admin clears the alarm). Ownership stays the engine's. The message is `key`
        with the tower, the slot it was seen at (`where`) and where it belongs."""
        words = self.ctx.words
        expected = self.expected(tower)
        message = words(key, tower=tower, slot=slot_name(where, words),
                        expected=slot_name(expected, words))
        self.alarm = Alarm(tower, slot, expected, message)
        self.ctx.peer(SeatButtons).buzz("alarm")
        self.ctx.publish({"kind": "alarm", **self.alarm.to_json()})

    def _clear_alarm(self, tower: str) -> None:
        self.alarm = None
        self.ctx.peer(SeatButtons).buzz(None)
        self.ctx.publish({"kind": "alarm_cleared", "tower": tower})
        # another tower may still stand where it does not belong
        seen = self.seen
        for other in TOWERS:
            if other == tower or other in self.waits or other not in seen:
                continue
            pos = seen[other]
            if other in self.accepted and self.accepted[other] == pos:
                continue
            expected = self.expected(other)
            if pos is not None and pos != expected:
                self._raise_alarm(other, pos, "alarm.stands", pos)
                return
            if pos is None and self.confirm != "off":
                self._raise_alarm(other, None, "alarm.off_tray", None)
                return
        self.ctx.settle()

    # ------------------------------------------------------------------ admin overrides
    def confirm_seen(self, tower: str | None, seat: int | None, *, by: By = None
                     ) -> dict[str, Any]:
        """Override tower-seen: an admin (`by`) saw `tower` arrive at `seat` (None:
        neutral)."""
        slot: Slot = NEUTRAL if seat is None else seat
        if tower is None or self.waits.get(tower) != slot:
            raise refuse_seen(tower, seat)
        self.ctx.journal.append(OVERRIDE, signed({"kind": "tower-seen", "tower": tower,
                                                  "slot": slot}, by))
        self._seen_at(tower, slot, by="admin")
        return {"seen": tower}

    def accept_alarm(self, kind: str, *, by: By = None) -> dict[str, Any]:
        """Override clear-alarm (asked `by`): the tower that raised the alarm may stand
        where it does."""
        if self.alarm is None:
            raise refuse_accept()
        payload = {"kind": kind, "tower": self.alarm.tower, "slot": self.alarm.slot}
        self.ctx.journal.append(OVERRIDE, signed(payload, by))
        self.overridden(payload)
        self.alarm = None
        self.ctx.peer(SeatButtons).buzz(None)
        self.ctx.publish({"kind": "alarm_cleared"})
        self.ctx.settle()
        return {"cleared": True}

    def overridden(self, payload: Mapping[str, Any]) -> None:
        """What a journaled override leaves behind (live and in replay): the tower's wait
        is over; a tower accepted where it stands raises no alarm there until it changes
        hands."""
        tower, slot = payload["tower"], payload["slot"]
        if payload["kind"] == "tower-seen":
            if self.waits.get(tower) == slot:
                del self.waits[tower]
        else:
            self.accepted[tower] = slot
            self.waits.pop(tower, None)
