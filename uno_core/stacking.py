"""What a draw card adds to a ``stack_draws`` stack, and which card may answer one.

Plain predicates on the state (no turn machinery), so that both the stack's writing
half (``house_stack``) and the house rules' play restrictions (``house_rules``, which
the turn machinery asks about a drawn card) can use them.
"""

from __future__ import annotations

from uno_core.cards import WILD_CUSTOM, Card
from uno_core.state import State
from uno_core.tables import KINDS

_VALUE = {kind: r.draws for kind, r in KINDS.items() if r.stacks}  # (tables.KINDS)


def value(s: State, card: Card) -> int:
    """What `card` adds to a stack (its effective kind's draw count), 0 if it never stacks."""
    return _VALUE.get(s.tables.custom_kind if card.kind == WILD_CUSTOM else card.kind, 0)


def answers(s: State, card: Card) -> bool:
    """Whether `card` may answer the pending stack (its kind against the top card's)."""
    mine = value(s, card)
    if not mine:
        return False
    mode = s.options.stack_draws  # "up" (issue 23): a +4 on a +2, not a +2 on a +4
    top = value(s, s._disc[-1])
    return mode == "cross" or mine == top or (mode == "up" and mine > top)
