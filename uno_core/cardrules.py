"""What each card does when played (``BEHAVIOUR``, by kind): the turn's part, from the
kind's parameters in ``kinds.KINDS`` (`_b_move`), and what a kind does beyond them
(captures, swaps, targets). Adding a card kind means a row in ``kinds.KINDS``, a
function here if its parameters do not say it all, and a row in an edition's deck."""

from __future__ import annotations

from collections.abc import Callable

from uno_core import actions as A
from uno_core import effects as E
from uno_core.actions import MAX_SEATS
from uno_core.cards import (
    DISCARD_ALL,
    DRAW1,
    DRAW2,
    HIT2,
    NUMBER,
    REVERSE,
    SKIP,
    TAKE2,
    TOWER_INDEX,
    TOWERS,
    TRADE_HANDS,
    WILD,
    WILD_ALL_HIT,
    WILD_ATTACK,
    WILD_DRAW4,
    WILD_EXTREME,
    WILD_HIT4,
    WILD_HIT_FIRE,
    WILD_TAKE1,
    Card,
)
from uno_core.kinds import KindRule
from uno_core.matching import kind_rule
from uno_core.stacking import value
from uno_core.state import (
    OWE_DRAW,
    OWE_PRESS,
    OWE_UNTIL,
    TAG_ALL,
    Owe,
    Phase,
    State,
)
from uno_core.turns import NOFX, Effects, advance, dispensed, give, next_seat, owe


def capture(s: State, seat: int, tower: str, fx: Effects) -> None:
    i = TOWER_INDEX[tower]
    if s.towers[i] == seat:
        return
    towers = list(s.towers)
    towers[i] = seat
    s.towers = tuple(towers)
    if fx is not NOFX:
        fx.append(_TOWER_MOVED[tower][seat])


# the effects of a capture and of a skip, made once (both are common in a round)
_TOWER_MOVED = {t: tuple(E.TowerMoved(t, seat) for seat in range(MAX_SEATS)) for t in TOWER_INDEX}
_SKIPPED = tuple(E.PlayerSkipped(seat) for seat in range(MAX_SEATS))
_DIRECTION_CHANGED = {d: E.DirectionChanged(d) for d in (1, -1)}


def protected(s: State, victim: int, card: Card, fx: Effects) -> bool:
    """Whether `victim` owns the tower that wards `card` off (``cards.PROTECTING_TOWER``,
    looked up once per card in ``Tables.protector``); it is used then."""
    i = s.tables.protector[card.id]
    if i < 0 or s.towers[i] != victim:
        return False
    fx.append(E.shared(E.ProtectionUsed, victim, TOWERS[i], card))
    return True


def four_tower_check(s: State, seat: int, fx: Effects) -> bool:
    """Whether `seat` now holds all four towers and, keeping cards, must lay some down
    (phase "four_towers", which this starts)."""
    if s.towers == (seat, seat, seat, seat) and s._counts[seat] > 1:
        s.phase = Phase.FOUR_TOWERS
        s.actor = seat
        fx.append(E.shared(E.Prompt, seat, "four_towers"))
        return True
    return False


