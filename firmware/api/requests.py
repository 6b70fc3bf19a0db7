"""What the API asks of the table: typed requests and the `Table` interface.

The API server validates JSON bodies into these frozen requests and hands each one to
the event loop; the loop calls ``Table.submit(request)`` (the controller) one event at
a time. ``submit`` either accepts (returns a plain dict, journaled before effects run)
or raises `firmware.errors.Rejected` having changed nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from firmware.errors import Rejected

COLORS = ("red", "yellow", "green", "blue")
ADMIN_ACTIONS = ("new-match", "pause", "resume", "override")
OVERRIDES = ("tower-seen", "cards-out", "clear-alarm")
# the decisions of POST /api/decide (`Decide`)
DECISIONS = ("pass", "accept", "guilty", "innocent", "colour", "four-towers")


ROLES = ("owner", "seat", "viewer")


@dataclass(frozen=True)
class Who:
    """Who sends a request: the table's ``owner`` (its own screen, the `[api] token`
    holder, or with no token configured a program on loopback), ``seat`` `seat` (a
    device token of that seat, or a bot in that seat), or a ``viewer`` (reads only).
    `via` says how it came (``local``, ``token``, ``phone``, ``bot``, ``viewer``,
    ``screen``): the log's, never a right. `tags`: the tags the card pad read for the
    declaration, journaled with it (a restart knows which copies lie on the pile)."""

    role: str
    seat: int | None = None
    via: str = "local"
    tags: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"role {self.role!r} is not one of {', '.join(ROLES)}")
        if self.role == "seat" and not isinstance(self.seat, int):
            raise ValueError(f"role seat needs a seat number, not {self.seat!r}")
        if self.role != "seat" and self.seat is not None:
            raise ValueError(f"role {self.role} has no seat, not {self.seat!r}")

    def __str__(self) -> str:
        """The role as logs and the journal's reader say it: owner, seat 2 (the API's
        seat number, from 0), viewer; messages name a seat as the screen does
        (`Words.seat`)."""
        return f"seat {self.seat}" if self.role == "seat" else self.role


OWNER = Who("owner")


@dataclass(frozen=True)
class Request:
    """Base of every API request; the loop routes all of them to `Table.submit`.

    `by`: who sends it (the controller refuses what that role may not do,
    `firmware.api.roles`); `key`: its Idempotency-Key ("" for none): the same key from
    the same sender is taken once. Neither is part of the request's JSON body nor of
    its equality."""

    by: Who = field(default=OWNER, kw_only=True, compare=False)
    key: str = field(default="", kw_only=True, compare=False)


@dataclass(frozen=True)
class Play(Request):
    """Seat `seat` declares it played `card` (card notation), with its choices
    (`color` for wilds, `target` seat for targeted cards, `cards` for multi-card plays)."""

    seat: int
    card: str
    choices: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class CallUno(Request):
    seat: int


@dataclass(frozen=True)
class Undo(Request):
    """`seat` takes back its declaration, which the table took by mistake (allowed only
    while it is the last thing that happened and moved nothing physical)."""

    seat: int


@dataclass(frozen=True)
class Catch(Request):
    """`seat` catches `target`, who did not call UNO in time."""

    seat: int
    target: int


@dataclass(frozen=True)
class Challenge(Request):
    """`seat` challenges the last Wild Draw Four (or the edition's challengeable play)."""

    seat: int


@dataclass(frozen=True)
class Hands(Request):
    """End of round: the cards left in `seat`'s hand, for scoring."""

    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Decide(Request):
    """A decision `seat` makes besides playing a card, one of DECISIONS: ``pass`` (keep
    the drawn card, decline an extra play or the four-tower discard), ``accept`` (take
    the Wild Draw 4 without a challenge; pressing the launcher button does the same),
    ``guilty`` / ``innocent`` (the challenger saw the hand), ``colour`` (the first card
    turned is a wild: `color`), ``four-towers`` (lay `cards`, all but one, holding the
    four towers)."""

    seat: int
    decision: str
    color: str = ""
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reveal(Request):
    """A card turned face up: the first card of the discard pile (`seat` omitted), or at
    match start the card each seat turned to choose the dealer."""

    card: str
    seat: int | None = None


@dataclass(frozen=True)
class NextRound(Request):
    """Someone tapped "next round": the pause after a round ends (the shuffle follows)."""


@dataclass(frozen=True)
class Admin(Request):
    """`action` is one of ADMIN_ACTIONS; `params` is its validated JSON body."""

    action: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


class Table(Protocol):
    """What the API needs from the game. Every method is called on the event loop."""

    def public_state(self) -> dict[str, Any]:
        """Plain JSON data everyone at the table may see: no hidden hands."""
        ...

    def health(self) -> dict[str, Any]:
        """Hardware status: ``{"ok": bool, ...}`` with one entry per device."""
        ...

    def submit(self, request: Request) -> dict[str, Any]:
        """Accept `request` and return a JSON result, or raise `Rejected` changing nothing."""
        ...

    def refused(self, refusal: Rejected) -> dict[str, Any]:
        """`refusal` as the API answers it: ``reason``, worded in the language the request
        asked for (else the table's), its ``key`` and its ``values``."""
        ...
