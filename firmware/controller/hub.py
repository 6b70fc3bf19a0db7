"""The registries the parts fill in (`firmware.controller.context`): the parts by class
(and by name, for tools outside the controller), the events' subscribers, the journal kinds with their replay, the physical stops in
their order, and the loop handlers of the parts a match may drop.

Every registration names its owner (the part's name), so a part built only for some
matches (`firmware.controller.table.OPTIONAL`) leaves nothing behind when dropped.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from firmware.controller.context import Handler, StopAnswer
from firmware.controller.stops import ORDER
from firmware.journal.store import Entry


class Subscriber(NamedTuple):
    owner: str
    handler: Handler
    actions: tuple[type, ...] | None  # an Adopted only for these actions (None: all)


class Replayer(NamedTuple):
    owner: str
    replay: Callable[[Entry], None]


class StopAt(NamedTuple):
    rank: int  # its place in `ORDER`
    owner: str
    answer: StopAnswer


class LoopHandler(NamedTuple):
    owner: str
    handler: Handler


class Hub:
    def __init__(self, loop: Any) -> None:
        self._loop = loop
        self.named: dict[str, Any] = {}  # the parts by name (`lookup` is its `get`)
        self.peers: dict[type, Any] = {}  # the parts by class (`Context.peer`)
        self.subscribers: dict[type, list[Subscriber]] = defaultdict(list)  # by event type
        self._kinds: dict[str, Replayer] = {}
        self.stops: list[StopAt] = []  # in `ORDER`; one list for good (the gate holds it)
        self._dropped_on: dict[type, list[LoopHandler]] = {}  # of droppable parts
        self._answerers: dict[type, LoopHandler] = {}  # API request type -> who answers

    # ------------------------------------------------------------------ parts
    def add(self, name: str, part: Any) -> None:
        assert name not in self.named, f"two parts named {name}"
        self.named[name] = part
        self.peers[type(part)] = part

    def drop(self, name: str) -> None:
        """Forget part `name` and everything it registered."""
        part = self.named.pop(name, None)
        if part is None:
            return
        del self.peers[type(part)]
        part.close()
        for subscribers in self.subscribers.values():
            subscribers[:] = [s for s in subscribers if s.owner != name]
        for handlers in self._dropped_on.values():
            handlers[:] = [h for h in handlers if h.owner != name]
        self._kinds = {k: r for k, r in self._kinds.items() if r.owner != name}
        self.stops[:] = [s for s in self.stops if s.owner != name]
        self._answerers = {t: a for t, a in self._answerers.items() if a.owner != name}

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
        self._dropped_on[event_type].append(LoopHandler(owner, handler))

    def _dispatcher(self, event_type: type) -> Handler:
        def dispatch(event: Any) -> None:
            for registered in list(self._dropped_on[event_type]):
                registered.handler(event)
        return dispatch

    def subscribe(self, owner: str, event_type: type, handler: Handler,
                  actions: tuple[type, ...] | None = None) -> None:
        """`actions`: an `Adopted` reaches `handler` only for these kinds of action (the
        hub sorts them out: a part hears nothing of the others)."""
        self.subscribers[event_type].append(Subscriber(owner, handler, actions))

    def announce(self, event: Any) -> list[Any]:
        """Hand `event` to its subscribers, in the order they subscribed; their answers,
        in that order (Klipper's `send_event`)."""
        return [sub.handler(event) for sub in list(self.subscribers.get(type(event), ()))
                if sub.actions is None or isinstance(event.action, sub.actions)]

    def journal_kind(self, owner: str, kind: str, replay: Callable[[Entry], None]) -> None:
        assert kind not in self._kinds, f"two parts replay {kind!r}"
        self._kinds[kind] = Replayer(owner, replay)

    def replay(self, entry: Entry) -> None:
        """Rebuild what `entry` left (kinds nobody registered leave nothing: ``card``)."""
        found = self._kinds.get(entry.kind)
        if found is not None:
            found.replay(entry)

    def stop(self, owner: str, order: str, answer: StopAnswer) -> None:
        """`answer`: a function giving the stop or None, or (holder, attribute) where
        the part keeps the stop in a field (read without a call: the gate is hot)."""
        self.stops.append(StopAt(ORDER.index(order), owner, answer))
        self.stops.sort(key=lambda s: s.rank)

    def answers(self, owner: str, request_type: type, handler: Handler) -> None:
        assert request_type not in self._answerers, f"two parts answer {request_type}"
        self._answerers[request_type] = LoopHandler(owner, handler)

    def answer(self, request: Any) -> Any:
        """The answer of the part registered for the request's type (or a base of it)."""
        for cls in type(request).__mro__:
            found = self._answerers.get(cls)
            if found is not None:
                return found.handler(request)
        raise LookupError(f"nobody answers {type(request).__name__}")


def first_holding(stops: Iterable[StopAt], upto: int = len(ORDER)) -> Any:
    """The first of the registered `stops` (in `ORDER`, before rank `upto`) that holds
    now (None: nothing physical): a field is read, a function asked."""
    for at in stops:
        if at.rank >= upto:
            return None
        answer = at.answer
        stop = getattr(*answer) if isinstance(answer, tuple) else answer()
        if stop is not None:
            return stop
    return None
