"""House rule ``seven_zero`` (issue 12): a 7 swaps hands, a 0 passes every hand on.

- A 7 names the seat its player swaps hands with (``Play.target``, as a Trade Hands
  does); effect ``HandsTraded(seat, other)``.
- A 0 passes every hand, the player's own included, one seat on in the direction of
  play (+1: seat s's hand goes to s + 1); effect ``HandsPassed(direction)``. With two
  seats that is a swap too.
- Power and both Attack decks have no 0: there only the 7 swaps; no other card takes
  the 0's place (a rule for a card the deck lacks would be our invention).
- A player who goes out on the 7 or 0 ends the round: nothing is swapped (the 7 still
  names a seat, as a Trade Hands does, so the play's form does not depend on the hand).
- UNO: the card played gives the player's hand away, so a player who plays down to one
  card with a 7 or 0 owes no call and is not penalised: his one card is gone with his
  hand. The seat that receives that one-card hand must call UNO (Wikibooks' 7-0 wording:
  "If via this exchange a player receives a hand of only one card they must still call
  UNO"): with forgotten_uno "catch" the window opens on the receiver (``CallUno`` by
  him, ``Catch`` by anyone else, until the next player starts a turn); with "at_play"
  the call goes with one's own play, and the receiver made none: nothing is owed. A
  hand that already held one card before the play (its UNO moment is past) opens no
  window when it moves, and a window open on a seat whose hand moves closes.
  ``swap_uno_called`` (issue 23, letsuno's seven-swap): the received one-card hand
  counts as called, so no window opens.
- Table mode: the engine knows only counts; the counts follow and the effects tell the
  table to have the players swap or pass their cards.
"""

from __future__ import annotations

from uno_core import actions as A
from uno_core import effects as E
from uno_core.cardrules import number_with, trade
from uno_core.cards import Card
from uno_core.matching import gives_hand_away
from uno_core.options import CATCH
from uno_core.state import State
from uno_core.turns import NOFX, Effects


def b_number(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    """A number's behaviour (``cardrules.BEHAVIOUR``) with a 7 or 0's swap under
    seven_zero: after the symbol's capture, before the turn passes on and the four-tower
    offer (docs/formats.md, „Cases the rules above settle" 4)."""
    number_with(s, seat, p, fx, _swap if s.options.seven_zero else None)


def _swap(s: State, seat: int, p: A.Play, fx: Effects) -> None:
    swap_after(s, seat, p.card, p.target, fx)

def pass_on(s: State, fx: Effects) -> None:
    """Every hand moves one seat on in the direction of play (a 0 under seven_zero)."""
    step = s.direction
    s._counts = [s._counts[(i - step) % s.n] for i in range(s.n)]
    if not s.table:
        s._hands = [s._hands[(i - step) % s.n] for i in range(s.n)]
        s._masks = [s._masks[(i - step) % s.n] for i in range(s.n)]
    s.exposed = -1  # the seat open to a catch no longer holds its hand
    if fx is not NOFX:
        fx.append(E.shared(E.HandsPassed, step))


def swap_after(s: State, seat: int, card: Card, target: int, fx: Effects) -> None:
    """`seat` laid `card` (a number): under seven_zero a 7 trades with `target` and a 0
    passes every hand on, unless the card was `seat`'s last."""
    left = s._counts[seat]
    if not gives_hand_away(s, card) or left == 0:
        return
    if card.number == 7:
        trade(s, seat, target, fx)
        receiver = target
    else:
        pass_on(s, fx)
        receiver = (seat + s.direction) % s.n
    if left == 1 and s.options.forgotten_uno == CATCH and not s.options.swap_uno_called:
        s.exposed = receiver  # he must call UNO before someone catches him
