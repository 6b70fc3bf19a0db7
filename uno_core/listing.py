"""The common decisions' legal actions, built from parts made once (``plain_listing``).

A decision here is the plain turn's play, the drawn-card decision (simulation), a press
owed and a challenge to decide (both modes). Its legal list is a function of few things:
the seat, the seats, the rule tables, the hand size class (3+ cards; 2: the call goes
with the play; 1: going out), for a tower card the towers the seat may take, and the
playable faces `m` (the hand's mask and the match mask of the top card and colour). So:

- a `Decision` per (rule tables, seats, seat, drawn card or not, hand size class, free
  towers) holds, by card id, that face's plays (immutable ``Play`` values made once) and
  the policy's picks among them, plus one ``ops`` dict: ``id(play)`` -> how ``apply``
  writes it (the op in the low bits, the card's bit above, ``Listing``);
- a listing of no playable face or of one is made once per decision and shared; a
  listing of two faces or more is the state's own, reused (``State._lazy``): its picks
  are counted and its plays joined only when ``legal_actions`` asks (``Listing``);
- a Discard All's plays lay the rest of its colour in the order held: a listing with one
  playable is made anew with ops of its own (``_laying_listing``).

Anything else (table mode's declarations, a forgotten UNO open, jump-ins, the other
phases, any house rule: ``Tables.house``) goes to ``engine.legal_actions``' general path.
"""

from __future__ import annotations

from itertools import combinations

from uno_core import actions as A
from uno_core.actions import MAX_SEATS, Action
from uno_core.cardrules import moves_only
from uno_core.cards import (
    BITS,
    BY_ID,
    COLOURS,
    Card,
)
from uno_core.kinds import KINDS, TARGETED, KindRule
from uno_core.listed import (
    FACE_SHIFT,
    OP_CHALLENGE,
    OP_PLAY,
    OP_PRESS,
    PRESS,
    TAIL_BIT,
    Decision,
    Decisions,
    Listing,
)
from uno_core.matching import free_towers, kind_rule, needs_target
from uno_core.state import CHALLENGE, DRAWN, OWE_DRAW, PLAY, State
from uno_core.tables import Tables, barred, mask_of
from uno_core.turns import remove

# how apply writes a listed action (Listing.ops): the plain plays (`plain_ops`) by
# engine.play_plain, the others (uno_core.listed: OP_PLAY...) by engine.play, engine.draw
# or engine._WRITERS
OP_PLAIN, OP_SYMBOL, OP_MOVE = range(1, 4)


def _fixed_listing(actions: tuple[Action, ...], op: int) -> Listing:
    return Listing(actions, {id(a): op for a in actions})


# the listings that depend on the seat alone: a press owed, deciding a challenge
_OWED_PRESS = tuple(_fixed_listing((PRESS[seat],), OP_PRESS) for seat in range(MAX_SEATS))
_DECIDE = tuple(_fixed_listing((A.Challenge(seat), A.Accept(seat)), OP_CHALLENGE)
                for seat in range(MAX_SEATS))

_DRAWN = 4  # a seat's decisions: 8 * seat + _DRAWN (drawn card) + hand size class
_NO_TOWER = 16  # Decisions index: 17 * decision + free towers, or this with no tower card


