"""The referee: ``legal_actions(state)`` and ``apply(state, action) -> (state, effects)``.

``apply`` validates the action completely (the same predicates ``legal_actions`` uses;
an action found in the listing of this very state, ``listing.plain_listing``, is legal
by membership) and raises ``IllegalAction`` naming the rule it breaks before it writes
anything; only then does it change `state` in place and return it with the effects. Keep
``state.clone()`` if you need the state before. ``apply(..., effects=False)`` builds no
effects (simulation). The parts: ``tables`` (precomputed match masks), ``cardrules``
(what each card kind does, ``BEHAVIOUR``), ``turns`` (turn order, owed draws and
presses, dealing, first cards, scoring); edition differences are data
(``uno_core.editions``) and options (``uno_core.options``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from uno_core import actions as A
from uno_core import effects as E
from uno_core.actions import CHANCE, MAX_SEATS, Action
from uno_core.cardrules import (
    BEHAVIOUR,
    capture,
    carry_out,
    four_tower_check,
)
from uno_core.cards import (
    BY_ID,
    COLOURS,
    NUMBER,
    TOWERS,
    TRADE_HANDS,
    Card,
)
from uno_core.editions import HIGHEST_STARTS, Edition, get_edition
from uno_core.errors import IllegalAction, SetupError
from uno_core.house_draw import drawing
from uno_core.house_jump import jumpers, take_over
from uno_core.house_jump import refusal as jump_refusal
from uno_core.house_penalties import (
    calls_ahead,
    draws_with_playable,
    false_call,
    false_play_call,
    owe_penalty,
    punish_call,
    punish_draw,
    punish_finish,
)
from uno_core.house_rules import FINISH_BANS, allowed, must_play_drawn, play_refusal
from uno_core.house_stack import accepted, take, taken
from uno_core.house_swaps import b_number
from uno_core.kinds import PLAIN, PLUS4_WILDS, TARGETED
from uno_core.listed import (
    OP_BITS,
    OP_CHALLENGE,
    OP_DRAW,
    OP_PASS,
    OP_PLAY,
    OP_PRESS,
    PASS,
    PRESS,
    lazy_listing,
)
from uno_core.listing import (
    OP_MOVE,
    OP_SYMBOL,
    PLAIN_VARIANTS,
    cached_variants,
    decisions_for,
    faces_of,
    listed_actions,
    plain_listing,
    play_variants,
    variant_map,
)
from uno_core.matching import (
    SWAP_NUMBERS,
    free_towers,
    gives_hand_away,
    kind_rule,
    match_mask,
    needs_target,
    playable_mask,
    symbol_forbid,
    tower_count,
)
from uno_core.options import AT_PLAY, make_options
from uno_core.state import (
    DRAWN,
    EJECT,
    EXTRA,
    MATCH_OVER,
    MODES,
    NO_CHANCE,
    OWE_DRAW,
    OWE_PRESS,
    OWE_UNTIL,
    PLAY,
    TABLE,
    TAG_PENALTY,
    TAG_TURN,
    Chance,
    Phase,
    State,
    obligation,
)
from uno_core.tables import barred, mask_of, tables_for
from uno_core.turns import (
    NOFX,
    PLAY_DRAWN_PROMPT,
    Effects,
    advance,
    after_turn_draw,
    ask_house_rules,
    card_rank,
    check_deal,
    check_unseen,
    deal,
    fits_drawn,
    give,
    hand_points,
    owe,
    remove,
    round_over,
    set_hand,
    settle,
    start_round,
    start_with,
    turn_first_card,
    unseen_add,
    unseen_take,
)

__all__ = ["apply", "legal_actions", "new_match", "replay", "hand_points", "costs_penalty"]


def new_match(edition: str | Edition, seats: int, options: Mapping[str, object] | None = None,
              mode: str = "simulation") -> State:
    """A match before dealer selection: the chance player must supply ``DealerCards``."""
    ed = get_edition(edition)
    if isinstance(seats, bool) or not isinstance(seats, int) or not (
            ed.min_players <= seats <= ed.max_players):
        raise SetupError("seat_count", edition=ed.name, low=ed.min_players,
                         high=ed.max_players, given=seats)
    if mode not in MODES:
        raise SetupError("unknown_mode", given=mode, known=tuple(MODES))
    opts = make_options(ed, options)
    s = State.__new__(State)
    s.edition = ed
    s.options = opts
    s.tables = tables_for(ed, opts)
    s.table = mode == TABLE
    s.n = seats
    s._hands = [[] for _ in range(seats)]
    s._masks = [0] * seats
    s._counts = [0] * seats
    s._pile = []
    s._pcount = 0
    s._disc = []
    s.colour = ""
    s.direction = 1
    s.dealer = -1
    s.turn = -1
    s.actor = -1
    s.phase = Phase.DEALER
    s.to_act = CHANCE
    s.chance = Chance.DEALER_CARDS
    s._queue = []
    s.drawn = ()
    s.towers = (-1, -1, -1, -1)
    s.exposed = -1
    s.uno_ahead = -1
    s.skip_pending = 0
    s.pending = ()
    s.out = -1
    s.scores = (0,) * seats
    s.round_no = 0
    s._unseen = {}
    s.since_eject = 0
    s.winners = ()
    s.entered = (False,) * seats
    s.colour_only = False
    s.stack = ()
    s._listed = None
    s._decisions = None if s.table else decisions_for(s.tables, seats)
    s._lazy = lazy_listing()
    return s


_PLAY_PHASES = frozenset((PLAY, DRAWN, EXTRA))  # the members: found by identity


# -- validation: raise IllegalAction or return; never write ---------------------------

def _check_play(s: State, p: A.Play, jump: bool = False) -> bool:
    """Raise IllegalAction unless `p` is legal; `jump`: a jump-in (jump_in) whose
    out-of-turn part house_jump has checked. True: `p` is a try to go out on a banned
    card that costs banned_finish_penalty instead (``house_penalties``)."""
    seat = p.seat
    if not jump and (seat != s.to_act or seat != s.actor or s._queue
                     or s.phase not in _PLAY_PHASES):
        raise IllegalAction(p, "not_your_turn", seat=seat, to_act=s.to_act, phase=s.phase)
    card = p.card
    if type(card) is not Card:
        raise IllegalAction(p, "not_a_card", card=card)
    tb = s.tables
    if s.table:
        if s._unseen.get(card, 0) <= 0:
            raise IllegalAction(p, "all_seen", card=card)
        if s._counts[seat] < 1 + len(p.laid):
            raise IllegalAction(p, "holds_only", seat=seat, count=s._counts[seat])
    else:
        if not s._masks[seat] & card.bit:
            raise IllegalAction(p, "not_held", seat=seat, card=card)
        if s.phase == "drawn" and card not in s.drawn and not jump:
            raise IllegalAction(p, "drawn_only")
    if not match_mask(s) & card.bit:
        top = s._disc[-1]
        if card.kind == symbol_forbid(s):
            raise IllegalAction(p, "symbol", card=card, symbol=top.symbol, top=top)
        if s.colour_only:
            raise IllegalAction(p, "turned_first", top=top, colour=s.colour, card=card)
        raise IllegalAction(p, "no_match", card=card, colour=s.colour, top=top)
    if (card.bit & tb.restricted_bits and not s.table
            and card.bit & barred(tb, s._masks[seat], s.colour)):
        raise IllegalAction(p, "wild_restricted", colour=s.colour)
    if card.colour == "":
        if p.colour not in COLOURS:
            raise IllegalAction(p, "wild_colour")
    elif p.colour:
        raise IllegalAction(p, "colour_not_wild")
    if s.tables.house:
        why = play_refusal(s, p)  # issue 12's house rules (uno_core.house_rules)
        if why:
            if (not jump and s.options.banned_finish_penalty and why.key in FINISH_BANS
                    and not s.stack):  # a pending stack blocks the finish, free of charge
                return True
            raise IllegalAction(p, why.key, **why.values)
    if (card.kind in PLAIN_VARIANTS and p.target == -1 and not p.towers and not p.laid
            and not needs_target(s, card)):
        if p.uno and s._counts[seat] != 2 and not false_play_call(s, s._counts[seat] - 1):
            raise IllegalAction(p, "uno_count", count=s._counts[seat] - 1)
        return False
    _check_choices(s, p)
    return False


def _check_choices(s: State, p: A.Play) -> None:
    """The choices of a card: target seat, towers, laid cards, UNO."""
    card = p.card
    seat = p.seat
    kind = s.tables.kinds[card.id]
    if kind in TARGETED or needs_target(s, card):
        if not (0 <= p.target < s.n) or p.target == seat:
            raise IllegalAction(p, "target", card=card, seat=seat)
    elif p.target != -1:
        raise IllegalAction(p, "no_target", card=card)
    want = tower_count(s, card)
    if want and s.edition.towers:
        free = free_towers(s, seat)
        need = min(want, len(free))
        if len(p.towers) != need or len(set(p.towers)) != need or not set(p.towers) <= set(free):
            raise IllegalAction(p, "towers", card=card, count=need, towers=tuple(free))
    elif p.towers:
        raise IllegalAction(p, "no_towers", card=card)
    if kind_rule(s, card).lays:  # Discard All
        if s.table:
            bad = [c for c in p.laid if c.colour != card.colour]
            if bad:
                raise IllegalAction(p, "discard_colour", colour=card.colour, card=bad[0])
            need_unseen = Counter(p.laid)
            need_unseen[card] += 1
            for c, k in need_unseen.items():
                if s._unseen.get(c, 0) < k:
                    raise IllegalAction(p, "not_enough_unseen", card=c)
        else:
            rest = remove(s.hand(seat), (card,))
            expect = Counter(c for c in rest if c.colour == card.colour)
            if Counter(p.laid) != expect:
                raise IllegalAction(p, "discard_all", colour=card.colour,
                                     cards=tuple(sorted(expect.elements(), key=Card.sort_key)))
    elif p.laid:
        raise IllegalAction(p, "lays_none", card=card)
    left = s._counts[seat] - 1 - len(p.laid)
    if p.uno and left != 1 and not false_play_call(s, left):
        raise IllegalAction(p, "uno_count", count=left)


def _check_seat(s: State, action: Action, phases: tuple[str, ...], key: str) -> None:
    if s.phase not in phases or s._queue or action.seat != s.to_act or s.to_act != s.actor:
        raise IllegalAction(action, key, to_act=s.to_act, phase=s.phase)


def _can_draw(s: State, seat: int) -> bool:
    if drawing(s) and not s._queue and s.to_act == seat == s.actor:
        return s.table or not _drawn_playable(s, seat)  # draw_until_playable: again
    if not (s.phase == "play" and not s._queue and s.to_act == seat == s.actor):
        return False
    if s.options.draw_when_playable or s.table or s.stack:
        return True
    m = playable_mask(s, seat, s._masks[seat])
    return not m or s.tables.house and not allowed(s, seat, faces_of(m))


def _drawn_playable(s: State, seat: int) -> list[Card]:
    """The drawn cards `seat` may play now (simulation), the house rules applied."""
    return allowed(s, seat, faces_of(playable_mask(s, seat, mask_of(s.drawn))))


# -- plays ------------------------------------------------------------------------------

def play_plain(s: State, p: A.Play, op: int, fx: Effects) -> None:
    """`play` for the plain turn's common cards, written out: simulation, the seat to act
    (phase "play", nothing owed, no UNO window, not a turned Take-2-Towers' colour-only
    turn) plays a card listed with `op` (``plain_ops``: OP_PLAIN, a card that only
    passes the turn on; OP_MOVE, one whose rule at the table, ``Tables.rules``, turns
    the direction, skips the victim and has him take cards from the pile, or on a
    launcher edition owe its presses: ``cardrules.carry_out``), no tower at stake
    (but a Power number's symbol, `OP_SYMBOL`), and keeps two cards or more, or one
    with the UNO call. It must be legal."""
    seat = p.seat
    card = p.card
    if s.drawn:  # phase "drawn": the drawn card is played, the turn's draw is over
        s.drawn = ()
        s.phase = PLAY
    hand = s._hands[seat]
    i = card.id
    hand.remove(i)
    if i not in hand:
        s._masks[seat] ^= card.bit
    s._counts[seat] -= 1
    s._disc.append(card)
    if fx is not NOFX:
        fx.append(_PLAYED[seat].get(card) or _played(seat, card))
        if not card.colour:
            fx.append(_COLOUR_CHOSEN[seat][p.colour])
        if p.uno:
            fx.append(_UNO_CALLED[seat])
    s.colour = card.colour or p.colour  # (phase "play": nothing is pending or drawn)
    step = 1 + s.skip_pending
    if op == OP_MOVE:  # the card's rule (plain_ops: it never gives the turn elsewhere)
        step += carry_out(s, seat, s.tables.rules[s.n][i], card, fx)
    s.turn = s.actor = t = (s.turn + s.direction * step) % s.n
    s.skip_pending = 0
    if op == OP_SYMBOL:  # Power: the symbol captures its tower (cardrules._b_number)
        capture(s, seat, card.symbol, fx)
        if four_tower_check(s, seat, fx):
            settle(s, fx)
            return
    if s.out < 0 and s._pile and not s._queue:
        s.chance = NO_CHANCE  # settle's quiet case (nothing owed, no UNO window: as before)
        s.to_act = t
        return
    settle(s, fx)


# play_plain's effects per seat, made once (effects are immutable values)
_COLOUR_CHOSEN = tuple({c: E.ColourChosen(seat, c) for c in COLOURS} for seat in range(MAX_SEATS))
_UNO_CALLED = tuple(E.UnoCalled(seat) for seat in range(MAX_SEATS))


def play(s: State, p: A.Play, fx: Effects) -> None:
    """The writing half of a play: `p` must be legal (checked, or listed for `s`)."""
    s._listed = None
    seat = p.seat
    card = p.card
    if s.exposed >= 0:
        _close_window(s, seat)
    ahead = s.uno_ahead == seat  # called before this play (house_penalties.calls_ahead)
    if s.uno_ahead >= 0:
        s.uno_ahead = -1  # a call ahead counts for the very next play only
    rule = s.tables.rules[s.n][card.id]
    laid = p.laid
    guilty = False
    if s.table:
        unseen_take(s, laid + (card,))
        s._counts[seat] -= 1 + len(laid)
        left = s._counts[seat]
    else:
        hand = s._hands[seat]
        i = card.id
        hand.remove(i)
        if laid:
            for c in laid:
                hand.remove(c.id)
            s._masks[seat] = mask_of(map(BY_ID.__getitem__, hand))
        elif i not in hand:
            s._masks[seat] ^= card.bit
        s._counts[seat] = left = len(hand)
        if rule.challenge:
            guilty = bool(s._masks[seat] & s.tables.colour_bits[s.colour])
    if laid:
        s._disc.extend(laid)
        fx.append(E.CardsLaid(seat, laid))
    s._disc.append(card)
    if card.colour:
        s.colour = card.colour
        if fx is not NOFX:
            fx.append(_PLAYED[seat].get(card) or _played(seat, card))
    else:
        s.colour = p.colour
        if fx is not NOFX:
            fx.append(_PLAYED[seat].get(card) or _played(seat, card))
            fx.append(_COLOUR_CHOSEN[seat][p.colour])
    if left < 2:
        if ahead and not p.uno:
            pass  # UNO was called just before this play: no window opens
        elif left:
            # a Trade Hands (a 7 or 0 under seven_zero) swaps the last card away:
            # nothing to call, as its catch window
            _one_card_left(s, seat, p.uno, fx,
                           s.tables.kinds[card.id] != TRADE_HANDS and not gives_hand_away(s, card))
        else:
            s.out = seat
    elif p.uno:  # a false call that false_uno_penalty lets through (house_penalties)
        fx.append(E.UnoPenalty(seat, E.BY_TABLE))
        owe_penalty(s, seat, s.options.false_uno_penalty, fx)
    if rule.challenge:  # the victim may challenge (cardrules._b_move)
        s.pending = (seat, -1, guilty)
    elif s.pending:
        s.pending = ()
    if s.drawn:
        s.drawn = ()
    s.colour_only = False
    if rule is PLAIN and not card.symbol and not (
            s.options.seven_zero and card.number in SWAP_NUMBERS):
        # the common case: the card only passes the turn on (cardrules._b_move)
        s.turn = s.actor = t = (s.turn + s.direction * (1 + s.skip_pending)) % s.n
        s.skip_pending = 0
        s.phase = PLAY
        if (not s._queue and s.out < 0 and s.exposed < 0
                and (s._pcount if s.table else s._pile)):
            s.chance = NO_CHANCE  # settle's quiet case
            s.to_act = t
            return
    else:
        _BEHAVIOUR[s.tables.kinds[card.id]](s, seat, p, fx)
    settle(s, fx)


ask_house_rules(allowed)  # the turn machinery asks the house rules about drawn cards

# each kind's behaviour (cardrules.BEHAVIOUR), a number's with the house rules' 7-0 swap
_BEHAVIOUR = {**BEHAVIOUR, NUMBER: b_number}


def _try_banned_finish(s: State, seat: int, fx: Effects) -> None:
    """banned_finish_penalty: `seat` tried to go out on a banned card (house_penalties)."""
    if s.exposed >= 0:
        _close_window(s, seat)
    punish_finish(s, seat, fx)


def costs_penalty(state: State, action: Action) -> bool:
    """Whether ``apply`` takes `action` as a mistake that costs a penalty instead of
    refusing it (``uno_core.house_penalties``); ``legal_actions`` lists none of them."""
    s = state
    if not s.tables.house or s.to_act == CHANCE:
        return False
    kind = type(action)
    if kind is A.CallUno:
        return s.exposed != action.seat and false_call(s, action.seat)
    if kind is A.Draw or kind is A.Press:
        return (kind is A.Press) == s.edition.launcher and draws_with_playable(s, action.seat)
    if kind is not A.Play:
        return False
    p: A.Play = action  # type: ignore[assignment]
    jump = p.seat != s.to_act and s.options.jump_in
    try:
        if jump and jump_refusal(s, p):
            return False
        banned = _check_play(s, p, jump)
    except IllegalAction:
        return False
    return banned or (p.uno and false_play_call(s, s._counts[p.seat] - 1 - len(p.laid)))


def _jump_in(s: State, p: A.Play, fx: Effects) -> None:
    """jump_in: a seat not to act plays the top card's twin; play goes on from it."""
    why = jump_refusal(s, p)
    if why:
        raise IllegalAction(p, why.key, **why.values)
    _check_play(s, p, jump=True)
    take_over(s, p.seat)
    play(s, p, fx)


def _jump_ins(s: State) -> list[A.Play]:
    """The jump-ins legal now (jump_in): the top card's plays by each seat that may."""
    out = []
    for seat in jumpers(s):
        for p in play_variants(s, seat, s._disc[-1]):
            try:
                _check_play(s, p, jump=True)
            except IllegalAction:
                continue
            out.append(p)
    return out


def _one_card_left(s: State, seat: int, called: bool, fx: Effects, keeps: bool = True) -> None:
    """`seat` was left with one card by its own play: UNO was called with it, or the
    penalty is owed at once (forgotten_uno "at_play"; not if the play gives the card
    away, `keeps` False), or the seat is open to a catch."""
    if called:
        if fx is not NOFX:
            fx.append(E.shared(E.UnoCalled, seat))
    elif s.options.forgotten_uno == AT_PLAY:
        if not keeps:
            return
        fx.append(E.UnoPenalty(seat, E.BY_TABLE))
        if s.options.uno_penalty:
            owe(s, fx, OWE_DRAW, seat, s.options.uno_penalty, TAG_PENALTY, front=True)
    else:
        s.exposed = seat


def _close_window(s: State, seat: int) -> None:
    """`seat` acts on its turn while a forgotten UNO is open (the caller tested
    ``s.exposed >= 0``, so the usual turn pays nothing more): the window closes unless
    `seat` is the player who forgot (seed 000: until the next player starts a turn)."""
    if seat != s.exposed:
        s.exposed = -1


def _no_window(s: State, a: A.CallUno | A.Catch) -> IllegalAction:
    if s.options.forgotten_uno == AT_PLAY:
        return IllegalAction(a, "uno_at_play")
    if isinstance(a, A.CallUno):
        return IllegalAction(a, "nothing_to_call", seat=a.seat)
    return IllegalAction(a, "no_catch", seat=a.target)


_PLAYED: list[dict[Card, E.CardPlayed]] = [{} for _ in range(MAX_SEATS)]  # per seat


def _played(seat: int, card: Card) -> E.CardPlayed:
    """The CardPlayed effect, made once per (seat, card): effects are immutable."""
    found = _PLAYED[seat][card] = E.CardPlayed(seat, card)
    return found


def _resolve_challenge(s: State, guilty: bool, fx: Effects) -> None:
    assert s.pending
    player, challenger = s.pending[0], s.pending[1]
    s.pending = ()
    fx.append(E.shared(E.ChallengeResolved, challenger, player, guilty))
    s.turn = player
    # the +4's draws (on top still); stack_draws: the challenge is about the whole stack
    count = taken(s, kind_rule(s, s._disc[-1]).draws)
    if guilty:
        owe(s, fx, OWE_DRAW, player, count)
        advance(s, 0)
    else:
        owe(s, fx, OWE_DRAW, challenger, count + 2)
        fx.append(E.shared(E.PlayerSkipped, challenger))
        advance(s, 1)


def _apply_draw(s: State, a: A.Draw | A.Press, fx: Effects) -> None:
    """Draw (pile) or press (launcher) on one's turn, or a press one owes."""
    seat = a.seat
    queue = s._queue
    if type(a) is A.Press and queue and s.to_act == seat:
        if queue[0][0] is OWE_DRAW or queue[0][1] != seat:
            raise IllegalAction(a, "no_press")
        _press_owed(s, a, fx)
        return
    launcher = s.tables.launcher  # (a field: Edition.launcher is a property)
    if (type(a) is A.Draw) == launcher:
        raise IllegalAction(a, "draw_by_press" if launcher else "draw_from_pile")
    if s.tables.house and draws_with_playable(s, seat):  # playable_draw_penalty
        if s.exposed >= 0:
            _close_window(s, seat)
        punish_draw(s, seat, fx)
        return
    if not _can_draw(s, seat):
        if s.phase == "play" and s.to_act == seat:
            raise IllegalAction(a, "draw_only_stuck")
        raise IllegalAction(a, "no_draw", seat=seat, to_act=s.to_act, phase=s.phase)
    if s.stack:  # stack_draws: not stacking is taking the total
        take(s, seat, fx)
        return
    draw(s, seat, fx)


def _press_owed(s: State, a: Action, fx: Effects) -> None:
    """The writing half of a press the seat to act owes: the launcher ejects next."""
    if s.exposed >= 0:
        _close_window(s, a.seat)
    s.to_act = CHANCE
    s.chance = EJECT
    fx.append(_EJECT_PROMPT)


def draw(s: State, seat: int, fx: Effects) -> None:
    """The writing half of a turn's draw or press: it must be legal (its callers hold
    no listing for `s`)."""
    if s.exposed >= 0:
        _close_window(s, seat)
    if s.uno_ahead >= 0:
        s.uno_ahead = -1  # a seat that draws has not laid its second-last card
    pile = s._pile
    if pile and not s.tables.launcher and not s.options.draw_until_playable:
        # simulation (a table-mode pile is empty), a pile edition: the usual draw
        card = pile.pop()
        s._hands[seat].append(card.id)
        s._masks[seat] |= card.bit
        s._counts[seat] += 1
        if fx is not NOFX:
            fx.append(_DISPENSE_ONE[seat])
        if ((s.options.draw_then_play or s.options.forced_play)
                and fits_drawn(s, seat, (card,), card.bit)):
            s.drawn = (card,)  # after_turn_draw: the drawn card may be played
            s.phase = DRAWN
            s.actor = seat
            fx.append(PLAY_DRAWN_PROMPT[seat])
            settle(s, fx)
            return
        # a legal draw: phase "play", nothing owed or drawn (the phase stays "play")
        s.turn = s.actor = t = (s.turn + s.direction * (1 + s.skip_pending)) % s.n
        s.skip_pending = 0
        s.colour_only = False
        if s.out < 0 and s.exposed < 0 and pile:
            s.chance = NO_CHANCE  # settle's quiet case
            s.to_act = t
            return
        settle(s, fx)
        return
    s.drawn = ()
    if s.tables.launcher:  # (Edition.launcher, a property, read once into the tables)
        s._queue = [_TURN_PRESS[seat]]
        s.to_act = CHANCE
        s.chance = EJECT
        fx.append(_EJECT_PROMPT)
        return
    if s._pile or (s.table and s._pcount):  # the usual case: no reshuffle needed first
        s.drawn = give(s, seat, 1)
        fx.append(_DISPENSE_ONE[seat])
        after_turn_draw(s, seat, 1, fx)
    else:
        s._queue = [obligation(OWE_DRAW, seat, 1, TAG_TURN)]
    settle(s, fx)


_DISPENSE_ONE = tuple(E.Dispense(seat, 1) for seat in range(MAX_SEATS))
_EJECT_PROMPT = E.Prompt(CHANCE, "eject")
_TURN_PRESS = tuple(obligation(OWE_PRESS, seat, 1, TAG_TURN) for seat in range(MAX_SEATS))
_EJECTED = tuple(tuple(E.Ejected(seat, k) for k in range(8)) for seat in range(MAX_SEATS))


# -- the other seat actions -------------------------------------------------------------

def _apply_pass(s: State, a: A.Pass, fx: Effects) -> None:
    _check_seat(s, a, ("drawn", "extra", "four_towers"), "pass_not_now")
    if drawing(s):
        raise IllegalAction(a, "draw_until")
    if s.options.forced_play and must_play_drawn(s, _drawn_playable(s, a.seat)):
        raise IllegalAction(a, "forced_play")
    _pass(s, a, fx)


def _pass(s: State, a: Action, fx: Effects) -> None:
    if s.phase == "four_towers":
        s.phase = PLAY
        s.actor = s.turn
    else:
        advance(s, 0)
    settle(s, fx)


def _apply_call_uno(s: State, a: A.CallUno, fx: Effects) -> None:
    if s.exposed != a.seat:
        if calls_ahead(s, a.seat):  # two cards, on its turn: the seed's moment to call
            s.uno_ahead = a.seat
            fx.append(E.shared(E.UnoCalled, a.seat))
            return
        if false_call(s, a.seat):  # false_uno_penalty (house_penalties)
            punish_call(s, a.seat, fx)
            return
        raise _no_window(s, a)
    s.exposed = -1
    fx.append(E.shared(E.UnoCalled, a.seat))


def _apply_catch(s: State, a: A.Catch, fx: Effects) -> None:
    if s.exposed != a.target or a.target < 0:
        raise _no_window(s, a)
    if a.seat == a.target or not 0 <= a.seat < s.n:
        raise IllegalAction(a, "catch_self")
    s.exposed = -1
    fx.append(E.UnoPenalty(a.target, a.seat))
    if s.options.uno_penalty:
        owe(s, fx, OWE_DRAW, a.target, s.options.uno_penalty, TAG_PENALTY, front=True)
    settle(s, fx)


def _apply_challenge(s: State, a: A.Challenge | A.Accept, fx: Effects) -> None:
    _check_seat(s, a, ("challenge",), "challenge_not_now")
    _challenge(s, a, fx)


def _challenge(s: State, a: Action, fx: Effects) -> None:
    if s.exposed >= 0:
        _close_window(s, a.seat)
    if isinstance(a, A.Accept):
        player = s.pending[0] if s.pending else s.turn
        s.pending = ()
        count = accepted(s, player)  # stack_draws: 0, the seat now stacks or takes
        if not count:
            settle(s, fx)
            return
        s.turn = player
        owe(s, fx, OWE_DRAW, a.seat, count)
        fx.append(E.shared(E.PlayerSkipped, a.seat))
        advance(s, 1)
    elif s.table:
        s.phase = Phase.VERDICT
        fx.append(E.Prompt(a.seat, "verdict"))
        return
    else:
        _resolve_challenge(s, bool(s.pending and s.pending[2]), fx)
    settle(s, fx)


def _apply_verdict(s: State, a: A.Verdict, fx: Effects) -> None:
    _check_seat(s, a, ("verdict",), "verdict_not_now")
    _resolve_challenge(s, a.guilty, fx)
    settle(s, fx)


def _apply_choose_colour(s: State, a: A.ChooseColour, fx: Effects) -> None:
    _check_seat(s, a, ("first_colour",), "first_colour_not_now")
    if a.colour not in COLOURS:
        raise IllegalAction(a, "colour_choice")
    s.colour = a.colour
    s.phase = PLAY
    fx.append(E.shared(E.ColourChosen, a.seat, a.colour))
    settle(s, fx)


def _apply_enter_hand(s: State, a: A.EnterHand, fx: Effects) -> None:
    _check_seat(s, a, ("hand_entry",), "hand_entry_not_now")
    if len(a.cards) != s._counts[a.seat]:
        raise IllegalAction(a, "hand_count", seat=a.seat, count=s._counts[a.seat],
                            given=len(a.cards))
    check_unseen(s, a.cards, a, "hand_entry_public")
    unseen_take(s, a.cards)
    s._hands[a.seat] = [c.id for c in a.cards]
    s._masks[a.seat] = mask_of(a.cards)
    entered = list(s.entered)
    entered[a.seat] = True
    s.entered = tuple(entered)
    round_over(s, fx)


def _apply_four_towers(s: State, a: A.FourTowerDiscard, fx: Effects) -> None:
    _check_seat(s, a, ("four_towers",), "four_towers_not_now")
    seat = a.seat
    if s.table:
        if len(a.laid) != s._counts[seat] - 1:
            raise IllegalAction(a, "all_but_one", count=s._counts[seat] - 1)
        check_unseen(s, a.laid, a, "four_towers_public")
        unseen_take(s, a.laid)
        s._counts[seat] = 1
    else:
        hand = s.hand(seat)
        try:
            rest = remove(hand, a.laid)
        except ValueError:
            raise IllegalAction(a, "not_all_held", seat=seat) from None
        if len(rest) != 1:
            raise IllegalAction(a, "all_but_one", count=len(hand) - 1)
        set_hand(s, seat, rest)
    # the laid cards go under the top card: out of play until the next reshuffle
    s._disc[-1:-1] = a.laid
    fx.append(E.CardsLaid(seat, a.laid))
    for t in TOWERS:
        fx.append(E.TowerMoved(t, E.NEUTRAL))
    s.towers = (-1, -1, -1, -1)
    _one_card_left(s, seat, a.uno, fx)
    s.phase = PLAY
    s.actor = s.turn
    settle(s, fx)


# -- chance -----------------------------------------------------------------------------

def _apply_chance(s: State, a: Action, fx: Effects) -> None:
    if s.to_act != CHANCE:
        raise IllegalAction(a, "no_chance", to_act=s.to_act)
    need = s.chance
    if need != a.name:
        raise IllegalAction(a, "wrong_chance", chance=need)
    handler = _CHANCE_APPLY.get(type(a))
    if handler is None:  # a subclass of a chance action
        handler = next(h for k, h in _CHANCE_APPLY.items() if isinstance(a, k))
    handler(s, a, fx)


def _apply_reveal(s: State, a: A.Reveal, fx: Effects) -> None:
    if s._unseen.get(a.card, 0) <= 0:
        raise IllegalAction(a, "not_unseen", card=a.card)
    if a.card.kind in PLUS4_WILDS:
        fx.append(E.CardReturned(a.card))
        return
    unseen_take(s, (a.card,))
    s._pcount -= 1
    s.chance = NO_CHANCE
    start_with(s, a.card, fx)


def _apply_dealer_cards(s: State, a: A.DealerCards, fx: Effects) -> None:
    if len(a.cards) != s.n:
        raise IllegalAction(a, "dealer_count", seats=s.n, count=len(a.cards))
    have = Counter(s.edition.deck)
    for c, k in Counter(a.cards).items():
        if have[c] < k:
            raise IllegalAction(a, "deck_has_only", edition=s.edition.name, count=have[c], card=c)
    ranks = [card_rank(c) for c in a.cards]
    best = max(ranks)
    if ranks.count(best) > 1:
        fx.append(E.Prompt(CHANCE, "dealer_cards"))  # a tie: everyone turns again
        return
    high = ranks.index(best)
    s.dealer = (high - 1) % s.n if s.edition.dealer_rule == HIGHEST_STARTS else high
    fx.append(E.DealerChosen(s.dealer))
    start_round(s, fx)


_INDICES: dict[int, frozenset[int]] = {}


def _indices(n: int) -> frozenset[int]:
    found = _INDICES.get(n)
    if found is None:
        found = _INDICES[n] = frozenset(range(n))
    return found


def _apply_shuffle(s: State, a: A.Shuffle, fx: Effects) -> None:
    size = len(s.edition.deck) if s.phase == "shuffle" else len(s._disc) - 1
    if s.table:
        if a.order:
            raise IllegalAction(a, "shuffle_unknown")
    elif len(a.order) != size or set(a.order) != _indices(size):
        raise IllegalAction(a, "shuffle_order", last=size - 1)
    shuffle(s, a.order, fx)


def shuffle(s: State, order: Sequence[int], fx: Effects) -> None:
    """The writing half of a Shuffle: the deck (a round's start, then the deal and the
    first card) or the discard pile under its top card goes onto the pile in `order`, a
    permutation of their indices (table mode: unknown, empty). The simulation kernel
    calls it directly."""
    starting = s.phase == "shuffle"
    cards = s.edition.deck if starting else s._disc[:-1]
    if starting:
        check_deal(s)
        if s.table:  # (simulation: the deal sets the hands)
            s._hands = [[] for _ in range(s.n)]
            s._masks = [0] * s.n
        s._disc = []
        s._pile = []
    if s.table:
        if starting:
            s._unseen = dict(Counter(cards))
        else:
            unseen_add(s, cards)
        s._pcount = len(cards)
    else:  # one C call (half a comprehension's time); itemgetter of one index is no tuple
        s._pile[:0] = itemgetter(*order)(cards) if len(order) > 1 else [cards[i] for i in order]
    s.chance = NO_CHANCE
    if starting:
        deal(s, fx)
        turn_first_card(s, fx)
        return
    del s._disc[:-1]
    fx.append(E.Reshuffled(len(cards)))
    settle(s, fx)


def _apply_eject(s: State, a: A.Eject, fx: Effects) -> None:
    count = a.count
    if (type(count) is not int and (isinstance(count, bool) or not isinstance(count, int))
            or count < 0):
        raise IllegalAction(a, "eject_count")
    left = s._pcount if s.table else len(s._pile)
    if count > left:
        raise IllegalAction(a, "launcher_holds", count=left)
    eject(s, count, fx)


def eject(s: State, count: int, fx: Effects) -> None:
    """The writing half of an Eject: the launcher gave `count` cards (no more than it
    holds) for the press first in the queue. The simulation kernel calls it directly."""
    queue = s._queue
    kind, seat, owed, tag = queue[0]
    if count:
        got = give(s, seat, count)
        s.since_eject = 0
        if tag is TAG_TURN:
            s.drawn = s.drawn + got
    else:
        s.since_eject += 1
    if fx is not NOFX:
        fx.append(_EJECTED[seat][count] if count < 8 else E.Ejected(seat, count))
    s.chance = NO_CHANCE
    if kind is OWE_UNTIL:
        done = count > 0
    else:
        owed -= 1
        done = owed <= 0
    if done:
        del queue[0]
        if tag is TAG_TURN:
            after_turn_draw(s, seat, count, fx)
    else:
        queue[0] = obligation(kind, seat, owed, tag)
    settle(s, fx)


_CHANCE_APPLY: dict[type, Callable[[State, Any, Effects], None]] = {
    A.Eject: _apply_eject, A.Shuffle: _apply_shuffle, A.DealerCards: _apply_dealer_cards,
    A.Reveal: _apply_reveal,
}
_SEAT_ACTIONS = {
    A.Pass: _apply_pass, A.CallUno: _apply_call_uno, A.Catch: _apply_catch,
    A.Challenge: _apply_challenge, A.Accept: _apply_challenge, A.Verdict: _apply_verdict,
    A.FourTowerDiscard: _apply_four_towers, A.ChooseColour: _apply_choose_colour,
    A.EnterHand: _apply_enter_hand,
}
_CHANCE_TYPES = (A.Shuffle, A.DealerCards, A.Reveal, A.Eject)


def apply(state: State, action: Action, effects: bool = True) -> tuple[State, list[E.Effect]]:
    """Apply `action` to `state` IN PLACE and return ``(state, effects)``, the effects in
    order (an empty list with ``effects=False``). An illegal action raises
    IllegalAction and leaves `state` exactly as it was."""
    s = state
    fx: Effects
    listing = s._listed  # what legal_actions listed for this very state, if it was asked
    if listing is not None:
        s._listed = None  # the state changes now (or the action is refused)
    elif type(action) is _EJECT:  # (a chance node lists nothing)
        if s.chance is EJECT:  # launcher editions: ~25 a round
            count = action.count
            if type(count) is int and 0 <= count <= (s._pcount if s.table else len(s._pile)):
                fx = [] if effects else NOFX
                eject(s, count, fx)
                return s, (fx if effects else [])
    elif type(action) in _LISTED_TYPES:
        listing = plain_listing(s)
    if listing is not None:
        # an action listed for the plain turn is legal as it stands (legal_actions is
        # the referee's one source of truth): only how to write it is left to look up
        op = listing.ops.get(id(action))
        if op is not None and op & listing.faces:  # listed: see Listing
            op &= OP_BITS
            fx = [] if effects else NOFX
            if op < OP_PLAY:
                play_plain(s, action, op, fx)  # type: ignore[arg-type]
            elif op == OP_PLAY:
                play(s, action, fx)  # type: ignore[arg-type]
            elif op == OP_DRAW:
                draw(s, action.seat, fx)
            else:
                _WRITERS[op](s, action, fx)
            return s, (fx if effects else [])
    if s.phase == MATCH_OVER:
        raise IllegalAction(action, "match_over")
    fx = [] if effects else NOFX
    kind = type(action)
    if kind is A.Play:
        if action.seat != s.to_act and s.options.jump_in:
            _jump_in(s, action, fx)  # type: ignore[arg-type]
        elif _check_play(s, action):  # type: ignore[arg-type]
            _try_banned_finish(s, action.seat, fx)
        else:
            play(s, action, fx)  # type: ignore[arg-type]
    elif (kind is A.Draw or kind is A.Press) and s.to_act != CHANCE:
        _apply_draw(s, action, fx)  # type: ignore[arg-type]
    elif isinstance(action, _CHANCE_TYPES):
        _apply_chance(s, action, fx)
    else:
        if s.to_act == CHANCE:
            raise IllegalAction(action, "chance_first", chance=s.chance)
        handler = _SEAT_ACTIONS.get(kind)
        if handler is None:
            raise IllegalAction(action, "not_an_action")
        handler(s, action, fx)  # type: ignore[operator]
    return s, (fx if effects else [])


# -- legal actions ----------------------------------------------------------------------

_WRITERS = {OP_PRESS: _press_owed, OP_PASS: _pass, OP_CHALLENGE: _challenge}
_EJECT = A.Eject
_LISTED_TYPES = frozenset({A.Play, A.Draw, A.Press, A.Pass, A.Challenge, A.Accept})


def legal_actions(state: State) -> list[Action]:
    """Every legal seat action now, including call/catch interjections by any seat
    and, with jump_in, the plays of the top card's twin by seats not to act.

    Plays are listed by card (in card-id order), each card's variants together. At a
    chance node (``state.to_act == CHANCE``) the outcomes are not listed (a shuffle
    has n! of them): use ``uno_core.chance.sample_outcome``. Table mode lists plays of
    every card that could still be in the hand (declarations); Discard All is listed
    without laid cards there.
    """
    s = state
    listing = s._listed or plain_listing(s)
    if listing is not None:
        s._listed = listing
        return list(listed_actions(listing, s))
    seat = s.to_act
    out: list[Action] = []
    if s.phase == "match_over":
        return out
    if seat >= 0:
        if s.phase in _PLAY_PHASES and not s._queue and seat == s.actor:
            if s.table:
                ok = match_mask(s)
                playable = [c for c, k in s._unseen.items() if k > 0 and c.bit & ok]
            else:
                faces = mask_of(s.drawn) if s.phase == "drawn" else s._masks[seat]
                playable = faces_of(playable_mask(s, seat, faces))
            if s.tables.house:
                playable = allowed(s, seat, playable)  # issue 12's house rules
            cache = variant_map(s, seat)
            for card in playable:
                out.extend(cached_variants(s, seat, card, cache))
            if drawing(s):  # draw_until_playable: the drawn card that fits, or draw again
                if s.table or not playable:
                    out.append(s.tables.draw_action[seat])
            elif s.phase != "play":
                if not must_play_drawn(s, playable):
                    out.append(PASS[seat])
            elif ((s.options.draw_when_playable and not s.options.playable_draw_penalty)
                  or s.table or not playable or s.stack):
                out.append(s.tables.draw_action[seat])
        elif s._queue:
            out.append(PRESS[seat])
        elif s.phase == "challenge":
            out.extend((A.Challenge(seat), A.Accept(seat)))
        elif s.phase == "verdict":
            out.extend((A.Verdict(seat, True), A.Verdict(seat, False)))
        elif s.phase == "first_colour":
            out.extend(A.ChooseColour(seat, c) for c in COLOURS)
        elif s.phase == "four_towers":
            if s.table:
                out.append(A.Pass(seat))
            else:
                hand = s.hand(seat)
                for keep in dict.fromkeys(hand):
                    for u in (True, False):
                        out.append(A.FourTowerDiscard(seat, tuple(remove(hand, (keep,))), u))
                out.append(A.Pass(seat))
        elif s.phase == "hand_entry" and not s.table:
            out.append(A.EnterHand(seat, s.hand(seat)))
    if s.options.jump_in:
        out.extend(_jump_ins(s))
    if s.exposed >= 0 and seat != CHANCE:
        out.append(A.CallUno(s.exposed))
        out.extend(A.Catch(i, s.exposed) for i in range(s.n) if i != s.exposed)
    return out


def replay(edition: str | Edition, seats: int, actions: Iterable[Action],
           options: Mapping[str, object] | None = None,
           mode: str = "simulation") -> tuple[State, list[E.Effect]]:
    """Re-run a match from its action list; returns the final state and the last effects."""
    s = new_match(edition, seats, options, mode)
    fx: list[E.Effect] = []
    for a in actions:
        s, fx = apply(s, a)
    return s, fx