def _b_number(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    """A number: a power symbol's tower is captured, then (``house_swaps.b_number``: a
    7 or 0's swap under seven_zero) the turn passes on, then the four-tower offer."""
    number_with(s, seat, p, fx, None)


def number_with(s: State, seat: int, p: A.Play, fx: Effects,
                then: Callable[[State, int, A.Play, Effects], None] | None) -> None:
    """A number's behaviour with `then` done after the capture and before the turn
    passes on (the house rules' part of a number: ``house_swaps.b_number``)."""
    if p.card.symbol and s.edition.towers:
        capture(s, seat, p.card.symbol, fx)
    if then is not None:
        then(s, seat, p, fx)
    _b_move(s, seat, p, fx)
    if p.card.symbol:
        four_tower_check(s, seat, fx)


# The meaning of a card's rule (``KindRule``) is carried out by `carry_out` alone, with
# the steps below: `_b_move` (the checked path) and ``engine.play_plain`` (the listed
# path) call it, and the simulation kernel's plan (``kernel._Plan``) is made by running
# it on a probe of the table, so no path states what a kind does a second time.

def turn(s: State, fx: Effects) -> None:
    """``KindRule.turns``: the direction of play turns."""
    s.direction = d = -s.direction
    if fx is not NOFX:
        fx.append(_DIRECTION_CHANGED[d])


def victim_of(s: State) -> int:
    """The seat a card laid now hits: the next in the direction of play (once its rule
    has turned it), past the seats a pending skip passes over."""
    return (s.turn + s.direction * (1 + s.skip_pending)) % s.n


def hit(s: State, victim: int, r: KindRule, fx: Effects) -> None:
    """``KindRule.draws`` and ``skips`` against a victim no tower protects: he owes the
    draws (launcher editions: presses, told before the skip) and is skipped; in
    simulation, with nothing else owed and the pile holding more, the cards are his at
    once (as settling would give them: nothing comes between)."""
    k = r.draws
    if k and (s.tables.launcher or s.table or s._queue or len(s._pile) <= k):
        owe(s, fx, OWE_DRAW, victim, k)  # settle gives them (or asks the presses)
        k = 0
    if r.skips and fx is not NOFX:
        fx.append(_SKIPPED[victim])
    if k:
        give(s, victim, k)
        if fx is not NOFX:
            fx.append(dispensed(victim, k))


def _b_move(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    """The card's rule at this table (``Tables.rules``, from ``kinds.KINDS``), carried
    out by `carry_out`; then the turn passes on, unless the rule gave it elsewhere."""
    passed = carry_out(s, seat, kind_rule(s, p.card), p.card, fx)
    if passed >= 0:
        advance(s, passed)


def carry_out(s: State, seat: int, r: KindRule, card: Card, fx: Effects) -> int:
    """What `card`, of rule `r`, laid by `seat`, does to the turn (the one interpreter
    of a ``KindRule``'s turn part: the checked path, ``engine.play_plain`` and, through
    the plan made from it, the simulation kernel): the direction turns; the victim (the
    next seat, unless his tower wards the card off) owes its draws and is skipped, or
    the challenge comes first; or the player plays again at once (an extra turn).
    Returns the seats the next turn passes over, or -1 when the turn was given
    elsewhere (a challenge, a stack's answer, an extra turn)."""
    if r.turns:
        turn(s, fx)
    if not (r.skips or r.draws or r.until):
        return -1 if r.extra_turn and _extra_play(s, seat, fx) else 0
    victim = victim_of(s)
    if protected(s, victim, card, fx):
        s.pending = ()
        if r.draws:
            s.stack = ()  # warded off: a plain card now, and a pending stack with it
        return 0
    if r.challenge and (not s.stack or s.options.stacked_draw4_challenge):
        # the challenge comes first; then the victim stacks or takes (a +4 joining a
        # pending stack is not challenged unless stacked_draw4_challenge)
        # s.pending was set by engine.play: (player, challenger, guilty)
        s.pending = (seat, victim, bool(s.pending and s.pending[2]))
        if r.stacks:
            s.stack = (added(s, r.draws), victim)
        s.phase = Phase.CHALLENGE
        s.actor = victim
        fx.append(E.shared(E.Prompt, victim, "challenge"))
        return -1
    s.pending = ()
    if r.until or r.stacks:
        return _hit(s, seat, victim, OWE_UNTIL if r.until else OWE_DRAW, r, card, fx)
    hit(s, victim, r, fx)
    if r.extra_turn and _extra_play(s, seat, fx):
        s.skip_pending += r.skips  # the extra card's own effect skips on from the victim
        return -1
    return r.skips


def _hit(s: State, seat: int, victim: int, kind: Owe, r: KindRule, card: Card,
         fx: Effects) -> int:
    """A draw card's victim owes `r.draws` cards or presses (`kind`; launcher editions
    press) and is skipped (the seats passed over are returned); with stack_draws the
    count joins the stack instead, and the victim may answer (-1: his turn now)."""
    count = r.draws
    if r.stacks:
        count = grow(s, seat, card, victim, fx)
        if not count:
            return -1
    owe(s, fx, kind, victim, count)
    if fx is not NOFX and r.skips:
        fx.append(_SKIPPED[victim])
    return r.skips


def added(s: State, count: int) -> int:
    """The stack's total once `count` more is laid on it."""
    return (s.stack[0] if s.stack else 0) + count


def grow(s: State, seat: int, card: Card, victim: int, fx: Effects) -> int:
    """`seat` laid a stacking `card` against `victim`: the stack grows and the turn goes
    to `victim` (returns 0), or, when `seat` went out with it, the victim must take the
    total at once (returned; the caller owes it as the card's own draw)."""
    total = added(s, value(s, card))
    if s._counts[seat] == 0:
        s.stack = ()
        return total
    s.stack = (total, victim)
    advance(s, 0)
    if fx is not NOFX:
        fx.append(E.shared(E.Prompt, victim, "stack"))
    return 0


def _extra_play(s: State, seat: int, fx: Effects) -> bool:
    """A Skip's or Reverse's extra turn (``KindRule.extra_turn``): the player, if he
    has cards left, plays another card at once. Whether it was given."""
    if s._counts[seat] <= 0:
        return False
    s.phase = Phase.EXTRA
    s.actor = seat
    fx.append(E.shared(E.Prompt, seat, "extra_play"))
    return True


def _b_towers(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    for t in p.towers:
        capture(s, seat, t, fx)
    _b_move(s, seat, p, fx)
    four_tower_check(s, seat, fx)


def _b_attack(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    """Wild Attack-Attack: the target presses (twice); play goes on normally."""
    owe(s, fx, OWE_PRESS, p.target, kind_rule(s, p.card).draws)
    advance(s, 0)


def _b_extreme(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    """Extremer Zug: the target presses (four times) "and then passes" (loses his turn
    if he is next)."""
    owe(s, fx, OWE_PRESS, p.target, kind_rule(s, p.card).draws)
    if p.target == next_seat(s, 1 + s.skip_pending):
        fx.append(E.shared(E.PlayerSkipped, p.target))
        advance(s, 1)
    else:
        advance(s, 0)


def _b_all_hit(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    order = [(seat + s.direction * i) % s.n for i in range(1, s.n)]
    if s.options.all_hit_scope == "all":
        order.append(seat)
    presses = kind_rule(s, p.card).draws
    for victim in order:
        owe(s, fx, OWE_PRESS, victim, presses, TAG_ALL)
    advance(s, 0)


def trade(s: State, a: int, b: int, fx: Effects) -> None:
    """Seats `a` and `b` swap hands (Trade Hands, and a 7 under seven_zero)."""
    counts = s._counts
    counts[a], counts[b] = counts[b], counts[a]
    if not s.table:
        hands, masks = s._hands, s._masks
        hands[a], hands[b] = hands[b], hands[a]
        masks[a], masks[b] = masks[b], masks[a]
    if s.exposed in (a, b):
        s.exposed = -1
    fx.append(E.HandsTraded(a, b))


def _b_trade(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    if s._counts[seat] > 0:  # going out on Trade Hands ends the round: nothing to trade
        trade(s, seat, p.target, fx)
    advance(s, 0)


BEHAVIOUR: dict[str, Callable[[State, int, A.Play, Effects], None]] = {
    NUMBER: _b_number,
    DRAW1: _b_move,
    DRAW2: _b_move,
    SKIP: _b_move,
    REVERSE: _b_move,
    TAKE2: _b_towers,
    WILD_TAKE1: _b_towers,
    WILD: _b_move,
    WILD_DRAW4: _b_move,
    HIT2: _b_move,
    WILD_HIT4: _b_move,
    WILD_HIT_FIRE: _b_move,
    WILD_ATTACK: _b_attack,
    WILD_EXTREME: _b_extreme,
    WILD_ALL_HIT: _b_all_hit,
    TRADE_HANDS: _b_trade,
    DISCARD_ALL: _b_move,
}


def moves_only(kind: str) -> bool:
    """Whether playing a card of `kind` does what its rule's parameters say and no more
    (`_b_move`; a number's `_b_number` adds only its symbol's capture and the seven_zero
    swap, which the listings look at apart): the kinds ``listing.plain_ops`` may have
    ``engine.play_plain`` write (not All Hit, whose presses go round the table)."""
    return BEHAVIOUR[kind] in (_b_move, _b_number)
