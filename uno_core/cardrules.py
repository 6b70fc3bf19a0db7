"""What each card does when played: one small function per card kind (``BEHAVIOUR``).
Adding a card kind means adding a function here and a row in an edition's deck."""

from __future__ import annotations

from collections.abc import Callable

from uno_core import actions as A
from uno_core import effects as E
from uno_core.cards import (
    DISCARD_ALL,
    DRAW1,
    DRAW2,
    HIT2,
    NUMBER,
    PROTECTING_TOWER,
    REVERSE,
    SKIP,
    TAKE2,
    TOWER_INDEX,
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
from uno_core.house_stack import added, grow, stacks
from uno_core.house_swaps import swap_after, trade
from uno_core.state import (
    OWE_DRAW,
    OWE_PRESS,
    OWE_UNTIL,
    TAG_ALL,
    Owe,
    Phase,
    State,
)
from uno_core.turns import NOFX, Effects, advance, next_seat, owe


def capture(s: State, seat: int, tower: str, fx: Effects) -> None:
    i = TOWER_INDEX[tower]
    if s.towers[i] == seat:
        return
    towers = list(s.towers)
    towers[i] = seat
    s.towers = tuple(towers)
    fx.append(E.shared(E.TowerMoved, tower, seat))


def protected(s: State, victim: int, card: Card, fx: Effects) -> bool:
    tower = PROTECTING_TOWER.get(card.kind)
    if tower is None or not s.edition.towers or s.towers[TOWER_INDEX[tower]] != victim:
        return False
    fx.append(E.ProtectionUsed(victim, tower, card))
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
    if p.card.symbol and s.edition.towers:
        capture(s, seat, p.card.symbol, fx)
    if s.options.seven_zero:
        swap_after(s, seat, p.card, p.target, fx)
    advance(s, 0)
    if p.card.symbol:
        four_tower_check(s, seat, fx)


def _b_plain(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    advance(s, 0)


def _b_draw(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    victim = next_seat(s, 1 + s.skip_pending)
    if protected(s, victim, p.card, fx):
        s.stack = ()  # warded off: a plain card now, and a pending stack with it
        advance(s, 0)
        return
    _hit(s, seat, p, victim, OWE_DRAW, 1 if p.card.kind == DRAW1 else 2, stacks(s, p.card), fx)


def _hit(s: State, seat: int, p: A.Play, victim: int, kind: Owe, count: int, stacking: bool,
         fx: Effects) -> None:
    """A draw card's victim owes `count` cards or presses (`kind`) and is skipped; with
    stack_draws the count joins the stack instead, and the victim may answer."""
    if stacking:
        count = grow(s, seat, p.card, victim, fx)
        if not count:
            return
    owe(s, fx, kind, victim, count)
    if fx is not NOFX:
        fx.append(E.shared(E.PlayerSkipped, victim))
    advance(s, 1)


def _extra_turn(s: State) -> bool:
    return s.options.skip_reverse_extra_turn == "always" and s.n > 2


def _b_skip(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    victim = next_seat(s, 1 + s.skip_pending)
    if protected(s, victim, p.card, fx):
        advance(s, 0)
        return
    if fx is not NOFX:
        fx.append(E.shared(E.PlayerSkipped, victim))
    if _extra_play(s, seat, fx):
        s.skip_pending += 1  # the extra card's own effect skips on from the victim
        return
    advance(s, 1)


def _b_reverse(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    s.direction = -s.direction
    if fx is not NOFX:
        fx.append(E.shared(E.DirectionChanged, s.direction))
    if s.n == 2 and s.options.two_player_reverse_skips:
        fx.append(E.shared(E.PlayerSkipped, next_seat(s)))
        advance(s, 1)
        return
    if _extra_play(s, seat, fx):
        return
    advance(s, 0)


def _extra_play(s: State, seat: int, fx: Effects) -> bool:
    """A Skip's or Reverse's extra turn (option skip_reverse_extra_turn): the player, if he
    has cards left, plays another card at once. Whether it was given."""
    if not (_extra_turn(s) and s._counts[seat] > 0):
        return False
    s.phase = Phase.EXTRA
    s.actor = seat
    fx.append(E.shared(E.Prompt, seat, "extra_play"))
    return True


def _b_towers(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    for t in p.towers:
        capture(s, seat, t, fx)
    advance(s, 0)
    four_tower_check(s, seat, fx)


def _b_draw4(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    victim = next_seat(s, 1 + s.skip_pending)
    if protected(s, victim, p.card, fx):
        s.pending = ()
        s.stack = ()  # warded off: a plain card now, and a pending stack with it
        advance(s, 0)
        return
    stacking = stacks(s, p.card)
    o = s.options  # a +4 joining a pending stack is not challenged (stacked_draw4_challenge)
    if o.wild_draw4_restricted and not o.no_bluff and (not s.stack or o.stacked_draw4_challenge):
        # s.pending was set by _apply_play: (player, challenger, guilty)
        s.pending = (seat, victim, bool(s.pending and s.pending[2]))
        if stacking:  # the challenge comes first; then the victim stacks or takes
            s.stack = (added(s, 4), victim)
        s.phase = Phase.CHALLENGE
        s.actor = victim
        fx.append(E.shared(E.Prompt, victim, "challenge"))
        return
    s.pending = ()
    _hit(s, seat, p, victim, OWE_DRAW, 4, stacking, fx)


def _b_hit(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    victim = next_seat(s, 1 + s.skip_pending)
    kind = s.tables.custom_kind if p.card.kind == WILD_CUSTOM else p.card.kind
    if kind == WILD_HIT_FIRE:
        _hit(s, seat, p, victim, OWE_UNTIL, 0, False, fx)
    else:
        _hit(s, seat, p, victim, OWE_PRESS, 4 if kind == WILD_HIT4 else 2, stacks(s, p.card), fx)


def _b_attack(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    """Wild Attack-Attack: the target presses twice; play goes on normally."""
    owe(s, fx, OWE_PRESS, p.target, 2)
    advance(s, 0)


def _b_extreme(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    """Extremer Zug: the target presses four times "and then passes" (loses his turn if
    he is next)."""
    owe(s, fx, OWE_PRESS, p.target, 4)
    if p.target == next_seat(s, 1 + s.skip_pending):
        fx.append(E.shared(E.PlayerSkipped, p.target))
        advance(s, 1)
    else:
        advance(s, 0)


def _b_all_hit(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    order = [(seat + s.direction * i) % s.n for i in range(1, s.n)]
    if s.options.all_hit_scope == "all":
        order.append(seat)
    for victim in order:
        owe(s, fx, OWE_PRESS, victim, 1, TAG_ALL)
    advance(s, 0)


def _b_trade(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    if s._counts[seat] > 0:  # going out on Trade Hands ends the round: nothing to trade
        trade(s, seat, p.target, fx)
    advance(s, 0)


BEHAVIOUR: dict[str, Callable[[State, int, A.Play, Effects], None]] = {
    NUMBER: _b_number,
    DRAW1: _b_draw,
    DRAW2: _b_draw,
    SKIP: _b_skip,
    REVERSE: _b_reverse,
    TAKE2: _b_towers,
    WILD_TAKE1: _b_towers,
    WILD: _b_plain,
    WILD_DRAW4: _b_draw4,
    HIT2: _b_hit,
    WILD_HIT4: _b_hit,
    WILD_HIT_FIRE: _b_hit,
    WILD_ATTACK: _b_attack,
    WILD_EXTREME: _b_extreme,
    WILD_ALL_HIT: _b_all_hit,
    TRADE_HANDS: _b_trade,
    DISCARD_ALL: _b_plain,
}
