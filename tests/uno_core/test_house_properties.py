"""Issue 12 point 2: house-rule combinations never deadlock.

Hypothesis draws a value for EVERY house rule the engine plays (``ENGINE_HOUSE_RULES``
not in ``NOT_YET``: a rule joins here as soon as it is built) and some other options,
for every edition, 2 to its maximum seats, both modes. Each example plays a whole match
between bots and checks after every action: a state that is not over has a legal
action for the seat to act (or a chance outcome is due), cards are conserved and the
other invariants of ``test_properties.Checker``; the match ends (rounds end, a bounded
number of actions) and its record replays to the same state.

The default ("ci") profile keeps this at a few seconds per edition and mode;
``UNOTABLE_HYPOTHESIS_PROFILE=soak`` runs many more examples.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.uno_core.test_properties import PROFILE, Checker, _option_values, _run
from uno_core import CHANCE, EDITIONS, legal_actions
from uno_core.options import ENGINE_HOUSE_RULES, NOT_YET

HOUSE = tuple(n for n in ENGINE_HOUSE_RULES if n not in NOT_YET)


@st.composite
def combinations(draw: st.DrawFn, edition: str) -> dict[str, object]:
    defaults = EDITIONS[edition].option_defaults
    options: dict[str, object] = {n: draw(_option_values(n)) for n in HOUSE if n in defaults}
    others = sorted(n for n in defaults if n not in NOT_YET and n not in HOUSE)
    for n in draw(st.lists(st.sampled_from(others), unique=True, max_size=3)):
        options[n] = draw(_option_values(n))
    options["target_score"] = draw(st.integers(60, 200))
    return options


class LiveChecker(Checker):
    """Checker plus: every state that is not over offers the seat to act an action."""

    def __call__(self, before, action, after, effects) -> None:
        super().__call__(before, action, after, effects)
        if after.over or after.to_act == CHANCE:
            return
        if after.table and after.phase == "hand_entry":
            return  # the hand as entered at the table: an outcome, like a chance's
        assert legal_actions(after), f"no legal action in {after!r}"


def _seats(edition: str) -> st.SearchStrategy[int]:
    ed = EDITIONS[edition]
    return st.integers(ed.min_players, ed.max_players)


def test_every_built_house_rule_is_drawn():
    assert {"stack_draws", "no_bluff", "forced_play", "no_action_finish"} <= set(HOUSE)


@pytest.mark.parametrize("mode", ["simulation", "table"])
@pytest.mark.parametrize("edition", sorted(EDITIONS))
@settings(PROFILE, max_examples=max(4, PROFILE.max_examples // 2))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1),
       kinds=st.lists(st.booleans(), min_size=10, max_size=10))
def test_house_rule_combinations_never_deadlock(edition, mode, data, seed, kinds):
    options = data.draw(combinations(edition))
    seats = data.draw(_seats(edition))
    _run(edition, seats, mode, options, seed,
         kinds if mode == "simulation" else [False] * 10, LiveChecker)
