"""The launcher's work: the cards the table owes (jobs), the one ejection running, the
servo that aims the launcher, the cards the exit sensor counts, and what stops it (a
jam, an empty hopper, a double feed, an ejection a crash cut off).

A job starts on the loop when the table settles (`pump`: journal ``intent``, then
`spawn`); the motor runs in a worker thread (`asyncio.to_thread(launcher.deal)`), which
posts `EjectionDone`; its handler journals the ``result`` and, for a launcher press,
the `Eject` action the count makes (`complete`), and settles the table once.

Journal kinds (registered here): ``intent`` {"job", "seat", "want", "model"?},
``result`` (ref = the intent) {"counted", "status", "fault"}.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import uno_core as U
from firmware.controller.context import (
    Adopted,
    By,
    Committing,
    Context,
    Part,
    Replayed,
    Settles,
    ShowTurn,
)
from firmware.controller.declared import signed
from firmware.controller.engine_waits import first_owed
from firmware.controller.events import Aimed, CardCounted, EjectionDone
from firmware.controller.faults import JournalWatch
from firmware.controller.hub import first_holding
from firmware.controller.seats import SeatButtons
from firmware.controller.stops import ORDER, Blocker, CutOff, Ejecting, ExtraCards, Jam, Reload
from firmware.errors import JournalUnwritable, Rejected
from firmware.journal.store import INTENT, RESULT, Entry
from hal.ejection import Drawn
from hal.launcher import EjectionResult, Launcher
from uno_core import effects as E

log = logging.getLogger(__name__)

RngFor = Callable[[str], random.Random]
# A launcher press draws its card count from the ejection model with an rng made for
# that step; production uses the system's entropy, the simulated table (seed, step).
SYSTEM_RNG: RngFor = lambda step: random.SystemRandom()  # noqa: E731
LAUNCHER = ORDER.index("launcher")  # the stops before the launcher's hold its motor


@dataclass
class Job:
    """Cards the launcher owes: ``deal`` exactly `count` to `seat`; ``fire`` one press
    (the count is drawn when it starts); ``turn`` the first card, to the dealer."""

    kind: str
    seat: int
    count: int


class Running(NamedTuple):
    """The ejection under way: its journal ``intent``, the job, the cards it wants."""

    intent: int
    job: Job
    want: int


class Unjournaled(NamedTuple):
    """An ejection's end the journal could not take yet."""

    intent: int
    result: EjectionResult


def stuck_record(result: EjectionResult) -> dict[str, int]:
    """For the journal's record: the cards counted from over-long pulses of the exit beam."""
    return {"stuck": result.stuck} if result.stuck else {}


def say_stuck(t: Context, seat: int, count: int) -> None:
    """Tell the players that cards came out stuck together (counted all the same):
    last, so the screen's notice shows it."""
    t.peer(SeatButtons).buzz("error")
    t.publish({"kind": "stuck_cards", "seat": seat, "count": count,
               "message": t.words("event.stuck_cards", count=count, seat=t.words.seat(seat))})


