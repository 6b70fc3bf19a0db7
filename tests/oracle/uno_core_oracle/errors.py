# Frozen copy of uno_core (tests/oracle/freeze.py): the lockstep oracle. Do not edit.
"""One exception hierarchy for the rules engine (docs/architecture.md)."""

from __future__ import annotations


class RuleError(Exception):
    """Root of every error raised by uno_core."""


class NotationError(RuleError, ValueError):
    """A card or action text cannot be parsed. `text` is the bad input."""

    def __init__(self, text: str, message: str) -> None:
        super().__init__(f"{text!r}: {message}")
        self.text = text
        self.message = message


class OptionError(RuleError, ValueError):
    """A house-rule option is unknown, does not apply, or has a bad value. `name` names it."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"option {name!r}: {message}")
        self.name = name
        self.message = message


class SetupError(RuleError, ValueError):
    """A match or position cannot be set up as asked (bad seat count, impossible cards...)."""


class IllegalAction(RuleError):
    """`action` breaks `rule`. The state it was applied to is unchanged."""

    def __init__(self, action: object, rule: str) -> None:
        super().__init__(f"illegal action {action}: {rule}")
        self.action = action
        self.rule = rule
