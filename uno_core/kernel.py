"""The simulation kernel: whole games without a referee's checks or effects, the same
games bit for bit as the checked path (``legal_actions`` + ``apply``) for the same seeds.

``choose_random(state, rng)`` is the uniform policy (bench/engine.py's workload): a
uniformly random play among those ``legal_actions`` lists for the seat to act (a play
that leaves one card with the UNO call), otherwise a uniformly random other action of
that seat. ``run_random(state, rng, chance, rounds)`` plays on from `state` (simulation
mode) with that policy and ``sample_outcome(state, chance)`` until `rounds` rounds have
ended; it returns the actions applied (chance outcomes included) and leaves `state` where
the checked path would be.

How: plain turns (a seat to play, nothing owed, no UNO window, nothing pending) run in
a loop that keeps the seat, direction, colour and the faces that fit on the top card in
local variables and plays the plain cards itself (numbers, plain wilds, a power
symbol's capture, skips, reverses and on pile editions Draw 1/2 and an unrestricted
Wild Draw 4): no legal list, no action object, no check. What a card of a moving kind
does (the direction turns, seats are skipped, the victim takes cards from the pile) is
not written here: the plan records, per seat and direction, what
``cardrules.carry_out`` (the one interpreter of ``kinds.KINDS``) did with the card on a
probe of the table, and the loop writes that. A face the hand may not play is left out by
``tables.barred``, the rule the listing asks too. It makes the same ``rng.randrange``
draws over the same plays in the listed order (by card id), inline from
``getrandbits`` where the rng is ``random.Random``; a targeted card or Discard All counts as the plays listed for
it. Those plays are looked up by the playable faces' mask (``_Lists``, made from each
card's plays, ``_Plan.plays``), each with the colour and the faces that fit after it. Which cards it writes itself is ``listing.plain_ops``, the table by which ``apply``
writes the plain turn; under an option those two were not written for
(``Tables.house``, ``options.house_rules_on``) every decision goes through ``choose_random`` + ``apply``. Any
other turn (presses, a protecting tower, four towers, extra turns, challenges,
going out, a pile about to run out, a card with a target or laid cards) writes the
locals back and goes to the engine: ``play`` of the listed play the kernel builds,
``draw``, or (a turn where a tower card fits) ``choose_random`` + ``apply``. A launcher
press ejects at once through the launcher model and ``engine.eject``, a shuffle through
``chance.shuffle_order`` and ``engine.shuffle`` (the same chance draws as
``sample_outcome``); other chance outcomes go through ``sample_outcome`` + ``apply``.

The engine internals this relies on (an adapter is due if they change): the state's
``_hands`` (per seat the card ids in the order held), ``_masks`` (face bits),
``_counts``, ``_pile`` / ``_disc`` (lists of Card, top last), ``_queue`` entries
``(kind, seat, count, tag)``, ``towers`` (a tuple of seats), and its scalars
(``turn``, ``actor``, ``to_act``, ``direction``, ``colour``, ``phase``, ``chance``,
``exposed``, ``pending``, ``drawn``, ``skip_pending``, ``colour_only``, ``out``,
``since_eject``, ``round_no``); the rule tables' ``match``, ``colour_bits``,
``restricted_bits``, ``choice_bits``, ``rules``, ``launcher``; and the writing halves ``engine.play(s, play, fx)``,
``engine.draw(s, seat, fx)``, ``engine.eject(s, count, fx)`` and
``engine.shuffle(s, order, fx)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from uno_core import actions as A
from uno_core import effects as E
from uno_core.actions import CHANCE
from uno_core.cardrules import capture, carry_out
from uno_core.cards import (
    BY_ID,
    COLOURS,
    TOWER_INDEX,
    Card,
)
from uno_core.chance import MEASURED, LauncherModel, Rng, sample_outcome, shuffle_order
from uno_core.engine import apply, draw, eject, legal_actions, play, shuffle
from uno_core.errors import SetupError
from uno_core.kinds import KindRule
from uno_core.listed import FACE_SHIFT
from uno_core.listing import (
    OP_MOVE,
    OP_PLAIN,
    add_face,
    discard_all_plays,
    plain_listing,
    plain_ops,
    play_variants,
)
from uno_core.state import EJECT, MATCH_OVER, OWE_DRAW, PLAY, Chance, State
from uno_core.tables import Tables, barred, mask_of
from uno_core.turns import NOFX, give

__all__ = ["choose_random", "run_random"]

_SHUFFLE = Chance.SHUFFLE  # (a member, not its text: the quick comparison, as state.EJECT)


_Play = A.Play
_STANDARD: dict[type, bool] = {}  # rng class -> its randrange is random.Random's own


def _standard(cls: type) -> bool:
    """Whether `cls.randrange` is ``random.Random``'s (for n > 0 it returns
    ``self._randbelow(n)``: calling that gives the same numbers, without randrange's
    argument checks). Found by name: uno_core does not import random."""
    found = _STANDARD.get(cls)
    if found is None:
        owner = next((k for k in cls.__mro__ if "randrange" in vars(k)), None)
        found = _STANDARD[cls] = (owner is not None and owner.__module__ == "random"
                                  and owner.__qualname__ == "Random")
    return found


def randbelow(rng: Rng) -> Callable[[int], int]:
    """`rng.randrange` for n > 0, as ``_randbelow`` where that is the same (`_standard`)."""
    if _standard(type(rng)):
        return rng._randbelow  # type: ignore[attr-defined,no-any-return]
    return rng.randrange


def choose_random(state: State, rng: Rng) -> A.Action:
    """The uniform policy (see the module docstring)."""
    listing = state._listed or plain_listing(state)
    dec = None
    if listing is not None:
        state._listed = listing  # what legal_actions lists: apply finds its pick there
        picks = listing.picks
        if picks is not None:
            n = len(picks)
        elif listing.dec is not None:  # two faces or more: counted, not joined (Listing)
            dec = listing.dec
            n = listing.width
        else:  # a function of the shared listing: memoized on it
            seat = state.to_act
            picks = listing.picks = _candidates(listing.actions, seat,  # type: ignore[arg-type]
                                                state._counts[seat] - 1)
            n = len(picks)
    else:
        seat = state.to_act
        picks = _candidates(legal_actions(state), seat, state._counts[seat] - 1)
        n = len(picks)
    cls = type(rng)
    if cls is _inline_class or _inline(cls):  # randrange(n), inline (`_bits_source`)
        k = n.bit_length()
        i = rng.getrandbits(k)  # type: ignore[attr-defined]
        while i >= n:
            i = rng.getrandbits(k)  # type: ignore[attr-defined]
    else:
        i = rng.randrange(n)
    if dec is None:
        return picks[i]  # type: ignore[index,no-any-return]
    # the i-th pick: the faces' picks in card-id order, each face made when first met
    faces = dec.faces
    rest = listing.faces >> FACE_SHIFT  # type: ignore[union-attr]
    while True:
        b = rest & -rest
        j = b.bit_length() - 1
        got = (faces[j] or add_face(dec, state, state.to_act, j))[1]
        if i < len(got):
            return got[i]  # type: ignore[no-any-return]
        i -= len(got)
        rest ^= b


_INLINE: dict[type, bool] = {}  # rng class -> `_bits_source` gives its getrandbits
_inline_class: type | None = None  # the last class found true: an identity test per call


def _inline(cls: type) -> bool:
    global _inline_class
    found = _INLINE.get(cls)
    if found is None:
        found = _INLINE[cls] = _bits_source_of(cls)
    if found:
        _inline_class = cls
    return found


def _candidates(legal: Sequence[A.Action], seat: int, left: int) -> tuple[A.Action, ...]:
    """What the policy picks from: the listed plays of `seat` (with the UNO call when
    the play leaves one card), or when there is none, that seat's other actions."""
    plays = [a for a in legal if type(a) is _Play and a.seat == seat
             and a.uno == (left - len(a.laid) == 1)]
    if plays:
        if len(plays) == len(legal) and type(legal) is tuple:
            return legal  # every listed action: share the listing's tuple
        return tuple(plays)
    return tuple([a for a in legal
                  if a.seat == seat and (type(a) is not A.FourTowerDiscard or a.uno)])


