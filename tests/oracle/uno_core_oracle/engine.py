# Frozen copy of uno_core (tests/oracle/freeze.py): the lockstep oracle. Do not edit.
"""The referee: ``legal_actions(state)`` and ``apply(state, action) -> (state, effects)``.

Both are pure. ``apply`` validates the action with the same predicates that
``legal_actions`` uses and raises ``IllegalAction`` naming the rule it breaks; the
input state is never changed. The parts: ``matching`` (which cards fit),
``cardrules`` (what each card kind does, ``BEHAVIOUR``), ``turns`` (turn order, owed
draws and presses, dealing, first cards, scoring); edition differences are data
(``uno_core.editions``) and options (``uno_core.options``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import combinations

from tests.oracle.uno_core_oracle import actions as A
from tests.oracle.uno_core_oracle import effects as E
from tests.oracle.uno_core_oracle.actions import CHANCE, Action
from tests.oracle.uno_core_oracle.cardrules import BEHAVIOUR
from tests.oracle.uno_core_oracle.cards import (
    COLOURS,
    DISCARD_ALL,
    DRAW1,
    DRAW2,
    HIT2,
    NUMBER,
    REVERSE,
    SKIP,
    TOWERS,
    TRADE_HANDS,
    WILD,
    WILD_ALL_HIT,
    WILD_CUSTOM,
    WILD_DRAW4,
    WILD_HIT4,
    WILD_HIT_FIRE,
    Card,
)
from tests.oracle.uno_core_oracle.editions import HIGHEST_STARTS, Edition, get_edition
from tests.oracle.uno_core_oracle.errors import IllegalAction, SetupError
from tests.oracle.uno_core_oracle.matching import (
    CUSTOM_KIND,
    TARGETED,
    effective_kind,
    free_towers,
    match_set,
    playable_cards,
    symbol_forbid,
    tower_count,
    wild_blocked,
)
from tests.oracle.uno_core_oracle.options import AT_PLAY, make_options
from tests.oracle.uno_core_oracle.state import (
    MODES,
    OWE_DRAW,
    OWE_PRESS,
    OWE_UNTIL,
    TABLE,
    TAG_PENALTY,
    TAG_TURN,
    State,
)
from tests.oracle.uno_core_oracle.turns import (
    NOT_FIRST,
    Effects,
    advance,
    after_turn_draw,
    card_rank,
    deal,
    give,
    hand_points,
    owe,
    remove,
    round_over,
    set_count,
    set_hand,
    settle,
    start_round,
    start_with,
    turn_first_card,
    unseen_add,
    unseen_take,
)

__all__ = ["apply", "legal_actions", "new_match", "replay", "hand_points", "is_legal"]


def new_match(edition: str | Edition, seats: int, options: Mapping[str, object] | None = None,
              mode: str = "simulation") -> State:
    """A match before dealer selection: the chance player must supply ``DealerCards``."""
    ed = get_edition(edition)
    if isinstance(seats, bool) or not isinstance(seats, int) or not (
            ed.min_players <= seats <= ed.max_players):
        raise SetupError(f"{ed.name} is for {ed.min_players}-{ed.max_players} players, "
                         f"not {seats!r}")
    if mode not in MODES:
        raise SetupError(f"unknown mode {mode!r} (known: {', '.join(MODES)})")
    opts = make_options(ed, options)
    s = State.__new__(State)
    s.edition = ed
    s.options = opts
    s.table = mode == TABLE
    s.n = seats
    s.hands = ((),) * seats
    s.counts = (0,) * seats
    s.pile = ()
    s.pile_count = 0
    s.discard = ()
    s.colour = ""
    s.direction = 1
    s.dealer = -1
    s.turn = -1
    s.actor = -1
    s.phase = "dealer"
    s.to_act = CHANCE
    s.chance = "dealer_cards"
    s.queue = ()
    s.drawn = ()
    s.towers = (-1, -1, -1, -1)
    s.exposed = -1
    s.skip_pending = 0
    s.pending = ()
    s.out = -1
    s.scores = (0,) * seats
    s.round_no = 0
    s.unseen = {}
    s.since_eject = 0
    s.winners = ()
    s.entered = (False,) * seats
    s.colour_only = False
    return s


def _play_phase(s: State) -> bool:
    return s.phase in ("play", "drawn", "extra") and not s.queue and s.to_act == s.actor


_PLAY_PHASES = frozenset(("play", "drawn", "extra"))


def _check_play(s: State, p: A.Play) -> tuple[Card, ...]:
    """Raise IllegalAction unless `p` is legal in `s`; return the hand without the card
    (simulation; empty in table mode)."""
    seat = p.seat
    if (seat != s.to_act or seat != s.actor or s.queue or s.phase not in _PLAY_PHASES):
        raise IllegalAction(p, f"it is not seat {seat}'s turn to play "
                               f"(to act: {s.to_act}, phase {s.phase})")
    card = p.card
    if s.table:
        if s.unseen.get(card, 0) <= 0:
            raise IllegalAction(p, f"no {card} is left unseen: it cannot be in a hand")
        if s.counts[seat] < 1 + len(p.laid):
            raise IllegalAction(p, f"seat {seat} holds only {s.counts[seat]} cards")
        hand: tuple[Card, ...] = ()
        rest = hand
    else:
        hand = s.hands[seat]
        try:  # one scan: a Card's == is slow (it is orderable, so Python compares it)
            i = hand.index(card)
        except ValueError:
            raise IllegalAction(p, f"seat {seat} does not hold {card}") from None
        if s.phase == "drawn" and card not in s.drawn:
            raise IllegalAction(p, "after drawing only the drawn card may be played")
        rest = hand[:i] + hand[i + 1:]
    if card not in match_set(s):
        top = s.discard[-1]
        if card.kind == symbol_forbid(s):
            raise IllegalAction(p, f"no {card} on a power symbol {top.symbol} card ({top})")
        if s.colour_only:
            raise IllegalAction(p, f"on a turned {top} the first player takes no towers and "
                                   f"lays only a {s.colour} card, not {card}")
        raise IllegalAction(p, f"{card} matches neither colour {s.colour} nor {top}")
    if card.colour == "":
        if card.kind == WILD and wild_blocked(s, card, rest):
            raise IllegalAction(p, f"a Wild may only be played with no {s.colour} card in hand")
        if p.colour not in COLOURS:
            raise IllegalAction(p, f"a wild needs a colour (one of {' '.join(COLOURS)})")
    elif p.colour:
        raise IllegalAction(p, "only a wild card names a colour")
    if card.kind in _PLAIN_VARIANTS and p.target == -1 and not p.towers and not p.laid:
        if p.uno and s.counts[seat] != 2:
            raise IllegalAction(p, f"UNO is called with one card left, not {s.counts[seat] - 1}")
        return rest
    _check_choices(s, p, hand)
    return rest


def _check_choices(s: State, p: A.Play, hand: tuple[Card, ...]) -> None:
    """The choices of a card: target seat, towers, laid cards, UNO."""
    card = p.card
    seat = p.seat
    kind = effective_kind(s, card)
    if kind in TARGETED:
        if not (0 <= p.target < s.n) or p.target == seat:
            raise IllegalAction(p, f"{card} needs a target seat other than {seat}")
    elif p.target != -1:
        raise IllegalAction(p, f"{card} takes no target")
    want = tower_count(s, card)
    if want and s.edition.towers:
        free = free_towers(s, seat)
        need = min(want, len(free))
        if len(p.towers) != need or len(set(p.towers)) != need or not set(p.towers) <= set(free):
            raise IllegalAction(p, f"{card} takes {need} tower(s) from {' '.join(free)}")
    elif p.towers:
        raise IllegalAction(p, f"{card} takes no towers")
    if card.kind == DISCARD_ALL:
        if s.table:
            bad = [c for c in p.laid if c.colour != card.colour]
            if bad:
                raise IllegalAction(p, f"Discard All lays only {card.colour} cards, not {bad[0]}")
            need_unseen = Counter(p.laid)
            need_unseen[card] += 1
            for c, k in need_unseen.items():
                if s.unseen.get(c, 0) < k:
                    raise IllegalAction(p, f"not enough {c} left unseen")
        else:
            rest = remove(hand, (card,))
            expect = Counter(c for c in rest if c.colour == card.colour)
            if Counter(p.laid) != expect:
                raise IllegalAction(p, f"Discard All must lay all other {card.colour} cards: "
                                       f"{' '.join(str(c) for c in sorted(expect.elements()))}")
    elif p.laid:
        raise IllegalAction(p, f"{card} lays no other cards")
    left = s.counts[seat] - 1 - len(p.laid)
    if p.uno and left != 1:
        raise IllegalAction(p, f"UNO is called with one card left, not {left}")


def _check_seat(s: State, action: Action, phases: tuple[str, ...], what: str) -> None:
    if s.phase not in phases or s.queue or action.seat != s.to_act or s.to_act != s.actor:
        raise IllegalAction(action, f"{what} is not possible now "
                                    f"(to act: {s.to_act}, phase {s.phase})")


def _can_draw(s: State, seat: int) -> bool:
    if not (s.phase == "play" and not s.queue and s.to_act == seat == s.actor):
        return False
    if s.options.draw_when_playable or s.table:
        return True
    if not s.options.wild_restricted:
        return match_set(s).isdisjoint(s.hands[seat])
    return not playable_cards(s, s.hands[seat], s.hands[seat])


def _close_window(s: State, seat: int) -> None:
    if s.exposed >= 0 and seat != s.exposed:
        s.exposed = -1


def _hand_after(s: State, p: A.Play) -> tuple[Card, ...]:
    """The player's hand without the played card (simulation; empty in table mode)."""
    if s.table:
        return ()
    hand = s.hands[p.seat]
    i = hand.index(p.card)
    return hand[:i] + hand[i + 1:]


