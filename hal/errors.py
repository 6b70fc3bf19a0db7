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


class SerialError(HalError):
    """A serial reader failed: the port, the bytes on it, or the chip behind it."""


class ReaderDisconnected(SerialError):
    """The port is gone (USB unplugged) or cannot be opened; `port` names it."""

    def __init__(self, port: str, reason: str) -> None:
        super().__init__(f"{port}: {reason}")
        self.port = port
        self.reason = reason


class PortBusy(ReaderDisconnected):
    """Another program holds the port (every reader is opened exclusively)."""


class SerialTimeout(SerialError):
    """The chip did not answer in time."""


class FrameError(SerialError):
    """The chip answered with a broken frame, an error frame, or an unexpected reply."""