def plain_listing(s: State) -> Listing | None:
    """The listing of a common decision (see the module docstring), or None: then
    ``engine.legal_actions`` builds the list its general way."""
    seat = s.to_act
    if seat < 0 or s.exposed >= 0:
        return None
    if s._queue:
        kind, owner = s._queue[0][:2]
        return _OWED_PRESS[seat] if owner == seat and kind is not OWE_DRAW else None
    if seat != s.actor or s.colour_only:
        return None
    decisions = s._decisions  # None in table mode and under house rules
    phase = s.phase
    if phase is PLAY and decisions is not None:  # (Phase members: by identity)
        tb = s.tables
        index = 8 * seat
        m = s._masks[seat] & tb.match[s._disc[-1].id][s.colour]
    elif phase is DRAWN and decisions is not None:
        tb = s.tables
        index = 8 * seat + _DRAWN
        m = mask_of(s.drawn) & tb.match[s._disc[-1].id][s.colour]
    elif phase is CHALLENGE:
        return _DECIDE[seat]
    else:
        return None
    c = s._counts[seat]
    index += 3 if c > 2 else c
    k = 17 * index + _NO_TOWER
    if m & tb.special_bits:
        if m & tb.restricted_bits:
            m &= ~barred(tb, s._masks[seat], s.colour)
        if m & tb.tower_bits:  # the towers the seat may take
            towers = s.towers
            k = 17 * index + ((towers[0] != seat) | (towers[1] != seat) << 1
                              | (towers[2] != seat) << 2 | (towers[3] != seat) << 3)
        if m & tb.laying_bits:
            return _laying_listing(s, seat, m, decisions[k] or _new_decision(
                s, decisions, k, seat, index))
    dec = decisions[k] or _new_decision(s, decisions, k, seat, index)
    if not m:
        return dec.empty
    if m & (m - 1):  # the state's own listing, counted (listed.Listing)
        lazy = s._lazy
        lazy.ops = dec.ops
        lazy.dec = dec
        lazy.faces = m << FACE_SHIFT | dec.tail_bit
        if m & tb.choice_bits:  # a face of more plays than its colours: count them
            width = 0
            rest = m
            faces = dec.faces
            while rest:
                b = rest & -rest
                rest ^= b
                i = b.bit_length() - 1
                width += len((faces[i] or add_face(dec, s, seat, i))[1])
            lazy.width = width
        else:  # a play per face, a wild's one per colour
            lazy.width = m.bit_count() + 3 * (m & tb.wild_bits).bit_count()
        return lazy
    i = m.bit_length() - 1
    return dec.single[i] or single_listing(dec, s, seat, i)


def listed_actions(listing: Listing, s: State) -> tuple[Action, ...]:
    """`listing`'s actions in listed order (a state's own listing's made now)."""
    if listing.actions is not None:
        return listing.actions
    dec = listing.dec
    assert dec is not None
    faces = dec.faces
    plays: tuple[Action, ...] = ()
    rest = listing.faces >> FACE_SHIFT
    while rest:
        b = rest & -rest
        rest ^= b
        i = b.bit_length() - 1
        plays += (faces[i] or add_face(dec, s, s.to_act, i))[0]
    return plays + (dec.tail,) if dec.tail_listed else plays


def single_listing(dec: Decision, s: State, seat: int, i: int) -> Listing:
    """`dec`'s listing of one playable face, card id `i` (made once: ``Decision.single``)."""
    plays, picks = dec.faces[i] or add_face(dec, s, seat, i)
    bits = 1 << i + FACE_SHIFT
    if dec.tail_listed:
        listing = Listing(plays + (dec.tail,), dec.ops, bits | TAIL_BIT, picks)
    else:
        listing = Listing(plays, dec.ops, bits, picks)
    dec.single[i] = listing
    return listing


def add_face(dec: Decision, s: State, seat: int,
          i: int) -> tuple[tuple[Action, ...], tuple[Action, ...]]:
    """Make `dec`'s face `i`'s plays and their ops (`s`: a state of this decision). A
    face whose plays do not depend on the towers standing has the same plays in every
    decision of its seat and hand size class (`_FACES`): they are made once."""
    card = BY_ID[i]
    size = dec.size
    tb = s.tables
    key = (tb, s.n, seat, size, i)
    got: tuple[tuple[A.Play, ...], tuple[A.Play, ...]] | None = (
        None if card.bit & tb.volatile_bits else _FACES.get(key))
    if got is None:  # (towers to take, cards to lay: this decision's own plays)
        plays = tuple(play_variants(s, seat, card))
        got = (plays, tuple([p for p in plays if p.uno == (size == 2)]))
        if not card.bit & tb.volatile_bits:
            _FACES[key] = got
    op = _listed_op(s, card, size)
    face = card.bit << FACE_SHIFT
    # one card left: written plain with the call only
    ops = dec.face_ops[i] = {id(p): face | (op if size == 3 or p.uno else OP_PLAY)
                             for p in got[0]}
    dec.ops.update(ops)
    dec.faces[i] = got
    return got


# a face's plays and picks by (rule tables, seats, seat, hand size class, card id), for
# the faces that take no tower (`add_face`): the decisions that differ only in the
# towers standing or the drawn card share them
_FACES: dict[tuple[Tables, int, int, int, int],
             tuple[tuple[A.Play, ...], tuple[A.Play, ...]]] = {}


