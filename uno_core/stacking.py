"""What a draw card adds to a ``stack_draws`` stack, and which card may answer one.

Plain predicates on the state (no turn machinery), so that both the stack's writing
half (``house_stack``) and the house rules' play restrictions (``house_rules``, which
the turn machinery asks about a drawn card) can use them.
"""

from __future__ import annotations

from uno_core.cards import Card
from uno_core.state import State


def value(s: State, card: Card) -> int:
    """What `card` adds to a stack (its rule's draws at this table, ``Tables.rules``), 0
    if it does not stack (or stack_draws is off)."""
    r = s.tables.rules[s.n][card.id]
    return r.draws if r.stacks else 0


def answers(s: State, card: Card) -> bool:
    """Whether `card` may answer the pending stack (its kind against the top card's)."""
    mine = value(s, card)
    if not mine:
        return False
    mode = s.options.stack_draws  # "up" (issue 23): a +4 on a +2, not a +2 on a +4
    top = value(s, s._disc[-1])
    return mode == "cross" or mine == top or (mode == "up" and mine > top)
