"""House rule ``draw_until_playable`` (issue 12, pile editions: classic, Power).

A seat that draws on its turn (it cannot play, or Power's ``draw_when_playable`` lets it)
keeps the turn and draws one card at a time (one ``Draw``, one ``Dispense(seat, 1)``
each) until it draws a card that fits, which it then plays: phase ``"drawn"`` lists the
drawn card's plays if it fits, else the next ``Draw``; ``Pass`` is never legal. This
holds with ``draw_then_play`` off too. The pile running out is reshuffled as for any
draw; when nothing at all is left to draw (pile empty, the discard pile only its top
card), the turn ends with the cards drawn so far.

At the table the engine cannot see the drawn card: each press of the seat's draw button
deals one card, and the player either declares the playable card by playing it or
presses again (the declaration is trusted, as other table-mode plays).

Launcher editions eject a random number of cards per press: there is no drawing one
card at a time, so they refuse the option (``options.make_options`` says why).
"""

from __future__ import annotations

from uno_core.state import State


def drawing(s: State) -> bool:
    """Whether the seat to act is drawing until a card fits (a drawn card waits)."""
    return s.phase == "drawn" and s.options.draw_until_playable
