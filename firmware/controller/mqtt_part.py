"""The table on MQTT (docs/homeassistant.md): built only when the config has `[mqtt]`.

Its link (`firmware.mqtt.link.TableLink`) runs on the daemon's loop beside the table and
never holds it up: the part only hands it the state document after each published
event (one per turn of the loop, however many events the turn published), the Home
Assistant events, and the results. A round's result (and the match's, at its end) is
journaled as ``mqtt_result`` in the commit of the action that ended the round
(`Committing`), handed to the link once adopted, and ``mqtt_acked`` is journaled when
the broker acknowledged it; at start every result without its acknowledgement, over
the journal's whole life, is handed to the link again (`firmware.mqtt.outbox`).

A match's id in the results is ``<journal's match number>-<its start, whole seconds
of the wall clock>``: the number alone starts again at 1 in a new journal of the same
table, and the collector keeps an id once (docs/formats.md).

Home Assistant's buttons (``[mqtt] commands = true``) act as the owner, the way in
journaled as ``"via": "mqtt"`` (`MQTT_OWNER`): pause, resume and a new match, never
a seat's play.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from firmware.api import requests as api
from firmware.controller.admin import Admin
from firmware.controller.context import Adopted, Committing, Context, Part
from firmware.controller.events import TrayChanged
from firmware.errors import JournalError, Rejected
from firmware.journal.mark import table_identity
from firmware.mqtt.discovery import default_name
from firmware.mqtt.from_table import events_from, player_names, results_of, state_from_public
from firmware.mqtt.link import OFFLINE_WITHIN_S, Throttle
from firmware.mqtt.outbox import ACKED_KIND, RESULT_KIND, acked_entry, pending, result_entry
from firmware.mqtt.results import Result, parse
from firmware.mqtt.table import build_link
from hal.tray import ReaderDown, ReaderUp

log = logging.getLogger(__name__)
MQTT_OWNER = api.Who("owner", via="mqtt")  # a Home Assistant button: the owner, by MQTT
ADMIN_ACTIONS = {"pause": "pause", "resume": "resume", "new_match": "new-match"}


class LinkStart:
    """Posted when the part is built: the link starts once the loop runs."""


class StateDue:
    """Posted after an event: the state document is rebuilt once the loop's turn is over."""


@dataclass(frozen=True)
class ResultAcked:
    id: str


@dataclass(frozen=True)
class Command:
    name: str  # firmware.mqtt.discovery.COMMANDS


def package_version() -> str:
    try:
        return version("unotable")
    except PackageNotFoundError:
        return "unknown"


def match_id(match: Any) -> str:
    """The match's id in the results: unique over the table's life."""
    return f"{match.id}-{int(match.started_at)}"