_DECISIONS: dict[tuple[Tables, int], Decisions] = {}


def decisions_for(tables: Tables, seats: int) -> Decisions | None:
    """The `Decision` of each (seat, decision, hand size class, free towers) under
    `tables` for `seats` players (``State._decisions``), each made on first use; None
    while an issue-12 house rule is on (``Tables.house``: every decision goes the
    general way)."""
    if tables.house:
        return None
    key = (tables, seats)
    found = _DECISIONS.get(key)
    if found is None:
        found = _DECISIONS[key] = [None] * (17 * 8 * MAX_SEATS)
    return found


def _new_decision(s: State, decisions: Decisions, k: int, seat: int, index: int) -> Decision:
    dec = decisions[k] = Decision(s.tables, seat, index & 3, index & _DRAWN > 0)
    return dec


_PLAIN_OPS: dict[tuple[Tables, int], list[int]] = {}


def plain_ops(s: State) -> list[int]:
    """By card id, how ``engine.play_plain`` writes a play of the card on the plain turn
    or of the drawn card (the seat keeps two cards or more) when its rule at the table
    (``Tables.rules``) is all that is at stake: OP_PLAIN (it only passes the turn on: a
    number, a Wild), OP_MOVE (``KindRule.turns``, ``skips``, and ``draws``: on a pile
    edition taken from the pile at once, on a launcher edition owed as presses), else
    OP_PLAY: ``engine.play`` (presses until cards come, extra turns, challenges,
    stacks, targets, laid cards, towers to take, or a house rule is on:
    ``Tables.house``). A power symbol's capture (`_listed_op`) and a
    protecting tower (``engine.play_plain``) are looked at elsewhere. The simulation
    kernel plays the same cards itself (``kernel._Plan``).
    Per rule tables and seats."""
    key = (s.tables, s.n)
    found = _PLAIN_OPS.get(key)
    if found is None:
        found = _PLAIN_OPS[key] = [OP_PLAY] * len(BY_ID)
        if not s.tables.house:
            rules = s.tables.rules[s.n]
            kinds = s.tables.kinds
            for card in s.edition.deck:
                if moves_only(kinds[card.id]):
                    found[card.id] = plain_op(rules[card.id])
    return found


def plain_op(r: KindRule) -> int:
    """How a card of rule `r` is written on the plain turn (`plain_ops`)."""
    if (r.until or r.stacks or r.challenge or r.extra_turn or r.targeted or r.towers
            or r.lays):
        return OP_PLAY
    return OP_MOVE if r.turns or r.skips or r.draws else OP_PLAIN


def _listed_op(s: State, card: Card, size: int) -> int:
    """How apply writes a listed play of `card` by a seat of hand size class `size`
    (``plain_ops``), before the UNO call is looked at: going out, in full (OP_PLAY); in
    a tower edition a plain card with a symbol as OP_SYMBOL (its capture), another card
    with a symbol in full. (``engine.play_plain`` looks at a victim's protecting tower.)"""
    op = OP_PLAY if size < 2 else plain_ops(s)[card.id]
    if s.edition.towers and card.symbol and op != OP_PLAY:
        return OP_SYMBOL if op == OP_PLAIN else OP_PLAY
    return op


def _laying_listing(s: State, seat: int, m: int, dec: Decision) -> Listing:
    """A listing with a Discard All playable: its plays lay the rest of its colour in the
    order held, so they are made anew (`discard_all_plays`), and the listing gets ops of its
    own; the other faces' plays are the decision's own."""
    actions: list[Action] = []
    ops: dict[int, int] = {}
    picks: list[Action] = []
    shared = dec.ops
    laying = s.tables.laying_bits
    rest = m
    while rest:
        b = rest & -rest
        rest ^= b
        i = b.bit_length() - 1
        if b & laying:
            plays, pk = discard_all_plays(s, seat, BY_ID[i])
            for p in plays:
                ops[id(p)] = OP_PLAY
        else:
            plays, pk = dec.faces[i] or add_face(dec, s, seat, i)
            ops.update(dec.face_ops[i])  # type: ignore[arg-type]
        actions += plays
        picks += pk
    if dec.tail_listed:
        actions.append(dec.tail)
        ops[id(dec.tail)] = shared[id(dec.tail)]
    return Listing(tuple(actions), ops, -1, tuple(picks))


