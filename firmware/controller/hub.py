"""The registries the parts fill in (`firmware.controller.context`): the parts by name,
the events' subscribers, the journal kinds with their replay, the physical stops in
their order, and the loop handlers of the parts a match may drop.

Every registration names its owner (the part's name), so a part built only for some
matches (`firmware.controller.table.OPTIONAL`) leaves nothing behind when dropped.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from firmware.controller.context import Handler, StopAnswer
from firmware.controller.stops import ORDER
from firmware.journal import Entry


class Hub:
    def __init__(self, loop: Any) -> None:
        self._loop = loop
        self.named: dict[str, Any] = {}  # the parts by name (`lookup` is its `get`)
        # event type -> (owner, handler, the actions it is for: None for every event)
        self.subscribers: dict[type, list[tuple[str, Handler, tuple[type, ...] | None]]] = \
            defaultdict(list)
        self._kinds: dict[str, tuple[str, Callable[[Entry], None]]] = {}
        self._stops: list[tuple[int, str, StopAnswer]] = []
        self._dropped_on: dict[type, list[tuple[str, Handler]]] = {}  # of droppable parts
        self._blinkers: list[tuple[str, Callable[[], set[int]]]] = []

    # ------------------------------------------------------------------ parts
    def add(self, name: str, part: Any) -> None:
        assert name not in self.named, f"two parts named {name}"
        self.named[name] = part

    def drop(self, name: str) -> None:
        """Forget part `name` and everything it registered."""
        part = self.named.pop(name, None)
        if part is None:
            return
        part.close()
        for subs in (*self.subscribers.values(), *self._dropped_on.values()):
            subs[:] = [s for s in subs if s[0] != name]
        self._kinds = {k: v for k, v in self._kinds.items() if v[0] != name}
        self._stops = [s for s in self._stops if s[1] != name]
        self._blinkers = [b for b in self._blinkers if b[0] != name]

    def lookup(self, name: str) -> Any:
        """The part called `name`, or None where the table has none."""
        return self.named.get(name)

    def parts(self) -> Iterator[Any]:
        return iter(list(self.named.values()))

    # ------------------------------------------------------------------ registrations
    def on(self, owner: str, event_type: type, handler: Handler, *, droppable: bool) -> None:
        """A loop event for a part; a droppable part's through one dispatcher per type
        (the loop keeps its handlers for good)."""
        if not droppable:
            self._loop.on(event_type, handler)
            return
        if event_type not in self._dropped_on:
            self._dropped_on[event_type] = []
            self._loop.on(event_type, self._dispatcher(event_type))
        self._dropped_on[event_type].append((owner, handler))

    def _dispatcher(self, event_type: type) -> Handler:
        def dispatch(event: Any) -> None:
            for _owner, handler in list(self._dropped_on[event_type]):
                handler(event)
        return dispatch

    def subscribe(self, owner: str, event_type: type, handler: Handler,
                  actions: tuple[type, ...] | None = None) -> None:
        """`actions`: an `Adopted` reaches `handler` only for these kinds of action (the
        hub sorts them out: a part hears nothing of the others)."""
        self.subscribers[event_type].append((owner, handler, actions))

    def announce(self, event: Any) -> None:
        """Hand `event` to its subscribers, in the order they subscribed."""
        for _owner, handler, actions in list(self.subscribers.get(type(event), ())):
            if actions is None or isinstance(event.action, actions):
                handler(event)

    def journal_kind(self, owner: str, kind: str, replay: Callable[[Entry], None]) -> None:
        assert kind not in self._kinds, f"two parts replay {kind!r}"
        self._kinds[kind] = (owner, replay)

    def replay(self, entry: Entry) -> None:
        """Rebuild what `entry` left (kinds nobody registered leave nothing: ``card``)."""
        found = self._kinds.get(entry.kind)
        if found is not None:
            found[1](entry)

    def stop(self, owner: str, order: str, answer: StopAnswer) -> None:
        """`answer`: a function giving the stop or None, or (holder, attribute) where
        the part keeps the stop in a field (read without a call: the gate is hot)."""
        self._stops.append((ORDER.index(order), owner, answer))
        self._stops.sort(key=lambda s: s[0])

    def blinks(self, owner: str, answer: Callable[[], set[int]]) -> None:
        self._blinkers.append((owner, answer))

    def blinking(self) -> set[int]:
        """Every seat a part wants blinking now (none asked: no call at all)."""
        seats: set[int] = set()
        for _owner, answer in self._blinkers:
            seats |= answer()
        return seats

    def first_stop(self) -> Any:
        """The first physical stop that holds now (None: nothing physical)."""
        for _rank, _owner, answer in self._stops:
            stop = getattr(*answer) if isinstance(answer, tuple) else answer()
            if stop is not None:
                return stop
        return None
