"""Turn order, obligations and the round's life: passing the turn on, giving cards,
owed draws and presses (``settle``), dealing, first-card rules, scoring, next round.

Every function here writes to the state: callers have validated the action first.
`fx` is the effect list; ``NOFX`` swallows effects (simulation without effects), and
the hot paths test ``fx is not NOFX`` before building one."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from uno_core import effects as E
from uno_core.actions import CHANCE, MAX_SEATS, Action
from uno_core.cards import (
    BITS,
    NUMBER,
    TAKE2,
    TOWERS,
    Card,
)
from uno_core.errors import IllegalAction, SetupError
from uno_core.kinds import KINDS, PLAIN, PLUS4_WILDS
from uno_core.matching import playable_mask
from uno_core.state import (
    DRAWN,
    EXTRA,
    NO_CHANCE,
    NO_TAG,
    NOBODY,
    OWE_DRAW,
    OWE_PRESS,
    OWE_UNTIL,
    PLAY,
    TAG_ALL,
    TAG_TURN,
    Chance,
    Owe,
    Phase,
    State,
    Tag,
    obligation,
)
from uno_core.tables import mask_of

Effects = list[E.Effect]


class _NoEffects(list[E.Effect]):
    """An effect list that keeps nothing: apply(..., effects=False)."""

    def append(self, _effect: E.Effect) -> None:
        pass


NOFX: Effects = _NoEffects()



def next_seat(s: State, steps: int = 1) -> int:
    return (s.turn + s.direction * steps) % s.n


def advance(s: State, skip: int) -> None:
    """End the current turn: the next turn goes `1 + skip (+ pending skip)` seats on."""
    s.turn = (s.turn + s.direction * (1 + skip + s.skip_pending)) % s.n  # next_seat
    s.skip_pending = 0
    s.phase = PLAY
    s.actor = s.turn
    s.drawn = ()
    s.colour_only = False


def remove(hand: Iterable[Card], cards: Iterable[Card]) -> list[Card]:
    """`hand` without `cards` (one copy each); ValueError if one is missing."""
    lst = list(hand)
    for c in cards:
        lst.remove(c)
    return lst


def set_hand(s: State, seat: int, hand: list[Card]) -> None:
    s._hands[seat] = [c.id for c in hand]
    s._masks[seat] = mask_of(hand)
    s._counts[seat] = len(hand)


def check_unseen(s: State, cards: Iterable[Card], action: Action, key: str) -> None:
    """Raise the refusal `key` unless every card (with multiplicity) is still unseen
    (table mode)."""
    need: dict[Card, int] = {}
    for c in cards:
        need[c] = need.get(c, 0) + 1
        if s._unseen.get(c, 0) < need[c]:
            raise IllegalAction(action, key, card=c)


def unseen_take(s: State, cards: Iterable[Card]) -> None:
    """Make `cards` public (checked with check_unseen before)."""
    unseen = s._unseen
    for c in cards:
        unseen[c] -= 1


def unseen_add(s: State, cards: Iterable[Card]) -> None:
    unseen = s._unseen
    for c in cards:
        unseen[c] = unseen.get(c, 0) + 1


def give(s: State, seat: int, count: int) -> tuple[Card, ...]:
    """Move `count` cards from the pile to `seat` (caller checked the pile holds them)."""
    if s.table:
        s._pcount -= count
        s._counts[seat] += count
        return ()
    pile = s._pile
    cards = pile[len(pile) - count:]
    del pile[len(pile) - count:]
    hand = s._hands[seat]
    m = s._masks[seat]
    for c in cards:
        hand.append(c.id)
        m |= c.bit
    s._masks[seat] = m
    s._counts[seat] += count
    return tuple(cards)


def needs_reshuffle(s: State) -> bool:
    return not (s._pcount if s.table else s._pile) and len(s._disc) > 1


# The house rules' say over which cards a seat may play (``house_rules.allowed``): the
# turn machinery asks it while ``Tables.house``; the engine, which sits above the house
# rules, gives it (`ask_house_rules`).
_allowed: Callable[[State, int, list[Card]], list[Card]] | None = None


def ask_house_rules(allowed: Callable[[State, int, list[Card]], list[Card]]) -> None:
    """Have the turn machinery ask `allowed` which playable cards the house rules leave."""
    global _allowed
    _allowed = allowed


def drawn_playable(s: State, seat: int) -> bool:
    """Whether a card just drawn may be played now (simulation), the house rules applied."""
    return fits_drawn(s, seat, s.drawn, mask_of(s.drawn))


def fits_drawn(s: State, seat: int, drawn: Sequence[Card], faces: int) -> bool:
    """Whether `seat` may play one of the cards it just drew (`faces`: their bits) now:
    they fit, and no house rule refuses every one of them (no_bluff, no_action_finish:
    then the drawn-card phase would offer a play the engine refuses)."""
    m = playable_mask(s, seat, faces)
    if not m or not s.tables.house or _allowed is None:
        return m != 0
    return bool(_allowed(s, seat, [c for c in drawn if c.bit & m]))


def settle(s: State, fx: Effects) -> None:
    """Run pending obligations, then decide who acts next (or end the round)."""
    queue = s._queue
    table = s.table
    if not queue and s.out < 0 and s.exposed < 0 and (
            (s._pcount if table else s._pile) or len(s._disc) < 2):
        s.chance = NO_CHANCE
        s.to_act = s.actor
        return
    while queue:
        kind, seat, count, tag = queue[0]
        left = s._pcount if table else len(s._pile)
        if not left and len(s._disc) > 1:  # needs_reshuffle
            s.to_act = CHANCE
            s.chance = Chance.SHUFFLE
            if fx is not NOFX:
                fx.append(E.shared(E.Prompt, CHANCE, "shuffle"))
            return
        if kind is OWE_DRAW:
            k = min(count, left)
            got = give(s, seat, k)
            if k and fx is not NOFX:
                fx.append(dispensed(seat, k))
            if tag is TAG_TURN:
                s.drawn = s.drawn + got
            if k < count and needs_reshuffle(s):
                queue[0] = obligation(kind, seat, count - k, tag)
                continue
            del queue[0]  # an exhausted pile and discard forgive the rest
            if tag is TAG_TURN:
                after_turn_draw(s, seat, k, fx)
            continue
        if not left:  # launcher empty and nothing to reshuffle: presses are void
            del queue[0]
            if tag is TAG_TURN:
                after_turn_draw(s, seat, 0, fx)
            continue
        if fx is not NOFX and (s.to_act != seat or s.chance):
            fx.append(_PRESS_PROMPT[seat])
        s.to_act = seat
        s.chance = NO_CHANCE
        return
    if s.exposed >= 0 and s._counts[s.exposed] != 1:
        s.exposed = -1
    if s.out >= 0 and s.phase in (PLAY, DRAWN, EXTRA):
        if s._counts[s.out] == 0:
            round_over(s, fx)
            return
        s.out = -1
    if needs_reshuffle(s):
        s.to_act = CHANCE
        s.chance = Chance.SHUFFLE
        if fx is not NOFX:
            fx.append(E.shared(E.Prompt, CHANCE, "shuffle"))
        return
    s.chance = NO_CHANCE
    s.to_act = s.actor


_PRESS_PROMPT = tuple(E.Prompt(seat, "press") for seat in range(MAX_SEATS))
# frequent effects made once per value (immutable): an index, cheaper than `E.shared`
PLAY_DRAWN_PROMPT = tuple(E.Prompt(seat, "play_drawn") for seat in range(MAX_SEATS))
_DISPENSED = tuple(tuple(E.Dispense(seat, k) for k in range(16)) for seat in range(MAX_SEATS))


def dispensed(seat: int, count: int) -> E.Dispense:
    """The Dispense effect of `count` cards to `seat`."""
    return _DISPENSED[seat][count] if count < 16 else E.Dispense(seat, count)


def prompt_kind(s: State, fits: bool) -> str:
    """What the seat is asked after a draw: play the drawn card (it fits), draw again
    (it does not), or at the table (unseen) either."""
    if s.table:
        return "play_or_draw_again"
    return "play_drawn" if fits else "draw_again"


def after_turn_draw(s: State, seat: int, got: int, fx: Effects) -> None:
    o = s.options  # forced_play: a drawn card that fits is played, draw_then_play or not
    if o.draw_until_playable and got:  # (uno_core.house_draw) play it or draw again
        s.phase = DRAWN
        s.actor = seat
        if fx is not NOFX:
            fx.append(E.shared(E.Prompt, seat, prompt_kind(s, not s.table
                                                           and drawn_playable(s, seat))))
        return
    if (o.draw_then_play or o.forced_play) and got and (s.table or drawn_playable(s, seat)):
        s.phase = DRAWN
        s.actor = seat
        if fx is not NOFX:
            fx.append(PLAY_DRAWN_PROMPT[seat])
        return
    advance(s, 0)


def owe(s: State, fx: Effects, kind: Owe, seat: int, count: int, tag: Tag = NO_TAG,
         front: bool = False) -> None:
    if s.tables.launcher and kind is OWE_DRAW:  # (Edition.launcher, read once)
        kind = OWE_PRESS
    ob = obligation(kind, seat, count, tag)
    if front:
        s._queue.insert(0, ob)
    else:
        s._queue.append(ob)
    if kind is OWE_DRAW or fx is NOFX:
        return
    mode = E.UNTIL_CARDS if kind is OWE_UNTIL else (E.EVERYONE_ONCE if tag is TAG_ALL
                                                     else E.FIXED)
    fx.append(E.shared(E.OwePresses, seat, count, mode))


def card_rank(card: Card) -> int:
    return card.number if card.kind == NUMBER else 0


def deal(s: State, fx: Effects) -> None:
    size = s.options.hand_size
    n = s.n
    first = (s.dealer + 1) % n
    s._counts = [size] * n
    if s.table:
        s._pcount -= size * n
    else:
        # one card at a time from the top (the end), round the table from `first`
        pile = s._pile
        dealt = [c.id for c in pile[:-size * n - 1:-1]]
        del pile[-size * n:]
        s._hands = hands = []
        s._masks = masks = []
        for seat in range(n):
            hand = dealt[(seat - first) % n::n]
            m = 0
            for i in hand:
                m |= BITS[i]
            hands.append(hand)
            masks.append(m)
    if fx is not NOFX:
        for i in range(n):
            fx.append(dispensed((first + i) % n, size))


def check_deal(s: State) -> None:
    """Raise SetupError (before anything changes) if the hands do not fit the deck."""
    size, n = s.options.hand_size, s.n
    if len(s.edition.deck) < size * n + 1:
        raise SetupError("deal_too_big", count=n, size=size, deck=len(s.edition.deck))


def turn_first_card(s: State, fx: Effects) -> None:
    """Simulation: turn pile cards until one may start; table: ask for a Reveal."""
    if s.table:
        s.phase = Phase.REVEAL
        s.to_act = CHANCE
        s.chance = Chance.REVEAL
        fx.append(E.shared(E.Prompt, CHANCE, "reveal"))
        return
    pile = s._pile
    while True:
        card = pile.pop()
        if card.kind in PLUS4_WILDS and pile:  # seed 000: a first +4 goes back
            pile.insert(0, card)
            fx.append(E.CardReturned(card))
            continue
        start_with(s, card, fx)
        return


def start_with(s: State, card: Card, fx: Effects) -> None:
    """First-card rules (seed 000 for classic/power, seed 001 and 003 for theirs)."""
    s._disc = [card]
    s.colour = card.colour
    s.direction = 1
    if fx is not NOFX:
        fx.append(E.shared(E.FirstCard, card))
    first = (s.dealer + 1) % s.n
    s.turn = first
    s.actor = first
    s.phase = PLAY
    kind = card.kind
    rule = KINDS.get(kind, PLAIN)  # (a Wild Customizable is a wild here: colour first)
    if card.colour and rule.skips:  # Skip, Draw 1/2, Hit 2: the first player is skipped
        if rule.draws:
            owe(s, fx, OWE_DRAW, first, rule.draws)
        fx.append(E.shared(E.PlayerSkipped, first))
        s.turn = s.dealer
        advance(s, rule.skips)
    elif card.colour and rule.turns:
        s.direction = -1
        fx.append(E.shared(E.DirectionChanged, -1))
        s.turn = s.dealer
        s.actor = s.dealer
    elif kind == TAKE2:  # seed 000: no towers for the first player, only its colour
        s.colour_only = True
    elif card.colour == "":
        s.phase = Phase.FIRST_COLOUR
        fx.append(E.shared(E.Prompt, first, "colour"))
    settle(s, fx)


def start_round(s: State, fx: Effects) -> None:
    """Wait for the shuffle; the last round's hands stay visible until it comes."""
    s.round_no += 1
    s.phase = Phase.SHUFFLE
    s.to_act = CHANCE
    s.chance = Chance.SHUFFLE
    s.colour = ""
    s.direction = 1
    s._queue = []
    s.drawn = ()
    s.exposed = -1
    s.uno_ahead = -1
    s.pending = ()
    s.out = -1
    s.colour_only = False
    s.stack = ()
    s.skip_pending = 0  # since_eject stays: the launcher's mechanism does not reset
    s.entered = (False,) * s.n
    if s.edition.towers and any(o >= 0 for o in s.towers):
        for t, o in zip(TOWERS, s.towers, strict=True):
            if o >= 0:
                fx.append(E.TowerMoved(t, E.NEUTRAL))
        s.towers = (-1, -1, -1, -1)
    if fx is not NOFX:
        fx.append(E.shared(E.Prompt, CHANCE, "shuffle"))