def run_random(state: State, rng: Rng, chance: Rng, rounds: int,
               launcher: LauncherModel = MEASURED) -> int:
    """Play `rounds` more rounds with `choose_random`; return the actions applied."""
    s = state
    if s.table:
        raise SetupError("kernel_table")
    s._listed = None  # the kernel writes without asking legal_actions: a listing goes stale
    tb = s.tables
    if tb.house:  # a rule the loop below was not written for (options.house_rules_on)
        return _through_engine(s, rng, chance, rounds, launcher)
    match, restricted = tb.match, tb.restricted_bits
    draw_then_play = s.options.draw_then_play
    pile_draws = not tb.launcher and not draw_then_play  # a draw ends the turn
    presses = tb.launcher
    n = s.n
    plan = _plan(s)
    lists = plan.lists
    moves, takes = plan.moves, plan.takes
    towers_of = plan.tower if s.edition.towers else None
    bit_lengths = plan.bit_lengths
    # by direction (1, -1), by seat: the seat next in that direction
    nexts = ((), tuple((k + 1) % n for k in range(n)), tuple((k - 1) % n for k in range(n)))
    below = randbelow(rng)
    getbits = _bits_source(rng)
    sample = launcher.eject
    actions = done = 0
    while done < rounds and s.phase is not MATCH_OVER:
        before = s.round_no
        seat = s.to_act
        if seat == CHANCE:
            if s.chance is EJECT:
                k = sample(chance, s.since_eject)
                eject(s, min(k, len(s._pile)), NOFX)
            elif s.chance is _SHUFFLE:
                shuffle(s, shuffle_order(s, chance), NOFX)
            else:
                apply(s, sample_outcome(s, chance, launcher), effects=False)
            actions += 1
        elif (s.phase is PLAY and seat == s.actor == s.turn and not s._queue
              and s.exposed < 0 and not s.colour_only and not s.skip_pending
              and not s.pending and not s.drawn and s.out < 0 and s._pile):
            # plain turns with the hot state in locals, until a turn needs the engine:
            # then the locals are written back and the engine plays that turn
            hands, masks, counts, pile, disc = s._hands, s._masks, s._counts, s._pile, s._disc
            t, d, colour = seat, s.direction, s.colour
            ahead = nexts[d]  # by seat, the next one in the direction of play
            fit = match[disc[-1].id][colour]  # the faces that go on the top card now
            while True:
                hm = masks[t]
                m = hm & fit
                if restricted and m & restricted:  # Extreme: a plain Wild only without the colour
                    m &= ~barred(tb, hm, colour)
                if not m:  # nothing fits: the one action listed is the draw (or press)
                    if getbits is None:
                        below(1)
                    else:  # randrange(1), inline: a bit at a time until a 0
                        while getbits(1):
                            pass
                    actions += 1
                    if pile_draws and len(pile) > 1:
                        card = pile.pop()
                        hands[t].append(card.id)
                        masks[t] = hm | card.bit
                        counts[t] += 1
                        t = ahead[t]
                        continue
                    if presses:  # the press; the launcher ejects at once
                        k = sample(chance, s.since_eject)
                        if 0 < k < len(pile):  # cards, and some stay in the launcher
                            fits = 0
                            if draw_then_play:  # a drawn card that fits: Play or Pass
                                dm = mask_of(pile[-k:])
                                fits = dm & fit
                                if fits & restricted:
                                    fits &= ~barred(tb, hm | dm, colour)
                            if not fits:
                                give(s, t, k)
                                s.since_eject = 0
                                t = ahead[t]
                                actions += 1
                                continue
                        elif not k:  # none came out: the turn ends
                            s.since_eject += 1
                            t = ahead[t]
                            actions += 1
                            continue
                    s.turn = s.actor = s.to_act = t
                    s.direction, s.colour = d, colour
                    draw(s, t, NOFX)
                    if presses:
                        eject(s, min(k, len(s._pile)), NOFX)
                        actions += 1
                    break
                listed = lists[m]  # the plays listed for the faces m (_Lists)
                if listed is None:  # a card whose plays need the towers: the full policy
                    s.turn = s.actor = s.to_act = t
                    s.direction, s.colour = d, colour
                    apply(s, choose_random(s, rng), effects=False)
                    actions += 1
                    break
                total = len(listed)
                if getbits is None:
                    i = below(total)
                else:  # randrange(total), inline
                    kb = bit_lengths[total]
                    i = getbits(kb)
                    while i >= total:
                        i = getbits(kb)
                j, card, code, i, after, fits_after = listed[i]
                actions += 1
                c = counts[t]
                if code == _PLAIN and c > 1:  # the common play: the turn passes on
                    hand = hands[t]
                    hand.remove(j)
                    if c == hm.bit_count() or j not in hand:  # no face held twice, or not j
                        masks[t] = hm ^ card.bit
                    counts[t] = c - 1
                    disc.append(card)
                    colour, fit = after, fits_after
                    t = ahead[t]
                    continue
                if towers_of is not None and towers_of[j] >= 0:
                    # a capture that completes four towers (the four-tower discard
                    # follows) or a protected victim: the engine's play
                    if code == _SYMBOL:
                        # the number's capture (the engine's play would make it again:
                        # the tower is the player's already then)
                        capture(s, t, card.symbol, NOFX)
                        if s.towers == (t, t, t, t):
                            code = _ENGINE
                    elif s.towers[towers_of[j]] == moves[j][d][t][1]:  # the victim's ward
                        code = _ENGINE
                if (code > _SYMBOL or not code or c == 1
                        or (code == _MOVE and len(pile) <= takes[j])):
                    # the engine plays it (going out, too: the round ends)
                    s.turn = s.actor = s.to_act = t
                    s.direction, s.colour = d, colour
                    if code >= _TARGETED:
                        p = _chosen_play(s, plan, t, card, i)
                    else:
                        p = _listed_play(t, card, i, c == 2)
                    play(s, p, NOFX)
                    break
                hand = hands[t]
                hand.remove(j)
                if c == hm.bit_count() or j not in hand:
                    masks[t] = hm ^ card.bit
                counts[t] = c - 1
                disc.append(card)
                colour, fit = after, fits_after
                if code != _MOVE:  # (_PLAIN, _SYMBOL) the turn passes on
                    t = ahead[t]
                else:  # what cardrules.carry_out does with the card (_Plan.moves)
                    way, victim, k, t = moves[j][d][t]
                    if k:
                        give(s, victim, k)
                    if way != d:
                        d = way
                        ahead = nexts[d]
        elif (s._queue and s.exposed < 0 and s._queue[0][1] == seat
              and s._queue[0][0] is not OWE_DRAW):
            # a press this seat owes, the one action listed; the launcher ejects at once
            if getbits is None:
                below(1)
            else:
                while getbits(1):
                    pass
            s.to_act = CHANCE
            s.chance = EJECT
            k = sample(chance, s.since_eject)
            eject(s, min(k, len(s._pile)), NOFX)
            actions += 2
        else:
            apply(s, choose_random(s, rng), effects=False)
            actions += 1
        done += s.round_no != before
    return actions


