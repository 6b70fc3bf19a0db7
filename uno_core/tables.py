"""Precomputed rule tables, one per (edition, options): which cards fit on which top
card and colour as bitmasks over ``Card.bit``, and the masks the referee tests hands
against. Built once and shared by every state of that edition and options.

``tables.match[top.id][colour]`` is the mask of the deck's cards that may go on `top`
when `colour` is the current colour (wilds always; the power symbol's forbidden kind
never). A seat's playable faces are ``state._masks[seat] & match[...]``.
"""

from __future__ import annotations

from collections.abc import Iterable

from uno_core.actions import MAX_SEATS, Action, Draw, Press
from uno_core.cards import (
    COLOURS,
    DISCARD_ALL,
    NUMBER,
    TAKE2,
    TOWER_PROTECTS,
    TRADE_HANDS,
    WILD,
    WILD_ATTACK,
    WILD_CUSTOM,
    WILD_EXTREME,
    WILD_TAKE1,
    Card,
)
from uno_core.editions import Edition
from uno_core.options import Options, house_rules_on

# kinds whose card needs a target seat
TARGETED = frozenset({WILD_ATTACK, WILD_EXTREME, TRADE_HANDS})
TOWER_COUNT = {TAKE2: 2, WILD_TAKE1: 1}


def matches(card: Card, top: Card, colour: str, forbid: str) -> bool:
    """Seed rule: same colour, same number or symbol, or a wild; never the kind the
    top card's power symbol forbids."""
    if card.kind == forbid:
        return False
    if card.colour == "" or card.colour == colour:
        return True
    return card.kind == top.kind and (card.kind != NUMBER or card.number == top.number)


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= c.bit
    return m


class Tables:
    """The masks of one edition under one set of options (see the module docstring)."""

    __slots__ = ("match", "colour_bits", "plain_wild_bits", "choice_bits", "volatile_bits",
                 "tower_bits", "laying_bits", "special_bits", "points",
                 "custom_kind", "wild_restricted", "draw_when_playable", "launcher",
                 "draw_action", "house")

    def __init__(self, edition: Edition, options: Options, custom_kind: str) -> None:
        faces = list(dict.fromkeys(edition.deck))
        size = max(c.id for c in faces) + 1
        self.custom_kind = custom_kind
        self.wild_restricted = options.wild_restricted
        self.draw_when_playable = options.draw_when_playable
        # an issue-12 house rule the engine plays is on: no shortcuts (uno_core.listing)
        self.house = house_rules_on(options)
        self.launcher = edition.launcher
        # the turn's draw per seat: Press on launcher editions, Draw on pile editions
        self.draw_action: tuple[Action, ...] = tuple(
            (Press if edition.launcher else Draw)(seat) for seat in range(MAX_SEATS))
        self.match: list[dict[str, int]] = [{} for _ in range(size)]
        for top in faces:
            forbid = TOWER_PROTECTS[top.symbol] if top.symbol else ""
            self.match[top.id] = {
                colour: mask_of([c for c in faces if matches(c, top, colour, forbid)])
                for colour in (*COLOURS, "")}
        self.colour_bits = {colour: mask_of([c for c in faces if c.colour == colour])
                            for colour in (*COLOURS, "")}
        self.plain_wild_bits = mask_of([c for c in faces if c.kind == WILD])
        choice = []
        towers = [c for c in faces if edition.towers and c.kind in TOWER_COUNT]
        volatile = towers + [c for c in faces if c.kind == DISCARD_ALL]
        for c in faces:
            kind = custom_kind if c.kind == WILD_CUSTOM else c.kind
            if kind in TARGETED or c in volatile:
                choice.append(c)
        self.choice_bits = mask_of(choice)
        # cards whose plays depend on more than the seat, the seats and the faces held:
        # the towers standing (`tower_bits`) or the rest of the hand (Discard All)
        self.volatile_bits = mask_of(volatile)
        self.tower_bits = mask_of(towers)
        self.laying_bits = self.volatile_bits & ~self.tower_bits  # Discard All
        # a playable face among these needs a second look (above, or a restricted Wild)
        self.special_bits = self.volatile_bits | (self.plain_wild_bits
                                                  if options.wild_restricted else 0)
        # each card's points at the round's end, by card id
        wd4 = (options.wild_draw4_points if "wild_draw4_points" in edition.option_defaults
               else None)
        self.points = [0] * size
        for c in faces:
            self.points[c.id] = edition.card_points(c, wd4)


_TABLES: dict[tuple[str, Options], Tables] = {}


def tables_for(edition: Edition, options: Options, custom_kind: str) -> Tables:
    key = (edition.name, options)
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = Tables(edition, options, custom_kind)
    return found
