"""The controller on the simulated twin: what `unotable run` serves with ``[sim] enabled``.

It lives with the twin, not in `firmware.controller`, so that the controller never
imports the simulation that drives it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.controller.table import Controller
from firmware.daemon import Services
from firmware.errors import FileRefused, StartRefused
from firmware.sim.follow import follower
from firmware.sim.world import World, WorldError, check_world_file, rng


def twin_files(config: Any) -> Callable[[Path], None]:
    """The check of the twin's world file beside the journal, before the daemon starts
    (`Daemon`'s `check_files`): a link, a damaged file or another table's world is
    refused (`FileRefused`) and nothing is written."""

    def check(journal: Path) -> None:
        table = config.table
        seed = config.sim.seed if config.sim.seed is not None else 0
        try:
            check_world_file(world_path(journal), table.edition, table.seats, seed)
        except WorldError as exc:
            raise FileRefused(str(exc)) from None

    return check


def world_path(journal: Path) -> Path:
    """Where the twin keeps its world: beside the journal."""
    return journal.with_name(journal.name + ".world.json")


def twin_factory(config: Any) -> Callable[[Services], Controller]:
    """Build the controller on the simulated twin of the config's hardware, its world
    saved beside the journal."""

    def make(services: Services) -> Controller:
        table = config.table
        seed = config.sim.seed if config.sim.seed is not None else 0
        journal = Path(services.journal.path)
        try:
            world = World(table.edition, table.seats, seed,
                          launcher=config.hardware["launcher"], panel=config.hardware["seats"],
                          fast=False, path=world_path(journal),
                          tray=config.hardware.get("tray"), pad=config.hardware.get("pad"))
        except WorldError as exc:  # its file is a link, or another table's: one line
            raise StartRefused(str(exc)) from None
        services.loop.on_safe_state(world.close)
        controller = Controller(services, world.hardware(),
                                rng_for=lambda step: rng(seed, step))
        controller.listeners.append(follower(world))
        controller.new_match_checks.append(world.check_new_match)
        return controller

    return make