def _through_engine(s: State, rng: Rng, chance: Rng, rounds: int,
                    launcher: LauncherModel) -> int:
    """`run_random` with every decision through ``choose_random`` + ``apply``."""
    actions = done = 0
    while done < rounds and s.phase is not MATCH_OVER:
        before = s.round_no
        action = (sample_outcome(s, chance, launcher) if s.to_act == CHANCE
                  else choose_random(s, rng))
        apply(s, action, effects=False)
        actions += 1
        done += s.round_no != before
    return actions


# How the kernel plays a card (per edition, options and seats: `_plan`). 0: the
# engine's own `play` (presses, extra turns, challenges, stacks); 1-3: the kernel
# itself (``listing.plain_ops``): _PLAIN passes the turn on, _MOVE writes what
# ``cardrules.carry_out`` did with the card on a probe of the table (`_moves`: the
# direction, a victim taking cards from the pile, the seat to play next), _SYMBOL
# captures a power symbol's tower; 4, 5: the engine's `play` of the listed play the
# kernel builds. A power symbol's tower capture that completes four towers, and a
# victim's protecting tower, go to the engine.
_ENGINE, _PLAIN, _MOVE, _SYMBOL, _TARGETED, _DISCARD_ALL = range(6)


class _Plan:
    """What the kernel knows about each card of one edition, options and seats: its
    `codes` (above), `widths` (how many plays legal_actions lists for the card and the
    policy picks from: a wild one per colour, a targeted card one per colour and other
    seat), `policy_bits` (cards whose plays depend on more than the card: the towers;
    their turns go to the full policy), `tower` (the tower a power symbol captures, or
    that protects the card's victim; -1), and for a _MOVE card its `moves` (`_moves`)
    and `takes` (the cards its victim takes from the pile); by card id
    its `plays` as listed (`_Listed`), and per playable faces the plays listed for them
    (`lists`, `_Lists`); `bit_lengths[k]` is ``k.bit_length()`` for every number of them."""

    __slots__ = ("codes", "widths", "policy_bits", "tower", "moves", "takes",
                 "lists", "bit_lengths", "plays", "chosen")

    def __init__(self, s: State) -> None:
        tb, ed, n = s.tables, s.edition, s.n
        plain = plain_ops(s)  # how apply writes each card on the plain turn
        rules = tb.rules[n]
        size = len(BY_ID)
        self.codes = [_ENGINE] * size
        self.widths = [1] * size
        self.tower = [-1] * size
        self.moves: list[_Moves] = [()] * size
        self.takes = [0] * size
        probe = _probe(s)
        # each card's listed plays, in listed order (as the listing makes them for a
        # seat keeping cards: a Discard All's one play lays what the hand holds then):
        # (id, card, code, its index among the card's plays, the colour after it, the
        # faces that fit on it then)
        self.plays: list[tuple[_Listed, ...]] = [()] * size
        for card in dict.fromkeys(ed.deck):
            r = rules[card.id]
            code = _ENGINE
            if r.targeted:
                code = _TARGETED
            elif r.lays:
                code = _DISCARD_ALL
            op = plain[card.id]
            if op == OP_PLAIN:
                code = _SYMBOL if card.symbol and ed.towers else _PLAIN
            elif op == OP_MOVE and not (card.symbol and ed.towers):
                moves = _moves(probe, card, r)
                if moves is not None:  # (a victim's presses, say, are the engine's)
                    code = _MOVE
                    self.moves[card.id] = moves
                    self.takes[card.id] = moves[1][0][2]
            if ed.towers and code == _SYMBOL:
                self.tower[card.id] = TOWER_INDEX[card.symbol]
            elif ed.towers and code == _MOVE and self.moves[card.id][1][0][1] >= 0:
                # the victim's ward (cardrules.protected)
                self.tower[card.id] = tb.protector[card.id]
            self.codes[card.id] = code
            after = ([card.colour] if r.lays else
                     [p.colour or card.colour for p in play_variants(probe, 0, card)])
            self.widths[card.id] = len(after)
            self.plays[card.id] = tuple(
                (card.id, card, code, k, colour, tb.match[card.id][colour])
                for k, colour in enumerate(after))
        self.policy_bits = tb.choice_bits & ~mask_of(
            c for c in ed.deck if self.codes[c.id] in (_TARGETED, _DISCARD_ALL))
        self.bit_lengths = [k.bit_length() for k in range(sum(self.widths) + 1)]
        self.lists = _Lists(self)
        # by (seat, card id, hand of two): a targeted card's plays (`_chosen_play`)
        self.chosen: dict[tuple[int, int, bool], list[A.Play]] = {}


