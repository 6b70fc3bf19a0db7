"""What a part of the controller may ask of the table: the narrow `Context` every part
is built on (Klipper's `printer` as an extra sees it), the events the coordinator
announces, and `Part`, the default hooks a part overrides (python-can's bus base).

A part never holds the coordinator (`firmware.controller.table.Controller`): it holds
a `Context`. It registers its own loop handlers (`on`), its own journal kinds with
their replay (`journal_kind`), the stops it answers in their place of the order
(`stop`, `firmware.controller.stops.ORDER`), and subscribes to the events below
(`subscribe`); it finds a peer by its class (`peer(Ejections)`, typed) and asks it a
method, never reads its fields, never the coordinator's attributes. There is one way
to announce, `announce(event)`, which returns the subscribers' answers (Klipper's
`send_event`). `firmware.controller.hub.Hub` keeps those registries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

import uno_core as U
from firmware.journal.store import Entry
from firmware.words.messages import Words


# ---------------------------------------------------------------- the events announced
class MatchBegins(NamedTuple):
    """A match begins, live or rebuilt from the journal (every part was reset)."""

    match: Any


class Committing(NamedTuple):
    """The engine took `action` (checked on a copy: `state` is the state after it) and
    the table is about to journal it as step `step`: a subscriber answers an entry
    (kind, payload) to journal in the same commit, or None (a launcher press: the
    ejection's ``intent``, so the motor starts after one sync, not two)."""

    action: U.Action
    state: U.State
    step: int


class Adopted(NamedTuple):
    """The engine took `action` (live after its journal write, or in replay): `state` is
    the state after it. `seq`: its journal entry (None for a press's `Eject`, adopted
    live with the ejection's result); `joined`: the entries its `Committing`
    subscribers had journaled in the same commit (live only: in replay each entry is
    replayed by its own kind)."""

    action: U.Action
    effects: list[Any]
    state: U.State
    live: bool
    seq: int | None
    joined: tuple[Entry, ...] = ()


class Said(NamedTuple):
    """The live ``action`` event of an adopted action went out: each part says its own
    part of its effects, one effect at a time, in their order (a capture's tower)."""

    action: U.Action
    effect: Any


class RoundEnded(NamedTuple):
    """An adopted action ended a round (its `RoundOver` effect); `match_over`: and the
    match with it."""

    over: Any
    live: bool
    match_over: bool = False


class Settles(NamedTuple):
    """After a change the table goes on: a part starts the work owed (the launcher, a
    timer). A subscriber answers True when the launcher took the turn (then nobody's
    turn is shown)."""


class ShowTurn(NamedTuple):
    """The table settled and the launcher did not start: show whose turn it is (the
    seats' lights first, then the launcher turns to the seat)."""


class Replayed(NamedTuple):
    """The journal's entries of the match were all replayed (at start, or a reload)."""


class PauseChanged(NamedTuple):
    """The admin paused the table or resumed it (live): a timer that moves the game on
    holds, or runs on (the round pause's; it need not hear every settle for that)."""


class Blinking(NamedTuple):
    """Which seats' lights blink now: each subscriber answers a set of seats (a tower
    carried to a seat, a turn nearly out of time)."""


class SeatChosen(NamedTuple):
    """A seat's button went down: a part that awaits a seat (the card pad, for a
    targeted card) answers True when it took the press as that choice."""

    seat: int


Handler = Callable[[Any], Any]
P = TypeVar("P")
By = dict[str, Any] | None  # who made a declaration, as journaled (None: the table itself)
StopAnswer = Callable[[], Any] | tuple[Any, str]  # a function, or (holder, field)


class PeerLookup(Protocol):
    """`Context.peer`: the part of class `cls` (LookupError where the table has none)."""

    def __call__(self, cls: type[P], /) -> P: ...


class OptionalLookup(Protocol):
    """`Context.optional`: the part of class `cls`, or None where the table has none."""

    def __call__(self, cls: type[P], /) -> P | None: ...


class Context(Protocol):
    """What a part needs of the table, and nothing more: the services, the game as the
    coordinator keeps it, and the registries. A part asks a peer (`peer`) by its
    methods, never through its fields, and never holds the coordinator."""

    # the services
    @property
    def loop(self) -> Any: ...  # firmware.loop.TableLoop: post, after, spawn, now

    @property
    def journal(self) -> Any: ...  # firmware.journal.store.Journal

    @property
    def config(self) -> Any: ...  # firmware.config.Config

    @property
    def notifier(self) -> Any: ...  # firmware.notify.Notifier

    # the game, as the coordinator keeps it
    @property
    def state(self) -> U.State | None: ...

    @property
    def step(self) -> int: ...

    @property
    def match(self) -> Any: ...  # the journal's match (id, seed, ...), None before one

    @property
    def names(self) -> list[str]: ...

    @property
    def words(self) -> Words: ...

    def publish(self, event: Mapping[str, Any]) -> None: ...  # to the event stream

    def accept(self, action: U.Action, *, by: By = None) -> list[Any]: ...

    def submit(self, request: Any) -> dict[str, Any]: ...  # as the API's requests go in

    def adopt(self, action: U.Action) -> list[Any]: ...

    def gate(self, *, chance_ok: bool = False) -> U.State: ...  # `Waits.gate`

    def settle(self) -> None: ...

    def reload(self) -> None: ...

    def start_match(self, edition: str, seats: int, options: Mapping[str, Any],
                    seed: int | None, names: list[str], *, by: By = None) -> None: ...

    def check_new_match(self, edition: str, seats: int) -> None: ...

    # the registries (`Hub`): each registration is the part's being built
    def peer(self, cls: type[P]) -> P: ...  # the part of that class (LookupError: none)

    def optional(self, cls: type[P]) -> P | None: ...  # or None where the table has none

    def on(self, event_type: type, handler: Handler) -> None: ...  # a loop event

    def subscribe(self, event_type: type, handler: Handler,
                  actions: tuple[type, ...] | None = None) -> None: ...

    def announce(self, event: Any) -> list[Any]: ...  # to its subscribers: their answers

    def hearing(self, event_type: type) -> Sequence[Any]: ...  # its subscribers (a live list)

    def journal_kind(self, kind: str, replay: Callable[[Entry], None]) -> None: ...

    def stop(self, order: str, answer: StopAnswer) -> None: ...

    @property
    def stops(self) -> Sequence[Any]: ...  # the physical stops registered, in `ORDER`

    def answers(self, request_type: type, handler: Handler) -> None: ...  # API requests


class Part:
    """The hooks a part may override; the coordinator only loops over its parts."""

    name = "part"

    def reset(self) -> None:
        """A match begins: forget what belonged to the one before."""

    def get_status(self) -> dict[str, Any]:
        """What the part holds, as plain JSON values."""
        return {}

    def public(self, state: U.State | None) -> dict[str, Any]:
        """Its keys of ``GET /api/state`` (the coordinator gives each its default)."""
        return {}

    def journaled(self) -> dict[str, Any]:
        """What of `get_status` a restart rebuilds from the journal alone."""
        return {}

    def stats(self) -> dict[str, int]:
        """The part's counts in the table's ``stats``."""
        return {}

    def carried(self) -> Any:
        """What only the hardware knows, kept across a rebuild from the journal (None:
        nothing); handed back to `carry` after it."""
        return None

    def carry(self, kept: Any) -> None:
        """Take back what `carried` gave before a rebuild from the journal."""

    def close(self) -> None:
        """The part is dropped (a match that does not need it begins): stop its timers."""
