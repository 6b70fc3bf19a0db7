"""One exception hierarchy for everything in hal."""

from __future__ import annotations


class HalError(Exception):
    """Root of every hardware-layer error."""


class ConfigError(HalError, ValueError):
    """A config option is unknown, missing or has a bad value. `key` is the dotted path."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message
