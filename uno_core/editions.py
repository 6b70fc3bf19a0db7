"""Editions as data: deck composition, scoring table, players, draw mode, option defaults.

A new edition (or a variant deck) is a new ``Edition`` value in ``EDITIONS``; the turn
loop reads only these fields. Power symbols: on each colour, the first copy of 1..8
carries U N O ! U N O ! (so U is on 1 and 5, N on 2 and 6, O on 3 and 7, ! on 4 and 8);
the second copy of every number and both 9s are plain. That is each symbol twice per
colour, 32 symbol cards, as seed 000 requires (it does not say which numbers).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from uno_core.cards import (
    COLOURS,
    DISCARD_ALL,
    DRAW1,
    DRAW2,
    HIT2,
    NUMBER,
    REVERSE,
    SKIP,
    TAKE2,
    TOWERS,
    TRADE_HANDS,
    WILD,
    WILD_ALL_HIT,
    WILD_ATTACK,
    WILD_CUSTOM,
    WILD_DRAW4,
    WILD_EXTREME,
    WILD_HIT4,
    WILD_HIT_FIRE,
    WILD_TAKE1,
    Card,
)
from uno_core.errors import SetupError
from uno_core.kinds import BLUFF_KINDS, KINDS, PLAIN

PILE = "pile"  # draw exactly N cards from a face-down pile
LAUNCHER = "launcher"  # press a launcher that ejects a random number of cards

HIGHEST_DEALS = "highest-deals"  # seed 000: highest card deals, left of dealer starts
HIGHEST_STARTS = "highest-starts"  # seed 003: highest card starts, player to his right deals

POWER_SYMBOLS = {1: "U", 2: "N", 3: "O", 4: "!", 5: "U", 6: "N", 7: "O", 8: "!"}


@dataclass(frozen=True, slots=True)
class Edition:
    name: str
    deck: tuple[Card, ...]
    points: Mapping[str, int]  # per card kind; number cards score their face value
    min_players: int
    max_players: int
    draw_mode: str
    towers: bool
    dealer_rule: str
    option_defaults: Mapping[str, object]
    description: str = ""
    kinds: frozenset[str] = field(default_factory=frozenset)

    def card_points(self, card: Card, wild_draw4_points: int | None = None) -> int:
        if card.kind == NUMBER:
            return card.number
        if card.kind == WILD_DRAW4 and wild_draw4_points is not None:
            return wild_draw4_points
        return self.points[card.kind]

    @property
    def launcher(self) -> bool:
        return self.draw_mode == LAUNCHER


def _numbers(zeros: bool, symbols: bool) -> list[Card]:
    cards: list[Card] = []
    for colour in COLOURS:
        if zeros:
            cards.append(Card(colour, NUMBER, 0))
        for n in range(1, 10):
            cards.append(Card(colour, NUMBER, n, POWER_SYMBOLS.get(n, "") if symbols else ""))
            cards.append(Card(colour, NUMBER, n))
    return cards


def _coloured(counts: Mapping[str, int]) -> list[Card]:
    return [Card(colour, kind) for colour in COLOURS for kind, n in counts.items() for _ in range(n)]


def _wilds(counts: Mapping[str, int]) -> list[Card]:
    return [Card("", kind) for kind, n in counts.items() for _ in range(n)]


_COMMON = {"scoring": "winner_takes", "target_score": 500, "uno_penalty": 2,
           "forgotten_uno": "catch", "hand_size": 7, "two_player_reverse_skips": True,
           # house rules (issue 12), off by default: the seed's behaviour
           "stack_draws": "off", "seven_zero": False, "jump_in": False, "forced_play": False,
           "no_action_finish": False, "turn_timer_s": 0,
           "timeout_action": "draw",
           # the rules other tables play (issue 23), off by default
           "jump_in_wilds": False, "no_jump_in_on_stack": False, "no_draw_finish": False,
           "banned_finish_penalty": 0, "false_uno_penalty": 0, "swap_uno_called": False,
           "playable_draw_penalty": 0}
_PILE_ONLY = {"draw_until_playable": False}
# no_bluff restricts the +4 wild to the next seat: only decks that have one
_BLUFF = {"no_bluff": False}
# the Wild Draw 4's challenge (wild_draw4_restricted) against a stack: decks with a card
# its rule lets the victim challenge
_CHALLENGE = {"stacked_draw4_challenge": False}


def _edition(name: str, deck: list[Card], points: Mapping[str, int], players: tuple[int, int],
             draw_mode: str, dealer_rule: str, defaults: Mapping[str, object],
             description: str, towers: bool = False) -> Edition:
    return Edition(
        name=name, deck=tuple(deck), points=MappingProxyType(dict(points)),
        min_players=players[0], max_players=players[1], draw_mode=draw_mode, towers=towers,
        dealer_rule=dealer_rule, option_defaults=MappingProxyType(
            {**_COMMON, **(_PILE_ONLY if draw_mode == PILE else {}),
             **(_BLUFF if any(c.kind in BLUFF_KINDS for c in deck) else {}),
             **(_CHALLENGE if any(KINDS.get(c.kind, PLAIN).challenge for c in deck) else {}),
             **defaults}),
        description=description, kinds=frozenset(c.kind for c in deck),
    )


CLASSIC = _edition(
    "classic",
    _numbers(zeros=True, symbols=False) + _coloured({DRAW2: 2, SKIP: 2, REVERSE: 2})
    + _wilds({WILD: 4, WILD_DRAW4: 4}),
    {DRAW2: 20, SKIP: 20, REVERSE: 20, WILD: 50, WILD_DRAW4: 70},
    (2, 10), PILE, HIGHEST_DEALS,
    {"draw_then_play": False, "draw_when_playable": False, "wild_draw4_restricted": False,
     "wild_draw4_points": 70, "forgotten_uno": "at_play"},
    "UNO classic, seed 002: 108 cards",
)

POWER = _edition(
    "power",
    _numbers(zeros=False, symbols=True)
    + _coloured({DRAW1: 2, DRAW2: 2, SKIP: 2, REVERSE: 1, TAKE2: 1})
    + _wilds({WILD_TAKE1: 4, WILD_DRAW4: 4}),
    {DRAW1: 20, DRAW2: 20, SKIP: 20, REVERSE: 20, TAKE2: 20, WILD_TAKE1: 50, WILD_DRAW4: 50},
    (2, 6), PILE, HIGHEST_DEALS,
    {"draw_then_play": True, "draw_when_playable": True, "wild_draw4_restricted": True},
    "UNO Power, seed 000: 112 cards and the towers U N O !", towers=True,
)

ATTACK = _edition(
    "attack",
    _numbers(zeros=False, symbols=False)
    + _coloured({REVERSE: 1, HIT2: 2, SKIP: 2, DISCARD_ALL: 2})
    + _wilds({WILD: 4, WILD_ATTACK: 4, WILD_CUSTOM: 3, WILD_HIT4: 1}),
    {REVERSE: 20, SKIP: 20, HIT2: 20, WILD_HIT4: 40, DISCARD_ALL: 30, WILD: 50,
     WILD_ATTACK: 50, WILD_CUSTOM: 50},
    (2, 10), LAUNCHER, HIGHEST_DEALS,
    {"draw_then_play": False, "draw_when_playable": True,
     "skip_reverse_extra_turn": "two-player", "wild_customizable": "wild"},
    "UNO Attack (2010 deck), seed 001: 112 cards and a card launcher",
)

ATTACK_1999 = _edition(
    "attack-1999",
    _numbers(zeros=False, symbols=False)
    + _coloured({HIT2: 2, REVERSE: 2, SKIP: 2, DISCARD_ALL: 1, TRADE_HANDS: 1})
    + _wilds({WILD: 4, WILD_ALL_HIT: 2, WILD_HIT_FIRE: 2}),
    {REVERSE: 20, SKIP: 20, HIT2: 20, DISCARD_ALL: 30, TRADE_HANDS: 30, WILD: 50,
     WILD_ALL_HIT: 50, WILD_HIT_FIRE: 50},
    (2, 10), LAUNCHER, HIGHEST_DEALS,
    {"draw_then_play": False, "draw_when_playable": True,
     "skip_reverse_extra_turn": "two-player", "all_hit_scope": "all"},
    "UNO Attack (1999 deck), the cards seed 001 describes: 112 cards and a card launcher",
)

EXTREME = _edition(
    "extreme",
    _numbers(zeros=True, symbols=False)
    + _coloured({HIT2: 2, REVERSE: 1, SKIP: 2, DISCARD_ALL: 2})
    + _wilds({WILD: 4, WILD_EXTREME: 4}),
    {HIT2: 20, REVERSE: 20, SKIP: 20, DISCARD_ALL: 30, WILD: 50, WILD_EXTREME: 50},
    (2, 10), LAUNCHER, HIGHEST_STARTS,
    {"draw_then_play": True, "draw_when_playable": False, "wild_restricted": True},
    "UNO Extreme, seed 003: 112 cards and a random card dispenser",
)

EDITIONS: Mapping[str, Edition] = MappingProxyType(
    {e.name: e for e in (CLASSIC, POWER, ATTACK, ATTACK_1999, EXTREME)}
)


def get_edition(name: str | Edition) -> Edition:
    if isinstance(name, Edition):
        return name
    try:
        return EDITIONS[name]
    except KeyError:
        raise SetupError("unknown_edition", given=name, known=tuple(EDITIONS)) from None


__all__ = ["EDITIONS", "Edition", "get_edition", "PILE", "LAUNCHER", "TOWERS"]