def _one_card_left(s: State, seat: int, called: bool, fx: Effects, keeps: bool = True) -> None:
    """`seat` was left with one card by its own play: UNO was called with it, or the
    penalty is owed at once (forgotten_uno "at_play"; not if the play gives the card
    away, `keeps` False), or the seat is open to a catch."""
    if called:
        fx.append(E.shared(E.UnoCalled, seat))
    elif s.options.forgotten_uno == AT_PLAY:
        if not keeps:
            return
        fx.append(E.UnoPenalty(seat, E.BY_TABLE))
        if s.options.uno_penalty:
            owe(s, fx, OWE_DRAW, seat, s.options.uno_penalty, TAG_PENALTY, front=True)
    else:
        s.exposed = seat


def _no_window(s: State, a: A.CallUno | A.Catch) -> str:
    if s.options.forgotten_uno == AT_PLAY:
        return ("UNO is called before the second-to-last card is laid, with the play; a "
                "forgotten call was penalised at once: there is nothing to call late or "
                "to catch (option forgotten_uno='at_play')")
    if isinstance(a, A.CallUno):
        return f"seat {a.seat} has no uncalled UNO to call"
    return (f"seat {a.target} cannot be caught: no forgotten UNO open "
            "(the window closes when the next player starts a turn)")


