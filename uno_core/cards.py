"""Cards of every edition and their compact text notation.

A card is a `Card(colour, kind, number, symbol)`: frozen and interned (one object per
value), so hashing and comparing are as cheap as for ints. Each card also carries a
small int ``id`` and its ``bit`` (``1 << id``): the engine keeps a hand's faces as a
bitmask and looks matches up in precomputed masks (``uno_core.tables``). Colours are ``R`` ``G`` ``B`` ``Y``; wild cards have colour ``""``.

Notation (``format_card`` / ``parse_card`` round-trip for every card):

=============  ============================  ===========================
text           card                          editions
=============  ============================  ===========================
``R7``         red 7 (number 0-9)            all
``R7U``        red 7 with power symbol U     power (symbols U N O !)
``G3!``        green 3 with power symbol !   power
``B+1``        blue Draw 1                   power
``B+2``        blue Draw 2                   classic, power
``YS``         yellow Skip                   all
``YR``         yellow Reverse                all
``RT2``        red Take-2-Towers             power
``RH2``        red Hit 2 ("+2: press twice") attack, attack-1999, extreme
``RDA``        red Discard All               attack, attack-1999, extreme
``RTH``        red Trade Hands               attack-1999
``W``          Wild                          classic, attack, extreme
``W+4``        Wild Draw 4                   classic, power
``WT1``        Wild Take-1-Tower             power
``WH4``        Wild Hit 4                    attack
``WAA``        Wild Attack-Attack            attack
``WC``         Wild Customizable             attack
``WHF``        Wild Hit Fire                 attack-1999
``WAH``        Wild All Hit                  attack-1999
``WX``         Wild "Extremer Zug"           extreme
=============  ============================  ===========================

Towers (power) are named by their letters ``U`` ``N`` ``O`` ``!``.
"""

from __future__ import annotations

from uno_core.errors import NotationError

COLOURS: tuple[str, ...] = ("R", "G", "B", "Y")
COLOUR_NAMES = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}

# card kinds
NUMBER = "#"
DRAW1 = "+1"
DRAW2 = "+2"
SKIP = "S"
REVERSE = "R"
TAKE2 = "T2"
HIT2 = "H2"
DISCARD_ALL = "DA"
TRADE_HANDS = "TH"
WILD = "W"
WILD_DRAW4 = "W+4"
WILD_TAKE1 = "WT1"
WILD_HIT4 = "WH4"
WILD_ATTACK = "WAA"
WILD_CUSTOM = "WC"
WILD_HIT_FIRE = "WHF"
WILD_ALL_HIT = "WAH"
WILD_EXTREME = "WX"

COLOURED_KINDS: tuple[str, ...] = (
    DRAW1, DRAW2, SKIP, REVERSE, TAKE2, HIT2, DISCARD_ALL, TRADE_HANDS,
)
WILD_KINDS: tuple[str, ...] = (
    WILD, WILD_DRAW4, WILD_TAKE1, WILD_HIT4, WILD_ATTACK, WILD_CUSTOM,
    WILD_HIT_FIRE, WILD_ALL_HIT, WILD_EXTREME,
)
KIND_NAMES = {
    NUMBER: "number", DRAW1: "Draw 1", DRAW2: "Draw 2", SKIP: "Skip", REVERSE: "Reverse",
    TAKE2: "Take-2-Towers", HIT2: "Hit 2", DISCARD_ALL: "Discard All",
    TRADE_HANDS: "Trade Hands", WILD: "Wild", WILD_DRAW4: "Wild Draw 4",
    WILD_TAKE1: "Wild Take-1-Tower", WILD_HIT4: "Wild Hit 4",
    WILD_ATTACK: "Wild Attack-Attack", WILD_CUSTOM: "Wild Customizable",
    WILD_HIT_FIRE: "Wild Hit Fire", WILD_ALL_HIT: "Wild All Hit",
    WILD_EXTREME: "Wild Extremer Zug",
}