# by direction (1, -1: `_Moves[d]`), by seat: what laying a _MOVE card does, as
# (direction after it, its victim or -1, the cards the victim takes, the seat to play)
_Move = tuple[int, int, int, int]
_Moves = tuple[tuple[_Move, ...], ...]


def _probe(s: State) -> State:
    """A copy of `s` at the plain turn the kernel plays a card on (nothing owed, pending
    or stacked, no tower owned, a full pile): what `_moves` lays cards on."""
    p = s.clone()
    p._pile = list(s.edition.deck)
    p._queue = []
    p.towers = (-1, -1, -1, -1)
    p.pending = p.stack = p.drawn = ()
    p.skip_pending = 0
    p.phase = PLAY
    p.exposed = p.out = -1
    p.colour_only = False
    p._counts = [7] * p.n  # hands of seven: no play made on it calls UNO
    return p


def _moves(probe: State, card: Card, r: KindRule) -> _Moves | None:
    """What ``cardrules.carry_out`` does when `card` (of rule `r`) is laid, found by
    running it on `probe` from every seat in both directions: the kernel writes no
    kind's meaning of its own. None when it does more than a `_Move` says (a victim
    owing presses, an extra turn, a challenge...): the engine plays the card then."""
    by_direction: list[tuple[_Move, ...]] = [(), (), ()]
    for d in (1, -1):
        row = []
        for t in range(probe.n):
            before = probe.clone()
            before.turn = before.actor = before.to_act = t
            before.direction = d
            after = before.clone()
            fx: list[E.Effect] = []
            passed = carry_out(after, t, r, card, fx)
            hit = {e.seat for e in fx if isinstance(e, (E.PlayerSkipped, E.Dispense))}
            if passed < 0 or len(hit) > 1:
                return None
            victim = hit.pop() if hit else -1
            takes = after._counts[victim] - before._counts[victim] if victim >= 0 else 0
            # the move as the kernel writes it must leave the probe as carry_out did
            before.direction = after.direction
            if takes:
                give(before, victim, takes)
            if (before != after or after.skip_pending
                    or (r.skips or r.draws) and victim < 0):
                return None
            row.append((after.direction, victim, takes,
                        (t + after.direction * (1 + passed)) % probe.n))
        by_direction[d] = tuple(row)
    if len({(m[1] < 0, m[2]) for ms in by_direction for m in ms}) > 1:
        return None  # a victim or the cards taken depend on the seat: not a `_Move`
    return tuple(by_direction)