def _apply_play(s: State, p: A.Play, fx: Effects, listed: bool) -> None:
    hand = _hand_after(s, p) if listed else _check_play(s, p)
    seat, card = p.seat, p.card
    if s.exposed >= 0 and seat != s.exposed:
        s.exposed = -1
    guilty = False
    if s.table:
        unseen_take(s, p.laid + (card,), p, "play")
        set_count(s, seat, s.counts[seat] - 1 - len(p.laid))
    else:
        if p.laid:
            hand = remove(hand, p.laid)
        hands = list(s.hands)
        hands[seat] = hand
        s.hands = tuple(hands)
        counts = list(s.counts)
        counts[seat] = len(hand)
        s.counts = tuple(counts)
        if card.kind == WILD_DRAW4:
            colour = s.colour
            guilty = any(c.colour == colour for c in hand)
    if p.laid:
        s.discard = s.discard + p.laid + (card,)
        fx.append(E.CardsLaid(seat, p.laid))
    else:
        s.discard = s.discard + (card,)
    fx.append(E.shared(E.CardPlayed, seat, card))
    if card.colour == "":
        s.colour = p.colour
        fx.append(E.shared(E.ColourChosen, seat, p.colour))
    else:
        s.colour = card.colour
    left = s.counts[seat]
    if left == 1:
        # a Trade Hands swaps the last card away: nothing to call, as its catch window
        _one_card_left(s, seat, p.uno, fx, effective_kind(s, card) != TRADE_HANDS)
    elif left == 0:
        s.out = seat
    if card.kind == WILD_DRAW4:
        s.pending = (seat, -1, guilty)
    elif s.pending:
        s.pending = ()
    if s.drawn:
        s.drawn = ()
    s.colour_only = False
    kind = card.kind
    if kind == NUMBER and not card.symbol:  # the common case: just pass the turn on
        advance(s, 0)
    else:
        if kind == WILD_CUSTOM:
            kind = CUSTOM_KIND[s.options.wild_customizable]
        BEHAVIOUR[kind](s, seat, p, fx)
    settle(s, fx)


