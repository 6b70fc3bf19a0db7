"""Outputs off on every way out of a block.

On a Pi a released output keeps its level: a device left open could leave the launcher
motor running. `ClosedOnExit` makes a device its own context manager, closed however
the block ends. (The daemon turns SIGTERM and SIGINT into its loop's stop, which closes
the hardware motor first: `firmware.loop`.)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Self


class ClosedOnExit(ABC):
    """Base of a device that is its own context manager: ``with Launcher(...) as l:``
    closes it however the block ends. A subclass writes `close` (idempotent); one that
    does not cannot be made."""

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
