"""The simulation kernel: whole games without a referee's checks or effects, the same
games bit for bit as the checked path (``legal_actions`` + ``apply``) for the same seeds.

``choose_random(state, rng)`` is the uniform policy (bench/engine.py's workload): a
uniformly random play among those ``legal_actions`` lists for the seat to act (a play
that leaves one card with the UNO call), otherwise a uniformly random other action of
that seat. ``run_random(state, rng, chance, rounds)`` plays on from `state` (simulation
mode) with that policy and ``sample_outcome(state, chance)`` until `rounds` rounds have
ended; it returns the actions applied (chance outcomes included) and leaves `state` where
the checked path would be. The plain turn (a seat to play, nothing owed, no UNO window,
no card with choices) runs without building the legal list or checking the action: it
makes the same ``rng.randrange`` call over the same plays in the same order (the
card-id order, a wild once per colour) and writes through the engine's own ``play`` /
``draw``. Everything else goes through ``apply`` with ``effects=False``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from uno_core import actions as A
from uno_core.actions import CHANCE
from uno_core.cards import BY_ID, NUMBER, Card
from uno_core.chance import MEASURED, LauncherModel, Rng, sample_outcome
from uno_core.engine import (
    _VARIANTS,
    apply,
    draw,
    legal_actions,
    plain_listing,
    play,
    play_number,
)
from uno_core.errors import SetupError
from uno_core.state import OWE_DRAW, State
from uno_core.turns import NOFX

__all__ = ["choose_random", "run_random"]


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
    if listing is not None:
        state._listed = listing  # what legal_actions lists: apply finds its pick there
        picks = listing.picks
        if picks is None:  # a function of the shared listing: memoized on it
            seat = state.to_act
            picks = listing.picks = _candidates(listing.actions, seat,
                                                state._counts[seat] - 1)
    else:
        seat = state.to_act
        picks = _candidates(legal_actions(state), seat, state._counts[seat] - 1)
    if _STANDARD.get(type(rng)) or _standard(type(rng)):
        return picks[rng._randbelow(len(picks))]  # type: ignore[attr-defined]
    return picks[rng.randrange(len(picks))]


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
        raise SetupError("the simulation kernel needs simulation mode (every card known)")
    tb = s.tables
    match, colour_bits, plain_wild = tb.match, tb.colour_bits, tb.plain_wild_bits
    choice_bits, wild_restricted = tb.choice_bits, tb.wild_restricted
    wilds = colour_bits[""]
    by_id = BY_ID
    below = randbelow(rng)
    actions = done = 0
    while done < rounds and s.phase != "match_over":
        before = s.round_no
        seat = s.to_act
        if seat == CHANCE:
            apply(s, sample_outcome(s, chance, launcher), effects=False)
        elif (s.phase == "play" and seat == s.actor and not s._queue and s.exposed < 0
              and not s.colour_only):
            hm = s._masks[seat]
            colour = s.colour
            m = hm & match[s._disc[-1].id][colour]
            if m and wild_restricted and hm & colour_bits[colour]:
                m &= ~plain_wild
            if not m:  # nothing fits: the one action is the draw (or press)
                below(1)
                draw(s, seat, NOFX)
            elif m & choice_bits:
                apply(s, choose_random(s, rng), effects=False)
            else:
                # the listed plays are the faces of m in card-id order, a wild once per
                # colour: their number is known from the bits, and the pick is found by
                # walking the bits of m from the lowest
                total = m.bit_count()
                if m & wilds:
                    total += 3 * (m & wilds).bit_count()
                i = below(total)
                while True:  # the faces in card-id order, as listed
                    b = m & -m
                    k = 4 if b & wilds else 1
                    if i < k:
                        break
                    i -= k
                    m ^= b
                card = by_id[b.bit_length() - 1]
                counts = s._counts
                if card.kind == NUMBER and not card.symbol and counts[seat] > 2:
                    play_number(s, seat, card, NOFX)
                else:
                    two = counts[seat] == 2
                    variants = _VARIANTS[2 * seat + two].get(card.id)
                    if variants is None:  # not listed yet for this seat: ask the engine
                        p = legal_play(s, seat, card, i, two)
                    else:
                        p = variants[2 * i + 1 if two else i]
                    play(s, p, NOFX)
        elif (s._queue and s.exposed < 0 and s._queue[0][1] == seat
              and s._queue[0][0] != OWE_DRAW):
            # a press this seat owes: the one action listed; the launcher then ejects
            below(1)
            s.to_act = CHANCE
            s.chance = "eject"
        else:
            apply(s, choose_random(s, rng), effects=False)
        actions += 1
        done += s.round_no != before
    return actions


def legal_play(s: State, seat: int, card: Card, colour_index: int, two: bool) -> A.Play:
    """The listed play of `card` (its `colour_index`-th colour, with UNO when two cards
    are held), from ``legal_actions`` (which also fills the variant cache)."""
    plays = [a for a in legal_actions(s) if type(a) is A.Play and a.card is card
             and a.uno == two]
    return plays[colour_index]
