"""The table controller: events in, engine actions, effects out to the hardware.

It implements `firmware.api.Table` and lives on the daemon's one event loop. The
engine runs in **table mode**: it knows only public information. Players declare
plays (API), the launcher button and seat buttons say the rest, and the hardware is
the chance player (the exit sensor counts an `Eject`; the dispenser deals exactly
what a `Dispense` says). Everything is journaled before it takes effect, and the same
functions rebuild the state from the journal after a restart (`docs/architecture.md`,
section "Controller").

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
  (`firmware.controller.undo`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import uno_core as U
from firmware.api import requests as api
from firmware.controller.events import (
    Aimed,
    CardCounted,
    EjectionDone,
    LauncherPressed,
    SeatPressed,
    TrayChanged,
)
from firmware.controller.hardware import Hardware
from firmware.controller.stops import (
    Alarm,
    Blocker,
    CutOff,
    ExtraCards,
    Jam,
    JournalFault,
    Reload,
)
from firmware.controller.undo import PHYSICAL, UNDO, Declared, standing
from firmware.daemon import Services
from firmware.errors import JournalUnwritable, Rejected
from firmware.journal import INTENT, RESULT, Entry
from firmware.waits import PHASE_WAITS, Wait
from hal.launcher import EjectionResult
from hal.tray import NEUTRAL, TowerPlaced, TowerRemoved
from uno_core.cards import COLOUR_NAMES, TOWERS
from uno_core.state import OWE_UNTIL

log = logging.getLogger(__name__)

COLOUR_LETTERS = {name: letter for letter, name in COLOUR_NAMES.items()}
DEALER_CARD = "dealer_card"
OVERRIDE = "override"
RngFor = Callable[[str], random.Random]
# A launcher press draws its card count from the ejection model with an rng made for
# that step; production uses the system's entropy, the simulated table (seed, step).
SYSTEM_RNG: RngFor = lambda step: random.SystemRandom()  # noqa: E731
JOURNAL_RETRY_S = 1.0  # while the journal cannot be written: try again this often


@dataclass
class Job:
    """Cards the launcher owes: ``deal`` exactly `count` to `seat`; ``fire`` one press
    (the count is drawn when it starts); ``turn`` the first card, to the dealer."""

    kind: str
    seat: int
    count: int


def _colour(name: str) -> str:
    """The API names colours (red, ...); the engine uses letters (R, ...)."""
    return COLOUR_LETTERS.get(name, name)


def _slot(seat: int) -> int | str:
    return NEUTRAL if seat < 0 else seat


def _json(held: Blocker | Alarm | None) -> dict[str, Any] | None:
    return None if held is None else held.to_json()


def _slot_name(slot: int | str | None) -> str:
    return "the neutral slot" if slot == NEUTRAL else "nowhere" if slot is None else f"seat {slot}"


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
        self.rng_for = rng_for
        self.tower_confirm = tower_confirm or self.config.table.tower_confirm
        self.listeners: list[Callable[[Mapping[str, Any]], None]] = []
        # what this table can physically hold: called with (edition, seats) before a new
        # match starts, raises Rejected (the twin holds one edition's deck)
        self.new_match_checks: list[Callable[[str, int], None]] = []
        self.first_match = dict(first_match or {})
        self.tower_pos: dict[str, int | str | None] = {}  # what the tray sees (physical)
        self.aiming: int | None = None  # the servo is turning to this seat
        self.aimed: int | None = None
        self.journal_fault: JournalFault | None = None  # the journal cannot be written
        self.unjournaled: tuple[int, EjectionResult] | None = None  # an ejection's end
        self._retry_due = False  # a _JournalRetry is posted for later
        self.journal.fault_listeners.append(self._journal_fault)
        self._reset()
        loop = self.loop
        loop.on(LauncherPressed, self._on_launcher)
        loop.on(SeatPressed, self._on_seat)
        loop.on(CardCounted, self._on_card)
        loop.on(EjectionDone, self._on_done)
        loop.on(TrayChanged, self._on_tray)
        loop.on(Aimed, self._on_aimed)
        loop.on(_JournalRetry, self._on_journal_retry)
        loop.on_safe_state(hardware.close)
        self._load()
        # Read from the tray's watcher thread: a stale answer only delays its pace by a round.
        hardware.start(loop.post,
                       tower_awaited=lambda: bool(self.tower_waits) or self.alarm is not None)
        self._unsub_card = hardware.launcher.on_card(
            lambda counted, seat: loop.post(CardCounted(counted, seat)))
        loop.post(_Pump())
        loop.on(_Pump, lambda _e: self._pump())

    def _reset(self) -> None:
        self.state: U.State | None = None
        self.match: Any = None
        self.names: list[str] = []
        self.step = 0
        self.jobs: deque[Job] = deque()
        self.running: tuple[int, Job, int] | None = None  # (intent seq, job, want)
        self.recover: CutOff | None = None
        self.blocker: Blocker | None = None
        self.paused: str | None = None
        self.alarm: Alarm | None = None
        self.tower_waits: dict[str, int | str] = {}
        self.turned = False
        self.armed: set[int] = set()
        self.dealer_cards: dict[int, U.Card] = {}
        # towers an admin accepted where they stand (override clear-alarm): tower -> slot
        self.accepted: dict[str, int | str | None] = {}
        self.declared: Declared | None = None  # the last Play journaled (for undo)
        self.stats = {"actions": 0, "launcher_presses": 0, "cards_ejected": 0,
                      "tower_moves": 0, "rounds": 0}

    # ------------------------------------------------------------------ journal replay
    def _load(self) -> None:
        match = self.journal.match
        if match is None:
            sim = self.config.sim
            self._start_match(*self._match_asked(self.first_match,
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
            seq = max(intents)
            assert self.running is not None and self.running[0] == seq
            _seq, job, want = self.running
            self.recover = CutOff(seq, job.seat, want, job.kind)
            log.warning("ejection %d to seat %d was cut off: asking the table", seq, job.seat)

    def _begin(self, match: Any) -> None:
        self._reset()
        self.match = match
        self.state = U.new_match(match.edition, match.seats, match.options, mode=U.TABLE)
        self.names = [f"seat {i}" for i in range(match.seats)]
        if self.state.edition.towers and self.tower_confirm != "off":
            self.tower_waits = {t: NEUTRAL for t in TOWERS if self.tower_pos.get(t) != NEUTRAL}

    def _replay(self, entry: Entry) -> None:
        p = entry.payload
        if entry.kind == "meta":
            self.names = list(p.get("names") or self.names)
        elif entry.kind == "action":
            action = U.action_from_dict(p)
            new, fx = U.apply(self.state, action)
            self._adopt(action, new, fx, live=False)
            self._note_declared(entry.seq, action, fx)
        elif entry.kind == INTENT:
            self._started(entry.seq, p)
            if p.get("model") is not None:
                self.hw.launcher.model.set_state(p["model"])
        elif entry.kind == RESULT:
            self._finished(p)
        elif entry.kind == "admin":
            self._admin_effect(p)
        elif entry.kind == "arm":
            self.armed.add(int(p["seat"]))
        elif entry.kind == DEALER_CARD:
            self.dealer_cards[int(p["seat"])] = U.parse_card(p["card"])
        elif entry.kind == OVERRIDE:
            self._override_effect(p)

    def journaled_view(self) -> dict[str, Any]:
        """What a restart rebuilds from the journal alone (`_load`): the engine state and
        what the controller keeps beside it; tower waits, the alarm and a running
        ejection are left out (the tray and the launcher report those again). Taken just
        before a kill and just after the restart's replay, the two are equal when every
        answered request was committed first (`unotable demo`'s kill hook checks it)."""
        d = self.declared
        return {"match": self.match.id if self.match is not None else None, "step": self.step,
                "engine": U.snapshot(self.state) if self.state is not None else None,
                "names": list(self.names), "stats": dict(self.stats), "paused": self.paused,
                "blocker": _json(self.blocker), "turned": self.turned, "armed": sorted(self.armed),
                "dealer_cards": {str(seat): U.format_card(card)
                                 for seat, card in sorted(self.dealer_cards.items())},
                "accepted": dict(self.accepted),
                "jobs": [[j.kind, j.seat, j.count] for j in self.jobs],
                "declared": None if d is None else [d.seq, d.seat, d.card, d.fixed, list(d.laid)]}

    def _match_asked(self, p: Mapping[str, Any], seed: int | None = None
                     ) -> tuple[str, int, dict[str, Any], int | None, list[str]]:
        """(edition, seats, options, seed, names) of the match `p` asks for; the config's
        [table] fills in what it leaves out (its options only for its own edition)."""
        table = self.config.table
        edition = p.get("edition", table.edition)
        options = p.get("options", dict(table.options) if edition == table.edition else {})
        return (edition, p.get("seats", table.seats), options, p.get("seed", seed),
                list(p.get("names", table.names)))

    def _start_match(self, edition: str, seats: int, options: Mapping[str, Any],
                     seed: int | None, names: list[str]) -> None:
        U.new_match(edition, seats, options, mode=U.TABLE)  # validates before writing
        match = self.journal.start_match(edition=edition, options=dict(options), seats=seats,
                                         seed=seed, config_hash=self.config.digest)
        self._begin(match)
        names = (names + self.names[len(names):])[:seats]
        self.names = names
        self.journal.append("meta", {"names": names})
        self._publish({"kind": "new_match", "edition": edition, "seats": seats, "names": names})

    # ------------------------------------------------------------------ state changes
    # Each function below is used twice: live (after the journal write) and in replay.
    def _adopt(self, action: U.Action, new: U.State, fx: list[Any], *, live: bool) -> None:
        self.state = new
        self.step += 1
        self.stats["actions"] += 1
        if isinstance(action, U.Play | U.FourTowerDiscard):
            self.armed.discard(action.seat)
        if isinstance(action, U.Press | U.Draw | U.Accept):
            self.stats["launcher_presses"] += 1
        if isinstance(action, U.Reveal):
            self.turned = False
        if isinstance(action, U.DealerCards):
            self.dealer_cards.clear()
        for e in fx:
            name = e.name
            if name == "dispense":
                self.jobs.append(Job("deal", e.seat, e.count))
            elif name == "tower_moved":
                self.stats["tower_moves"] += 1
                self.accepted.pop(e.tower, None)
                if self.tower_confirm != "off":
                    self.tower_waits[e.tower] = _slot(e.seat)
                    if live and self.tower_pos.get(e.tower) == _slot(e.seat):
                        del self.tower_waits[e.tower]
            elif name == "card_returned":
                self.turned = False
            elif name == "round_over":
                self.stats["rounds"] += 1
                if live:  # a damaged WAL can cost at most the round under way
                    self.journal.checkpoint()
        s = new
        if s.to_act == U.CHANCE and s.chance == "eject" and not self._has_job("fire"):
            self.jobs.appendleft(Job("fire", s.queue[0][1], 0))
        if s.to_act == U.CHANCE and s.chance == "reveal" and not self.turned \
                and not self._has_job("turn"):
            self.jobs.append(Job("turn", s.dealer, 1))
        if live:
            self._announce(action, fx)

    def _has_job(self, kind: str) -> bool:
        return any(j.kind == kind for j in self.jobs) or (
            self.running is not None and self.running[1].kind == kind)

    def _started(self, seq: int, payload: Mapping[str, Any]) -> None:
        job = self.jobs[0]
        self.running = (seq, job, int(payload["want"]))

    def _finished(self, payload: Mapping[str, Any]) -> None:
        assert self.running is not None
        _seq, job, want = self.running
        self.running = None
        self.recover = None
        counted = int(payload["counted"])
        status = payload.get("status", "ok")
        self.stats["cards_ejected"] += counted
        if job.kind == "fire":
            self.jobs.popleft()
        elif job.kind == "turn":
            if counted:
                self.turned = True
                self.jobs.popleft()
        else:
            job.count -= counted
            if job.count <= 0:
                self.jobs.popleft()
        short = counted < want and job.kind != "fire"
        extra = counted - want if job.kind != "fire" else 0
        if status == "jam" or status == "fault":
            self.blocker = Jam(payload.get("fault"))
        elif short:
            self.blocker = Reload()
        elif extra > 0:  # a double feed: the exit sensor saw more than the referee dealt
            self.blocker = ExtraCards(job.seat, extra)

    def _admin_effect(self, payload: Mapping[str, Any]) -> None:
        action = payload["action"]
        if action == "pause":
            self.paused = payload.get("reason") or "paused"
        elif action == "resume":
            if self.paused is not None:
                self.paused = None
            else:
                self.blocker = None

    # ------------------------------------------------------------------ engine actions
    def _accept(self, action: U.Action) -> list[Any]:
        """Validate with the engine, journal, adopt; raise Rejected (nothing changed)."""
        assert self.state is not None
        try:  # on a copy: the table's state changes only once the journal holds the action
            new, fx = U.apply(self.state.clone(), action)
        except U.IllegalAction as exc:
            raise Rejected(exc.rule, status=422) from None
        entry = self.journal.append("action", U.action_to_dict(action))
        self._adopt(action, new, fx, live=True)
        self._note_declared(entry.seq, action, fx)
        self._pump()
        return fx

    def _gate(self, *, chance_ok: bool = False) -> U.State:
        """Raise Rejected (409) while the table waits for something physical."""
        self._gate_journal()
        s = self.state
        if s is None:
            raise Rejected("no match: start one with POST /api/admin/new-match")
        if s.over:
            raise Rejected("the match is over: start a new one with POST /api/admin/new-match")
        waiting = self._physical_wait()
        if waiting is not None:
            raise Rejected(f"the table waits: {waiting['message']}")
        if s.to_act == U.CHANCE and not chance_ok:
            raise Rejected(f"the table waits: {self._engine_wait(s)['message']}")
        return s

    # ------------------------------------------------------------------ Table interface
    def public_state(self) -> dict[str, Any]:
        s = self.state
        out: dict[str, Any] = {"match": None, "step": self.step, "names": list(self.names),
                               "stats": dict(self.stats), "paused": self.paused,
                               "alarm": _json(self.alarm), "tower_confirm": self.tower_confirm}
        if s is not None:
            out.update(U.public_state(s))
            out["match"] = {"id": self.match.id, "seed": self.match.seed}
            out["uno_armed"] = sorted(self.armed)
            out["undoable"] = self._undoable()
            out["towers_seen"] = ({t: self.tower_pos.get(t) for t in TOWERS}
                                  if s.edition.towers else None)
        out["waiting"] = self.waiting()
        return out

    def health(self) -> dict[str, Any]:
        status = self.hw.get_status()
        launcher = status["launcher"]
        ok = launcher.get("fault") is None and launcher.get("state") != "closed"
        tray = status.get("tray")
        if tray is not None:
            ok = ok and all(r.get("ok") for r in tray["readers"].values())
        return {"ok": ok, **status}

    def submit(self, request: api.Request) -> dict[str, Any]:
        if isinstance(request, api.Admin):
            return self._admin(request)
        if isinstance(request, api.Reveal):
            return self._reveal(request)
        self._check_seat(request)
        if isinstance(request, api.CallUno):
            return self._uno(request.seat)
        if isinstance(request, api.Undo):
            return self._undo(request.seat)
        s = self._gate()
        if isinstance(request, api.Play):
            action: U.Action = self._play_action(s, request)
        elif isinstance(request, api.Catch):
            action = U.Catch(request.seat, request.target)
        elif isinstance(request, api.Challenge):
            action = U.Challenge(request.seat)
        elif isinstance(request, api.Hands):
            action = U.EnterHand(request.seat, tuple(U.parse_card(c) for c in request.cards))
        elif isinstance(request, api.Decide):
            action = self._decision(request)
        else:
            raise Rejected(f"unknown request {type(request).__name__}", status=404)
        fx = self._accept(action)
        return {"accepted": U.action_to_dict(action),
                "effects": [U.effect_to_dict(e) for e in fx], "step": self.step}

    def _check_seat(self, request: Any) -> None:
        n = self.state.n if self.state is not None else self.config.table.seats
        for name in ("seat", "target"):
            value = getattr(request, name, None)
            if isinstance(value, int) and not 0 <= value < n:
                raise Rejected(f"{name} {value}: the table has seats 0-{n - 1}", field=name,
                               status=404)

    def _play_action(self, s: U.State, r: api.Play) -> U.Play:
        ch = dict(r.choices)
        laid = tuple(U.parse_card(c) for c in ch.get("cards", ()))
        left = s.counts[r.seat] - 1 - len(laid)
        return U.Play(r.seat, U.parse_card(r.card), colour=_colour(ch.get("color", "")),
                      target=ch.get("target", -1), towers=tuple(ch.get("towers", ())),
                      laid=laid, uno=r.seat in self.armed and left == 1)

    def _decision(self, r: api.Decide) -> U.Action:
        seat = r.seat
        if r.decision == "pass":
            return U.Pass(seat)
        if r.decision == "accept":
            return U.Accept(seat)
        if r.decision in ("guilty", "innocent"):
            return U.Verdict(seat, r.decision == "guilty")
        if r.decision == "colour":
            return U.ChooseColour(seat, _colour(r.color))
        if r.decision == "four-towers":
            laid = tuple(U.parse_card(c) for c in r.cards)
            return U.FourTowerDiscard(seat, laid, uno=seat in self.armed)
        raise Rejected(f"decision {r.decision!r} is not one of {', '.join(api.DECISIONS)}",
                       field="decision", status=400)

    def _uno(self, seat: int) -> dict[str, Any]:
        """A seat's own button (or POST /api/uno): call UNO now if the seat is open to a
        catch, else arm the call for its next play that leaves one card. Where the call
        belongs before the card (forgotten_uno "at_play", classic) a later press is
        refused: the play has already drawn the penalty, and nobody catches."""
        s = self._gate()
        if s.exposed == seat:
            self._accept(U.CallUno(seat))
            return {"called": True, "step": self.step}
        if s.counts[seat] == 2 or (s.phase == "four_towers" and s.to_act == seat):
            if seat not in self.armed:
                self.journal.append("arm", {"seat": seat})
                self.armed.add(seat)
            self._publish({"kind": "uno_armed", "seat": seat})
            return {"armed": True, "step": self.step}
        reason = f"seat {seat} has {s.counts[seat]} cards: nothing to call"
        if s.options.forgotten_uno == "at_play":
            reason += (" (UNO is called before the second-to-last card: press while holding "
                       "two cards; a forgotten call is drawn at once, nobody catches)")
        raise Rejected(reason, status=422)

    def _reveal(self, r: api.Reveal) -> dict[str, Any]:
        s = self._gate(chance_ok=True)
        card = U.parse_card(r.card)
        if s.to_act == U.CHANCE and s.chance == "dealer_cards":
            if r.seat is None or not 0 <= r.seat < s.n:
                raise Rejected("choosing the dealer: say which seat turned the card",
                               field="seat", status=422)
            turned = {**self.dealer_cards, r.seat: card}
            missing = [i for i in range(s.n) if i not in turned]
            if missing:
                self.journal.append(DEALER_CARD, {"seat": r.seat, "card": U.format_card(card)})
                self.dealer_cards[r.seat] = card
                return {"missing": missing, "step": self.step}
            fx = self._accept(U.DealerCards(tuple(turned[i] for i in range(s.n))))
            return {"effects": [U.effect_to_dict(e) for e in fx], "step": self.step}
        if s.to_act == U.CHANCE and s.chance == "reveal" and self.turned:
            fx = self._accept(U.Reveal(card))
            return {"effects": [U.effect_to_dict(e) for e in fx], "step": self.step}
        raise Rejected("no card is waiting to be turned now")

    def _admin(self, r: api.Admin) -> dict[str, Any]:
        p = dict(r.params)
        if r.action == "new-match":
            edition, seats, options, seed, names = self._match_asked(p)
            if seats > self.hw.panel.config.seats:
                raise Rejected(f"seats {seats}: the table has buttons for "
                               f"{self.hw.panel.config.seats}", field="seats", status=422)
            for check in self.new_match_checks:
                check(edition, seats)
            try:
                self._check_idle_for_new_match()
                self._start_match(edition, seats, options, seed, names)
            except (U.SetupError, U.OptionError) as exc:
                raise Rejected(str(exc), status=422) from None
            self._pump()
            return {"match": self.match.id}
        if r.action == "pause":
            if self.paused is not None:
                raise Rejected("the table is already paused")
            payload = {"action": "pause", "reason": p.get("reason") or "paused"}
            self.journal.append("admin", payload)
            self._admin_effect(payload)
            self._publish({"kind": "paused", "reason": self.paused})
            return {"paused": self.paused}
        if r.action == "resume":
            return self._resume()
        return self._override(p)

    def _check_idle_for_new_match(self) -> None:
        if self.running is not None:
            raise Rejected("the launcher is ejecting: wait for it before a new match")

    def _resume(self) -> dict[str, Any]:
        self._gate_journal()
        s = self.state
        if self.paused is None and self.blocker is None:
            if s is not None and s.to_act == U.CHANCE and s.chance == "shuffle" \
                    and self._physical_wait() is None:
                self._accept(U.Shuffle(()))
                return {"shuffled": True, "step": self.step}
            raise Rejected("nothing to resume: the table is not paused and waits for no reload")
        payload = {"action": "resume"}
        self.journal.append("admin", payload)
        was_blocked = self.paused is None
        self._admin_effect(payload)
        if was_blocked:
            self.hw.launcher.reset_fault()
        self._publish({"kind": "resumed"})
        self._pump()
        return {"resumed": True}

    def _override(self, p: Mapping[str, Any]) -> dict[str, Any]:
        kind = p["kind"]
        if kind == "cards-out":
            if self.recover is None:
                raise Rejected("no ejection was cut off: there is nothing to count")
            if "count" not in p:
                raise Rejected("cards-out needs the counted cards: count", field="count",
                               status=400)
            cut = self.recover
            self._complete(cut.intent, EjectionResult(cut.want, int(p["count"]), "ok", cut.seat),
                           status="recovered")
            return {"recovered": p["count"], "step": self.step}
        if kind == "tower-seen":
            tower, seat = p.get("tower"), p.get("seat")
            if tower is None:
                raise Rejected("tower-seen needs the tower", field="tower", status=400)
            slot = NEUTRAL if seat is None else seat
            if self.tower_waits.get(tower) != slot:
                raise Rejected(f"the table does not wait for tower {tower} at {_slot_name(slot)}",
                               field="tower")
            self.journal.append(OVERRIDE, {"kind": kind, "tower": tower, "slot": slot})
            self._tower_seen(tower, slot, by="admin")
            return {"seen": tower}
        if self.alarm is None:
            raise Rejected("there is no alarm to clear")
        payload = {"kind": kind, "tower": self.alarm.tower, "slot": self.alarm.slot}
        self.journal.append(OVERRIDE, payload)
        self._override_effect(payload)
        self.alarm = None
        self.hw.panel.buzz(None)
        self._publish({"kind": "alarm_cleared"})
        self._pump()
        return {"cleared": True}

    def _override_effect(self, payload: Mapping[str, Any]) -> None:
        """What a journaled override leaves behind: the tower's wait is over; a tower
        accepted where it stands raises no alarm there until it changes hands."""
        tower, slot = payload["tower"], payload["slot"]
        if payload["kind"] == "tower-seen":
            if self.tower_waits.get(tower) == slot:
                del self.tower_waits[tower]
        else:
            self.accepted[tower] = slot
            self.tower_waits.pop(tower, None)

    # ------------------------------------------------------------------ undo
    def _note_declared(self, seq: int, action: U.Action, fx: list[Any]) -> None:
        if not isinstance(action, U.Play):
            return  # the last Play stays on record; an action since it makes it stand
        fixed = next((why for e in fx for name, why in PHYSICAL.items() if e.name == name), None)
        self.declared = Declared(seq, action.seat, U.format_card(action.card), fixed,
                                 tuple(U.format_card(c) for c in action.laid))

    def _undo_refusal(self, seat: int) -> str | None:
        """Why `seat` cannot take its declaration back now (None: it can)."""
        d = self.declared
        if self.state is None or d is None:
            return "there is no declaration to take back"
        if d.seat != seat:
            return (f"seat {seat} has no declaration to take back: the last one is "
                    f"seat {d.seat}'s {d.card}")
        if d.fixed is not None:
            return f"seat {seat}'s {d.card} stands: {d.fixed}, which the table cannot put back"
        if d.seq != self.journal.last_seq:
            return (f"seat {seat}'s {d.card} stands: the table went on since "
                    "(the next player acted, or a button, press or card came in between)")
        waiting = self._physical_wait()
        if waiting is not None:
            return f"the table waits: {waiting['message']}"
        return None

    def _undoable(self) -> dict[str, Any] | None:
        d = self.declared
        if d is None or self._undo_refusal(d.seat) is not None:
            return None
        return {"seat": d.seat, "card": d.card}

    def _undo(self, seat: int) -> dict[str, Any]:
        """Take back `seat`'s last declaration: journal ``undo``, then rebuild the state
        from the journal without it (as a restart would)."""
        reason = self._undo_refusal(seat)
        if reason is not None:
            raise Rejected(reason)
        d = self.declared
        assert d is not None
        undone = {"seat": seat, "card": d.card, "laid": list(d.laid)}
        self.journal.append(UNDO, undone, ref=d.seq)
        # Not journaled, and unchanged by a play without physical effects: keep them.
        tower_waits, alarm = dict(self.tower_waits), self.alarm
        self._load()
        self.tower_waits, self.alarm = tower_waits, alarm
        self._publish({"kind": "undone", **undone})
        self._pump()
        return {"undone": undone, "step": self.step}

    # ------------------------------------------------------------------ hardware events
    def _on_launcher(self, _event: LauncherPressed) -> None:
        s = self.state
        try:
            s = self._gate()
            seat = s.to_act
            if seat < 0:
                raise Rejected("nobody is to press now")
            if s.phase == "challenge":
                action: U.Action = U.Accept(seat)
            elif s.edition.launcher or s.queue:
                action = U.Press(seat)
            else:
                action = U.Draw(seat)
            self._accept(action)
        except Rejected as exc:
            self._refuse("launcher", exc.reason)

    def _refuse(self, what: str, reason: str) -> None:
        self.hw.panel.buzz("click")
        self._publish({"kind": "refused", "what": what, "reason": reason})

    def _on_seat(self, event: SeatPressed) -> None:
        s = self.state
        seat = event.seat
        try:
            if s is None or seat >= s.n:
                raise Rejected(f"seat {seat} does not play in this match")
            if s.exposed >= 0 and s.exposed != seat:
                self._gate()
                self._accept(U.Catch(seat, s.exposed))
            else:
                self._uno(seat)
        except Rejected as exc:
            self._refuse(f"seat {seat} button", exc.reason)

    def _on_card(self, event: CardCounted) -> None:
        if self.running is not None:
            # progress only: the ejection's result holds the count
            with contextlib.suppress(JournalUnwritable):
                self.journal.append("card", {"intent": self.running[0], "counted": event.counted})

    def _on_done(self, event: EjectionDone) -> None:
        if self.running is None or self.running[0] != event.intent:
            return
        try:
            self._complete(event.intent, event.result, status=event.result.status)
        except JournalUnwritable:  # written when the journal can be written again
            self.unjournaled = (event.intent, event.result)

    def _complete(self, intent: int, result: EjectionResult, *, status: str) -> None:
        assert self.running is not None
        _seq, job, _want = self.running
        payload = {"counted": result.counted, "status": status, "fault": result.fault}
        then: list[tuple[str, Any]] = []
        eject = None
        if job.kind == "fire":
            eject = U.Eject(min(result.counted, self.state.pile_count))
            then.append(("action", U.action_to_dict(eject)))
        self.journal.result(intent, payload, then=then)
        self._finished(payload)
        self._publish({"kind": "ejected", "seat": job.seat, "job": job.kind,
                       "counted": result.counted, "status": status})
        if eject is not None:
            new, fx = U.apply(self.state, eject)
            self._adopt(eject, new, fx, live=True)
        if self.blocker is not None:
            self.hw.panel.buzz("error")
            self._publish({"kind": "blocked", **self.blocker.to_json()})
        self._pump()

    def _on_tray(self, event: TrayChanged) -> None:
        ev = event.event
        if isinstance(ev, TowerPlaced):
            self.tower_pos[ev.tower] = ev.slot
            if self.state is None or not self.state.edition.towers:
                return
            if self.tower_waits.get(ev.tower) == ev.slot:
                self._tower_seen(ev.tower, ev.slot, by="tray")
                return
            expected = self._expected_slot(ev.tower)
            if ev.slot != expected and ev.tower not in self.tower_waits \
                    and self.accepted.get(ev.tower) != ev.slot:
                self._raise_alarm(ev.tower, ev.slot,
                                  f"tower {ev.tower} moved to {_slot_name(ev.slot)} without a "
                                  f"capture: put it back at {_slot_name(expected)}")
            elif self.alarm is not None and self.alarm.tower == ev.tower:
                self._clear_tower_alarm(ev.tower)
        elif isinstance(ev, TowerRemoved):
            self.tower_pos[ev.tower] = None
            self._publish({"kind": "tower_lifted", "tower": ev.tower, "slot": ev.slot})
            if self.state is None or not self.state.edition.towers:
                return
            # Lifted from where it belongs while no capture moves it: someone took it.
            # (A tower being carried to its new owner is in tower_waits, or in "off"
            # mode was lifted from its old slot, which is no longer the expected one.)
            expected = self._expected_slot(ev.tower)
            if ev.slot == expected and ev.tower not in self.tower_waits:
                self._raise_alarm(ev.tower, None,
                                  f"tower {ev.tower} was lifted off {_slot_name(ev.slot)} "
                                  f"without a capture: put it back at {_slot_name(expected)}")
        else:
            self._publish({"kind": "tray", "event": type(ev).__name__,
                           "slot": getattr(ev, "slot", None)})

    def _raise_alarm(self, tower: str, slot: int | str | None, message: str) -> None:
        """A tower moved without a capture: the table stops until it is back (or an
        admin clears the alarm). Ownership stays the engine's."""
        self.alarm = Alarm(tower, slot, self._expected_slot(tower), message)
        self.hw.panel.buzz("alarm")
        self._publish({"kind": "alarm", **self.alarm.to_json()})

    def _clear_tower_alarm(self, tower: str) -> None:
        self.alarm = None
        self.hw.panel.buzz(None)
        self._publish({"kind": "alarm_cleared", "tower": tower})
        # another tower may still stand where it does not belong
        for other in TOWERS:
            if other == tower or other in self.tower_waits or other not in self.tower_pos:
                continue
            pos = self.tower_pos[other]
            if other in self.accepted and self.accepted[other] == pos:
                continue
            expected = self._expected_slot(other)
            if pos is not None and pos != expected:
                self._raise_alarm(other, pos, f"tower {other} stands at {_slot_name(pos)} "
                                              f"without a capture: put it back at "
                                              f"{_slot_name(expected)}")
                return
            if pos is None and self.tower_confirm != "off":
                self._raise_alarm(other, None, f"tower {other} is off the tray without a "
                                               f"capture: put it back at {_slot_name(expected)}")
                return
        self._pump()

    def _expected_slot(self, tower: str) -> int | str:
        assert self.state is not None
        return _slot(self.state.towers[TOWERS.index(tower)])

    def _tower_seen(self, tower: str, slot: int | str, *, by: str) -> None:
        del self.tower_waits[tower]
        if isinstance(slot, int):
            self.hw.panel.light(slot, False)
        self._publish({"kind": "tower_seen", "tower": tower, "slot": slot, "by": by})
        self._pump()

    # ------------------------------------------------------------------ the launcher
    def _pump(self) -> None:
        """Start the next ejection the table owes, unless something blocks it."""
        if self.running is not None or self.recover is not None or self.blocker is not None \
                or self.paused is not None or not self.jobs or self.state is None \
                or self.aiming is not None or self.journal_fault is not None:
            self._lights()
            self._face_player()
            return
        job = self.jobs[0]
        launcher = self.hw.launcher
        payload: dict[str, Any] = {"job": job.kind, "seat": job.seat}
        model = launcher.model.get_state()
        if job.kind == "fire":
            want = launcher.model.press(self.rng_for(f"press:{self.step}"))
            want = min(want, self.state.pile_count, launcher.config.max_cards)
            payload["model"] = launcher.model.get_state()
        else:
            want = min(job.count, launcher.config.max_cards)
        payload["want"] = want
        try:
            entry = self.journal.intent(payload)
        except JournalUnwritable:  # the motor does not start; the job waits
            launcher.model.set_state(model)
            return
        self._started(entry.seq, payload)
        self._publish({"kind": "ejecting", "seat": job.seat, "job": job.kind, "intent": entry.seq})
        self.loop.spawn(self._eject(entry.seq, want, job.seat))

    def _face_player(self) -> None:
        """Launcher editions: turn the launcher to the seat that acts next (Mattel: it
        faces the player whose turn it is), before anyone presses."""
        s = self.state
        launcher = self.hw.launcher
        if s is None or not s.edition.launcher or s.to_act < 0 or self.aiming is not None \
                or self.running is not None or self.jobs or launcher.config.servo is None \
                or s.to_act == self.aimed or s.to_act >= len(launcher.config.seat_angles):
            return
        self.aiming = s.to_act
        self.loop.spawn(self._aim(s.to_act))

    async def _aim(self, seat: int) -> None:
        await asyncio.to_thread(self.hw.launcher.aim, seat)
        self.loop.post(Aimed(seat))

    def _on_aimed(self, event: Aimed) -> None:
        self.aiming = None
        self.aimed = event.seat
        self._pump()

    async def _eject(self, intent: int, want: int, seat: int) -> None:
        result = await asyncio.to_thread(self.hw.launcher.deal, want, seat)
        self.loop.post(Aimed(seat))
        self.loop.post(EjectionDone(intent, result))

    def _lights(self) -> None:
        s = self.state
        if s is None or self.hw.panel.closed:
            return
        for seat in range(min(s.n, self.hw.panel.config.seats)):
            waiting_tower = any(v == seat for v in self.tower_waits.values())
            self.hw.panel.light(seat, "blink" if waiting_tower else seat == s.to_act)

    # ------------------------------------------------------------------ journal faults
    def _journal_fault(self, fault: JournalUnwritable | None) -> None:
        """The journal cannot be written (`fault`), or can again (None): pause, go on.
        Called inside the journal's commit: only notes and announces."""
        notifier = self.services.notifier  # systemctl status shows it
        if fault is None:
            if self.journal_fault is not None:
                self.journal_fault = None
                log.warning("the journal can be written again: the table goes on")
                notifier.status("the journal can be written again: the table goes on")
                self._publish({"kind": "journal_ok"})
            return
        first = self.journal_fault is None
        self.journal_fault = JournalFault(fault.cause, fault.reason)
        if first:
            log.error("%s", self.journal_fault.message)
            notifier.status(f"paused: {fault.reason}")
            self.hw.panel.buzz("error")
            self._publish({"kind": "journal_fault", **self.journal_fault.to_json()})
            self._retry_later()

    def _gate_journal(self) -> None:
        """Raise the 507 of a journal that still cannot be written (after trying)."""
        if self.journal_fault is not None or self.unjournaled is not None:
            self._retry_journal()
        if self.journal_fault is not None:
            raise Rejected(f"the table waits: {self.journal_fault.message}", status=507)

    def _retry_journal(self) -> None:
        """Try to write again; once it works, journal an ejection's end that could not
        be written and go on where the table stopped."""
        if self.journal_fault is not None and not self.journal.probe():
            self._retry_later()
            return
        if self.unjournaled is not None and self.running is not None:
            intent, result = self.unjournaled
            try:
                self._complete(intent, result, status=result.status)
            except JournalUnwritable:
                return  # the fault is back: its retry is scheduled
        self.unjournaled = None
        self._pump()

    def _retry_later(self) -> None:
        if not self._retry_due:
            self._retry_due = True
            self.loop.after(JOURNAL_RETRY_S, _JournalRetry())

    def _on_journal_retry(self, _event: _JournalRetry) -> None:
        self._retry_due = False
        self._retry_journal()

    # ------------------------------------------------------------------ waiting
    def _physical_wait(self) -> dict[str, Any] | None:
        if self.journal_fault is not None:
            return self.journal_fault.to_json()
        if self.recover is not None:
            return self.recover.to_json()
        if self.paused is not None:
            return {"kind": Wait.PAUSED, "reason": self.paused,
                    "message": f"paused ({self.paused}): resume to go on"}
        if self.blocker is not None:
            return self.blocker.to_json()
        if self.alarm is not None:
            return self.alarm.to_json()
        if self.aiming is not None and not self.jobs:
            return {"kind": Wait.EJECTING, "seat": self.aiming, "job": "aim",
                    "message": f"the launcher turns to seat {self.aiming}"}
        if self.running is not None or self.jobs:
            job = self.running[1] if self.running else self.jobs[0]
            return {"kind": Wait.EJECTING, "seat": job.seat, "job": job.kind,
                    "message": f"the launcher is ejecting for seat {job.seat}"}
        if self.tower_waits and self.tower_confirm == "wait":
            tower, slot = next(iter(self.tower_waits.items()))
            return {"kind": Wait.TOWER, "tower": tower, "slot": slot,
                    "seat": slot if isinstance(slot, int) else None,
                    "message": f"move tower {tower} to {_slot_name(slot)}"}
        return None

    def waiting(self) -> dict[str, Any]:
        s = self.state
        if s is None:
            return {"kind": Wait.NEW_MATCH, "message": "start a match (admin new-match)"}
        if s.over:
            return {"kind": Wait.MATCH_OVER, "winners": list(s.winners), "message": "match over"}
        return self._physical_wait() or self._engine_wait(s)

    def _engine_wait(self, s: U.State) -> dict[str, Any]:
        if s.to_act == U.CHANCE:
            if s.chance == "dealer_cards":
                missing = [i for i in range(s.n) if i not in self.dealer_cards]
                return {"kind": Wait.DEALER_CARDS, "missing": missing,
                        "message": "everyone turns a card to choose the dealer (reveal)"}
            if s.chance == "shuffle":
                start = s.phase == "shuffle"
                return {"kind": Wait.SHUFFLE, "round_start": start,
                        "message": ("gather all cards, shuffle, load the launcher" if start else
                                    "the launcher is empty: shuffle the discard pile but its "
                                    "top card into it") + ", then resume"}
            if s.chance == "reveal":
                return {"kind": Wait.REVEAL, "seat": s.dealer,
                        "message": f"seat {s.dealer}: turn the first card and say which it is"}
            return {"kind": Wait.EJECTING, "seat": s.queue[0][1] if s.queue else None,
                    "message": "the launcher is ejecting"}
        seat = s.to_act
        if s.queue:
            kind, _, count, _ = s.queue[0]
            until = kind == OWE_UNTIL
            return {"kind": Wait.PRESS, "seat": seat, "presses": 0 if until else count,
                    "until_cards": until,
                    "message": f"seat {seat}: press the launcher " +
                               ("until cards come" if until else f"{count} more time(s)")}
        what = PHASE_WAITS.get(s.phase, s.phase)  # (an unknown phase is said as it is)
        return {"kind": what, "seat": seat, "message": f"seat {seat}: {what}"}

    # ------------------------------------------------------------------ announcements
    def _publish(self, event: Mapping[str, Any]) -> None:
        event = {**event, "step": self.step}
        self.services.publish(event)
        for listener in list(self.listeners):
            listener(event)

    def _announce(self, action: U.Action, fx: list[Any]) -> None:
        self._publish({"kind": "action", "action": U.action_to_dict(action),
                       "effects": [U.effect_to_dict(e) for e in fx]})
        for e in fx:
            if e.name == "tower_moved":
                if e.seat >= 0:
                    self.hw.panel.light(e.seat, "blink")
                self._publish({"kind": "tower_capture", "tower": e.tower, "slot": _slot(e.seat),
                               "message": f"move tower {e.tower} to {_slot_name(_slot(e.seat))}"})
            elif e.name == "protection_used":
                self.hw.panel.buzz("ok")
                self._publish({"kind": "protected", "seat": e.seat, "tower": e.tower,
                               "card": U.format_card(e.card),
                               "message": f"tower {e.tower} protects seat {e.seat} from "
                                          f"{U.format_card(e.card)}"})
            elif e.name in ("uno_called", "uno_penalty"):
                self.hw.panel.buzz("uno")


class _Pump:
    """Posted once at start: begin owed ejections after the loop is running."""


class _JournalRetry:
    """Posted while the journal cannot be written: try again."""
