"""House rules of issue 12 that restrict plays: ``no_bluff``, ``no_action_finish`` and
``forced_play``, and the pending stack of ``stack_draws`` (``house_stack``).

While any engine house rule is on, the shortcut listings are off (``State._decisions``
is None: ``uno_core.listing``) and the engine's general path asks here: ``allowed`` filters the playable
cards ``legal_actions`` lists, ``refusal`` names the rule a play breaks (``apply``),
``must_play_drawn`` says whether a drawn card may be kept.

- ``no_bluff``: a Wild Draw 4 (Attack: the Wild Hit 4) only with no card of the
  current colour in the hand, and no challenge. Table mode cannot see hands: trusted.
- ``no_action_finish``: no play may leave its player without cards when the card is
  an action card or a wild (every card but a number card, power symbols included as
  numbers). A seat with nothing else may always draw, so play never stops.
- ``no_draw_finish`` (issue 23, letsuno's noFunctionCardFinish): the same for the cards
  that make a seat draw or press only (``kinds.makes_draw``); Skip, Reverse and the plain
  wilds may finish. ``banned_finish_penalty`` (``house_penalties``): trying costs cards.
- ``forced_play``: a playable drawn card must be played (simulation; at the table the
  drawn card is unknown and keeping it is trusted).
"""

from __future__ import annotations

from uno_core import actions as A
from uno_core.cards import (
    BY_ID,
    DISCARD_ALL,
    NUMBER,
    Card,
)
from uno_core.errors import Refusal
from uno_core.kinds import BLUFF_KINDS, makes_draw
from uno_core.stacking import answers
from uno_core.state import State

# the refusals of a finishing ban (finish_ban): banned_finish_penalty may charge instead
FINISH_BANS = frozenset({"no_action_finish", "no_draw_finish"})


def _left(s: State, seat: int, card: Card, laid: int | None) -> int:
    """Cards `seat` keeps after laying `card` (and `laid` more; None: a Discard All in
    simulation lays every other card of its colour)."""
    if laid is None and card.kind == DISCARD_ALL and not s.table:
        return sum(1 for i in s._hands[seat] if BY_ID[i].colour != card.colour)
    return s._counts[seat] - 1 - (laid or 0)


def refusal(s: State, seat: int, card: Card, laid: int | None = None) -> Refusal | None:
    """Why `seat` may not play `card` under the house rules now (None if it may)."""
    o = s.options
    if s.stack and not answers(s, card):
        on_two = s.tables.kinds[s._disc[-1].id] not in BLUFF_KINDS
        key = ("stack_pending_cross"
               if o.stack_draws == "cross" or (o.stack_draws == "up" and on_two)
               else "stack_pending" if on_two else "stack_pending_draw4")
        return Refusal(key, {"count": s.stack[0], "seat": s.stack[1], "mode": o.stack_draws,
                             "unit": "presses" if s.edition.launcher else "cards"})
    if (o.no_bluff and not s.table and s.tables.kinds[card.id] in BLUFF_KINDS
            and s._masks[seat] & s.tables.colour_bits[s.colour]):
        return Refusal("no_bluff", {"card": card, "colour": s.colour})
    return finish_ban(s, seat, card, laid)


def finish_ban(s: State, seat: int, card: Card, laid: int | None = None) -> Refusal | None:
    """Why `seat` may not go out on `card` (no_action_finish, no_draw_finish; None if it
    may, or the card is not its last)."""
    o = s.options
    if not (o.no_action_finish or o.no_draw_finish) or _left(s, seat, card, laid):
        return None
    if o.no_action_finish and card.kind != NUMBER:
        return Refusal("no_action_finish", {"card": card})
    if o.no_draw_finish and makes_draw(s.tables.rules[s.n][card.id]):
        return Refusal("no_draw_finish", {"card": card})
    return None


def allowed(s: State, seat: int, cards: list[Card]) -> list[Card]:
    """The playable `cards` (they match) that the house rules leave playable."""
    return [c for c in cards if not refusal(s, seat, c)]


def play_refusal(s: State, p: A.Play) -> Refusal | None:
    """`refusal` for a play as declared (its laid cards counted as given)."""
    return refusal(s, p.seat, p.card, len(p.laid))


def must_play_drawn(s: State, playable: list[Card]) -> bool:
    """forced_play: the drawn card fits, so passing is not allowed (simulation)."""
    return s.options.forced_play and s.phase == "drawn" and not s.table and bool(playable)