def _resolve_challenge(s: State, guilty: bool, fx: Effects) -> None:
    assert s.pending
    player, challenger = s.pending[0], s.pending[1]
    s.pending = ()
    fx.append(E.ChallengeResolved(challenger, player, guilty))
    s.turn = player
    if guilty:
        owe(s, fx, OWE_DRAW, player, 4)
        advance(s, 0)
    else:
        owe(s, fx, OWE_DRAW, challenger, 6)
        fx.append(E.shared(E.PlayerSkipped, challenger))
        advance(s, 1)


def _apply_draw(s: State, a: A.Draw | A.Press, fx: Effects, listed: bool) -> None:
    """Draw (pile) or press (launcher) on one's turn, or a press one owes."""
    seat = a.seat
    if type(a) is A.Press and s.queue and s.to_act == seat:
        if s.queue[0][0] == OWE_DRAW or s.queue[0][1] != seat:
            raise IllegalAction(a, "no launcher press is owed now")
        _close_window(s, seat)
        s.to_act = CHANCE
        s.chance = "eject"
        fx.append(E.shared(E.Prompt, CHANCE, "eject"))
        return
    launcher = s.edition.launcher
    if (type(a) is A.Draw) == launcher:
        raise IllegalAction(a, "this edition draws by pressing the launcher" if launcher
                            else "this edition has no launcher: draw from the pile")
    if not listed and not _can_draw(s, seat):
        raise IllegalAction(a, "you may only draw on your turn when you cannot play"
                            if s.phase == "play" and s.to_act == seat
                            else f"seat {seat} cannot draw now (to act: {s.to_act}, "
                                 f"phase {s.phase})")
    if s.exposed >= 0 and seat != s.exposed:
        s.exposed = -1
    s.drawn = ()
    if launcher:
        s.queue = ((OWE_PRESS, seat, 1, TAG_TURN),)
        s.to_act = CHANCE
        s.chance = "eject"
        fx.append(E.shared(E.Prompt, CHANCE, "eject"))
        return
    if s.pile_count:  # the usual case: no reshuffle needed first
        s.drawn = give(s, seat, 1)
        fx.append(E.shared(E.Dispense, seat, 1))
        after_turn_draw(s, seat, 1, fx)
    else:
        s.queue = ((OWE_DRAW, seat, 1, TAG_TURN),)
    settle(s, fx)


