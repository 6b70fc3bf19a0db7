"""Tower watch (Power editions): where the tray sees the four towers, the captures the
table waits to see carried out, and the alarm when a tower moves without one.

The tray's watcher thread posts `TrayChanged`; `_on_tray` compares what it saw with
the engine's owners (`expected`). Ownership stays the engine's: the watch only says
where a tower should stand, waits for it there, and stops the table while one stands
where it does not belong (or an admin accepts it there: override clear-alarm).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from firmware.controller.events import TrayChanged
from firmware.controller.slots import NEUTRAL, Slot, slot_name, slot_of
from firmware.controller.stops import Alarm
from firmware.errors import Rejected
from firmware.waits import Wait
from hal.tray import TowerPlaced, TowerRemoved
from uno_core import effects as E
from uno_core.cards import TOWERS

if TYPE_CHECKING:
    from firmware.controller.table import Controller

OVERRIDE = "override"  # journal kind: an admin confirmed a tower, or cleared an alarm


class TowerWatch:
    """Owns the towers' seen positions, the waits for captures and the alarm; handles
    `TrayChanged`. `confirm` is the config's [table] tower_confirm: "wait" (the table
    waits for a captured tower to arrive), "warn" (it only announces the capture and
    blinks the seat), "off" (no waits; the tray still raises alarms)."""

    def __init__(self, table: Controller, confirm: str) -> None:
        self.table = table
        self.confirm = confirm
        self.seen: dict[str, Slot | None] = {}  # what the tray sees (physical)
        self.reset()
        table.loop.on(TrayChanged, self._on_tray)

    def reset(self) -> None:
        self.waits: dict[str, Slot] = {}  # tower -> the slot it is to be carried to
        self.alarm: Alarm | None = None
        # towers an admin accepted where they stand (override clear-alarm): tower -> slot
        self.accepted: dict[str, Slot | None] = {}

    def begin(self) -> None:
        """A match begins (or is replayed): every tower starts on the neutral slot."""
        s = self.table.state
        if s is not None and s.edition.towers and self.confirm != "off":
            self.waits = {t: NEUTRAL for t in TOWERS if self.seen.get(t) != NEUTRAL}

    def get_status(self) -> dict[str, Any]:
        return {"seen": {t: self.seen.get(t) for t in TOWERS}, "waits": dict(self.waits),
                "alarm": None if self.alarm is None else self.alarm.to_json(),
                "accepted": dict(self.accepted), "confirm": self.confirm}

    def awaited(self) -> bool:
        """True while the table waits for a tower to move (the tray polls faster then).
        Read from the tray's watcher thread: a stale answer only delays a round."""
        return bool(self.waits) or self.alarm is not None

    def seats_awaited(self) -> set[int]:
        """Seats a captured tower is being carried to (their lights blink)."""
        return {slot for slot in self.waits.values() if isinstance(slot, int)}

    def wait(self) -> dict[str, Any] | None:
        """The table's wait for a capture to be carried out ([table] tower_confirm "wait")."""
        if not self.waits or self.confirm != "wait":
            return None
        tower, slot = next(iter(self.waits.items()))
        words = self.table.words
        return {"kind": Wait.TOWER, "tower": tower, "slot": slot,
                "seat": slot if isinstance(slot, int) else None,
                "message": words("wait.tower", tower=tower, slot=slot_name(slot, words))}

    def expected(self, tower: str) -> Slot:
        s = self.table.state
        assert s is not None
        return slot_of(s.towers[TOWERS.index(tower)])

    # ------------------------------------------------------------------ captures
    def adopt(self, fx: list[Any], *, live: bool) -> None:
        """Captures an accepted action makes (live and in replay)."""
        for e in fx:
            if not isinstance(e, E.TowerMoved):
                continue
            self.table.stats["tower_moves"] += 1
            self.accepted.pop(e.tower, None)
            if self.confirm != "off":
                slot = slot_of(e.seat)
                self.waits[e.tower] = slot
                if live and self.seen.get(e.tower) == slot:
                    del self.waits[e.tower]

    def announce(self, e: E.TowerMoved) -> None:
        """Tell the table where a captured tower goes (its new owner's light blinks)."""
        slot = slot_of(e.seat)
        if isinstance(slot, int):
            self.table.hw.panel.light(slot, "blink")
        words = self.table.words
        self.table.publish({"kind": "tower_capture", "tower": e.tower, "slot": slot,
                            "message": words("wait.tower", tower=e.tower,
                                             slot=slot_name(slot, words))})

    def _seen_at(self, tower: str, slot: Slot, *, by: str) -> None:
        del self.waits[tower]
        if isinstance(slot, int):
            self.table.hw.panel.light(slot, False)
        self.table.publish({"kind": "tower_seen", "tower": tower, "slot": slot, "by": by})
        self.table.settle()

    # ------------------------------------------------------------------ the tray
    def _on_tray(self, event: TrayChanged) -> None:
        ev = event.event
        s = self.table.state
        if isinstance(ev, TowerPlaced):
            self.seen[ev.tower] = ev.slot
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
        elif isinstance(ev, TowerRemoved):
            self.seen[ev.tower] = None
            self.table.publish({"kind": "tower_lifted", "tower": ev.tower, "slot": ev.slot})
            if s is None or not s.edition.towers:
                return
            # Lifted from where it belongs while no capture moves it: someone took it.
            # (A tower being carried to its new owner is in waits, or in "off" mode was
            # lifted from its old slot, which is no longer the expected one.)
            expected = self.expected(ev.tower)
            if ev.slot == expected and ev.tower not in self.waits:
                self._raise_alarm(ev.tower, None, "alarm.lifted", ev.slot)
        else:
            self.table.publish({"kind": "tray", "event": type(ev).__name__,
                                "slot": getattr(ev, "slot", None)})

    def _raise_alarm(self, tower: str, slot: Slot | None, key: str, where: Slot | None) -> None:
        """A tower moved without a capture: the table stops until it is back (or an
        admin clears the alarm). Ownership stays the engine's. The message is `key`
        with the tower, the slot it was seen at (`where`) and where it belongs."""
        words = self.table.words
        expected = self.expected(tower)
        message = words(key, tower=tower, slot=slot_name(where, words),
                        expected=slot_name(expected, words))
        self.alarm = Alarm(tower, slot, expected, message)
        self.table.hw.panel.buzz("alarm")
        self.table.publish({"kind": "alarm", **self.alarm.to_json()})

    def _clear_alarm(self, tower: str) -> None:
        self.alarm = None
        self.table.hw.panel.buzz(None)
        self.table.publish({"kind": "alarm_cleared", "tower": tower})
        # another tower may still stand where it does not belong
        for other in TOWERS:
            if other == tower or other in self.waits or other not in self.seen:
                continue
            pos = self.seen[other]
            if other in self.accepted and self.accepted[other] == pos:
                continue
            expected = self.expected(other)
            if pos is not None and pos != expected:
                self._raise_alarm(other, pos, "alarm.stands", pos)
                return
            if pos is None and self.confirm != "off":
                self._raise_alarm(other, None, "alarm.off_tray", None)
                return
        self.table.settle()

    # ------------------------------------------------------------------ admin overrides
    def confirm_seen(self, tower: str | None, seat: int | None) -> dict[str, Any]:
        """Override tower-seen: an admin saw `tower` arrive at `seat` (None: neutral)."""
        if tower is None:
            raise Rejected(self.table.words("refused.tower_missing"), field="tower", status=400)
        slot: Slot = NEUTRAL if seat is None else seat
        if self.waits.get(tower) != slot:
            words = self.table.words
            raise Rejected(words("refused.no_tower_wait", tower=tower,
                                 slot=slot_name(slot, words)), field="tower")
        self.table.journal.append(OVERRIDE, {"kind": "tower-seen", "tower": tower, "slot": slot})
        self._seen_at(tower, slot, by="admin")
        return {"seen": tower}

    def accept_alarm(self, kind: str) -> dict[str, Any]:
        """Override clear-alarm: the tower that raised the alarm may stand where it does."""
        if self.alarm is None:
            raise Rejected(self.table.words("refused.no_alarm"))
        payload = {"kind": kind, "tower": self.alarm.tower, "slot": self.alarm.slot}
        self.table.journal.append(OVERRIDE, payload)
        self.overridden(payload)
        self.alarm = None
        self.table.hw.panel.buzz(None)
        self.table.publish({"kind": "alarm_cleared"})
        self.table.settle()
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