def discard_all_plays(s: State, seat: int, card: Card) -> tuple[tuple[Action, ...], tuple[Action, ...]]:
    """The plays of a Discard All by `seat` (simulation), which lay the other cards of
    its colour in the order held, and the policy's picks among them."""
    if s.edition.towers or needs_target(s, card):
        plays = tuple(play_variants(s, seat, card))
    else:
        colour = s.tables.colour_bits[card.colour]
        held = [i for i in s._hands[seat] if BITS[i] & colour]
        held.remove(card.id)
        one = s._counts[seat] - 1 - len(held) == 1  # one card left: with and without UNO
        key = (seat, card.id, one, *held)
        found = _LAYING.get(key)
        if found is not None:
            return found
        laid = tuple([BY_ID[i] for i in held])
        plays = ((A.Play(seat, card, "", -1, (), laid, False),
                  A.Play(seat, card, "", -1, (), laid, True)) if one
                 else (A.Play(seat, card, "", -1, (), laid, False),))
        if len(_LAYING) >= _LAYING_KEPT:
            _LAYING.clear()
        found = _LAYING[key] = (plays, plays[1:] if one else plays)
        return found
    left = s._counts[seat] - 1
    return plays, tuple([p for p in plays if p.uno == (left - len(p.laid) == 1)])


# Discard All's plays (simulation, no tower, no target) by (seat, card id, one card left,
# the ids laid in order), made once while they are few (immutable values: building a
# Play costs some twenty lookups of one); their ops are each listing's own
_LAYING: dict[tuple[int, ...], tuple[tuple[Action, ...], tuple[Action, ...]]] = {}
_LAYING_KEPT = 4096


def faces_of(m: int) -> list[Card]:
    """The cards whose bits are in `m`, in card-id order (the order plays are listed in)."""
    out = []
    while m:
        b = m & -m
        out.append(BY_ID[b.bit_length() - 1])
        m ^= b
    return out


# -- the plays of one card ----------------------------------------------------------------

# the kinds whose plays have no choice but a wild's colour and the UNO call
PLAIN_VARIANTS = frozenset(k for k, r in KINDS.items()
                           if not (r.targeted or r.towers or r.lays))
# per 2 * seat + (holds two cards): card id -> its play variants (cards without choices)
VARIANTS: list[dict[int, list[A.Play]]] = [{} for _ in range(32)]


def variant_map(s: State, seat: int) -> dict[int, list[A.Play]]:
    return VARIANTS[2 * seat + (s._counts[seat] == 2)]


def cached_variants(s: State, seat: int, card: Card,
                    cache: dict[int, list[A.Play]]) -> list[A.Play]:
    """The Play values for `card`; those without choices are cached (they are immutable)."""
    found = None if needs_target(s, card) else cache.get(card.id)
    if found is None:
        found = play_variants(s, seat, card)
        if card.kind in PLAIN_VARIANTS and not needs_target(s, card):
            cache[card.id] = found
    return found


def play_variants(s: State, seat: int, card: Card) -> list[A.Play]:
    """Every play of `card` by `seat` now: a wild once per colour, a target per other
    seat, a set of the towers it may take, the cards a Discard All lays, and with one
    card left after it, with and without the UNO call."""
    kind = s.tables.kinds[card.id]
    colours = COLOURS if card.colour == "" else ("",)
    targets: list[int] = ([t for t in range(s.n) if t != seat]
                          if kind in TARGETED or needs_target(s, card) else [-1])
    want = kind_rule(s, card).towers if s.edition.towers else 0
    if want:
        free = free_towers(s, seat)
        tower_sets = [tuple(c) for c in combinations(free, min(want, len(free)))]
    else:
        tower_sets = [()]
    laid: tuple[Card, ...] = ()
    if kind_rule(s, card).lays and not s.table:
        laid = tuple(c for c in remove(s.hand(seat), (card,)) if c.colour == card.colour)
    left = s._counts[seat] - 1 - len(laid)
    unos = (False, True) if left == 1 else (False,)
    return [A.Play(seat, card, col, t, tw, laid, u)
            for col in colours for t in targets for tw in tower_sets for u in unos]