def _apply_seat_action(s: State, a: Action, fx: Effects) -> None:
    if isinstance(a, A.Draw | A.Press):
        _apply_draw(s, a, fx, False)
        return
    if isinstance(a, A.Pass):
        _check_seat(s, a, ("drawn", "extra", "four_towers"), "passing")
        if s.phase == "four_towers":
            s.phase = "play"
            s.actor = s.turn
        else:
            advance(s, 0)
        settle(s, fx)
        return
    if isinstance(a, A.CallUno):
        if s.exposed != a.seat:
            raise IllegalAction(a, _no_window(s, a))
        s.exposed = -1
        fx.append(E.shared(E.UnoCalled, a.seat))
        return
    if isinstance(a, A.Catch):
        if s.exposed != a.target or a.target < 0:
            raise IllegalAction(a, _no_window(s, a))
        if a.seat == a.target or not 0 <= a.seat < s.n:
            raise IllegalAction(a, "a player cannot catch himself")
        s.exposed = -1
        fx.append(E.UnoPenalty(a.target, a.seat))
        if s.options.uno_penalty:
            owe(s, fx, OWE_DRAW, a.target, s.options.uno_penalty, TAG_PENALTY, front=True)
        settle(s, fx)
        return
    if isinstance(a, A.Challenge | A.Accept):
        _check_seat(s, a, ("challenge",), "deciding a challenge")
        _close_window(s, a.seat)
        if isinstance(a, A.Accept):
            player = s.pending[0] if s.pending else s.turn
            s.pending = ()
            s.turn = player
            owe(s, fx, OWE_DRAW, a.seat, 4)
            fx.append(E.shared(E.PlayerSkipped, a.seat))
            advance(s, 1)
        elif s.table:
            s.phase = "verdict"
            fx.append(E.Prompt(a.seat, "verdict"))
            return
        else:
            _resolve_challenge(s, bool(s.pending and s.pending[2]), fx)
        settle(s, fx)
        return
    if isinstance(a, A.Verdict):
        _check_seat(s, a, ("verdict",), "a challenge verdict")
        _resolve_challenge(s, a.guilty, fx)
        settle(s, fx)
        return
    if isinstance(a, A.FourTowerDiscard):
        _apply_four_towers(s, a, fx)
        return
    if isinstance(a, A.ChooseColour):
        _check_seat(s, a, ("first_colour",), "choosing the first colour")
        if a.colour not in COLOURS:
            raise IllegalAction(a, f"colour must be one of {' '.join(COLOURS)}")
        s.colour = a.colour
        s.phase = "play"
        fx.append(E.shared(E.ColourChosen, a.seat, a.colour))
        settle(s, fx)
        return
    if isinstance(a, A.EnterHand):
        _check_seat(s, a, ("hand_entry",), "entering a hand")
        if len(a.cards) != s.counts[a.seat]:
            raise IllegalAction(a, f"seat {a.seat} holds {s.counts[a.seat]} cards, "
                                   f"not {len(a.cards)}")
        unseen_take(s, a.cards, a, "hand entry")
        hands = list(s.hands)
        hands[a.seat] = a.cards
        s.hands = tuple(hands)
        entered = list(s.entered)
        entered[a.seat] = True
        s.entered = tuple(entered)
        round_over(s, fx)
        return
    raise IllegalAction(a, "not an action of this game")


