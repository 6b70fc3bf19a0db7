"""Why a house-rule option or a match's set-up is refused, keyed: the English of each.

An `OptionError` or a `SetupError` carries its problem's `key` and `values` (names and
given values as they are, a list of known names as a tuple, a card as `Card`), like an
`IllegalAction`; its message is rendered from the English here, the firmware's
catalogues word the same keys in the table's language. Nothing parses a text.
"""

from __future__ import annotations

from collections.abc import Mapping

# key -> English wording of an option's problem (its name is said before it)
OPTION_ENGLISH: dict[str, str] = {
    "unknown_preset": "{value!r} is not one of {known}",
    "unknown_option": "unknown option (known: {known})",
    "expected_integer": "expected an integer, got {value!r}",
    "expected_bool": "expected bool, got {value!r}",
    "expected_text": "expected str, got {value!r}",
    "not_a_choice": "{value!r} is not one of {known}",
    "below_minimum": "{value!r} is below the minimum {minimum}",
    "above_maximum": "{value!r} is above the maximum {maximum}",
    "expected_name_value": "expected NAME=VALUE, e.g. stack_draws=cross",
    "expected_true_false": "expected true or false, got {value!r}",
    "not_here": "does not apply to edition {edition!r}",
    "pile_only": "does not apply to edition {edition!r}: pile editions only: this edition "
                 "draws by pressing the launcher, which ejects a random number of cards, so "
                 "there is no drawing one card at a time until one fits",
    "not_built": "this house rule is not built yet",
}

# key -> English wording of a set-up's problem
SETUP_ENGLISH: dict[str, str] = {
    "not_a_card": "not a card: {given}",
    "hands_or_counts": "give hands (simulation) or counts (table mode)",
    "counts_not_hands": "table mode knows only hand counts: give counts, not hands",
    "hands_not_counts": "simulation needs every hand: give hands, not counts",
    "no_top_card": "the discard pile needs at least its top card",
    "deck_has": "{card}: the {edition} deck has {has}, the position uses {uses}",
    "turn_seat": "turn must be a seat 0..{last}, not {given}",
    "direction": "direction is 1 or -1, not {given}",
    "current_colour": "the current colour must be one of {known} (a wild on top needs "
                      "colour=...), not {given!r}",
    "negative_counts": "hand counts cannot be negative",
    "too_many_cards": "more cards in hands than the deck holds",
    "score_count": "scores needs {count} values",
    "no_towers": "{edition} has no towers",
    "unknown_tower": "unknown tower {given!r} (towers: {known})",
    "tower_seat": "tower {given}: no seat {number}",
    "seat_count": "{edition} is for {low}-{high} players, not {given!r}",
    "unknown_mode": "unknown mode {given!r} (known: {known})",
    "unknown_edition": "unknown edition {given!r} (known: {known})",
    "deal_too_big": "{count} hands of {size} do not fit a {deck}-card deck",
    "snapshot_version": "snapshot version {given!r} is not {version}",
    "snapshot_field": "snapshot lacks field {given!r}",
    "bad_snapshot": "bad snapshot: {detail}",
    "kernel_table": "the simulation kernel needs simulation mode (every card known)",
}


def _plain(value: object) -> object:
    """A value as the English shows it: a tuple of names joined by commas."""
    if isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value)
    return value


def english(catalogue: Mapping[str, str], key: str, values: Mapping[str, object]) -> str:
    """The English wording of problem `key` of `catalogue` with `values` filled in."""
    return catalogue[key].format_map({k: _plain(v) for k, v in values.items()})
