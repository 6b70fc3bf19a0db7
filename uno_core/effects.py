"""Effects: plain data the table executes without knowing the rules.

``apply`` returns them in the order they happen. Seats are ints, ``NEUTRAL`` (-1)
is the tower tray's neutral slot. ``effect_to_dict`` gives a JSON form. Effects are
immutable, so the engine reuses one instance per value for the frequent ones (``shared``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

from uno_core.cards import Card, format_card

NEUTRAL = -1
BY_TABLE = -1  # UnoPenalty.catcher when nobody caught: forgotten_uno "at_play"

FIXED = "fixed"  # press exactly `count` times
UNTIL_CARDS = "until-cards"  # press until at least one card comes out
EVERYONE_ONCE = "everyone-once"  # part of an All Hit: each listed seat presses once


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card
    name: ClassVar[str] = "card_played"


@dataclass(frozen=True, slots=True)
class CardsLaid:
    """Cards laid without effect (Discard All's other cards, the four-tower discard)."""

    seat: int
    cards: tuple[Card, ...]
    name: ClassVar[str] = "cards_laid"


@dataclass(frozen=True, slots=True)
class Dispense:
    """Give exactly `count` cards from the pile to `seat` (dealing, drawing, penalties)."""

    seat: int
    count: int
    name: ClassVar[str] = "dispense"


@dataclass(frozen=True, slots=True)
class OwePresses:
    """`seat` must press the launcher: `count` times (FIXED / EVERYONE_ONCE) or until
    cards come (UNTIL_CARDS, count 0)."""

    seat: int
    count: int
    mode: str
    name: ClassVar[str] = "owe_presses"


@dataclass(frozen=True, slots=True)
class Ejected:
    """The launcher press by `seat` produced `count` cards; they belong to `seat`."""

    seat: int
    count: int
    name: ClassVar[str] = "ejected"


@dataclass(frozen=True, slots=True)
class TowerMoved:
    tower: str
    seat: int  # NEUTRAL for the neutral spot
    name: ClassVar[str] = "tower_moved"


@dataclass(frozen=True, slots=True)
class ProtectionUsed:
    seat: int
    tower: str
    card: Card
    name: ClassVar[str] = "protection_used"


@dataclass(frozen=True, slots=True)
class ColourChosen:
    seat: int
    colour: str
    name: ClassVar[str] = "colour_chosen"


@dataclass(frozen=True, slots=True)
class DirectionChanged:
    direction: int  # +1: to the left (seat + 1), -1: to the right
    name: ClassVar[str] = "direction_changed"


@dataclass(frozen=True, slots=True)
class PlayerSkipped:
    seat: int
    name: ClassVar[str] = "player_skipped"


@dataclass(frozen=True, slots=True)
class UnoCalled:
    seat: int
    name: ClassVar[str] = "uno_called"


@dataclass(frozen=True, slots=True)
class UnoPenalty:
    """`seat` forgot UNO and was caught by `catcher`, or the table applied the penalty
    with the play (`catcher` is ``BY_TABLE``, option forgotten_uno "at_play"); the
    penalty follows as Dispense or OwePresses."""

    seat: int
    catcher: int
    name: ClassVar[str] = "uno_penalty"


@dataclass(frozen=True, slots=True)
class ChallengeResolved:
    challenger: int
    player: int
    guilty: bool
    name: ClassVar[str] = "challenge_resolved"


@dataclass(frozen=True, slots=True)
class HandsTraded:
    seat: int
    other: int
    name: ClassVar[str] = "hands_traded"


@dataclass(frozen=True, slots=True)
class HandsPassed:
    """Every hand moves one seat on in `direction` (+1: seat s's hand goes to s + 1);
    house rule seven_zero, a 0 laid."""

    direction: int
    name: ClassVar[str] = "hands_passed"


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The discard pile (all but its top card) became the new draw pile / launcher load."""

    count: int
    name: ClassVar[str] = "reshuffled"


@dataclass(frozen=True, slots=True)
class CardReturned:
    """A first card that may not start (Wild Draw 4...) went back under the pile."""

    card: Card
    name: ClassVar[str] = "card_returned"


@dataclass(frozen=True, slots=True)
class DealerChosen:
    seat: int
    name: ClassVar[str] = "dealer_chosen"


@dataclass(frozen=True, slots=True)
class FirstCard:
    card: Card
    name: ClassVar[str] = "first_card"


@dataclass(frozen=True, slots=True)
class Prompt:
    """`seat` must now decide `kind` (turn, challenge, verdict, colour, four_towers,
    play_drawn, extra_play, press, hand_entry; draw_until_playable: draw_again when the
    drawn card does not fit, play_or_draw_again at the table) or the chance player must
    supply `kind` (shuffle, dealer_cards, reveal, eject) when `seat` is CHANCE (-1)."""

    seat: int
    kind: str
    name: ClassVar[str] = "prompt"


@dataclass(frozen=True, slots=True)
class RoundOver:
    winner: int
    points: tuple[int, ...]  # card points left in each hand
    scores: tuple[int, ...]  # match totals after this round
    name: ClassVar[str] = "round_over"


@dataclass(frozen=True, slots=True)
class MatchOver:
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    name: ClassVar[str] = "match_over"


Effect = (
    CardPlayed | CardsLaid | Dispense | OwePresses | Ejected | TowerMoved | ProtectionUsed
    | ColourChosen | DirectionChanged | PlayerSkipped | UnoCalled | UnoPenalty
    | ChallengeResolved | HandsTraded | HandsPassed | Reshuffled | CardReturned | DealerChosen | FirstCard
    | Prompt | RoundOver | MatchOver
)


_T = TypeVar("_T")
_SHARED: dict[Any, dict[tuple[Any, ...], Any]] = {}  # per class: args -> value


def shared(cls: Callable[..., _T], *args: Any) -> _T:
    """``cls(*args)``, made once per distinct value and reused: building a frozen
    dataclass costs more than looking it up. Only for small value domains (seats,
    colours, cards). Keyed per class by the `args` tuple itself: no second tuple
    built per call."""
    known = _SHARED.get(cls)
    if known is None:
        known = _SHARED[cls] = {}
    found = known.get(args)
    if found is None:
        found = known[args] = cls(*args)
    return found


def effect_to_dict(effect: Effect) -> dict[str, object]:
    out: dict[str, object] = {"type": effect.name}
    for f in fields(effect):
        value = getattr(effect, f.name)
        if isinstance(value, Card):
            out[f.name] = format_card(value)
        elif isinstance(value, tuple):
            out[f.name] = [format_card(v) if isinstance(v, Card) else v for v in value]
        else:
            out[f.name] = value
    return out


def effects_to_dicts(fx: Iterable[Effect]) -> list[dict[str, object]]:
    """`effect_to_dict` of each effect, in order: a list of effects in one call."""
    return [effect_to_dict(effect) for effect in fx]