def _apply_four_towers(s: State, a: A.FourTowerDiscard, fx: Effects) -> None:
    _check_seat(s, a, ("four_towers",), "the four-tower discard")
    seat = a.seat
    if s.table:
        if len(a.laid) != s.counts[seat] - 1:
            raise IllegalAction(a, f"lay all cards but one: {s.counts[seat] - 1} cards")
        unseen_take(s, a.laid, a, "four-tower discard")
        set_count(s, seat, 1)
    else:
        hand = s.hands[seat]
        try:
            rest = remove(hand, a.laid)
        except ValueError:
            raise IllegalAction(a, f"seat {seat} does not hold all of those cards") from None
        if len(rest) != 1:
            raise IllegalAction(a, f"lay all cards but one: {len(hand) - 1} cards")
        set_hand(s, seat, rest)
    # the laid cards go under the top card: out of play until the next reshuffle
    s.discard = s.discard[:-1] + a.laid + s.discard[-1:]
    fx.append(E.CardsLaid(seat, a.laid))
    for t in TOWERS:
        fx.append(E.TowerMoved(t, E.NEUTRAL))
    s.towers = (-1, -1, -1, -1)
    _one_card_left(s, seat, a.uno, fx)
    s.phase = "play"
    s.actor = s.turn
    settle(s, fx)


def _apply_chance(s: State, a: Action, fx: Effects) -> None:
    if s.to_act != CHANCE:
        raise IllegalAction(a, f"no chance outcome is due (to act: seat {s.to_act})")
    need = s.chance
    if need != a.name:
        raise IllegalAction(a, f"the chance player must supply {need!r} now")
    if isinstance(a, A.DealerCards):
        _apply_dealer_cards(s, a, fx)
    elif isinstance(a, A.Shuffle):
        _apply_shuffle(s, a, fx)
    elif isinstance(a, A.Reveal):
        if a.card not in s.unseen or s.unseen[a.card] <= 0:
            raise IllegalAction(a, f"no {a.card} is left unseen")
        if a.card.kind in NOT_FIRST:
            fx.append(E.CardReturned(a.card))
            return
        unseen_take(s, (a.card,), a, "reveal")
        s.pile_count -= 1
        s.chance = ""
        start_with(s, a.card, fx)
    elif isinstance(a, A.Eject):
        _apply_eject(s, a, fx)


def _apply_dealer_cards(s: State, a: A.DealerCards, fx: Effects) -> None:
    if len(a.cards) != s.n:
        raise IllegalAction(a, f"one card per seat: {s.n} cards, not {len(a.cards)}")
    have = Counter(s.edition.deck)
    for c, k in Counter(a.cards).items():
        if have[c] < k:
            raise IllegalAction(a, f"the {s.edition.name} deck has only {have[c]} of {c}")
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
    starting = s.phase == "shuffle"
    if starting:
        s.hands = ((),) * s.n
        s.counts = (0,) * s.n
        s.discard = ()
        s.pile = ()
        s.pile_count = 0
    cards = s.edition.deck if starting else s.discard[:-1]
    if s.table:
        if a.order:
            raise IllegalAction(a, "table mode: the shuffle order is unknown (leave it empty)")
        if starting:
            s.unseen = dict(Counter(cards))
        else:
            unseen_add(s, cards)
        s.pile_count = len(cards)
    else:
        if len(a.order) != len(cards) or set(a.order) != _indices(len(cards)):
            raise IllegalAction(a, f"the order must be a permutation of 0..{len(cards) - 1}")
        s.pile = tuple(map(cards.__getitem__, a.order)) + s.pile
        s.pile_count = len(s.pile)
    s.chance = ""
    if starting:
        deal(s, fx)
        turn_first_card(s, fx)
        return
    s.discard = s.discard[-1:]
    fx.append(E.Reshuffled(len(cards)))
    settle(s, fx)


