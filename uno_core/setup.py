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
            raise SetupError("not_a_card", given=repr(c))
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
        raise SetupError("hands_or_counts")
    hand_cards = tuple(_cards(h) for h in hands) if hands is not None else None
    if table and hand_cards is not None:
        raise SetupError("counts_not_hands")
    if not table and hand_cards is None:
        raise SetupError("hands_not_counts")
    n = len(hand_cards) if hand_cards is not None else len(counts or ())
    s = new_match(ed, n, options, mode)
    disc = _cards(discard)
    if not disc:
        raise SetupError("no_top_card")
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
            raise SetupError("deck_has", card=card, edition=ed.name, has=deck[card], uses=k)
    if not 0 <= turn < n:
        raise SetupError("turn_seat", last=n - 1, given=turn)
    if direction not in (1, -1):
        raise SetupError("direction", given=direction)
    top = disc[-1]
    col = colour if colour is not None else top.colour
    if col not in COLOURS:
        raise SetupError("current_colour", known=" ".join(COLOURS), given=col)
    s._disc = list(disc)
    s.colour = col
    if table:
        cnt = list(counts or ())
        if any(c < 0 for c in cnt):
            raise SetupError("negative_counts")
        s._counts = cnt
        unseen = deck - Counter(disc)
        s._unseen = dict(unseen)
        s._pcount = sum(unseen.values()) - sum(cnt)
        if s._pcount < 0:
            raise SetupError("too_many_cards")
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
            raise SetupError("score_count", count=n)
        s.scores = tuple(scores)
    if towers:
        if not ed.towers:
            raise SetupError("no_towers", edition=ed.name)
        owners = [-1, -1, -1, -1]
        for t, seat in towers.items():
            if t not in TOWER_INDEX:
                raise SetupError("unknown_tower", given=t, known=" ".join(TOWERS))
            if not -1 <= seat < n:
                raise SetupError("tower_seat", given=t, number=seat)
            owners[TOWER_INDEX[t]] = seat
        s.towers = tuple(owners)
    return s
