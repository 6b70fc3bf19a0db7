"""The table controller: events in, engine actions, effects out to the hardware.

It implements `firmware.api.Table` and lives on the daemon's one event loop. The
engine runs in **table mode**: it knows only public information. Players declare
plays (API), the launcher button and seat buttons say the rest, and the hardware is
the chance player (the exit sensor counts an `Eject`; the dispenser deals exactly
what a `Dispense` says). Everything is journaled before it takes effect, and the same
functions rebuild the state from the journal after a restart (`docs/architecture.md`,
section "Controller").

`Controller` is the coordinator: it keeps the engine state, builds the parts and
announces the events they follow (`firmware.controller.context`: a match begins, an
action is adopted, a round ends, the table settles). Each part is built on a narrow
`Context` (never on the coordinator), owns its own state, and registers its own loop
handlers, journal kinds, stops and subscriptions (Klipper's extras); the coordinator
only loops over them. A part is built only when the table needs it (`OPTIONAL`):

* `ejections.Ejections`: the launcher's jobs, aiming, counting, cut-off recovery;
* `towers.TrayView` (a table with a tray): where the tray sees each tower;
* `towers.TowerWatch` (a match whose edition has towers): the captures awaited, the alarm;
* `seats.SeatButtons`: the seat and launcher buttons, UNO arming, late calls, catches;
* `actions.Requests`: what each API request means as an engine action;
* `waiting.Waits`: what the table waits for, and the gate requests pass;
* `declared.Declarers`: who may send which request, who made each declaration, the
  keys of the requests taken;
* `admin.Admin`, `undo.Undo`, `faults.JournalWatch`: pause and overrides, taking a
  declaration back, a journal that cannot be written;
* `round_end.RoundEnds`: every round's result, and the pause after a round.
* `turn_timer.TurnTimer` (a match with ``turn_timer_s``): the timer's warning and timeout;
* `pad.Pad` (a table with ``[pad]``): a card tapped on the pad is the seat to act's play;
* the voice (`speech.voice_listener`, when `[voice]` is enabled).

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

A declaration a request made (not the table's owner on the table itself) carries
``"by": {"role", "seat"}`` (and ``"key"``, its Idempotency-Key): `declared.Declarers`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, NamedTuple

import uno_core as U
from firmware.api import requests as api
from firmware.controller.actions import Requests
from firmware.controller.admin import Admin, match_asked
from firmware.controller.context import (
    Adopted,
    By,
    Committing,
    Handler,
    MatchBegins,
    OptionalLookup,
    PeerLookup,
    Replayed,
    RoundEnded,
    Said,
    Settles,
    ShowTurn,
    StopAnswer,
)
from firmware.controller.declared import Declarers, engine_action, signed
from firmware.controller.ejections import SYSTEM_RNG, Ejections, RngFor, Running
from firmware.controller.faults import JournalWatch
from firmware.controller.hardware import Hardware
from firmware.controller.hub import Hub
from firmware.controller.mqtt_part import MqttPart
from firmware.controller.pad import Pad
from firmware.controller.round_end import RoundEnds
from firmware.controller.seats import SeatButtons, refusal_said, refused_by_rules
from firmware.controller.slots import effects_json
from firmware.controller.speech import voice_listener
from firmware.controller.stops import CutOff
from firmware.controller.towers import TowerWatch, TrayView
from firmware.controller.turn_timer import TurnTimer
from firmware.controller.undo import Undo, standing
from firmware.controller.waiting import Waits
from firmware.daemon import Services
from firmware.journal.store import Entry
from firmware.words.messages import ANSWER_LANGUAGE, Words
from uno_core import effects as E
from uno_core.turns import check_deal

# What a seat does on its own turn: refused for a seat that is not to act, that is "not
# your turn", 409 (docs/api.md); calls, catches and hands may come from any seat.
TURN_ACTIONS = (U.Play, U.Draw, U.Press, U.Pass, U.Accept, U.Verdict, U.FourTowerDiscard,
                U.ChooseColour)


def refusal_status(state: U.State, action: U.Action) -> int:
    """409 for a turn's action by a seat that is not to act; 422 for what the rules forbid."""
    if isinstance(action, TURN_ACTIONS) and action.seat != state.to_act:
        return 409
    return 422