def _apply_eject(s: State, a: A.Eject, fx: Effects) -> None:
    kind, seat, count, tag = s.queue[0]
    if isinstance(a.count, bool) or not isinstance(a.count, int) or a.count < 0:
        raise IllegalAction(a, "the card count must be an integer >= 0")
    if a.count > s.pile_count:
        raise IllegalAction(a, f"the launcher holds only {s.pile_count} cards")
    got = give(s, seat, a.count)
    fx.append(E.Ejected(seat, a.count))
    s.since_eject = 0 if a.count else s.since_eject + 1
    s.chance = ""
    if tag == TAG_TURN:
        s.drawn = s.drawn + got
    if kind == OWE_UNTIL:
        done = a.count > 0
    else:
        count -= 1
        done = count <= 0
    if done:
        s.queue = s.queue[1:]
        if tag == TAG_TURN:
            after_turn_draw(s, seat, a.count, fx)
    else:
        s.queue = ((kind, seat, count, tag),) + s.queue[1:]
    settle(s, fx)


_CHANCE_TYPES = (A.Shuffle, A.DealerCards, A.Reveal, A.Eject)


def _listed(state: State, action: Action) -> bool:
    """Whether `action` is one of the very objects legal_actions(state) just returned:
    it was checked there, so apply need not check it again."""
    state_listed, actions = _LISTED
    if state_listed is state:
        for a in actions:  # by identity: an equal action built anew is checked in full
            if a is action:
                return True
    return False


def apply(state: State, action: Action) -> tuple[State, list[E.Effect]]:
    """Apply `action`; return the new state and the effects, in order. Pure."""
    if state.phase == "match_over":
        raise IllegalAction(action, "the match is over")
    s = state.clone()
    fx: Effects = []
    kind = type(action)
    if kind is A.Play:
        _apply_play(s, action, fx, _listed(state, action))  # type: ignore[arg-type]
    elif (kind is A.Draw or kind is A.Press) and s.to_act != CHANCE:
        _apply_draw(s, action, fx, _listed(state, action))  # type: ignore[arg-type]
    elif isinstance(action, _CHANCE_TYPES):
        _apply_chance(s, action, fx)
    else:
        if s.to_act == CHANCE:
            raise IllegalAction(action, f"the chance player must supply {s.chance!r} first")
        _apply_seat_action(s, action, fx)
    return s, fx


# per (seat, holds two cards): card -> its play variants; only for cards without choices
_VARIANT_MAPS: dict[tuple[int, bool], dict[Card, list[A.Play]]] = {}


_PLAIN_VARIANTS = frozenset({NUMBER, DRAW1, DRAW2, SKIP, REVERSE, HIT2, WILD, WILD_DRAW4,
                             WILD_HIT4, WILD_HIT_FIRE, WILD_ALL_HIT})


def _variant_map(s: State, seat: int) -> dict[Card, list[A.Play]]:
    key = (seat, s.counts[seat] == 2)
    found = _VARIANT_MAPS.get(key)
    if found is None:
        found = _VARIANT_MAPS[key] = {}
    return found


def _cached_variants(s: State, seat: int, card: Card, hand: tuple[Card, ...],
                     cache: dict[Card, list[A.Play]]) -> list[A.Play]:
    """The Play values for `card`; those without choices are cached (they are immutable)."""
    found = cache.get(card)
    if found is None:
        found = _play_variants(s, seat, card, hand)
        if card.kind in _PLAIN_VARIANTS:
            cache[card] = found
    return found


def _play_variants(s: State, seat: int, card: Card, hand: tuple[Card, ...]) -> list[A.Play]:
    kind = effective_kind(s, card)
    colours = COLOURS if card.colour == "" else ("",)
    targets: list[int] = ([t for t in range(s.n) if t != seat] if kind in TARGETED else [-1])
    want = tower_count(s, card) if s.edition.towers else 0
    if want:
        free = free_towers(s, seat)
        tower_sets = [tuple(c) for c in combinations(free, min(want, len(free)))]
    else:
        tower_sets = [()]
    laid: tuple[Card, ...] = ()
    if card.kind == DISCARD_ALL and not s.table:
        laid = tuple(c for c in remove(hand, (card,)) if c.colour == card.colour)
    left = s.counts[seat] - 1 - len(laid)
    unos = (False, True) if left == 1 else (False,)
    return [A.Play(seat, card, col, t, tw, laid, u)
            for col in colours for t in targets for tw in tower_sets for u in unos]


