"""House rule ``stack_draws`` (issue 12): a draw card is answered with a draw card.

A Draw 2 (Hit 2 on launcher editions) or a Wild Draw 4 (Wild Hit 4) that may be stacked
does not make its victim draw at once: the count goes into ``State.stack`` as
``(total, seat)`` and the turn passes to that seat, which either plays a card that
stacks on the top card (``answers``; the count grows and passes on) or takes the
total with its turn's Draw (pile: the cards are dealt at once) or Press (launcher: the
press is the first of `total` owed presses) and loses its turn (``take``).

``"same"`` stacks a +2 on a +2 and a +4 on a +4; ``"cross"`` also a +4 on a +2 and a
+2 on a +4 (the +2 must still match the colour named); ``"up"`` (issue 23, Wikibooks'
one-way cross-stacking) a +4 on a +2 but not a +2 on a +4. Draw 1 (Power) never stacks.
Power's towers: a victim holding the tower against the card laid against him wards it
off (seed 000): the card is then a plain card and the whole stack is dropped. A card
that ends its player's hand ends the round: its victim takes the total at once.
"""

from __future__ import annotations

from uno_core import effects as E
from uno_core.actions import CHANCE
from uno_core.cardrules import added, grow
from uno_core.cards import Card
from uno_core.stacking import answers, value
from uno_core.state import EJECT, OWE_DRAW, State
from uno_core.turns import NOFX, Effects, advance, owe, settle

__all__ = ["accepted", "added", "answers", "grow", "stacks", "take", "taken", "value"]


def stacks(s: State, card: Card) -> bool:
    """Whether playing `card` starts or grows a stack under the match's options."""
    return s.options.stack_draws != "off" and value(s, card) > 0


def taken(s: State, count: int) -> int:
    """The count a +4's challenge is about: the stack's total if one is pending (it is
    resolved now), else `count`."""
    if not s.stack:
        return count
    total = s.stack[0]
    s.stack = ()
    return total


def accepted(s: State, player: int) -> int:
    """The victim of a +4 did not challenge: with a stack pending he now stacks or
    takes it (returns 0; his turn starts), unless `player` went out (the total is
    returned, owed at once). Without a stack: the +4's 4."""
    if not s.stack:
        return 4
    if s._counts[player] == 0:
        return taken(s, 4)
    s.turn = player
    advance(s, 0)
    return 0


def take(s: State, seat: int, fx: Effects) -> None:
    """`seat` does not stack: it takes the total (Draw or Press) and loses its turn."""
    total = taken(s, 0)
    if s.exposed >= 0 and seat != s.exposed:
        s.exposed = -1
    owe(s, fx, OWE_DRAW, seat, total)  # launcher editions: presses
    if fx is not NOFX:
        fx.append(E.shared(E.PlayerSkipped, seat))
    advance(s, 0)
    if s.edition.launcher and (s._pcount if s.table else s._pile):
        s.to_act = CHANCE  # this press is the first of the total: the launcher ejects
        s.chance = EJECT
        fx.append(E.shared(E.Prompt, CHANCE, "eject"))
        return
    settle(s, fx)

