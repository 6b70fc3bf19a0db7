"""Set up any position directly: tests, bug reports and the scenario format build on it.

``position(edition, hands=[...], discard="R5 B7", ...)`` returns a State in the play
phase with `turn` to act. Cards may be given as notation strings (``"R7 W+4"``) or as
sequences of ``Card``. In simulation, cards not placed anywhere form the draw pile
(or the launcher load) unless `pile` is given; every placed card must exist in the
edition's deck (no fifth Wild Draw 4). In table mode give `counts` instead of hands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from uno_core.cards import COLOURS, TOWER_INDEX, TOWERS, Card, parse_cards
from uno_core.editions import Edition, get_edition
from uno_core.engine import new_match
from uno_core.errors import SetupError
from uno_core.state import NO_CHANCE, PLAY, TABLE, State
from uno_core.tables import mask_of

CardsLike = str | Sequence[Card]


def _cards(value: CardsLike) -> tuple[Card, ...]:
    if isinstance(value, str):
        return parse_cards(value)
    cards = tuple(value)
    for c in cards:
        if not isinstance(c, Card):
            raise SetupError(f"not a card: {c!r}")
    return cards


def position(
    edition: str | Edition,
    *,
    hands: Sequence[CardsLike] | None = None,
    counts: Sequence[int] | None = None,
    discard: CardsLike,
    pile: CardsLike | None = None,
    colour: str | None = None,
    turn: int = 0,
    direction: int = 1,
    dealer: int | None = None,
    towers: Mapping[str, int] | None = None,
    scores: Sequence[int] | None = None,
    options: Mapping[str, object] | None = None,
    mode: str = "simulation",
    round_no: int = 1,
    since_eject: int = 0,
    exposed: int = -1,
) -> State:
    """A mid-round position; see the module docstring. Raises SetupError on bad input."""
    ed = get_edition(edition)
    table = mode == TABLE
    if hands is None and counts is None:
        raise SetupError("give hands (simulation) or counts (table mode)")
    hand_cards = tuple(_cards(h) for h in hands) if hands is not None else None
    if table and hand_cards is not None:
        raise SetupError("table mode knows only hand counts: give counts, not hands")
    if not table and hand_cards is None:
        raise SetupError("simulation needs every hand: give hands, not counts")
    n = len(hand_cards) if hand_cards is not None else len(counts or ())
    s = new_match(ed, n, options, mode)
    disc = _cards(discard)
    if not disc:
        raise SetupError("the discard pile needs at least its top card")
    deck = Counter(ed.deck)
    placed = Counter(disc)
    if hand_cards is not None:
        for h in hand_cards:
            placed.update(h)
    piled = _cards(pile) if pile is not None else None
    if piled is not None:
        placed.update(piled)
    for card, k in placed.items():
        if deck[card] < k:
            raise SetupError(f"{card}: the {ed.name} deck has {deck[card]}, the position "
                             f"uses {k}")
    if not 0 <= turn < n:
        raise SetupError(f"turn must be a seat 0..{n - 1}, not {turn}")
    if direction not in (1, -1):
        raise SetupError(f"direction is 1 or -1, not {direction}")
    top = disc[-1]
    col = colour if colour is not None else top.colour
    if col not in COLOURS:
        raise SetupError(f"the current colour must be one of {' '.join(COLOURS)} "
                         f"(a wild on top needs colour=...), not {col!r}")
    s._disc = list(disc)
    s.colour = col
    if table:
        cnt = list(counts or ())
        if any(c < 0 for c in cnt):
            raise SetupError("hand counts cannot be negative")
        s._counts = cnt
        unseen = deck - Counter(disc)
        s._unseen = dict(unseen)
        s._pcount = sum(unseen.values()) - sum(cnt)
        if s._pcount < 0:
            raise SetupError("more cards in hands than the deck holds")
    else:
        assert hand_cards is not None
        s._hands = [[c.id for c in h] for h in hand_cards]
        s._masks = [mask_of(h) for h in hand_cards]
        s._counts = [len(h) for h in hand_cards]
        if piled is None:
            rest = deck - placed
            left: list[Card] = []
            for c in ed.deck:  # deck order: deterministic
                if rest[c] > 0:
                    rest[c] -= 1
                    left.append(c)
            piled = tuple(left)
        s._pile = list(piled)
    s.turn = turn
    s.actor = turn
    s.to_act = turn
    s.chance = NO_CHANCE
    s.phase = PLAY
    s.direction = direction
    s.dealer = (turn - 1) % n if dealer is None else dealer
    s.round_no = round_no
    s.since_eject = since_eject
    s.exposed = exposed
    if scores is not None:
        if len(scores) != n:
            raise SetupError(f"scores needs {n} values")
        s.scores = tuple(scores)
    if towers:
        if not ed.towers:
            raise SetupError(f"{ed.name} has no towers")
        owners = [-1, -1, -1, -1]
        for t, seat in towers.items():
            if t not in TOWER_INDEX:
                raise SetupError(f"unknown tower {t!r} (towers: {' '.join(TOWERS)})")
            if not -1 <= seat < n:
                raise SetupError(f"tower {t}: no seat {seat}")
            owners[TOWER_INDEX[t]] = seat
        s.towers = tuple(owners)
    return s
