"""House rule ``jump_in`` (issue 12): a card identical to the top card, played out of turn.

A seat that is not to act plays a card identical to the top card (the same card: colour,
face and, in Power, the same power symbol or none: Power's 1-8 come once with a symbol
and once without per colour, so there only the 9s, Draw 1, Draw 2 and Skip have a twin)
with a normal ``Play``; play goes on
from the jumper as if it were his turn (his card's effect counts from his seat). The
first declaration wins: the table applies them in journal order, and no deck holds more
than two copies of a coloured card, so once one seat has jumped in every copy is on the
discard pile and a second declaration of it is refused.

When a jump-in is possible (``window``): a seat is to act in a play phase (its turn, its
drawn card, its extra play) and nothing is owed. So:

- wilds are never jumped in on: a wild's face includes the colour its player named,
  which no card in a hand carries; unless ``jump_in_wilds`` (issue 23, letsuno): then
  the same wild is identical whatever colour was named (a Wild on a Wild, a Wild Draw 4
  on a Wild Draw 4), and the jumper names a colour anew;
- draws or presses owed (a Draw 2's victim at a launcher, a penalty, a Wild All Hit)
  come first: no jump-in until they are done;
- a Wild Draw 4 challenge is decided first (it is a wild anyway);
- a pending stack (``stack_draws``): an identical draw card joins the stack, and the
  total passes to the seat after the jumper; the seat that was to answer is passed over;
  with ``no_jump_in_on_stack`` (issue 23, letsuno's jump-in.ts) nobody jumps in then;
- the UNO catch window: a jump-in is the next play, so it closes the window as the next
  player's turn would (a catch must come before it); the jumper's own UNO goes with his
  play as usual;
- Power: the jumper's card captures or takes towers for the jumper, and a protecting
  tower of the seat after the jumper wards off his draw card. On a turned
  Take-2-Towers the first player's colour-only turn ends with the jump-in.
- the seat whose turn it was loses it (and a drawn card it might have played, or its
  extra play).
"""

from __future__ import annotations

from uno_core.actions import CHANCE, Play
from uno_core.errors import Refusal
from uno_core.state import PLAY, State

_PLAY_PHASES = ("play", "drawn", "extra")


def window(s: State) -> Refusal | None:
    """Why no seat may jump in now (None if one may, given the card)."""
    if s.to_act == CHANCE:
        return Refusal("jump_chance", {"chance": s.chance})
    if s.phase in ("challenge", "verdict"):
        return Refusal("jump_challenge", {})
    if s.phase not in _PLAY_PHASES:
        return Refusal("jump_phase", {"phase": s.phase})
    if s._queue:
        return Refusal("jump_owed", {})
    if s.stack and s.options.no_jump_in_on_stack:
        return Refusal("jump_stack", {})
    if not s._disc[-1].colour and not s.options.jump_in_wilds:
        return Refusal("jump_wild", {})
    return None


def refusal(s: State, p: Play) -> Refusal | None:
    """Why `p`, a play by a seat not to act, is no legal jump-in (None if it is, as far
    as the jump-in goes: the engine then checks the play itself)."""
    if not s.options.jump_in:
        return Refusal("not_your_turn", {"seat": p.seat, "to_act": s.to_act, "phase": s.phase})
    if not 0 <= p.seat < s.n:
        return Refusal("no_seat", {"seat": p.seat})
    why = window(s)
    if why:
        return why
    top = s._disc[-1]
    if p.card != top:
        return Refusal("jump_identical", {"top": top, "card": p.card})
    if s.table:
        if s._unseen.get(top, 0) <= 0:
            return Refusal("jump_first", {"card": top})
    elif not s._masks[p.seat] & top.bit:
        return Refusal("not_held", {"seat": p.seat, "card": top})
    return None


def jumpers(s: State) -> list[int]:
    """The seats that may jump in now (simulation: holding the top card; table mode: any
    seat with cards while a copy is unseen), in seat order."""
    if not s.options.jump_in or window(s):
        return []
    top = s._disc[-1]
    if s.table:
        if s._unseen.get(top, 0) <= 0:
            return []
        return [i for i in range(s.n) if i != s.to_act and s._counts[i]]
    return [i for i in range(s.n) if i != s.to_act and s._masks[i] & top.bit]


def take_over(s: State, seat: int) -> None:
    """The jumper's play counts as his turn: the turn of the seat to act ends unplayed."""
    s.turn = s.actor = s.to_act = seat  # (a victim who was to act is prompted anew)
    s.phase = PLAY
    s.drawn = ()
    s.skip_pending = 0
    s.colour_only = False
