"""uno_core: the UNO referee. Pure Python: no I/O, no threads, no clock, no global RNG.

Entry points (no global state; a ``State`` is one mutable object that ``apply`` changes):

* ``new_match(edition, seats, options=None, mode="simulation") -> State``
  A match waiting for the chance player's ``DealerCards``. `edition` is one of
  ``classic`` ``power`` ``attack`` ``attack-1999`` ``extreme`` (``EDITIONS``); `mode` is
  ``"simulation"`` (every card known) or ``"table"`` (public information only).
* ``legal_actions(state) -> list[Action]``: the seat actions legal now, including UNO
  calls and catches by any seat. Empty at chance nodes.
* ``apply(state, action, effects=True) -> tuple[State, list[Effect]]``: checks the action
  completely, then changes `state` IN PLACE and returns it with the effects for the
  table (``effects=False``: none built). Raises ``IllegalAction(action, rule)`` before
  anything is written: the state is unchanged. ``state.clone()`` keeps an old state.
* ``state.to_act``: the seat that must act, ``CHANCE`` (-1, ``state.chance`` names the
  outcome: ``dealer_cards`` ``shuffle`` ``reveal`` ``eject``) or ``NOBODY`` at match end.
* ``sample_outcome(state, rng, launcher=MEASURED) -> Action``: the chance player
  (``uno_core.chance``; `rng` is injected: ``random()``, ``randrange()``, ``shuffle()``).
  ``sample_hand_entry(state, rng)`` plays the table's players at a table-mode round end.
* ``replay(edition, seats, actions, options=None, mode=...) -> (State, effects)``.
* ``run_random(state, rng, chance, rounds)`` (``uno_core.kernel``): the simulation
  kernel; the same games as ``legal_actions`` + ``apply`` with ``choose_random``.
* ``position(edition, hands=..., discard=..., ...) -> State`` (``uno_core.setup``): any
  mid-round position, for tests and scenario files.
* ``public_state(state) -> dict``: JSON-able public view; ``snapshot(state)`` /
  ``restore(dict)`` (``uno_core.snapshot``) serialise the full state.
* Cards: ``Card``, ``parse_card``, ``format_card`` (notation in ``uno_core.cards``).
* Actions (``uno_core.actions``): ``Play Draw Press Pass CallUno Catch Challenge Accept
  Verdict FourTowerDiscard ChooseColour EnterHand`` and chance outcomes ``Shuffle
  DealerCards Reveal Eject``; ``action_to_dict`` / ``action_from_dict``.
* Effects (``uno_core.effects``): ``Dispense OwePresses Ejected TowerMoved
  ProtectionUsed ColourChosen DirectionChanged PlayerSkipped UnoPenalty HandsTraded
  HandsPassed
  RoundOver MatchOver Prompt ...``; ``effect_to_dict``.
* Options (``uno_core.options``): ``OPTION_SPECS``, ``make_options``; errors in
  ``uno_core.errors`` (``RuleError`` > ``IllegalAction``, ``OptionError``, ``SetupError``,
  ``NotationError``).
"""

from uno_core.actions import (
    CHANCE,
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColour,
    DealerCards,
    Draw,
    Eject,
    EnterHand,
    FourTowerDiscard,
    Pass,
    Play,
    Press,
    Reveal,
    Shuffle,
    Verdict,
    action_from_dict,
    action_to_dict,
)
from uno_core.cards import Card, format_card, parse_card, parse_cards
from uno_core.chance import MEASURED, SIMPLE, sample_hand_entry, sample_outcome
from uno_core.editions import EDITIONS, Edition, get_edition
from uno_core.effects import Effect, effect_to_dict
from uno_core.engine import apply, hand_points, legal_actions, new_match, replay
from uno_core.errors import IllegalAction, NotationError, OptionError, RuleError, SetupError
from uno_core.kernel import choose_random, run_random
from uno_core.options import OPTION_SPECS, Options, make_options
from uno_core.setup import position
from uno_core.snapshot import restore, snapshot
from uno_core.state import NOBODY, SIMULATION, TABLE, State, public_state

__all__ = [
    "CHANCE", "NOBODY", "SIMULATION", "TABLE", "EDITIONS", "MEASURED", "SIMPLE",
    "OPTION_SPECS", "Accept", "Action", "CallUno", "Card", "Catch", "Challenge",
    "ChooseColour", "DealerCards", "Draw", "Edition", "Effect", "Eject", "EnterHand",
    "FourTowerDiscard", "IllegalAction", "NotationError", "OptionError", "Options", "Pass",
    "Play", "Press", "Reveal", "RuleError", "SetupError", "Shuffle", "State", "Verdict",
    "action_from_dict", "action_to_dict", "apply", "effect_to_dict", "format_card",
    "get_edition", "hand_points", "legal_actions", "make_options", "new_match",
    "parse_card", "parse_cards", "position", "public_state", "replay", "restore",
    "sample_hand_entry", "sample_outcome", "snapshot", "choose_random", "run_random",
]