class MqttPart(Part):
    """Owns the link; `public_state()` is the table's ``GET /api/state``; `listeners`:
    the table's listeners of its published events, which the part joins."""

    name = "mqtt"

    def __init__(self, ctx: Context, public_state: Callable[[], dict[str, Any]],
                 listeners: list[Callable[[Mapping[str, Any]], None]], **link_options: Any
                 ) -> None:
        self.ctx = ctx
        self.public_state = public_state
        config = ctx.config
        self.settings = config.mqtt
        self.table_id = table_identity(ctx.journal.path)
        self.table_name = self.settings.name or default_name(self.table_id)
        names = list(config.table.names)[:config.table.seats]
        names += [f"seat {i + 1}" for i in range(len(names), config.table.seats)]
        self.link = build_link(
            self.settings, self.table_id, edition=config.table.edition,
            seat_names=player_names(names), version=package_version(),
            on_result_acked=self._on_acked,
            on_command=lambda name: ctx.loop.post(Command(name)), **link_options)
        self.throttle = Throttle()
        self._task: asyncio.Task[None] | None = None
        self._due = False
        self._acking: dict[str, None] = {}  # acknowledged, not journaled yet (in order)
        self._last_state: dict[str, Any] | None = None
        self._made: tuple[int, list[Result]] = (-1, [])
        self.acked = 0
        self._readers_down: dict[Any, None] = {}  # the tray's slots whose reader is down
        for result in pending((e.kind, e.payload) for e in ctx.journal.entries_of(
                (RESULT_KIND, ACKED_KIND))):
            self.link.send_result(result)
        ctx.on(LinkStart, lambda _e: self._start())
        ctx.on(StateDue, lambda _e: self._publish_state())
        ctx.on(ResultAcked, self._acked)
        ctx.on(Command, self._command)
        ctx.on(TrayChanged, self._tray)  # the tray's readers (the tower tray's own part: towers)
        ctx.subscribe(Committing, lambda c: self._entry(c, 0))  # the round's result
        ctx.subscribe(Committing, lambda c: self._entry(c, 1))  # the match's, at its end
        ctx.subscribe(Adopted, self._adopted)
        listeners.append(self.heard)
        ctx.loop.post(LinkStart())

    def get_status(self) -> dict[str, Any]:
        return {"connected": self.link.connected, "unacknowledged": len(self.link.unacknowledged),
                "acknowledged": self.acked, "dropped": self.link.dropped,
                "last_error": self.link.last_error}

    # -- the link's life on the loop ----------------------------------------------
    def _start(self) -> None:
        self._publish_state()
        self._task = self.ctx.loop.spawn(self._run())
        self.ctx.loop.on_shutdown(self._stop)

    async def _run(self) -> None:
        try:
            await self.link.run()
        except Exception:  # the table plays on without its link
            log.exception("mqtt: the link to the broker ended")

    async def _stop(self) -> None:
        """Before the journal closes: the results on their way get a moment to be
        acknowledged (those that do not are sent again at the next start), then the
        link says ``offline`` (the last will is for a crash)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(OFFLINE_WITHIN_S):
                while self.link.connected and self.link.unacknowledged:
                    await asyncio.sleep(0.05)
        self.link.stop()
        if self._task is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._task), OFFLINE_WITHIN_S + 1)
        for result_id in list(self._acking):  # the loop stopped before it journaled them
            self._acked(ResultAcked(result_id))

    def _on_acked(self, result_id: str) -> None:
        """The link's callback: journaled on the loop, or at the stop if the loop stopped
        first."""
        self._acking[result_id] = None
        self.ctx.loop.post(ResultAcked(result_id))

    # -- state and events -----------------------------------------------------------
    def heard(self, event: Mapping[str, Any]) -> None:
        """A listener of the table's published events."""
        try:
            for document in events_from(event, player_names(self.ctx.names)):
                self.link.publish_event(document)
        except (KeyError, TypeError, ValueError) as exc:  # never the table's end
            self._unsaid("event", exc)
        self._state_due()

    def _state_due(self) -> None:
        if not self._due:
            self._due = True
            self.ctx.loop.post(StateDue())

    def _tray(self, event: TrayChanged) -> None:
        change = event.event
        if isinstance(change, ReaderDown):
            self._readers_down[change.slot] = None
        elif isinstance(change, ReaderUp):
            self._readers_down.pop(change.slot, None)
        else:
            return
        self._state_due()

    def _publish_state(self) -> None:
        self._due = False
        try:
            names = player_names(self.ctx.names)
            document = state_from_public(self.public_state(), names, [
                names[s] if isinstance(s, int) and 0 <= s < len(names) else "neutral slot"
                for s in self._readers_down])
        except (KeyError, TypeError, ValueError) as exc:
            self._unsaid("state", exc)
            return
        if document != self._last_state:
            self._last_state = document
            self.link.publish_state(document)

    def _unsaid(self, what: str, exc: Exception) -> None:
        """What MQTT could not say is logged (once a second), and the table plays on."""
        if self.throttle(f"unsaid {what}"):
            log.error("mqtt: the table's %s could not be put in MQTT's words: %r", what, exc)

    # -- results, exactly once ------------------------------------------------------
    def _results(self, c: Committing) -> list[Result]:
        """The results the action being committed makes (none unless it ends a round)."""
        if self._made[0] == c.step:
            return self._made[1]
        before, after = self.ctx.state, c.state
        made: list[Result] = []
        over = after.phase == "match_over" and before is not None \
            and before.phase != "match_over"
        if before is not None and before.round_no >= 1 and (
                after.round_no > before.round_no or over):
            # who went out: kept while the hands are entered, or the one playing now
            winner = before.out if before.out >= 0 else getattr(c.action, "seat", 0)
            try:
                made = results_of(
                    table=self.table_id, table_name=self.table_name,
                    match=match_id(self.ctx.match), edition=after.edition.name,
                    names=player_names(self.ctx.names), before=before.scores,
                    after=after.scores, round_no=before.round_no, winner=winner,
                    match_winners=list(after.winners) if over else None,
                    at=self.ctx.loop.clock.wall())
            except ValueError as exc:  # BadResult: never a reason to refuse the action
                self._unsaid("result", exc)
        self._made = (c.step, made)
        return made

    def _entry(self, c: Committing, which: int) -> tuple[str, dict[str, Any]] | None:
        made = self._results(c)
        return result_entry(made[which]) if which < len(made) else None

    def _adopted(self, a: Adopted) -> None:
        for entry in a.joined:
            if entry.kind == RESULT_KIND:
                self.link.send_result(parse(json.dumps(entry.payload).encode()))

    def _acked(self, event: ResultAcked) -> None:
        if event.id not in self._acking:
            return
        try:
            self.ctx.journal.append(*acked_entry(event.id))
            del self._acking[event.id]
            self.acked += 1
        except JournalError as exc:  # sent once more after a restart; the collector keeps one
            log.warning("mqtt: the acknowledgement of %s is not journaled: %s", event.id, exc)

    # -- Home Assistant's buttons ---------------------------------------------------
    def _command(self, event: Command) -> None:
        request = api.Admin(ADMIN_ACTIONS[event.name], by=MQTT_OWNER)
        try:
            self.ctx.peer(Admin).submit(request)
        except Rejected as exc:
            if self.throttle(event.name):
                log.info("mqtt: %s from Home Assistant refused: %s", event.name, exc.reason)
