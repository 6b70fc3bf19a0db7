"""Events the hardware posts into the table's event loop.

Hardware callbacks run on gpiozero, timer and serial threads; they only build one of
these frozen values and hand it to `TableLoop.post`. The controller's parts handle
them one at a time on the loop, each part the events of its own device
(`firmware.controller.table` lists the parts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hal.launcher import EjectionResult


@dataclass(frozen=True)
class LauncherPressed:
    """The launcher button went down (it does not know who pressed it)."""


@dataclass(frozen=True)
class SeatPressed:
    """A seat's button went down: a UNO call for its own seat, or a catch."""

    seat: int


@dataclass(frozen=True)
class CardCounted:
    """The exit sensor counted a card of the running ejection (`counted` so far)."""

    counted: int
    seat: int | None


@dataclass(frozen=True)
class EjectionDone:
    """The ejection journaled as intent `intent` ended (in a worker thread), the
    launcher aimed at `seat` (the ejection turned it there)."""

    intent: int
    result: EjectionResult
    seat: int


@dataclass(frozen=True)
class TrayChanged:
    """What `hal.tray.Tray.scan` reported (TowerPlaced, TowerRemoved, ReaderDown, ...)."""

    event: Any


@dataclass(frozen=True)
class Aimed:
    """The aiming servo faces `seat` now (a worker thread turned it)."""

    seat: int


@dataclass(frozen=True)
class PadChanged:
    """What `hal.pad.Pad.poll` reported (Tap, PadDown, PadUp)."""

    event: Any