__all__ = ["OPTIONAL", "SYSTEM_RNG", "Controller", "RngFor"]

STATS = ("actions", "launcher_presses", "cards_ejected", "tower_moves", "rounds")
# parts built for a match only when it needs them: name -> (needed for state, build)
OPTIONAL: dict[str, tuple[Callable[[U.State], bool], Callable[[Any, Controller], Any]]] = {
    "towers": (lambda s: bool(s.edition.towers),
               lambda ctx, table: TowerWatch(ctx, table.tower_confirm)),
    "turn_timer": (lambda s: bool(s.options.turn_timer_s), lambda ctx, table: TurnTimer(ctx)),
}


class Building(NamedTuple):
    """Whose registrations the coordinator takes now: a part's, while it is built."""

    owner: str
    droppable: bool


class Controller:
    """The `Table` the API serves. Build with the daemon's `Services` and a `Hardware`."""

    peer: PeerLookup  # (a part by its class: the hub's dictionary, looked up)
    optional: OptionalLookup
    tower_confirm: str
    refused = refusal_said  # a refusal as the API answers it (the API's `Table`)

    def __init__(self, services: Services, hardware: Hardware, *, rng_for: RngFor = SYSTEM_RNG,
                 tower_confirm: str | None = None,
                 first_match: Mapping[str, Any] | None = None) -> None:
        """`first_match` ({"edition", "seats", "options", "seed", "names"}, each optional)
        is the match started when the journal holds none; the config's by default."""
        self.services, self.loop, self.journal = services, services.loop, services.journal
        self.config, self.hw = services.config, hardware
        self.listeners: list[Callable[[Mapping[str, Any]], None]] = []
        # what this table can physically hold: called with (edition, seats) before a new
        # match starts, raises Rejected (the twin holds one edition's deck)
        self.new_match_checks: list[Callable[[str, int], None]] = []
        self.first_match = dict(first_match or {})
        self.tower_confirm = tower_confirm or self.config.table.tower_confirm
        hub = self.hub = Hub(self.loop)
        # the parts' Context: the coordinator itself, the hub's calls and lists handed on
        # (the events of every walk go straight to their subscribers, the hub's lists)
        # (a peer is a dict lookup: no call of the coordinator on any walk)
        self.lookup, self.announce = hub.named.get, hub.announce
        self.peer, self.optional = hub.peers.__getitem__, hub.peers.get
        self.hearing = hub.subscribers.__getitem__  # an event's subscribers, the hub's list
        self.stops = hub.stops  # the physical stops in their order
        self._committing, self._adopted, self._settles, self._shows = (
            hub.subscribers[Committing], hub.subscribers[Adopted], hub.subscribers[Settles],
            hub.subscribers[ShowTurn])
        self._words = Words(self.config.table.language)
        # what an adopted action has the buzzer sound, once the table settled (starting
        # the buzzer's thread takes longer than the rest of a press: nothing waits for it)
        self._buzz: list[str] = []
        self._building = Building("table", False)  # whose registrations these are now
        self.journal_kind("meta", self._replay_meta)
        self.journal_kind("action", self._replay_action)
        self.gate: Callable[..., U.State] = self._gate
        self.state: U.State | None = None
        self.match: Any = None
        self.names: list[str] = []
        self.step = 0
        self._counts = dict.fromkeys(("actions", "launcher_presses"), 0)
        self._build("declarers", Declarers)
        self._build("journal_watch", JournalWatch)
        # the seats before the launcher: on `ShowTurn` the lights go on before the
        # launcher turns (the seat to act sees its light at once)
        self._build("seats", lambda ctx: SeatButtons(ctx, hardware.panel))
        self._build("ejections", lambda ctx: Ejections(ctx, hardware.launcher, rng_for=rng_for))
        if hardware.tray is not None:
            self._build("tray", TrayView)
        for name, part in (("requests", Requests), ("admin", Admin), ("undo", Undo),
                           ("waits", Waits), ("round_end", RoundEnds)):
            self._build(name, part)
        if self.config.mqtt is not None:  # the table on MQTT (docs/homeassistant.md)
            self._build("mqtt", lambda ctx: MqttPart(ctx, self.public_state, self.listeners))
        if hardware.pad is not None:  # the card pad, with a [pad] section only
            self._build("pad", partial(Pad, reader=hardware.pad, tray=hardware.tray))
        self.gate = self.peer(Waits).gate
        self.loop.on_safe_state(hardware.close)
        self._load()
        voice = services.voice
        if voice.speaker is not None:  # after the replay: no history is said
            self.listeners.append(voice_listener(voice, self))
        hardware.start(self.loop.post, tower_awaited=self._tower_awaited)
        self.loop.post(_Pump())
        self.loop.on(_Pump, lambda _e: self.settle())

    def _build(self, name: str, build: Callable[[Any], Any], *, droppable: bool = False
               ) -> None:
        """Build part `name` on this table as its `Context`; what it registers meanwhile
        is its own (a droppable part's goes with it)."""
        self._building = Building(name, droppable)
        try:
            part = build(self)
        finally:
            self._building = Building("table", False)
        self.hub.add(name, part)
        if not droppable:  # a droppable part is built fresh for its match
            self.hub.subscribe(name, MatchBegins, lambda _e: part.reset())

    # the registrations of the part being built (`Context`)
    def on(self, event_type: type, handler: Handler) -> None:
        self.hub.on(self._building.owner, event_type, handler,
                    droppable=self._building.droppable)

    def subscribe(self, event_type: type, handler: Handler,
                  actions: tuple[type, ...] | None = None) -> None:
        self.hub.subscribe(self._building.owner, event_type, handler, actions)

    def journal_kind(self, kind: str, replay: Callable[[Entry], None]) -> None:
        self.hub.journal_kind(self._building.owner, kind, replay)

    def stop(self, order: str, answer: StopAnswer) -> None:
        self.hub.stop(self._building.owner, order, answer)

    def answers(self, request_type: type, handler: Handler) -> None:
        self.hub.answers(self._building.owner, request_type, handler)

    @property
    def notifier(self) -> Any:
        return self.services.notifier

    def _tower_awaited(self) -> bool:
        """Asked from the tray's watcher thread: a stale answer only delays a round."""
        towers = self.optional(TowerWatch)
        return towers is not None and towers.awaited()

    @property
    def stats(self) -> dict[str, int]:
        out = dict.fromkeys(STATS, 0)
        out.update(self._counts)
        for part in self.hub.parts():
            out.update(part.stats())
        return out

    # what the launcher is doing (read by the simulated players and the tests)
    @property
    def jobs(self) -> Any:
        return self.peer(Ejections).jobs

    @property
    def running(self) -> Running | None:
        return self.peer(Ejections).running

    @property
    def recover(self) -> CutOff | None:
        return self.peer(Ejections).recover

    # ------------------------------------------------------------------ journal replay
    def _load(self) -> None:
        match = self.journal.match
        if match is None:
            sim = self.config.sim
            self.start_match(*self.match_asked(self.first_match,
                                               sim.seed if sim.enabled else None))
            return
        self._begin(match)
        for entry in standing(self.journal.entries(match_id=match.id)):
            self.hub.replay(entry)
        self.hub.announce(Replayed())

    def reload(self) -> None:
        """Rebuild from the journal, as a restart would, keeping what only the hardware
        knows (the captures awaited, the alarm): they are not journaled."""
        kept = {type(part): part.carried() for part in self.hub.parts()}
        self._load()
        for cls, saved in kept.items():
            part = self.optional(cls)
            if saved is not None and part is not None:
                part.carry(saved)

    def _begin(self, match: Any) -> None:
        self.match = match
        self.state = U.new_match(match.edition, match.seats, match.options, mode=U.TABLE)
        self.names = [""] * match.seats  # unnamed: every message and the screen say "seat N"
        self.step = 0
        self._counts = dict.fromkeys(self._counts, 0)
        for name, (needed, build) in OPTIONAL.items():
            self.hub.drop(name)
            if needed(self.state):
                self._build(name, lambda ctx, build=build: build(ctx, self), droppable=True)
        self.hub.announce(MatchBegins(match))  # every part forgets the match before

    def _replay_meta(self, entry: Entry) -> None:
        self.names = list(entry.payload.get("names") or self.names)

    def _replay_action(self, entry: Entry) -> None:
        assert self.state is not None
        action = engine_action(entry.payload)
        new, fx = U.apply(self.state, action)
        self._adopt(action, new, fx, live=False, seq=entry.seq)

    def journaled_view(self) -> dict[str, Any]:
        """What a restart rebuilds from the journal alone (`_load`): the engine state and
        what the parts keep beside it (`Part.journaled`); tower waits, the alarm and a
        running ejection are left out (the tray and the launcher report those again).
        Taken just before a kill and just after the restart's replay, the two are equal
        when every answered request was committed first (`unotable demo`'s kill hook
        checks it)."""
        view = {"match": self.match.id if self.match is not None else None, "step": self.step,
                "engine": U.snapshot(self.state) if self.state is not None else None,
                "names": list(self.names), "stats": self.stats}
        for part in self.hub.parts():
            view.update(part.journaled())
        return view

    def match_asked(self, p: Mapping[str, Any], seed: int | None = None
                    ) -> tuple[str, int, dict[str, Any], int | None, list[str]]:
        return match_asked(self.config, p, seed)

    def check_new_match(self, edition: str, seats: int) -> None:
        """Raise Rejected where this table cannot physically hold the match."""
        for check in self.new_match_checks:
            check(edition, seats)

    def start_match(self, edition: str, seats: int, options: Mapping[str, Any],
                    seed: int | None, names: list[str], *, by: By = None) -> None:
        """`by`: who asked for it (the ``meta`` entry carries it)."""
        check_deal(U.new_match(edition, seats, options, mode=U.TABLE))  # and the deal, before writing
        match = self.journal.start_match(edition=edition, options=dict(options), seats=seats,
                                         seed=seed, config_hash=self.config.digest)
        self._begin(match)
        names = (names + self.names[len(names):])[:seats]
        self.names = names
        self.journal.append("meta", signed({"names": names}, by))
        self.publish({"kind": "new_match", "edition": edition, "seats": seats, "names": names})

    # ------------------------------------------------------------------ state changes
    def _adopt(self, action: U.Action, new: U.State, fx: list[Any], *, live: bool,
               seq: int | None, said: dict[str, Any] | None = None,
               joined: tuple[Entry, ...] = (), way: str = "") -> None:
        """The engine took `action`: every part follows (live, after the journal write,
        and in replay: the same code). `said`: the action as JSON, when already made;
        `joined`: the entries journaled in its commit; `way`: how a declaration came in."""
        self.state = new
        self.step += 1
        self._counts["actions"] += 1
        if isinstance(action, U.Press | U.Draw | U.Accept):
            self._counts["launcher_presses"] += 1
        adopted = Adopted(action, fx, new, live, seq, joined)
        for sub in tuple(self._adopted):  # (a part may be dropped meanwhile)
            if sub.actions is None or isinstance(action, sub.actions):
                sub.handler(adopted)
        for e in fx:
            if isinstance(e, E.RoundOver):
                self.hub.announce(RoundEnded(e, live, new.over))
        if live:
            self._announce(action, fx, U.action_to_dict(action) if said is None else said, way)

    def adopt(self, action: U.Action, *, live: bool = True) -> list[Any]:
        """Apply an action the journal already holds with something else: live, a press's
        `Eject` (written with the ejection's result). Its effects."""
        assert self.state is not None
        new, fx = U.apply(self.state, action)
        self._adopt(action, new, fx, live=live, seq=None)
        return fx

    def accept(self, action: U.Action, *, by: By = None) -> list[Any]:
        """Validate with the engine, journal (with `by`, who declared it), adopt,
        settle; raise Rejected (nothing changed)."""
        assert self.state is not None
        try:  # on a copy: the table's state changes only once the journal holds the action
            new, fx = U.apply(self.state.clone(), action)
        except U.IllegalAction as exc:
            raise refused_by_rules(exc, refusal_status(self.state, action)) from None
        said = U.action_to_dict(action)
        items = [("action", said if by is None else signed(said, by))]
        committing = None
        for sub in tuple(self._committing):  # what goes in the same commit (one sync)
            if sub.actions is None or isinstance(action, sub.actions):
                committing = committing or Committing(action, new, self.step + 1)
                joined = sub.handler(committing)
                if joined is not None:
                    items.append(joined)
        entries = self.journal.append_all(items)
        self._adopt(action, new, fx, live=True, seq=entries[0].seq, said=said,
                    joined=tuple(entries[1:]), way=self.peer(Declarers).way())
        self.settle()
        return fx

    def _gate(self, *, chance_ok: bool = False) -> U.State:
        """Raise Rejected while the table waits (`Waits.gate`, `gate` once it is built)."""
        return self.peer(Waits).gate(chance_ok=chance_ok)

    def settle(self) -> None:
        """After any change: the parts start the ejection the table owes and their
        timers (`Settles`); unless the launcher started, they show whose turn it is
        (`ShowTurn`: the lights, then the launcher turns to the seat); last the buzzer
        sounds what the action asked for (a UNO, a protection)."""
        event = Settles()
        started = [sub.handler(event) for sub in tuple(self._settles)]
        if not any(started):
            shown = ShowTurn()
            for sub in tuple(self._shows):
                sub.handler(shown)
        if self._buzz:
            buzz, self._buzz = self._buzz, []
            seats = self.peer(SeatButtons)
            for pattern in buzz:
                seats.buzz(pattern)

    # ------------------------------------------------------------------ Table interface
    def public_state(self) -> dict[str, Any]:
        s = self.state
        # every key in its place, each with its default; the parts fill in theirs
        out: dict[str, Any] = {"match": None, "step": self.step, "names": list(self.names),
                               "stats": self.stats, "paused": None, "alarm": None,
                               "tower_confirm": self.tower_confirm}
        if s is not None:
            out.update(U.public_state(s))
            out["match"] = {"id": self.match.id, "seed": self.match.seed}
            out.update(dict.fromkeys(("uno_armed", "undoable", "towers_seen")))
        out.update({"rounds": [], "round_end": None, "waiting": self.waiting(),
                    "turn_timer": None, "pad": None})
        for part in self.hub.parts():
            out.update(part.public(s))
        return out

    def waiting(self) -> dict[str, Any]:
        return self.peer(Waits).waiting()

    def health(self) -> dict[str, Any]:
        status = self.hw.get_status()
        launcher = status["launcher"]
        ok = launcher.get("fault") is None and launcher.get("state") != "closed"
        tray = status.get("tray")
        if tray is not None:
            ok = ok and all(r.get("ok") for r in tray["readers"].values())
        return {"ok": ok, **status, "voice": self.services.voice.get_status()}

    def submit(self, request: api.Request) -> dict[str, Any]:
        """Every request, HTTP and the bots' alike: its sender's role is checked first."""
        return self.peer(Declarers).answer(request, self.hub.answer)

    # ------------------------------------------------------------------ announcements
    @property
    def words(self) -> Words:
        """The table's messages in its `[table] language` (or, answering a request, the
        language the request asked for), naming seats as the screen does."""
        lang = ANSWER_LANGUAGE.get() or self.config.table.language
        words = self._words
        if words.lang != lang or words.names is not self.names:
            words = self._words = Words(lang, self.names)
        return words

    def publish(self, event: Mapping[str, Any]) -> None:
        """Send `event` (with the step) to the event stream and the listeners."""
        event = {**event, "step": self.step}
        for listener in (*self.services.stream, *self.listeners):  # the stream's ends first
            listener(event)

    def _announce(self, action: U.Action, fx: list[Any], said: dict[str, Any], way: str) -> None:
        way_in = {"way": way} if way else {}  # a declaration's (the table's own adopts: none)
        self.publish({"kind": "action", "action": said, "effects": effects_json(fx), **way_in})
        said_by = self.hub.subscribers[Said]  # (none on a table without towers)
        for e in fx:
            if said_by:
                self.hub.announce(Said(action, e))  # the parts say theirs (a capture)
            if isinstance(e, E.ProtectionUsed):
                self._buzz.append("ok")
                self.publish({"kind": "protected", "seat": e.seat, "tower": e.tower,
                              "card": U.format_card(e.card),
                              "message": self.words("event.protected", tower=e.tower,
                                                    seat=self.words.seat(e.seat),
                                                    card=self.words.card(e.card, self.state and self.state.edition.name))})
            elif isinstance(e, E.UnoCalled | E.UnoPenalty):
                self._buzz.append("uno")


class _Pump:
    """Posted once at start: begin owed ejections after the loop is running."""
