"""The table controller: events in, engine actions, effects out to the hardware.

It implements `firmware.api.Table` and lives on the daemon's one event loop. The
engine runs in **table mode**: it knows only public information. Players declare
plays (API), the launcher button and seat buttons say the rest, and the hardware is
the chance player (the exit sensor counts an `Eject`; the dispenser deals exactly
what a `Dispense` says). Everything is journaled before it takes effect, and the same
functions rebuild the state from the journal after a restart (`docs/architecture.md`,
section "Controller").

`Controller` is the coordinator: it keeps the engine state and builds the parts, each
of which owns its own state and registers its own loop handlers (Klipper's extras):

* `ejections.Ejections`: the launcher's jobs, aiming, counting, cut-off recovery;
* `towers.TowerWatch`: where the towers stand, the captures awaited, the alarm;
* `seats.SeatButtons`: the seat and launcher buttons, UNO arming, late calls, catches;
* `actions.Requests`: what each API request means as an engine action;
* `waiting.Waits`: what the table waits for, and the gate requests pass;
* `admin.Admin`, `undo.Undo`, `faults.JournalWatch`: pause and overrides, taking a
  declaration back, a journal that cannot be written;
* `round_end.RoundEnds`: every round's result, and the pause after a round.
* `turn_timer.TurnTimer`: the turn timer's warning and timeout (house rule).

Journal entries of a match:

* ``meta``   {"names": [...]} once, after the header;
* ``action`` an accepted engine action or chance outcome (``action_to_dict``);
* ``intent`` {"job": "deal"|"fire"|"turn", "seat", "want", "model"?}: an ejection is
  about to start; ``card`` {"intent", "counted"} per card the exit sensor counted;
  ``result`` (ref = the intent) {"counted", "status", "fault"}; a press's ``Eject``
  action is written in the same transaction as its result;
* ``admin``  {"action": "pause"|"resume", ...}; ``arm`` {"seat"}: a UNO call made
  before the play that leaves one card (seat button or POST /api/uno);
* ``dealer_card`` {"seat", "card"}: a card turned to choose the dealer while other seats
  have yet to turn theirs (the last one completes the ``DealerCards`` action);
* ``override`` {"kind": "tower-seen"|"clear-alarm", "tower", "slot"}: an admin confirmed
  a tower by hand, or accepted a tower where the tray sees it;
* ``undo``   {"seat", "card"} (ref = the action taken back): replay skips both
  (`firmware.controller.undo`);
* ``next_round`` {"round", "by": "tap"|"timer"}: the pause after a round is over.
* ``timeout`` {"step", "seat", "action"}: the turn timer ran out for that decision
  (after the action it applied, if any; `turn_timer.TurnTimer`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import uno_core as U
from firmware.api import requests as api
from firmware.controller.actions import DEALER_CARD, Requests
from firmware.controller.admin import ADMIN, Admin
from firmware.controller.ejections import SYSTEM_RNG, Ejections, Job, RngFor
from firmware.controller.faults import JournalWatch
from firmware.controller.hardware import Hardware
from firmware.controller.round_end import NEXT_ROUND, RoundEnds
from firmware.controller.seats import ARM, SeatButtons
from firmware.controller.slots import effects_json
from firmware.controller.speech import voice_listener
from firmware.controller.stops import CutOff
from firmware.controller.towers import OVERRIDE, TowerWatch
from firmware.controller.turn_timer import TIMEOUT, TurnTimer
from firmware.controller.undo import Undo, standing
from firmware.controller.waiting import Waits
from firmware.daemon import Services
from firmware.errors import Rejected
from firmware.journal import INTENT, RESULT, Entry
from firmware.messages import ANSWER_LANGUAGE, Words
from uno_core import effects as E

__all__ = ["SYSTEM_RNG", "Controller", "RngFor"]

class Controller:
    """The `Table` the API serves. Build with the daemon's `Services` and a `Hardware`."""

    def __init__(self, services: Services, hardware: Hardware, *, rng_for: RngFor = SYSTEM_RNG,
                 tower_confirm: str | None = None,
                 first_match: Mapping[str, Any] | None = None) -> None:
        """`first_match` ({"edition", "seats", "options", "seed", "names"}, each optional)
        is the match started when the journal holds none; the config's by default."""
        self.services = services
        self.loop = services.loop
        self.journal = services.journal
        self.config = services.config
        self.hw = hardware
        self.listeners: list[Callable[[Mapping[str, Any]], None]] = []
        # what this table can physically hold: called with (edition, seats) before a new
        # match starts, raises Rejected (the twin holds one edition's deck)
        self.new_match_checks: list[Callable[[str, int], None]] = []
        self.first_match = dict(first_match or {})
        # the parts: each registers its own loop handlers
        self.journal_watch = JournalWatch(self)
        self.ejections = Ejections(self, rng_for=rng_for)
        self.towers = TowerWatch(self, tower_confirm or self.config.table.tower_confirm)
        self.seats = SeatButtons(self)
        self.requests = Requests(self)
        self.admin = Admin(self)
        self.undo = Undo(self)
        self.waits = Waits(self)
        self.round_end = RoundEnds(self)
        self.turn_timer = TurnTimer(self)
        self._parts = (self.ejections, self.towers, self.seats, self.requests, self.admin,
                       self.undo, self.round_end, self.turn_timer)
        self._reset()
        self.loop.on_safe_state(hardware.close)
        self._load()
        self.listeners.append(voice_listener(self))  # after the replay: no history is said
        hardware.start(self.loop.post, tower_awaited=self.towers.awaited)
        self.loop.post(_Pump())
        self.loop.on(_Pump, lambda _e: self.settle())

    def _reset(self) -> None:
        self.state: U.State | None = None
        self.match: Any = None
        self.names: list[str] = []
        self.step = 0
        self.stats = {"actions": 0, "launcher_presses": 0, "cards_ejected": 0,
                      "tower_moves": 0, "rounds": 0}
        for part in self._parts:
            part.reset()

    # what the launcher is doing (read by the simulated players and the tests)
    @property
    def jobs(self) -> Any:
        return self.ejections.jobs

    @property
    def running(self) -> tuple[int, Job, int] | None:
        return self.ejections.running

    @property
    def recover(self) -> CutOff | None:
        return self.ejections.recover

    # ------------------------------------------------------------------ journal replay
    def _load(self) -> None:
        match = self.journal.match
        if match is None:
            sim = self.config.sim
            self.start_match(*self.match_asked(self.first_match,
                                               sim.seed if sim.enabled else None))
            return
        self._begin(match)
        intents: dict[int, Entry] = {}
        for entry in standing(self.journal.entries(match_id=match.id)):
            self._replay(entry)
            if entry.kind == INTENT:
                intents[entry.seq] = entry
            elif entry.kind == RESULT and entry.ref is not None:
                intents.pop(entry.ref, None)
        if intents:
            self.ejections.cut_off(max(intents))

    def reload(self) -> None:
        """Rebuild from the journal, as a restart would, keeping what only the tray
        knows (the captures awaited, the alarm): they are not journaled."""
        towers = self.towers
        waits, alarm = dict(towers.waits), towers.alarm
        self._load()
        towers.waits, towers.alarm = waits, alarm

    def _begin(self, match: Any) -> None:
        self._reset()
        self.match = match
        self.state = U.new_match(match.edition, match.seats, match.options, mode=U.TABLE)
        self.names = [f"seat {i + 1}" for i in range(match.seats)]  # as the screen numbers
        self.towers.begin()

    def _replay(self, entry: Entry) -> None:
        p = entry.payload
        if entry.kind == "meta":
            self.names = list(p.get("names") or self.names)
        elif entry.kind == "action":
            action = U.action_from_dict(p)
            self.undo.note(entry.seq, action, self.adopt(action, live=False))
        elif entry.kind == INTENT:
            self.ejections.started(entry.seq, p, replay=True)
        elif entry.kind == RESULT:
            self.ejections.finished(p)
        elif entry.kind == ADMIN:
            self.admin.effect(p)
        elif entry.kind == ARM:
            self.seats.replay_arm(p)
        elif entry.kind == DEALER_CARD:
            self.requests.replay_dealer_card(p)
        elif entry.kind == OVERRIDE:
            self.towers.overridden(p)
        elif entry.kind == NEXT_ROUND:
            self.round_end.replay(p)
        elif entry.kind == TIMEOUT:
            self.turn_timer.replay(p)

    def journaled_view(self) -> dict[str, Any]:
        """What a restart rebuilds from the journal alone (`_load`): the engine state and
        what the controller keeps beside it; tower waits, the alarm and a running
        ejection are left out (the tray and the launcher report those again). Taken just
        before a kill and just after the restart's replay, the two are equal when every
        answered request was committed first (`unotable demo`'s kill hook checks it)."""
        ejections = self.ejections.get_status()
        return {"match": self.match.id if self.match is not None else None, "step": self.step,
                "engine": U.snapshot(self.state) if self.state is not None else None,
                "names": list(self.names), "stats": dict(self.stats),
                **self.admin.get_status(), "blocker": ejections["blocker"],
                "turned": ejections["turned"], **self.seats.get_status(),
                **self.requests.get_status(), "accepted": dict(self.towers.accepted),
                "jobs": ejections["jobs"], **self.undo.get_status(),
                **self.round_end.get_status()}

    def match_asked(self, p: Mapping[str, Any], seed: int | None = None
                    ) -> tuple[str, int, dict[str, Any], int | None, list[str]]:
        """(edition, seats, options, seed, names) of the match `p` asks for; the config's
        [table] fills in what it leaves out (its options only for its own edition)."""
        table = self.config.table
        edition = p.get("edition", table.edition)
        options = p.get("options", dict(table.options) if edition == table.edition else {})
        return (edition, p.get("seats", table.seats), options, p.get("seed", seed),
                list(p.get("names", table.names)))

    def start_match(self, edition: str, seats: int, options: Mapping[str, Any],
                    seed: int | None, names: list[str]) -> None:
        U.new_match(edition, seats, options, mode=U.TABLE)  # validates before writing
        match = self.journal.start_match(edition=edition, options=dict(options), seats=seats,
                                         seed=seed, config_hash=self.config.digest)
        self._begin(match)
        names = (names + self.names[len(names):])[:seats]
        self.names = names
        self.journal.append("meta", {"names": names})
        self.publish({"kind": "new_match", "edition": edition, "seats": seats, "names": names})

    # ------------------------------------------------------------------ state changes
    def _adopt(self, action: U.Action, new: U.State, fx: list[Any], *, live: bool) -> None:
        """The engine took `action`: every part follows (live, after the journal write,
        and in replay: the same code)."""
        self.state = new
        self.step += 1
        self.stats["actions"] += 1
        if isinstance(action, U.Press | U.Draw | U.Accept):
            self.stats["launcher_presses"] += 1
        self.seats.adopt(action)
        self.requests.adopt(action)
        self.towers.adopt(fx, live=live)
        for e in fx:
            if isinstance(e, E.RoundOver):
                self.stats["rounds"] += 1
                if live:  # a damaged WAL can cost at most the round under way
                    self.journal.checkpoint()
        self.ejections.adopt(action, fx, new)
        self.round_end.adopt(action, fx)
        if live:
            self._announce(action, fx)

    def adopt(self, action: U.Action, *, live: bool = True) -> list[Any]:
        """Apply an action the journal already holds: in replay, and live a press's
        `Eject` (written with the ejection's result). Its effects."""
        assert self.state is not None
        new, fx = U.apply(self.state, action)
        self._adopt(action, new, fx, live=live)
        return fx

    def accept(self, action: U.Action) -> list[Any]:
        """Validate with the engine, journal, adopt; raise Rejected (nothing changed)."""
        assert self.state is not None
        try:  # on a copy: the table's state changes only once the journal holds the action
            new, fx = U.apply(self.state.clone(), action)
        except U.IllegalAction as exc:
            raise Rejected(self.words.refusal(exc, self.state.edition.name), status=422) from None
        entry = self.journal.append("action", U.action_to_dict(action))
        self._adopt(action, new, fx, live=True)
        self.undo.note(entry.seq, action, fx)
        self.settle()
        return fx

    def gate(self, *, chance_ok: bool = False) -> U.State:
        """Raise Rejected while the table waits for something (`Waits.gate`)."""
        return self.waits.gate(chance_ok=chance_ok)

    def held(self) -> bool:
        """Paused by the admin, or the journal cannot be written: no motor starts."""
        return self.admin.paused is not None or self.journal_watch.fault is not None

    def settle(self) -> None:
        """After any change: start the ejection the table owes, or else show whose turn
        it is (lights) and turn the launcher to them."""
        if not self.ejections.pump():
            self.seats.lights(self.towers.seats_awaited() | self.turn_timer.blinking())
            self.ejections.face_player()
        self.round_end.settle()
        self.turn_timer.settle()

    # ------------------------------------------------------------------ Table interface
    def public_state(self) -> dict[str, Any]:
        s = self.state
        alarm = self.towers.alarm
        out: dict[str, Any] = {"match": None, "step": self.step, "names": list(self.names),
                               "stats": dict(self.stats), "paused": self.admin.paused,
                               "alarm": None if alarm is None else alarm.to_json(),
                               "tower_confirm": self.towers.confirm}
        if s is not None:
            out.update(U.public_state(s))
            out["match"] = {"id": self.match.id, "seed": self.match.seed}
            out["uno_armed"] = sorted(self.seats.armed)
            out["undoable"] = self.undo.undoable()
            out["towers_seen"] = self.towers.get_status()["seen"] if s.edition.towers else None
        out["rounds"] = [dict(r) for r in self.round_end.rounds]  # each round's result
        out["round_end"] = self.round_end.pause  # the round just over, while the table pauses
        out["waiting"] = self.waiting()
        out["turn_timer"] = self.turn_timer.get_status()["turn_timer"]
        return out

    def waiting(self) -> dict[str, Any]:
        return self.waits.waiting()

    def health(self) -> dict[str, Any]:
        status = self.hw.get_status()
        launcher = status["launcher"]
        ok = launcher.get("fault") is None and launcher.get("state") != "closed"
        tray = status.get("tray")
        if tray is not None:
            ok = ok and all(r.get("ok") for r in tray["readers"].values())
        return {"ok": ok, **status, "voice": self.services.voice.get_status()}

    def submit(self, request: api.Request) -> dict[str, Any]:
        if isinstance(request, api.Admin):
            return self.admin.submit(request)
        if isinstance(request, api.NextRound):
            return self.round_end.next_round()
        return self.requests.submit(request)

    # ------------------------------------------------------------------ announcements
    @property
    def words(self) -> Words:
        """The table's messages in its `[table] language` (or, answering a request, the
        language the request asked for), naming seats as the screen does."""
        return Words(ANSWER_LANGUAGE.get() or self.config.table.language, self.names)

    def publish(self, event: Mapping[str, Any]) -> None:
        """Send `event` (with the step) to the event stream and the listeners."""
        event = {**event, "step": self.step}
        self.services.publish(event)
        for listener in list(self.listeners):
            listener(event)

    def _announce(self, action: U.Action, fx: list[Any]) -> None:
        self.publish({"kind": "action", "action": U.action_to_dict(action),
                      "effects": effects_json(fx)})
        for e in fx:
            if isinstance(e, E.TowerMoved):
                self.towers.announce(e)
            elif isinstance(e, E.ProtectionUsed):
                self.hw.panel.buzz("ok")
                self.publish({"kind": "protected", "seat": e.seat, "tower": e.tower,
                              "card": U.format_card(e.card),
                              "message": self.words("event.protected", tower=e.tower,
                                                    seat=self.words.seat(e.seat),
                                                    card=U.format_card(e.card))})
            elif isinstance(e, E.UnoCalled | E.UnoPenalty):
                self.hw.panel.buzz("uno")


class _Pump:
    """Posted once at start: begin owed ejections after the loop is running."""
