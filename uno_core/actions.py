"""Actions: typed frozen values a seat (or the chance player) takes.

Seat actions carry the acting ``seat``. Chance outcomes (``Shuffle``, ``DealerCards``,
``Reveal``, ``Eject``) are taken by ``CHANCE`` (seat -1): in simulation a seeded model
samples them (``uno_core.chance``), at the table the hardware or the players enter them.
``action_to_dict`` / ``action_from_dict`` give a plain JSON form (cards in notation).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from uno_core.cards import Card, format_card, parse_card
from uno_core.errors import NotationError

CHANCE = -1
# the seats any table of per-seat values is made for (no edition seats more than 10)
MAX_SEATS = 16


class _Printable:
    """Actions print in their JSON form, cards in notation: ``play {"seat": 0, ...}``."""

    __slots__ = ()

    def __str__(self) -> str:
        data = action_to_dict(self)  # type: ignore[arg-type]
        kind = data.pop("type")
        fields_ = ", ".join(f"{k}={_show(v)}" for k, v in data.items())
        return f"{kind}({fields_})"


def _show(value: object) -> str:
    if isinstance(value, list):
        return "[" + " ".join(str(v) for v in value) + "]"
    return str(value)


@dataclass(frozen=True, slots=True)
class Play(_Printable):
    """Play `card`. Choices: `colour` for wilds, `target` seat (Attack-Attack, Extremer Zug,
    Trade Hands), `towers` to take (Take-2-Towers, Wild Take-1-Tower), `laid` the other
    cards laid with Discard All; `uno` calls UNO together with the second-to-last card."""

    seat: int
    card: Card
    colour: str = ""
    target: int = -1
    towers: tuple[str, ...] = ()
    laid: tuple[Card, ...] = ()
    uno: bool = False
    name: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class Draw(_Printable):
    """Draw one card from the pile on your turn (pile editions)."""

    seat: int
    name: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Press(_Printable):
    """Press the launcher once (on your turn, or a press you owe)."""

    seat: int
    name: ClassVar[str] = "press"


@dataclass(frozen=True, slots=True)
class Pass(_Printable):
    """Keep the drawn card / decline an extra play / decline the four-tower discard."""

    seat: int
    name: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class CallUno(_Printable):
    """Call UNO late (after playing down to one card, before anyone catches you)."""

    seat: int
    name: ClassVar[str] = "call_uno"


@dataclass(frozen=True, slots=True)
class Catch(_Printable):
    """`seat` catches `target`, who holds one card and did not call UNO."""

    seat: int
    target: int
    name: ClassVar[str] = "catch"


@dataclass(frozen=True, slots=True)
class Challenge(_Printable):
    """Challenge the Wild Draw 4 just played against you."""

    seat: int
    name: ClassVar[str] = "challenge"


@dataclass(frozen=True, slots=True)
class Accept(_Printable):
    """Do not challenge the Wild Draw 4: take the cards."""

    seat: int
    name: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class Verdict(_Printable):
    """Table mode: the challenger saw the hand and reports whether the player was guilty."""

    seat: int
    guilty: bool
    name: ClassVar[str] = "verdict"


@dataclass(frozen=True, slots=True)
class FourTowerDiscard(_Printable):
    """Power: holding all four towers, lay down all cards but one (`laid`)."""

    seat: int
    laid: tuple[Card, ...]
    uno: bool = False
    name: ClassVar[str] = "four_tower_discard"


@dataclass(frozen=True, slots=True)
class ChooseColour(_Printable):
    """The first player names the colour when the first card turned is a wild."""

    seat: int
    colour: str
    name: ClassVar[str] = "choose_colour"


@dataclass(frozen=True, slots=True)
class EnterHand(_Printable):
    """Table mode, round over: the cards left in `seat`'s hand, for scoring."""

    seat: int
    cards: tuple[Card, ...]
    name: ClassVar[str] = "enter_hand"


@dataclass(frozen=True, slots=True)
class Shuffle(_Printable):
    """Chance: the new order of the cards being shuffled (simulation: a permutation of
    their indices, last = top; table mode: empty, the order is unknown)."""

    order: tuple[int, ...] = ()
    name: ClassVar[str] = "shuffle"

    @property
    def seat(self) -> int:
        return CHANCE


@dataclass(frozen=True, slots=True)
class DealerCards(_Printable):
    """Chance: the card each seat turns to choose the dealer (seat order)."""

    cards: tuple[Card, ...]
    name: ClassVar[str] = "dealer_cards"

    @property
    def seat(self) -> int:
        return CHANCE


@dataclass(frozen=True, slots=True)
class Reveal(_Printable):
    """Chance, table mode: the card turned face up to start the discard pile."""

    card: Card
    name: ClassVar[str] = "reveal"

    @property
    def seat(self) -> int:
        return CHANCE


@dataclass(frozen=True, slots=True)
class Eject(_Printable):
    """Chance: how many cards the launcher ejected on the last press."""

    count: int
    name: ClassVar[str] = "eject"

    @property
    def seat(self) -> int:
        return CHANCE


Action = (
    Play | Draw | Press | Pass | CallUno | Catch | Challenge | Accept | Verdict
    | FourTowerDiscard | ChooseColour | EnterHand | Shuffle | DealerCards | Reveal | Eject
)
ACTION_TYPES: dict[str, type[Any]] = {
    t.name: t
    for t in (Play, Draw, Press, Pass, CallUno, Catch, Challenge, Accept, Verdict,
              FourTowerDiscard, ChooseColour, EnterHand, Shuffle, DealerCards, Reveal, Eject)
}


def _plain(value: object) -> object:
    if isinstance(value, Card):
        return format_card(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def action_to_dict(action: Action) -> dict[str, object]:
    """``{"type": "play", "seat": 0, "card": "R7", ...}``; fields at their default omitted."""
    out: dict[str, object] = {"type": action.name}
    for f in fields(action):
        value = getattr(action, f.name)
        if f.default is not value and f.default != value:
            out[f.name] = _plain(value)
    return out


_CARD_FIELDS = {"card"}
_CARDS_FIELDS = {"laid", "cards"}


def action_from_dict(data: dict[str, object]) -> Action:
    """Inverse of action_to_dict; raises NotationError naming what is wrong."""
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise NotationError(str(kind), f"unknown action type (known: {', '.join(ACTION_TYPES)})")
    names = {f.name for f in fields(cls)}
    kwargs: dict[str, object] = {}
    for key, value in data.items():
        if key == "type":
            continue
        if key not in names:
            raise NotationError(key, f"unknown field of action {kind!r}")
        if key in _CARD_FIELDS:
            kwargs[key] = parse_card(str(value))
        elif key in _CARDS_FIELDS or key in ("order", "towers"):
            if not isinstance(value, list | tuple):
                raise NotationError(str(value), f"{key} must be a list")
            if key in _CARDS_FIELDS:
                kwargs[key] = tuple(parse_card(str(v)) for v in value)
            elif key == "order":
                kwargs[key] = tuple(int(v) for v in value)
            else:
                kwargs[key] = tuple(str(v) for v in value)
        else:
            kwargs[key] = value
    try:
        action: Action = cls(**kwargs)
    except TypeError as exc:
        raise NotationError(str(data), str(exc)) from None
    return action