_DRAW = tuple(A.Draw(i) for i in range(16))


_PRESS = tuple(A.Press(i) for i in range(16))


_PASS = tuple(A.Pass(i) for i in range(16))


def _plain_turn_actions(s: State, seat: int) -> list[Action]:
    hand = s.hands[seat]
    ok = match_set(s)
    cache = _VARIANT_MAPS.get((seat, s.counts[seat] == 2))
    if cache is None:
        cache = _variant_map(s, seat)
    out: list[Action] = []
    for card in dict.fromkeys(hand):
        if card in ok:
            found = cache.get(card)
            out += found if found is not None else _cached_variants(s, seat, card, hand, cache)
    if not out or s.options.draw_when_playable:
        out.append(_PRESS[seat] if s.edition.launcher else _DRAW[seat])
    return out


def legal_actions(state: State) -> list[Action]:
    """Every legal seat action now, including call/catch interjections by any seat.

    At a chance node (``state.to_act == CHANCE``) the outcomes are not listed (a shuffle
    has n! of them): use ``uno_core.chance.sample_outcome``. Table mode lists plays of
    every card that could still be in the hand (declarations); Discard All is listed
    without laid cards there.
    """
    global _LISTED
    s = state
    seat = s.to_act
    if (s.phase == "play" and seat == s.actor and seat >= 0 and not s.queue and not s.table
            and s.exposed < 0 and not s.options.wild_restricted):
        out = _plain_turn_actions(s, seat)  # the common case, kept lean
        _LISTED = (state, tuple(out))
        return out
    out = []
    if s.phase == "match_over":
        return out
    if seat >= 0:
        if _play_phase(s):
            if s.table:
                pool: Iterable[Card] = [c for c, k in s.unseen.items() if k > 0]
                hand: tuple[Card, ...] = ()
            else:
                hand = s.hands[seat]
                pool = s.drawn if s.phase == "drawn" else hand
            playable = playable_cards(s, pool, hand)
            cache = _variant_map(s, seat)
            for card in playable:
                out.extend(_cached_variants(s, seat, card, hand, cache))
            if s.phase != "play":
                out.append(_PASS[seat])
            elif s.options.draw_when_playable or s.table or not playable:
                out.append(_PRESS[seat] if s.edition.launcher else _DRAW[seat])
        elif s.queue:
            out.append(A.Press(seat))
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
                hand = s.hands[seat]
                for keep in dict.fromkeys(hand):
                    for u in (True, False):
                        out.append(A.FourTowerDiscard(seat, remove(hand, (keep,)), u))
                out.append(A.Pass(seat))
        elif s.phase == "hand_entry" and not s.table:
            out.append(A.EnterHand(seat, s.hands[seat]))
    if s.exposed >= 0 and seat != CHANCE:
        out.append(A.CallUno(s.exposed))
        out.extend(A.Catch(i, s.exposed) for i in range(s.n) if i != s.exposed)
    _LISTED = (state, tuple(out))
    return out


# the last state legal_actions answered for, and its answer (kept as a tuple: a caller
# may change the list it got). Reading and replacing the pair is atomic, so threads
# sharing the engine can only miss the shortcut, never take another state's list.
_LISTED: tuple[State | None, tuple[Action, ...]] = (None, ())


def is_legal(state: State, action: Action) -> bool:
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


def replay(edition: str | Edition, seats: int, actions: Iterable[Action],
           options: Mapping[str, object] | None = None,
           mode: str = "simulation") -> tuple[State, list[E.Effect]]:
    """Re-run a match from its action list; returns the final state and the last effects."""
    s = new_match(edition, seats, options, mode)
    fx: list[E.Effect] = []
    for a in actions:
        s, fx = apply(s, a)
    return s, fx