# towers, in a fixed order: index 0..3
TOWERS: tuple[str, ...] = ("U", "N", "O", "!")
TOWER_INDEX = {t: i for i, t in enumerate(TOWERS)}
# the action each tower protects its holder against (seed 000)
TOWER_PROTECTS = {"U": DRAW1, "N": DRAW2, "O": WILD_DRAW4, "!": SKIP}
PROTECTING_TOWER = {kind: tower for tower, kind in TOWER_PROTECTS.items()}


class Card:
    """One card: `colour` ("" for wilds), `kind`, `number` (-1 unless a number card) and
    power `symbol` ("" if none). Frozen and interned: ``Card(...)`` returns the one
    instance for those values, so equality and hashing are by identity (fast) and
    equal cards are the same object."""

    __slots__ = ("colour", "kind", "number", "symbol", "id", "bit")

    colour: str
    kind: str
    number: int
    symbol: str
    id: int  # small int, unique per card value: the engine's index (order of creation)
    bit: int  # 1 << id: the card's bit in a hand's bitmask

    def __new__(cls, colour: str, kind: str, number: int = -1, symbol: str = "") -> Card:
        key = (colour, kind, number, symbol)
        card = _INTERNED.get(key)
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "colour", colour)
            object.__setattr__(card, "kind", kind)
            object.__setattr__(card, "number", number)
            object.__setattr__(card, "symbol", symbol)
            object.__setattr__(card, "id", len(_INTERNED))
            object.__setattr__(card, "bit", 1 << len(_INTERNED))
            _INTERNED[key] = card
            BY_ID.append(card)
            BITS.append(card.bit)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Card is immutable (cannot set {name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Card is immutable (cannot delete {name})")

    def __reduce__(self) -> tuple[type[Card], tuple[str, str, int, str]]:
        return (Card, (self.colour, self.kind, self.number, self.symbol))

    def sort_key(self) -> tuple[str, str, int, str]:
        return (self.colour, self.kind, self.number, self.symbol)

    def __lt__(self, other: Card) -> bool:
        return self.sort_key() < other.sort_key()

    @property
    def is_wild(self) -> bool:
        return self.colour == ""

    def __repr__(self) -> str:
        return f"Card({format_card(self)!r})"

    def __str__(self) -> str:
        return format_card(self)


_INTERNED: dict[tuple[str, str, int, str], Card] = {}
# by Card.id: the card and its bit (the engine keeps hands as lists of ids: comparing
# ints runs in C, comparing orderable Python objects does not)
BY_ID: list[Card] = []
BITS: list[int] = []


def format_card(card: Card) -> str:
    """The compact notation of `card` (see the module docstring)."""
    if card.kind == NUMBER:
        return f"{card.colour}{card.number}{card.symbol}"
    return f"{card.colour}{card.kind}"


_WILD_BY_TEXT = {k: Card("", k) for k in WILD_KINDS}


def parse_card(text: str) -> Card:
    """Parse the compact notation; raises NotationError naming the bad text."""
    if not isinstance(text, str) or not text:
        raise NotationError(str(text), "empty card text")
    wild = _WILD_BY_TEXT.get(text)
    if wild is not None:
        return wild
    colour, rest = text[0], text[1:]
    if colour not in COLOURS:
        raise NotationError(text, "a card starts with a colour R G B Y or is a wild (W...)")
    if rest[:1].isdigit():
        number = int(rest[0])
        symbol = rest[1:]
        if symbol and symbol not in TOWER_INDEX:
            raise NotationError(text, f"unknown power symbol {symbol!r} (U N O !)")
        return Card(colour, NUMBER, number, symbol)
    if rest in COLOURED_KINDS:
        return Card(colour, rest)
    raise NotationError(text, f"unknown card kind {rest!r}")


def parse_cards(text: str) -> tuple[Card, ...]:
    """Space-separated cards, e.g. ``"R7 B+2 W"``."""
    return tuple(parse_card(t) for t in text.split())