def hand_points(s: State, hand: Iterable[Card]) -> int:
    points = s.tables.points
    return sum([points[c.id] for c in hand])


def round_over(s: State, fx: Effects) -> None:
    s.exposed = -1
    s._queue = []
    if s.table and not all(s.entered[i] or s._counts[i] == 0 for i in range(s.n)):
        s.phase = Phase.HAND_ENTRY
        seat = next(i for i in range(s.n) if not s.entered[i] and s._counts[i] > 0)
        s.actor = seat
        s.to_act = seat
        s.chance = NO_CHANCE
        fx.append(E.shared(E.Prompt, seat, "hand_entry"))
        return
    winner = s.out
    by_id = s.tables.points  # hand_points, on the ids held
    held = []
    for hand in s._hands:  # (loops: 3.11 runs each comprehension as a call of its own)
        k = 0
        for i in hand:
            k += by_id[i]
        held.append(k)
    points = tuple(held)
    if s.options.scoring == "winner_takes":
        scores = list(s.scores)
        scores[winner] += sum(points)
        s.scores = tuple(scores)
    else:
        s.scores = tuple(a + b for a, b in zip(s.scores, points, strict=True))
    if fx is not NOFX:
        fx.append(E.RoundOver(winner, points, s.scores))
    target = s.options.target_score
    if max(s.scores) >= target:
        best = (max(s.scores) if s.options.scoring == "winner_takes" else min(s.scores))
        s.winners = tuple(i for i, v in enumerate(s.scores) if v == best)
        s.phase = Phase.MATCH_OVER
        s.to_act = NOBODY
        s.actor = NOBODY
        s.chance = NO_CHANCE
        fx.append(E.MatchOver(s.winners, s.scores))
        return
    s.dealer = (s.dealer + 1) % s.n
    start_round(s, fx)