# one listed play as the kernel writes it (_Plan.plays)
_Listed = tuple[int, Card, int, int, str, int]
# Masks of up to three faces are remembered (some 26,000 in classic's 54 faces): a
# longer one is seldom seen twice, and is made from its lowest face and the rest, which
# is. Beyond _LISTS_KEPT masks per plan, the set starts over.
_LISTS_FACES = 3
_LISTS_KEPT = 1 << 16


class _Lists(dict[int, "tuple[_Listed, ...] | None"]):
    """By playable faces (a mask), the plays listed for them in listed order (by card
    id), or None when one of them needs the full policy (`_Plan.policy_bits`); made on
    a look-up of a mask not remembered (`_LISTS_FACES`): the lowest face's plays
    (`_Plan.plays`), then the other faces' (looked up in turn)."""

    __slots__ = ("plan",)

    def __init__(self, plan: _Plan) -> None:
        super().__init__()
        self.plan = plan

    def __missing__(self, m: int) -> tuple[_Listed, ...] | None:
        plan = self.plan
        found: tuple[_Listed, ...] | None = None
        policy = plan.policy_bits
        if not (policy and m & policy):  # (most editions have none: no test of m then)
            low = m & -m
            found = plan.plays[low.bit_length() - 1]
            if m != low:
                found += self[m ^ low]  # type: ignore[operator]
        if m.bit_count() <= _LISTS_FACES:
            if len(self) >= _LISTS_KEPT:
                self.clear()
            self[m] = found
        return found


