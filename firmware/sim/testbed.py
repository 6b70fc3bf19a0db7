"""A simulated table under a running daemon, driven step by step from ordinary code.

`SimTable` starts the real `Daemon` (journal, loop, controller, API on an ephemeral
port) on a `World` in a background thread; the caller acts like people at the table:
presses buttons on `world.seats_sim`, moves towers with `world.move_tower`, declares
through `submit` (the path of every API request) or over HTTP at `url`, and lets the
seated bots take single decisions (`bot_step`, `play_until`; they declare over HTTP). Used by the tests of the
controller's rules, and by anything that wants a table to poke at::

    with SimTable(tmp_path, "attack") as table:
        table.play_until(lambda st: st["waiting"]["kind"] == "press")
        table.world.seats_sim.press_launcher()
        table.settle()

`stop()` stops the daemon like SIGTERM would; `SimTable(..., journal=same)` then
restarts it on the same journal and world file.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware.api import requests as api
from firmware.controller.table import Controller
from firmware.daemon import Daemon, Services
from firmware.sim.demo import sim_config
from firmware.sim.players import TablePlayers
from firmware.sim.world import World, rng
from firmware.voice import Speaker
from hal.pad import PadConfig

Predicate = Callable[[Mapping[str, Any]], bool]


class SimTable:
    def __init__(self, directory: str | Path, variant: str = "classic", players: int = 4,
                 seed: int = 1, *, tower_confirm: str = "wait",
                 wrap_hardware: Callable[[Any], Any] | None = None,
                 factory: Any = None, forget_uno: float = 0.05,
                 options: Mapping[str, Any] | None = None, language: str = "en",
                 speaker: Speaker | None = None, world_path: str | Path | None = None,
                 mqtt: Any = None, pad: bool | PadConfig = False) -> None:
        """`language`: the `[table] language`; `speaker`: turns `[voice] enabled` on and
        speaks through it (a recorder, or an `Espeak` that cannot work here). The daemon's
        loop runs on the world's virtual clock (`pass_time`). `world_path`: the world's
        file elsewhere than beside the journal (a journal on a full disk, the world not).
        `pad`: the table has a card pad (`world.pad_sim` lays the cards on it); a
        `PadConfig` whose port names a real reader: that pad, read by the real driver."""
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.journal_path = self.directory / "journal.db"
        self.variant = variant
        self.seed = seed
        self.config = sim_config(variant, players, seed, self.journal_path,
                                 tower_confirm=tower_confirm, pad=bool(pad))
        if isinstance(pad, PadConfig):
            self.config = replace(self.config, hardware={**self.config.hardware, "pad": pad})
        self.config = replace(self.config,
                              table=replace(self.config.table, language=language),
                              voice=replace(self.config.voice, enabled=speaker is not None),
                              mqtt=mqtt)  # `[mqtt]` settings: the table on a broker
        self.world = World(variant, players, seed, launcher=self.config.hardware["launcher"],
                           panel=self.config.hardware["seats"], fast=True,
                           path=world_path or self.journal_path.with_name(
                               "journal.db.world.json"),
                           factory=factory, pad=self.config.hardware.get("pad"))
        self.events: list[Mapping[str, Any]] = []
        self.controller: Controller | None = None
        self.bots: TablePlayers | None = None
        self._wrap = wrap_hardware
        self.forget_uno = forget_uno
        self.options = dict(options or {})  # the first match's house rules
        # one clock for the twin's physics and the daemon's timers (the pause after a
        # round): virtual, so a test moves time with `world.clock.advance` and never sleeps
        self.daemon = Daemon(self.config, self._make_table, env={}, speaker=speaker,
                             clock=self.world.clock)
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sim-table", daemon=True)
        self.status: int | None = None
        self._thread.start()
        if not self._ready.wait(20):
            raise RuntimeError("the simulated table did not start")
        self.settle()

    def _make_table(self, services: Services) -> Controller:
        hardware = self.world.hardware()
        if self._wrap is not None:
            hardware = self._wrap(hardware)
        ctl = Controller(services, hardware, rng_for=lambda step: rng(self.seed, step),
                         first_match={"edition": self.variant, "seats": self.world.n,
                                      "options": self.options, "seed": self.seed,
                                      "names": list(self.config.table.names)})
        self.controller = ctl
        self.bots = TablePlayers(self.world, ctl, services.loop, seed=self.seed, rounds=10**6,
                                 forget_uno=self.forget_uno, api_url=self._api_url)
        self.bots.check_answered()  # as the demo does, before anything but the replay ran
        ctl.listeners.append(self.bots.on_event)
        ctl.listeners.append(self.events.append)
        services.loop.spawn(self._started())
        return ctl

    async def _started(self) -> None:
        await asyncio.sleep(0)
        assert self.bots is not None
        self.bots.after_restart()  # as the demo does: the world catches up with the journal
        self._ready.set()

    def _run(self) -> None:
        self.status = self.daemon.run(signals=False)
        self._ready.set()

    # ------------------------------------------------------------------ on the loop
    def on_loop(self, coro_fn: Callable[[], Any], timeout: float = 20) -> Any:
        """Run `coro_fn()` (a coroutine function) on the daemon's loop; its result."""
        aio = self.daemon.loop._aio
        assert aio is not None
        future: Future[Any] = asyncio.run_coroutine_threadsafe(coro_fn(), aio)
        return future.result(timeout)

    def call(self, fn: Callable[[], Any]) -> Any:
        async def run() -> Any:
            return fn()
        return self.on_loop(run)

    def submit(self, request: api.Request) -> dict[str, Any]:
        """As the API does: queued behind earlier events; raises Rejected."""
        async def run() -> Any:
            return await self.daemon.loop.call(request)
        return self.on_loop(run)  # type: ignore[no-any-return]

    def state(self) -> dict[str, Any]:
        assert self.controller is not None
        ctl = self.controller
        return self.call(ctl.public_state)  # type: ignore[no-any-return]

    def _api_url(self) -> str | None:
        server = self.daemon.server
        return server.url if server is not None and server.port else None

    @property
    def url(self) -> str:
        assert self.daemon.server is not None
        return self.daemon.server.url

    @property
    def journal_seq(self) -> int:
        assert self.controller is not None
        return int(self.call(lambda: self.controller.journal.last_seq))  # type: ignore[union-attr]

    def settle(self, timeout: float = 20) -> dict[str, Any]:
        """Wait until every posted event was handled and the launcher is idle."""
        deadline = time.monotonic() + timeout
        while True:
            async def sync() -> None:
                await asyncio.sleep(0)
                await asyncio.sleep(0)
            self.on_loop(sync)
            st = self.state()
            if st["waiting"]["kind"] != "ejecting":
                return st
            if time.monotonic() > deadline:
                raise TimeoutError(f"the table is still ejecting: {st['waiting']}")
            time.sleep(0.002)

    def pass_time(self, seconds: float) -> dict[str, Any]:
        """Let `seconds` pass on the table's clock (its timers fire: the pause after a
        round, the journal's retry), then settle."""
        self.world.clock.advance(seconds)  # type: ignore[attr-defined]  # the twin's VirtualClock
        return self.settle()

    def wait_for(self, predicate: Predicate, timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            st = self.settle()
            if predicate(st):
                return st
            if time.monotonic() > deadline:
                raise TimeoutError(f"condition not reached; the table waits for {st['waiting']}")
            time.sleep(0.005)

    def wait_for_event(self, predicate: Predicate, *, since: int = 0) -> Mapping[str, Any]:
        """Wait until the table publishes an event `predicate` accepts (one already in
        `events` from index `since` counts) and return it. No deadline of its own: the
        tray and the journal take what they take on a busy host, and the test runner's
        timeout ends a wait for an event that never comes."""
        assert self.controller is not None
        listeners = self.controller.listeners
        found: list[Mapping[str, Any]] = []
        got = threading.Event()

        def listen(event: Mapping[str, Any]) -> None:
            if not got.is_set() and predicate(event):
                found.append(event)
                got.set()

        listeners.append(listen)
        try:
            for event in list(self.events[since:]):
                if predicate(event):
                    return event
            got.wait()
            return found[0]
        finally:
            listeners.remove(listen)

    # ------------------------------------------------------------------ bots
    def bot_step(self, *, settle: bool = True) -> dict[str, Any] | None:
        """The seated bots take one decision (or do one chore: shuffle, move a tower);
        then wait for the launcher unless `settle` is false."""
        bots = self.bots
        assert bots is not None

        async def step() -> None:
            await bots._settle()
            await bots._act(bots.ctl.public_state())
        self.on_loop(step)
        return self.settle() if settle else None

    def bot_act(self) -> dict[str, Any]:
        """The seat to act takes its decision, without anyone calling or catching first."""
        bots = self.bots
        assert bots is not None

        async def act() -> None:
            await bots._settle()
            st = bots.ctl.public_state()
            if st["waiting"]["kind"] == "press":
                await bots._press()
            else:
                await bots._decide(st["waiting"]["seat"], st["step"])
        self.on_loop(act)
        return self.settle()

    def play_until(self, predicate: Predicate, max_steps: int = 3000) -> dict[str, Any]:
        st = self.settle()
        for _ in range(max_steps):
            if predicate(st):
                return st
            st = self.bot_step()
            assert st is not None
        raise TimeoutError(f"not reached in {max_steps} decisions; waiting for {st['waiting']}")

    # ------------------------------------------------------------------ life
    def stop(self) -> int | None:
        if self.bots is not None and self._thread.is_alive() and self.daemon.loop._aio is not None:
            with contextlib.suppress(Exception):  # a loop already closing has no session left
                self.on_loop(self.bots.close, timeout=5)  # the bots' HTTP session, as run() does
        self.daemon.stop("test over")
        self._thread.join(20)
        self.world.close()
        return self.status

    def __enter__(self) -> SimTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
