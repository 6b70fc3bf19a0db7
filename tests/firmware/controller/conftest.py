"""One part of the controller on its own: a fake loop, hardware on gpiozero MockFactory
pins (the twin's devices: `firmware.sim.world.World`), a journal on disk, and a fake
context (`firmware.controller.context.Context`, the registries a real `Hub`) that
records what the part asks of it (the actions it hands the engine, the events it
publishes, the times it lets the table go on)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import uno_core as U
from firmware.controller.actions import Requests
from firmware.controller.admin import Admin
from firmware.controller.declared import signed
from firmware.controller.ejections import Ejections
from firmware.controller.faults import JournalWatch
from firmware.controller.hub import Hub
from firmware.controller.round_end import RoundEnds
from firmware.controller.seats import SeatButtons
from firmware.controller.towers import TowerWatch, TrayView
from firmware.controller.turn_timer import TurnTimer
from firmware.controller.undo import Undo
from firmware.controller.waiting import Waits
from firmware.errors import Rejected
from firmware.journal.store import Journal
from firmware.sim.demo import sim_config
from firmware.sim.world import World
from firmware.words.messages import Words

# the real parts a test may build on its fake table, by the coordinator's attribute names
PARTS: dict[str, Callable[[Any], Any]] = {
    "journal_watch": JournalWatch,
    "ejections": lambda table: Ejections(table, table.hw.launcher,
                                         rng_for=random.Random),  # (seeded by step)
    "tray": TrayView,
    "towers": lambda table: TowerWatch(table, table.config.table.tower_confirm),
    "seats": lambda table: SeatButtons(table, table.hw.panel),
    "requests": Requests,
    "admin": Admin,
    "undo": Undo,
    "waits": Waits,
    "round_end": RoundEnds,
    "turn_timer": TurnTimer,
}


class FakeLoop:
    """`TableLoop`'s registry and inbox without asyncio: `deliver` hands the posted
    events to their handlers in order, `run_spawned` runs the spawned work (the motor
    and the servo turn in worker threads, as on the loop)."""

    def __init__(self) -> None:
        self.handlers: dict[type, Callable[[Any], Any]] = {}
        self.posted: list[object] = []
        self.spawned: list[Any] = []
        self.timers: list[tuple[float, object]] = []
        self.cancelled: list[object] = []  # the events of timers cancelled
        self.clock = 0.0  # the loop clock's now(): a test moves it by hand

    def on(self, event_type: type, handler: Callable[[Any], Any]) -> None:
        assert event_type not in self.handlers, f"two parts handle {event_type.__name__}"
        self.handlers[event_type] = handler

    def post(self, event: object) -> bool:
        self.posted.append(event)
        return True

    def spawn(self, coro: Any) -> None:
        self.spawned.append(coro)

    def now(self) -> float:
        return self.clock

    def after(self, delay: float, event: object) -> SimpleNamespace:
        self.timers.append((delay, event))
        return SimpleNamespace(cancel=lambda: self.cancelled.append(event))

    def deliver(self) -> None:
        while self.posted:
            event = self.posted.pop(0)
            self.handlers[type(event)](event)

    def run_spawned(self) -> None:
        while self.spawned:
            asyncio.run(self.spawned.pop(0))
        self.deliver()


class FakeTable:
    """The context a part is built on. `accept` journals and records the action (the
    engine state is the test's to set); `gate` refuses while `waits_for` is set."""

    def __init__(self, tmp_path: Path, state: U.State, *, edition: str, seats: int,
                 factory: Any, tower_confirm: str = "wait") -> None:
        self.config = sim_config(edition, seats, 7, tmp_path / "journal.db",
                                 tower_confirm=tower_confirm)
        self.world = World(edition, seats, 7, launcher=self.config.hardware["launcher"],
                           panel=self.config.hardware["seats"], fast=True, factory=factory)
        self.hw = self.world.hardware()
        self.loop = FakeLoop()
        self.journal = Journal.open(tmp_path / "journal.db")
        self.journal.start_match(edition=edition, options={}, seats=seats, seed=7,
                                 config_hash="test")
        self.notifier = SimpleNamespace(status=lambda text: None)
        self.hub = Hub(self.loop)
        self.built: list[str] = []
        self.replays: dict[str, Callable[[Any], None]] = {}  # journal kind -> its replay
        self.answerers: dict[type, Callable[[Any], Any]] = {}
        self.state: U.State | None = state
        self.match = self.journal.match
        self.step = 0
        self.names = list(self.config.table.names)
        self.events: list[Mapping[str, Any]] = []
        self.accepted: list[U.Action] = []
        self.adopted: list[U.Action] = []
        self.settled = 0
        self.reloads = 0
        self.waits_for: str | None = None

    @property
    def stats(self) -> dict[str, int]:
        """The table's counts as the coordinator gathers them from its parts."""
        out = {"actions": 0, "launcher_presses": 0, "cards_ejected": 0, "tower_moves": 0,
               "rounds": 0}
        for part in self.parts():
            out.update(part.stats())
        return out

    # the registries: a real Hub, every registration the fake's own
    def optional(self, cls: type) -> Any:
        """The part of class `cls` a test built (the last one built), or None."""
        found = [getattr(self, name) for name in self.built
                 if type(getattr(self, name)) is cls]
        return found[-1] if found else None

    def peer(self, cls: type) -> Any:
        found = self.optional(cls)
        if found is None:
            raise KeyError(cls)
        return found

    def parts(self) -> Any:
        return iter([getattr(self, name) for name in self.built])

    def on(self, event_type: type, handler: Callable[[Any], Any]) -> None:
        self.loop.on(event_type, handler)

    def subscribe(self, event_type: type, handler: Callable[[Any], Any],
                  actions: tuple[type, ...] | None = None) -> None:
        self.hub.subscribe("test", event_type, handler, actions)

    def announce(self, event: Any) -> list[Any]:
        return self.hub.announce(event)

    def hearing(self, event_type: type) -> Any:
        return self.hub.subscribers[event_type]

    def journal_kind(self, kind: str, replay: Callable[[Any], None]) -> None:
        self.replays[kind] = replay  # a part a test builds again takes its kinds over

    def stop(self, order: str, answer: Callable[[], Any]) -> None:
        self.hub.stop("test", order, answer)

    @property
    def stops(self) -> Any:
        return self.hub.stops

    def answers(self, request_type: type, handler: Callable[[Any], Any]) -> None:
        self.answerers[request_type] = handler  # (tests call the parts' submit directly)

    def check_new_match(self, edition: str, seats: int) -> None:
        pass

    @property
    def words(self) -> Words:
        return Words(self.config.table.language, self.names)

    def publish(self, event: Mapping[str, Any]) -> None:
        self.events.append({**event, "step": self.step})

    def kinds(self) -> list[str]:
        return [e["kind"] for e in self.events]

    def accept(self, action: U.Action, *, by: Any = None) -> list[Any]:
        self.journal.append("action", signed(U.action_to_dict(action), by))
        self.accepted.append(action)
        return []

    def adopt(self, action: U.Action) -> None:
        self.adopted.append(action)

    def waiting(self) -> dict[str, Any]:
        return self.waits.waiting()  # (a test that asks builds the `waits` part)

    def gate(self, *, chance_ok: bool = False) -> U.State:
        if self.waits_for is not None:
            raise Rejected("refused.waits", message=self.waits_for)
        assert self.state is not None
        return self.state

    def reload(self) -> None:
        self.reloads += 1

    def settle(self) -> None:
        self.settled += 1

    def close(self) -> None:
        for coro in self.loop.spawned:  # work a test left unstarted
            coro.close()
        self.hw.close()
        self.world.close()  # the simulated readers' ptys: 20 descriptors a table otherwise
        self.journal.close()


@pytest.fixture
def make_table(tmp_path, mock_factory):
    tables: list[FakeTable] = []

    def make(state: U.State, *parts: str, edition: str = "classic", seats: int = 4,
             tower_confirm: str = "wait") -> FakeTable:
        """A fake table with the named real `PARTS` built on it, in that order."""
        table = FakeTable(tmp_path, state, edition=edition, seats=seats, factory=mock_factory,
                          tower_confirm=tower_confirm)
        tables.append(table)
        if "towers" in parts and "tray" not in parts:  # the watch hears the tray through it
            parts = ("tray", *parts)
        if "seats" not in parts:  # the lights and the buzzer are its: the others ask it
            parts = ("seats", *parts)
        for name in parts:
            setattr(table, name, PARTS[name](table))
            table.built.append(name)
        return table

    yield make
    for table in tables:
        table.close()