class Ejections(Part):
    """Owns the jobs, the running ejection, the aim and the launcher's blocker; handles
    `CardCounted`, `EjectionDone` and `Aimed`; answers the stops ``cut-off``,
    ``launcher`` and ``ejecting``."""

    name = "ejections"

    def __init__(self, ctx: Context, launcher: Launcher, *, rng_for: RngFor = SYSTEM_RNG
                 ) -> None:
        self.ctx, self.rng_for, self.launcher = ctx, rng_for, launcher
        self.aiming: int | None = None  # the servo is turning to this seat
        self.ejecting: Ejecting | None = None  # the stop while it turns or ejects
        self.aimed: int | None = None
        self.unjournaled: Unjournaled | None = None  # an ejection's end
        self._drawn: Drawn | None = None  # a press's draw not yet known to be journaled
        self.reset()
        ctx.on(CardCounted, self._on_card)
        ctx.on(EjectionDone, self._on_done)
        ctx.on(Aimed, self._on_aimed)
        ctx.subscribe(Committing, self._with_press, actions=(U.Press,))
        ctx.subscribe(Adopted, lambda a: self.adopt(a.action, a.effects, a.state, a.joined))
        ctx.subscribe(Settles, self._on_settles)
        ctx.subscribe(ShowTurn, lambda _e: self.face_player())
        ctx.subscribe(Replayed, self._on_replayed)
        ctx.journal_kind(INTENT, lambda e: self.started(e.seq, e.payload, replay=True))
        ctx.journal_kind(RESULT, lambda e: self.finished(e.payload))
        ctx.stop("cut-off", (self, "recover"))
        ctx.stop("launcher", (self, "blocker"))
        ctx.stop("ejecting", (self, "ejecting"))

    def reset(self) -> None:
        self._ready: int | None = None  # an intent journaled with its press, to start
        self.jobs: deque[Job] = deque()
        self.running: Running | None = None
        self.recover: CutOff | None = None
        self.blocker: Blocker | None = None
        self.turned = False  # the first card of the round is turned up
        self.cards_ejected = 0
        self._put_back()
        self.at_work()

    def get_status(self) -> dict[str, Any]:
        running = self.running
        words = self.ctx.words
        return {"jobs": [[j.kind, j.seat, j.count] for j in self.jobs],
                "running": None if running is None else [running.intent, running.job.kind,
                                                         running.job.seat, running.want],
                "blocker": None if self.blocker is None else self.blocker.to_json(words),
                "recover": None if self.recover is None else self.recover.to_json(words),
                "turned": self.turned, "aiming": self.aiming, "aimed": self.aimed}

    def journaled(self) -> dict[str, Any]:
        status = self.get_status()
        return {key: status[key] for key in ("blocker", "turned", "jobs")}

    def stats(self) -> dict[str, int]:
        return {"cards_ejected": self.cards_ejected}

    # ------------------------------------------------------------------ what is owed
    def adopt(self, action: U.Action, fx: list[Any], state: U.State,
              joined: tuple[Entry, ...] = ()) -> None:
        """The jobs an accepted action leaves (live and in replay); a press's ejection
        whose ``intent`` was `joined` to its commit is started (live)."""
        if isinstance(action, U.Reveal):
            self.turned = False
        for e in fx:
            if isinstance(e, E.Dispense):
                self.jobs.append(Job("deal", e.seat, e.count))
            elif isinstance(e, E.CardReturned):
                self.turned = False
        s = state
        intent = joined[0] if joined and joined[0].kind == INTENT else None
        if s.to_act == U.CHANCE and s.chance == "eject" and not self._has_job("fire"):
            if intent is not None:
                seat = int(intent.payload["seat"])
            else:
                owed = first_owed(s)
                assert owed is not None  # the chance player ejects for the seat that owes
                seat = owed.seat
            self.jobs.appendleft(Job("fire", seat, 0))
        if s.to_act == U.CHANCE and s.chance == "reveal" and not self.turned \
                and not self._has_job("turn"):
            self.jobs.append(Job("turn", s.dealer, 1))
        if intent is not None:  # journaled with the press: the motor starts at the settle
            self._drawn = None
            self._ready = intent.seq
            self.started(intent.seq, intent.payload)
        else:
            self.at_work()

    def _has_job(self, kind: str) -> bool:
        return any(j.kind == kind for j in self.jobs) or (
            self.running is not None and self.running.job.kind == kind)

    def started(self, seq: int, payload: Mapping[str, Any], *, replay: bool = False) -> None:
        """An ``intent`` was journaled for the first job (live and in replay, where the
        ejection model gets back what it remembered then)."""
        self.running = Running(seq, self.jobs[0], int(payload["want"]))
        self.at_work()
        if replay and payload.get("model") is not None:
            self.launcher.model.set_state(payload["model"])

    def finished(self, payload: Mapping[str, Any]) -> None:
        """A ``result`` was journaled for the running job (live and in replay)."""
        assert self.running is not None
        job, want = self.running.job, self.running.want
        self.running = None
        self.recover = None
        counted = int(payload["counted"])
        status = payload.get("status", "ok")
        self.cards_ejected += counted
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
        if status == "recovered":  # a crash cut it short, not the hopper: ask the sensor
            short = short and self.launcher.hopper_empty is True
        extra = counted - want if job.kind != "fire" else 0
        if status == "jam" or status == "fault":
            self.blocker = Jam(payload.get("fault"))
        elif short:
            self.blocker = Reload()
        elif extra > 0:  # a double feed: the exit sensor saw more than the referee dealt
            self.blocker = ExtraCards(job.seat, extra)
        self.at_work()

    def _on_replayed(self, _event: Replayed) -> None:
        """The replay ended with an ``intent`` unanswered: a crash cut it off."""
        if self.running is not None:
            self.cut_off(self.running.intent)

    def cut_off(self, intent: int) -> None:
        """The ejection journaled as `intent` was cut off by a crash: ask the table."""
        assert self.running is not None and self.running.intent == intent
        job, want = self.running.job, self.running.want
        self.recover = CutOff(intent, job.seat, want, job.kind)
        log.warning("ejection %d to %s was cut off: asking the table", intent,
                    self.ctx.words.seat(job.seat))

    def check_idle(self) -> None:
        if self.running is not None:
            raise Rejected("refused.ejecting")

    def at_work(self) -> None:
        """Keep `ejecting`, the stop while the launcher turns or ejects, up to date (a
        field the gate reads without a call): after every change of the jobs, the
        running ejection or the aim."""
        if self.aiming is not None and not self.jobs:
            self.ejecting = Ejecting(self.aiming, "aim")
        elif self.running is not None or self.jobs:
            job = self.running.job if self.running else self.jobs[0]
            self.ejecting = Ejecting(job.seat, job.kind)
        else:
            self.ejecting = None

    # ------------------------------------------------------------------ the motor
    def _on_settles(self, _event: Settles) -> bool:
        """The table goes on: start what it owes; True when the launcher started."""
        return self.pump()

    def _with_press(self, committing: Committing) -> tuple[str, dict[str, Any]] | None:
        """A launcher press about to be journaled: where the launcher is free to start
        at once, its ejection's ``intent``, for the same commit. The launcher ejects for
        the seat that pressed (the engine's queue then begins with its press)."""
        s = committing.state
        if s.to_act != U.CHANCE or s.chance != "eject" or self.jobs or not self._free():
            return None
        return INTENT, self._fire_intent(committing.action.seat, s, committing.step)

    def _free(self) -> bool:
        """Nothing stops the launcher from starting the next job."""
        return self.running is None and self.recover is None and self.blocker is None \
            and self.aiming is None and not self.held()

    def _fire_intent(self, seat: int, s: U.State, step: int) -> dict[str, Any]:
        """A press's ``intent``: the cards the model draws for `step` (its state after,
        journaled; put back if the commit fails: `_drawn`)."""
        launcher = self.launcher
        self._put_back()  # (the commit of the last draw failed)
        drawn = self._drawn = launcher.model.draw(self.rng_for(f"press:{step}"))
        want = min(drawn.cards, s.pile_count, launcher.config.max_cards)
        return {"job": "fire", "seat": seat, "model": drawn.after, "want": want}

    def _put_back(self) -> None:
        """A draw whose commit failed did not happen, for the model."""
        if self._drawn is not None:
            self.launcher.model.set_state(self._drawn.before)
            self._drawn = None

    def pump(self) -> bool:
        """Start the next ejection the table owes, unless something blocks it. False
        when nothing could start (the table then shows whose turn it is)."""
        t = self.ctx
        if self._ready is not None:  # journaled with its press
            seq, self._ready = self._ready, None
            assert self.running is not None and self.running.intent == seq
            self._launch(seq)
            return True
        s = t.state
        if not self.jobs or s is None or not self._free():
            return False
        job = self.jobs[0]
        if job.kind == "fire":
            payload = self._fire_intent(job.seat, s, t.step)
        else:
            payload = {"job": job.kind, "seat": job.seat,
                       "want": min(job.count, self.launcher.config.max_cards)}
        try:
            entry = t.journal.intent(payload)
        except JournalUnwritable:  # the motor does not start; the job waits
            self._put_back()  # nor did the press happen, for the model
            return True
        self._drawn = None
        self.started(entry.seq, payload)
        self._launch(entry.seq)
        return True

    def _launch(self, intent: int) -> None:
        """The running ejection's intent is journaled: say so and start the motor."""
        assert self.running is not None
        job, want = self.running.job, self.running.want
        self.ctx.publish({"kind": "ejecting", "seat": job.seat, "job": job.kind,
                          "intent": intent})
        self.ctx.loop.spawn(self._eject(intent, want, job.seat))

    def held(self) -> bool:
        """The journal cannot be written, a cut-off ejection waits to be counted, or the
        admin paused: a stop before the launcher's holds, and no motor starts."""
        return first_holding(self.ctx.stops, LAUNCHER) is not None

    def face_player(self) -> None:
        """Launcher editions: turn the launcher to the seat that acts next (Mattel: it
        faces the player whose turn it is), before anyone presses."""
        s = self.ctx.state
        config = self.launcher.config
        if s is None or not s.edition.launcher or s.to_act < 0 or self.aiming is not None \
                or self.running is not None or self.jobs or config.servo is None \
                or s.to_act == self.aimed or s.to_act >= len(config.seat_angles):
            return
        self.aiming = s.to_act
        self.at_work()
        self.ctx.loop.spawn(self._aim(s.to_act))

    async def _aim(self, seat: int) -> None:
        await asyncio.to_thread(self.launcher.aim, seat)
        self.ctx.loop.post(Aimed(seat))

    def _on_aimed(self, event: Aimed) -> None:
        self.aiming = None
        self.aimed = event.seat
        self.at_work()
        self.ctx.settle()

    async def _eject(self, intent: int, want: int, seat: int) -> None:
        result = await asyncio.to_thread(self.launcher.deal, want, seat)
        self.ctx.loop.post(EjectionDone(intent, result, seat))

    def _on_card(self, event: CardCounted) -> None:
        if self.running is not None:
            # progress only: the ejection's result holds the count
            with contextlib.suppress(JournalUnwritable):
                self.ctx.journal.append("card", {"intent": self.running.intent,
                                                 "counted": event.counted})

    def _on_done(self, event: EjectionDone) -> None:
        """The motor stopped, the launcher aimed at the seat: one settle for both."""
        self.aimed = event.seat
        if self.running is None or self.running.intent != event.intent:
            self.ctx.settle()
            return
        try:
            self.complete(event.intent, event.result, status=event.result.status)
        except JournalUnwritable:  # written when the journal can be written again
            self.unjournaled = Unjournaled(event.intent, event.result)
            self.ctx.peer(JournalWatch).owe(self.write_unjournaled)
            self.ctx.settle()

    def complete(self, intent: int, result: EjectionResult, *, status: str,
                 by: By = None) -> None:
        """Journal the running ejection's end (with a press's `Eject`, declared `by`
        whoever counted the cards) and go on."""
        assert self.running is not None
        t = self.ctx
        job = self.running.job
        payload = {"counted": result.counted, "status": status, "fault": result.fault,
                   **stuck_record(result)}
        then: list[tuple[str, Any]] = []
        eject = None
        if job.kind == "fire":
            assert t.state is not None
            eject = U.Eject(min(result.counted, t.state.pile_count))
            then.append(("action", signed(U.action_to_dict(eject), by)))
        t.journal.result(intent, payload, then=then)
        self.finished(payload)
        t.publish({"kind": "ejected", "seat": job.seat, "job": job.kind,
                   "counted": result.counted, "status": status})
        if eject is not None:
            t.adopt(eject)
        if self.blocker is not None:
            t.peer(SeatButtons).buzz("error")
            t.publish(self.blocker.to_json(t.words))  # its kind: jam, reload or extra-cards
        t.settle()
        if result.stuck:
            say_stuck(t, job.seat, result.stuck)

    def write_unjournaled(self) -> None:
        """The journal can be written again: journal the end it could not write.
        Raises `JournalUnwritable` when it still cannot."""
        if self.unjournaled is not None and self.running is not None:
            intent, result = self.unjournaled
            self.complete(intent, result, status=result.status)
        self.unjournaled = None

    # ------------------------------------------------------------------ admin
    def recovered(self, count: int, *, by: By = None) -> None:
        """Override cards-out: people (`by`) counted `count` cards of the cut-off
        ejection."""
        cut = self.recover
        assert cut is not None
        self.complete(cut.intent, EjectionResult(cut.want, count, "ok", cut.seat),
                      status="recovered", by=by)

    # ------------------------------------------------------------------ what peers ask
    def first_turned(self) -> bool:
        """The round's first card is turned up (the table's screen declares it)."""
        return self.turned

    def is_blocked(self) -> bool:
        """A jam, an empty hopper or a double feed stops the launcher."""
        return self.blocker is not None

    def cut_off_pending(self) -> bool:
        """An ejection a crash cut off waits for its cards to be counted."""
        return self.recover is not None

    def reset_fault(self) -> None:
        """People cleared the launcher (a jam): it may run again."""
        self.launcher.reset_fault()

    def clear_blocker(self) -> None:
        """Resumed after a jam, a reload or a double feed (live and in replay)."""
        self.blocker = None
