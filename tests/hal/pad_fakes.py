"""Fakes for the card pad's watcher on virtual time: its stop and a reader that records
when it was read."""

from __future__ import annotations

from typing import Any


class VirtualStop:
    """`Pad.watch`'s stop: set at virtual time `until`; waiting advances the clock (and
    is counted)."""

    def __init__(self, clock: Any, until: float) -> None:
        self.clock, self.until, self.waits = clock, until, 0

    def is_set(self) -> bool:
        return self.clock.now() >= self.until

    def wait(self, timeout: float | None = None) -> bool:
        self.waits += 1
        self.clock.advance(timeout)
        return self.is_set()


class CountingReader:
    """A reader whose tags the test sets, recording the virtual time of every read."""

    port = "/dev/unotable-pad"

    def __init__(self, clock: Any) -> None:
        self.clock, self.tags, self.reads = clock, [], []

    def read_tags(self) -> list[str]:
        self.reads.append(round(self.clock.now(), 3))
        return list(self.tags)

    def get_status(self) -> dict[str, Any]:
        return {"port": self.port}

    def close(self) -> None:
        pass