_PLANS: dict[tuple[Tables, int], _Plan] = {}


def _plan(s: State) -> _Plan:
    key = (s.tables, s.n)
    found = _PLANS.get(key)
    if found is None:
        found = _PLANS[key] = _Plan(s)
    return found


_PLAYS: dict[tuple[int, int, int, bool], A.Play] = {}


def _listed_play(seat: int, card: Card, colour_index: int, two: bool) -> A.Play:
    """The play `legal_actions` lists for a card without choices: its `colour_index`-th
    colour if wild, with UNO when it leaves one card (made once: plays are immutable)."""
    key = (seat, card.id, colour_index, two)
    found = _PLAYS.get(key)
    if found is None:
        found = _PLAYS[key] = A.Play(seat, card, COLOURS[colour_index] if card.colour == ""
                                     else "", uno=two)
    return found


def _chosen_play(s: State, plan: _Plan, seat: int, card: Card, i: int) -> A.Play:
    """The `i`-th of the plays the policy picks from for a card with choices (a target,
    the cards a Discard All lays), as the listing makes them: its UNO call when it
    leaves one card. A targeted card's are made once per seat and hand of two or not
    (plays are immutable); a Discard All's lay what the hand holds now."""
    if plan.codes[card.id] == _DISCARD_ALL:
        laying = discard_all_plays(s, seat, card)[1][i]
        assert type(laying) is A.Play
        return laying
    key = (seat, card.id, s._counts[seat] == 2)
    found = plan.chosen.get(key)
    if found is None:
        left = s._counts[seat] - 1
        found = plan.chosen[key] = [p for p in play_variants(s, seat, card)
                                    if p.uno == (left == 1)]
    return found[i]


def _bits_source(rng: Rng) -> Callable[[int], int] | None:
    """`rng.getrandbits` where its ``_randbelow(n)`` is random.Random's
    ``_randbelow_with_getrandbits`` (k = n.bit_length(); draw k bits until below n), so
    the kernel can draw inline the same numbers; otherwise None."""
    if _bits_source_of(type(rng)):
        return rng.getrandbits  # type: ignore[attr-defined,no-any-return]
    return None


def _bits_source_of(cls: type) -> bool:
    """Whether rngs of class `cls` are `_bits_source`'s kind. Found by name."""
    f = getattr(cls, "_randbelow", None)
    return (_standard(cls) and getattr(f, "__module__", "") == "random"
            and getattr(f, "__qualname__", "") == "Random._randbelow_with_getrandbits")
