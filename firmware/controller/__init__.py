"""The table controller: the `firmware.api.Table` the daemon serves (`table.Controller`),
the hardware bundle it drives (`hardware.Hardware`) and the events hardware posts
(`events`). `table_factory(config)` is what `unotable run` hands to the daemon on
real hardware."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firmware.controller.hardware import Hardware
from firmware.controller.table import SYSTEM_RNG, Controller
from firmware.daemon import Services

__all__ = ["Controller", "Hardware", "table_factory"]


def table_factory(config: Any) -> Callable[[Services], Controller]:
    """Build the controller on the config's real pins and ports. (With ``[sim] enabled``
    `unotable run` uses `firmware.sim.twin.twin_factory` instead.)"""

    def make(services: Services) -> Controller:
        return Controller(services, Hardware.from_config(config), rng_for=SYSTEM_RNG)

    return make
