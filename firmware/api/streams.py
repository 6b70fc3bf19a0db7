"""Who gets an event stream when many want one.

The table's screen (the owner) and every seat's phone must always get a live stream;
a viewer may watch while there is room. So:

* each identity (the owner, a seat, one viewer token) holds at most `per_identity`
  streams: one more closes that identity's own oldest;
* at the global `cap`, a newcomer owner or seat closes the oldest stream of the
  identity (never the owner, never itself) holding the most streams, viewers before
  seats when they hold as many; a newcomer viewer finds no room (503).

`Streams` only decides; the server closes what `admit` hands back.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

S = TypeVar("S", bound=Hashable)

OWNER_IDENTITY = "owner"


@dataclass(frozen=True)
class _Held:
    identity: str
    viewer: bool
    order: int


class Streams(Generic[S]):
    def __init__(self, *, cap: int = 16, per_identity: int = 4) -> None:
        if cap < 1 or per_identity < 1:
            raise ValueError("cap and per_identity must be at least 1")
        self.cap, self.per_identity = cap, per_identity
        self._held: dict[S, _Held] = {}
        self._order = itertools.count()

    def admit(self, stream: S, identity: str, *, viewer: bool) -> list[S] | None:
        """Take `stream` of `identity` (a viewer's or not) in: the streams to close to make
        room for it (already forgotten here), or None when there is no room (then
        nothing changed)."""
        victims: list[S] = []
        own = self._of(identity)
        if len(own) >= self.per_identity:
            victims.append(own[0])
        if len(self._held) - len(victims) >= self.cap:
            if viewer:
                return None
            victim = self._most_held_but(identity)
            if victim is None:
                return None
            victims.append(victim)
        for victim in victims:
            self._held.pop(victim, None)
        self._held[stream] = _Held(identity, viewer, next(self._order))
        return victims

    def remove(self, stream: S) -> None:
        self._held.pop(stream, None)

    def identity(self, stream: S) -> str | None:
        held = self._held.get(stream)
        return held.identity if held else None

    def counts(self) -> dict[str, int]:
        """How many streams each identity holds."""
        out: dict[str, int] = {}
        for held in self._held.values():
            out[held.identity] = out.get(held.identity, 0) + 1
        return out

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, stream: object) -> bool:
        return stream in self._held

    def _of(self, identity: str) -> list[S]:
        """The identity's streams, oldest first."""
        return sorted((s for s, h in self._held.items() if h.identity == identity),
                      key=lambda s: self._held[s].order)

    def _most_held_but(self, identity: str) -> S | None:
        counts: dict[str, int] = {}
        viewers: set[str] = set()
        for held in self._held.values():
            if held.identity not in (identity, OWNER_IDENTITY):
                counts[held.identity] = counts.get(held.identity, 0) + 1
                if held.viewer:
                    viewers.add(held.identity)
        if not counts:
            return None
        loser = max(counts, key=lambda i: (counts[i], i in viewers))
        return self._of(loser)[0]
