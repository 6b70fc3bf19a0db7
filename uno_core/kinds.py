"""What each card kind does (``KINDS``, the one statement of it), the kind lists made
from it, and the one place a Wild Customizable's kind is worked out (``effective``).

The rule tables (``uno_core.tables``) apply the options and the seat count to each
kind's rule; everything that plays a card reads those (``Tables.rules``) or the lists
here, never a list of kinds of its own.
"""

from __future__ import annotations

from typing import NamedTuple

from uno_core.cards import (
    DISCARD_ALL,
    DRAW1,
    DRAW2,
    HIT2,
    NUMBER,
    REVERSE,
    SKIP,
    TAKE2,
    TRADE_HANDS,
    WILD,
    WILD_ALL_HIT,
    WILD_ATTACK,
    WILD_CUSTOM,
    WILD_DRAW4,
    WILD_EXTREME,
    WILD_HIT4,
    WILD_HIT_FIRE,
    WILD_KINDS,
    WILD_TAKE1,
)


class KindRule(NamedTuple):
    """What playing a card of one kind does, in small parameters. Every path that plays
    a card reads them: ``cardrules.BEHAVIOUR`` (the checked path), ``engine.play_plain``
    and the simulation kernel (through ``Tables.rules``, the options applied), the
    listings, the first card and the stacks. The victim is the next seat in the
    direction of play once the direction has turned."""

    turns: bool = False  # the direction of play turns
    skips: int = 0  # seats passed over: the victim first
    draws: int = 0  # cards the victim (a target; All Hit: every seat) owes; presses on a
    #                 launcher edition
    until: bool = False  # the victim presses until a card comes out (Hit Fire)
    stacks: bool = False  # answerable with another under stack_draws
    challenge: bool = False  # wild_draw4_restricted: the victim may challenge the play
    off_colour: bool = False  # wild_restricted: only from a hand without the colour
    extra_turn: bool = False  # skip_reverse_extra_turn "always": the player plays again
    targeted: bool = False  # names a target seat
    towers: int = 0  # towers it takes (a tower edition)
    lays: bool = False  # lays the rest of its colour with it (Discard All)


PLAIN = KindRule()  # a card that only passes the turn on (a number, a Wild)
KINDS: dict[str, KindRule] = {
    NUMBER: PLAIN,
    WILD: KindRule(off_colour=True),
    SKIP: KindRule(skips=1, extra_turn=True),
    REVERSE: KindRule(turns=True, extra_turn=True),
    DRAW1: KindRule(skips=1, draws=1),
    DRAW2: KindRule(skips=1, draws=2, stacks=True),
    WILD_DRAW4: KindRule(skips=1, draws=4, stacks=True, challenge=True),
    HIT2: KindRule(skips=1, draws=2, stacks=True),
    WILD_HIT4: KindRule(skips=1, draws=4, stacks=True),
    WILD_HIT_FIRE: KindRule(skips=1, until=True),
    WILD_ATTACK: KindRule(draws=2, targeted=True),
    WILD_EXTREME: KindRule(draws=4, targeted=True),  # skips the target if he is next
    WILD_ALL_HIT: KindRule(draws=1),
    TRADE_HANDS: KindRule(targeted=True),
    TAKE2: KindRule(towers=2),
    WILD_TAKE1: KindRule(towers=1),
    DISCARD_ALL: KindRule(lays=True),
}
# kinds whose card needs a target seat
TARGETED = frozenset(k for k, r in KINDS.items() if r.targeted)
# the +4 wilds: no_bluff restricts them, and turned as the first card they go back into
# the pile (seed 000's Wild Draw 4; the same for the other +4s)
PLUS4_WILDS = frozenset(k for k, r in KINDS.items() if k in WILD_KINDS and r.draws == 4)
# the +4 wilds a seat answers in turn, not by name (no_bluff: Wild Draw 4, Wild Hit 4)
BLUFF_KINDS = frozenset(k for k in PLUS4_WILDS if not KINDS[k].targeted)

# `wild_customizable` (the option's words): the kind a Wild Customizable plays as
CUSTOM_KIND = {
    "wild": WILD, "skip": SKIP, "reverse": REVERSE, "hit-2": HIT2, "hit-4": WILD_HIT4,
    "attack-attack": WILD_ATTACK, "hit-fire": WILD_HIT_FIRE, "all-hit": WILD_ALL_HIT,
    "trade-hands": TRADE_HANDS,
}


def effective(kind: str, custom_kind: str) -> str:
    """The kind a card of `kind` plays as: a Wild Customizable's is `custom_kind` (the
    one place this is worked out: ``Tables.kinds`` holds it per card)."""
    return custom_kind if kind == WILD_CUSTOM else kind


def makes_draw(rule: KindRule) -> bool:
    """Whether a card of `rule` makes a seat draw or press (no_draw_finish)."""
    return bool(rule.draws or rule.until)
