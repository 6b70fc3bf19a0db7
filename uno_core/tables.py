"""The rule tables made from what each card kind does (``kinds.KINDS``), one per
(edition, options): which cards fit on which top card and colour
as bitmasks over ``Card.bit``, the masks the referee tests hands against, and each
card's rule under the options by seat count (``Tables.rules``). Built once and shared
by every state of that edition and options.

``tables.match[top.id][colour]`` is the mask of the deck's cards that may go on `top`
when `colour` is the current colour (wilds always; the power symbol's forbidden kind
never). A seat's playable faces are ``state._masks[seat] & match[...]``.
"""

from __future__ import annotations

from collections.abc import Iterable

from uno_core.actions import MAX_SEATS, Action, Draw, Press
from uno_core.cards import (
    COLOURS,
    NUMBER,
    PROTECTING_TOWER,
    TOWER_INDEX,
    TOWER_PROTECTS,
    Card,
)
from uno_core.editions import Edition
from uno_core.kinds import CUSTOM_KIND, KINDS, PLAIN, KindRule, effective
from uno_core.options import Options, house_rules_on


def at_table(rule: KindRule, options: Options, seats: int) -> KindRule:
    """`rule` as `options` and the seat count make it (``PLAIN`` itself when it only
    passes the turn on): two_player_reverse_skips, the extra turn, the challenge, the
    wild restriction and stacking are on only under their options."""
    made = rule._replace(
        skips=rule.skips + (rule.turns and seats == 2 and options.two_player_reverse_skips),
        extra_turn=(rule.extra_turn and options.skip_reverse_extra_turn == "always"
                    and seats > 2),
        challenge=(rule.challenge and options.wild_draw4_restricted
                   and not options.no_bluff),
        off_colour=rule.off_colour and options.wild_restricted,
        stacks=rule.stacks and options.stack_draws != "off")
    return PLAIN if made == PLAIN else made


def forbidden_kind(top: Card) -> str:
    """The kind the top card's power symbol forbids ("" for none)."""
    return TOWER_PROTECTS[top.symbol] if top.symbol else ""


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

    __slots__ = ("match", "colour_bits", "restricted_bits", "choice_bits", "volatile_bits",
                 "tower_bits", "laying_bits", "special_bits", "points", "rules",
                 "draw_when_playable", "launcher",
                 "draw_action", "house", "protector", "wild_bits", "kinds")

    def __init__(self, edition: Edition, options: Options) -> None:
        faces = list(dict.fromkeys(edition.deck))
        size = max(c.id for c in faces) + 1
        # by card id: the kind the card plays as (a Wild Customizable's chosen kind)
        self.kinds = [""] * size
        custom_kind = CUSTOM_KIND[options.wild_customizable]
        for c in faces:
            self.kinds[c.id] = effective(c.kind, custom_kind)
        # by seat count, by card id: the card's rule at the table (`at_table`)
        self.rules: dict[int, list[KindRule]] = {}
        for seats in range(edition.min_players, edition.max_players + 1):
            self.rules[seats] = rules = [PLAIN] * size
            for c in faces:
                rules[c.id] = at_table(KINDS[self.kinds[c.id]], options, seats)
        rules = self.rules[edition.min_players]
        self.draw_when_playable = options.draw_when_playable
        # an issue-12 house rule the engine plays is on: no shortcuts (uno_core.listing)
        self.house = house_rules_on(options)
        self.launcher = edition.launcher
        # the turn's draw per seat: Press on launcher editions, Draw on pile editions
        self.draw_action: tuple[Action, ...] = tuple(
            (Press if edition.launcher else Draw)(seat) for seat in range(MAX_SEATS))
        self.match: list[dict[str, int]] = [{} for _ in range(size)]
        for top in faces:
            forbid = forbidden_kind(top)
            self.match[top.id] = {
                colour: mask_of([c for c in faces if matches(c, top, colour, forbid)])
                for colour in (*COLOURS, "")}
        self.colour_bits = {colour: mask_of([c for c in faces if c.colour == colour])
                            for colour in (*COLOURS, "")}
        self.wild_bits = self.colour_bits[""]  # (one read on the listing's hot path)
        # the faces only a hand without the current colour may play (`barred`)
        self.restricted_bits = mask_of([c for c in faces if rules[c.id].off_colour])
        choice = []
        towers = [c for c in faces if edition.towers and rules[c.id].towers]
        volatile = towers + [c for c in faces if rules[c.id].lays]
        for c in faces:
            if rules[c.id].targeted or c in volatile:
                choice.append(c)
        self.choice_bits = mask_of(choice)
        # cards whose plays depend on more than the seat, the seats and the faces held:
        # the towers standing (`tower_bits`) or the rest of the hand (Discard All)
        self.volatile_bits = mask_of(volatile)
        self.tower_bits = mask_of(towers)
        self.laying_bits = self.volatile_bits & ~self.tower_bits  # Discard All
        # a playable face among these needs a second look (above, or a restricted Wild)
        self.special_bits = self.volatile_bits | self.restricted_bits
        # by card id, the index (in TOWERS) of the tower whose owner the card's rule
        # spares (cards.PROTECTING_TOWER, a tower edition), else -1 (cardrules.protected)
        self.protector = [-1] * size
        if edition.towers:
            for c in faces:
                tower = PROTECTING_TOWER.get(c.kind)
                if tower is not None:
                    self.protector[c.id] = TOWER_INDEX[tower]
        # each card's points at the round's end, by card id
        wd4 = (options.wild_draw4_points if "wild_draw4_points" in edition.option_defaults
               else None)
        self.points = [0] * size
        for c in faces:
            self.points[c.id] = edition.card_points(c, wd4)


def barred(tb: Tables, held: int, colour: str) -> int:
    """The faces a hand of faces `held` may not play while `colour` is the colour: those
    whose rule wants a hand without it (``KindRule.off_colour``: Extreme's plain Wild
    under wild_restricted; simulation, where the hand is known)."""
    return tb.restricted_bits if held & tb.colour_bits[colour] else 0


_TABLES: dict[tuple[str, Options], Tables] = {}


def tables_for(edition: Edition, options: Options) -> Tables:
    key = (edition.name, options)
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = Tables(edition, options)
    return found
