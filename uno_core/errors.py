"""One exception hierarchy for the rules engine (docs/architecture.md)."""

from __future__ import annotations

from typing import NamedTuple

from uno_core.problems import OPTION_ENGLISH, SETUP_ENGLISH
from uno_core.problems import english as problem_english
from uno_core.refusals import english


class RuleError(Exception):
    """Root of every error raised by uno_core."""


class NotationError(RuleError, ValueError):
    """A card or action text cannot be parsed. `text` is the bad input."""

    def __init__(self, text: str, message: str) -> None:
        super().__init__(f"{text!r}: {message}")
        self.text = text
        self.message = message


class OptionError(RuleError, ValueError):
    """A house-rule option is unknown, does not apply, or has a bad value. `name` names
    it; `key` (one of `uno_core.problems.OPTION_ENGLISH`) and `values` say what is wrong,
    as an `IllegalAction` does; `message` is that in English."""

    def __init__(self, name: str, key: str, /, **values: object) -> None:
        self.name = name
        self.key = key
        self.values: dict[str, object] = values
        super().__init__(f"option {name!r}: {self.message}")

    @property
    def message(self) -> str:
        return problem_english(OPTION_ENGLISH, self.key, self.values)

    def __reduce__(self) -> tuple[object, ...]:  # a pickled error keeps its values
        return (_option_error, (self.name, self.key, self.values))


def _option_error(name: str, key: str, values: dict[str, object]) -> OptionError:
    return OptionError(name, key, **values)


class SetupError(RuleError, ValueError):
    """A match or position cannot be set up as asked (bad seat count, impossible cards...):
    `key` (one of `uno_core.problems.SETUP_ENGLISH`) and `values` say why, as an
    `IllegalAction` does; `message` and ``str()`` are that in English."""

    def __init__(self, key: str, /, **values: object) -> None:
        self.key = key
        self.values: dict[str, object] = values
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return problem_english(SETUP_ENGLISH, self.key, self.values)

    def __reduce__(self) -> tuple[object, ...]:
        return (_setup_error, (self.key, self.values))


def _setup_error(key: str, values: dict[str, object]) -> SetupError:
    return SetupError(key, **values)


class IllegalAction(RuleError):
    """`action` breaks the rule `key` (a stable snake_case name, one of
    `uno_core.refusals.ENGLISH`), with its `values` (seats as ints, cards as `Card`,
    colours as codes). The state it was applied to is unchanged. `rule` is the English
    wording, rendered only when read."""

    def __init__(self, action: object, key: str, /, **values: object) -> None:
        super().__init__(action, key)
        self.action = action
        self.key = key
        self.values: dict[str, object] = values

    @property
    def rule(self) -> str:
        return english(self.key, self.values)

    def __str__(self) -> str:
        return f"illegal action {self.action}: {self.rule}"

    def __reduce__(self) -> tuple[object, ...]:  # a pickled refusal keeps its values
        return (_illegal_action, (self.action, self.key, self.values))


def _illegal_action(action: object, key: str, values: dict[str, object]) -> IllegalAction:
    return IllegalAction(action, key, **values)


class Refusal(NamedTuple):
    """Why a rule refuses an action, before an `IllegalAction` is raised for it (the
    house rules' checks return one, or None when the action is fine)."""

    key: str
    values: dict[str, object]
