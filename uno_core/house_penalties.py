"""House rules of issue 23 that make a mistake cost cards instead of being refused.

Each is an int option, 0 by default (the mistake is refused, as before): the cards a
pile edition's seat takes, or the launcher presses a launcher edition's seat owes, as
with ``uno_penalty``. The penalty is owed first (``TAG_PENALTY``, as a caught UNO) and
its effects are a penalty's: ``UnoPenalty(seat, by_table)`` for a false call, then the
``Dispense`` or ``OwePresses`` of the cards.

- ``false_uno_penalty`` (danguilherme/uno's tests, Wikipedia's house rules): a play
  with the UNO call that leaves two cards or more is made, and the player takes the
  penalty; so does a seat holding two cards or more that calls UNO (``CallUno``)
  outside a play. A call with the card that goes out stays refused: the round is over.
  Under ``forgotten_uno`` "catch" a seat holding two cards that calls on its turn,
  just before laying its second-last card, has called in time (``calls_ahead``).
- ``banned_finish_penalty`` (letsuno's noFunctionCardFinish, with its misplay
  penalty): a try to go out on a card that ``no_action_finish`` or ``no_draw_finish``
  bans is not made; the player takes the penalty and his turn goes on (he may now lay
  the card, as it is no longer his last). Jump-ins are refused as before, and so is
  the try while a stack is pending (letsuno blocks it then, with no penalty).
- ``playable_draw_penalty`` (Wikipedia's house rules): a seat that draws (presses) on
  its turn although it holds a card it may play takes the penalty instead of its draw,
  and its turn ends; this holds with ``draw_when_playable`` too. Under
  ``draw_until_playable`` the draw is made and the penalty comes on top ("the penalty
  is drawing two more and losing your turn"). Simulation only: at
  the table the hand is hidden, nobody can tell a draw from a draw that had to be, so
  every table-mode draw is trusted (as before).

``legal_actions`` lists none of these: they are mistakes, not moves (as forgetting to
call UNO is left to the bots). ``engine.costs_penalty`` says whether ``apply`` would
take an action as one.
"""

from __future__ import annotations

from uno_core import effects as E
from uno_core.house_rules import allowed
from uno_core.listing import faces_of
from uno_core.matching import playable_mask
from uno_core.options import CATCH
from uno_core.state import OWE_DRAW, TAG_PENALTY, Phase, State
from uno_core.turns import NOFX, Effects, advance, owe, settle

_NO_CALL_PHASES = frozenset((Phase.HAND_ENTRY, Phase.MATCH_OVER))
_LAYING_PHASES = frozenset((Phase.PLAY, Phase.DRAWN, Phase.EXTRA))


def false_play_call(s: State, left: int) -> bool:
    """Whether a play with the UNO call that leaves `left` cards is a false call the
    table penalises (false_uno_penalty) rather than refuses."""
    return left >= 2 and s.options.false_uno_penalty > 0


def false_call(s: State, seat: int) -> bool:
    """Whether a ``CallUno`` by `seat` is a false call the table penalises."""
    return (s.options.false_uno_penalty > 0 and 0 <= seat < s.n and s._counts[seat] >= 2
            and s.phase not in _NO_CALL_PHASES and not calls_ahead(s, seat))


def calls_ahead(s: State, seat: int) -> bool:
    """Whether a ``CallUno`` by `seat` is the call before laying its second-last card
    (seed 002: „Vor Ablegen der vorletzten Karte muß deutlich UNO gesagt werden"), which
    false_uno_penalty under forgotten_uno "catch" must not punish: the seat holds two
    cards, it is its turn to lay one, and it has not called yet. Its next play then
    leaves one card called (``State.uno_ahead``)."""
    return (s.options.false_uno_penalty > 0 and s.options.forgotten_uno == CATCH
            and 0 <= seat < s.n and s._counts[seat] == 2 and s.uno_ahead != seat
            and seat == s.to_act == s.actor and s.phase in _LAYING_PHASES
            and not s._queue)


def draws_with_playable(s: State, seat: int) -> bool:
    """Whether `seat`'s draw now is one that playable_draw_penalty penalises: its turn's
    draw (nothing stacked or owed) while it holds a card the house rules let it play."""
    if not (s.options.playable_draw_penalty and not s.table and s.phase == Phase.PLAY
            and not s._queue and not s.stack and s.to_act == seat == s.actor):
        return False
    return bool(allowed(s, seat, faces_of(playable_mask(s, seat, s._masks[seat]))))


def owe_penalty(s: State, seat: int, count: int, fx: Effects) -> None:
    """`seat` owes `count` penalty cards (presses), first of everything owed."""
    if count:
        owe(s, fx, OWE_DRAW, seat, count, TAG_PENALTY, front=True)


def punish_call(s: State, seat: int, fx: Effects) -> None:
    """A false ``CallUno``: the penalty, then play goes on as it was."""
    if fx is not NOFX:
        fx.append(E.UnoPenalty(seat, E.BY_TABLE))
    owe_penalty(s, seat, s.options.false_uno_penalty, fx)
    settle(s, fx)


def punish_finish(s: State, seat: int, fx: Effects) -> None:
    """A try to go out on a banned card: the penalty; the seat's turn goes on."""
    owe_penalty(s, seat, s.options.banned_finish_penalty, fx)
    settle(s, fx)


def punish_draw(s: State, seat: int, fx: Effects) -> None:
    """A draw while holding a playable card: the penalty instead, and the turn ends;
    under draw_until_playable the drawn card stays and the penalty follows it."""
    owe_penalty(s, seat, s.options.playable_draw_penalty, fx)
    if s.options.draw_until_playable:
        owe(s, fx, OWE_DRAW, seat, 1, front=True)
    if fx is not NOFX:
        fx.append(E.shared(E.PlayerSkipped, seat))
    advance(s, 0)
    settle(s, fx)
