"""The table controller: the `firmware.api.Table` the daemon serves (`table.Controller`),
the hardware bundle it drives (`hardware.Hardware`) and the events hardware posts
(`events`). `table_factory(config)` is what `unotable run` hands to the daemon."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.controller.hardware import Hardware
from firmware.controller.table import SYSTEM_RNG, Controller

__all__ = ["Controller", "Hardware", "table_factory"]


def table_factory(config: Any, *, env: Any = None) -> Callable[[Any], Controller]:
    """Build the controller on the config's hardware: the real pins and ports, or, with
    ``[sim] enabled``, the simulated twin (its world saved beside the journal)."""

    def make(services: Any) -> Controller:
        if not config.sim.enabled:
            return Controller(services, Hardware.from_config(config), rng_for=SYSTEM_RNG)
        from firmware.sim.world import World, rng

        table = config.table
        seed = config.sim.seed if config.sim.seed is not None else 0
        journal = Path(services.journal.path)
        world = World(table.edition, table.seats, seed, launcher=config.hardware["launcher"],
                      panel=config.hardware["seats"], fast=False,
                      path=journal.with_name(journal.name + ".world.json"),
                      tray=config.hardware.get("tray"))
        services.loop.on_safe_state(world.close)
        controller = Controller(services, world.hardware(),
                                rng_for=lambda step: rng(seed, step))
        controller.listeners.append(_world_follows(world))
        controller.new_match_checks.append(world.check_new_match)
        return controller

    return make


def _world_follows(world: Any) -> Callable[[Any], None]:
    """On the twin nobody sits at the table: the world still picks up ejected cards."""
    def follow(event: Any) -> None:
        if event.get("kind") == "ejecting":
            world.ejection_started(event["seat"], event["job"])
        elif event.get("kind") == "ejected":
            world.ejection_ended(event["seat"], event["job"])
    return follow

