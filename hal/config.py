"""Reading one config section: typed options, ranges, unknown keys rejected.

Each hal feature parses its own section with a `Section` (Klipper style)::

    sec = Section(mapping, path="launcher")
    pin = sec.pin("exit_sensor")
    bound = sec.number("max_run_s", default=3.0, minimum=0.1, maximum=30)
    sec.finish()          # raises ConfigError naming the first unknown key

Every number must be finite and inside its range: NaN passes every ``<`` and ``>``
comparison, so without the check ``max_run_s = nan`` would switch the motor's bound off.
While `recording_numbers()` is active, every number a parser asks for is recorded with
its range (`NumberOption`): the config's numeric schema, read from the parsers themselves.

With ``errors=[]`` a section collects instead of stopping at the first bad value: a bad
option that has a default is recorded and reads as its default, so the rest of the
section is still checked (``unotable config check`` lists every problem at once); a bad
required option still raises, and ``finish`` records every unknown key.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from hal.errors import ConfigError

_MISSING: Any = object()
# BCM numbers a Raspberry Pi header exposes.
GPIO_PINS = range(0, 28)
# Python refuses str() of an int over 4300 digits (a ValueError): quote such a value by size.
_QUOTABLE_BITS = 160
_SHOWN_CHARS = 80


@dataclass(frozen=True)
class NumberOption:
    """One numeric option as a parser reads it: dotted key, range, whole number or not."""

    key: str
    minimum: float | None
    maximum: float | None
    integer: bool

    def allows(self, value: Any) -> bool:
        """Whether `value` passes the option's type and range (the check `Section` makes)."""
        return number_problem(value, self.minimum, self.maximum, integer=self.integer) is None


_recording: ContextVar[list[NumberOption] | None] = ContextVar("recording_numbers", default=None)


@contextmanager
def recording_numbers() -> Iterator[list[NumberOption]]:
    """Record every number a `Section` is asked for while the block runs."""
    seen: list[NumberOption] = []
    token = _recording.set(seen)
    try:
        yield seen
    finally:
        _recording.reset(token)


def shown(value: Any) -> str:
    """`value` for a one-line error message: its repr, cut to `_SHOWN_CHARS`; a huge
    integer only by its size (str() of one refuses, and nobody reads 5,000 digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _QUOTABLE_BITS:
        return f"a {len(format(abs(value), 'x'))}-hex-digit integer"
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an integer too long, a list nested too deep
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS - 3] + "..."


def range_text(minimum: float | None, maximum: float | None) -> str:
    """"0.1 to 30" (or "at least 0", "at most 5"): how docs and messages write a range."""
    low, high = (f"{x:g}" if isinstance(x, float) else str(x) for x in (minimum, maximum))
    if minimum is not None and maximum is not None:
        return f"{low} to {high}"
    if minimum is not None:
        return f"at least {low}"
    return f"at most {high}" if maximum is not None else "any finite number"


def number_problem(value: Any, minimum: float | None, maximum: float | None, *,
                   integer: bool = False) -> str | None:
    """Why `value` is not a finite number (whole if `integer`) within the range, or None."""
    kinds: tuple[type, ...] = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds):
        what = "a whole number" if integer else "a number"
        return f"must be {what}, not {shown(value)}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"must be a finite number ({range_text(minimum, maximum)}), not {value!r}"
    if minimum is not None and value < minimum:
        return f"must be at least {minimum}, not {shown(value)}"
    if maximum is not None and value > maximum:
        return f"must be at most {maximum}, not {shown(value)}"
    return None


class Section:
    def __init__(self, mapping: Mapping[str, Any] | None, *, path: str,
                 errors: list[ConfigError] | None = None) -> None:
        if mapping is None:
            mapping = {}
        if not isinstance(mapping, Mapping):
            raise ConfigError(path, f"must be a table, not {type(mapping).__name__}")
        self.path = path
        self.errors = errors
        self._mapping = dict(mapping)
        self._used: set[str] = set()
        self._failed: set[str] = set()

    def _bad(self, name: str, message: str, default: Any) -> Any:
        """Raise, or (collecting, and the option has a default) record and use the default."""
        error = ConfigError(self.key(name), message)
        if self.errors is None or default is _MISSING:
            raise error
        self.errors.append(error)
        self._failed.add(name)
        return default

    def problem(self, key: str, message: str) -> None:
        """A rule between options broken at `key` (a full dotted key): raise, or, while
        collecting, record it so the rest of the section is still checked."""
        if self.errors is None:
            raise ConfigError(key, message)
        self.errors.append(ConfigError(key, message))

    def failed(self, name: str) -> bool:
        """Whether option `name` was bad and now reads as its default: a check that
        depends on it is skipped, so one mistake is reported once."""
        return name in self._failed

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def has(self, name: str) -> bool:
        return name in self._mapping

    def raw(self, name: str, default: Any = _MISSING) -> Any:
        self._used.add(name)
        if name in self._mapping:
            return self._mapping[name]
        if default is _MISSING:
            raise ConfigError(self.key(name), "is required")
        return default

    def number(
        self,
        name: str,
        default: Any = _MISSING,
        *,
        minimum: float | None = None,
        maximum: float | None = None,
        integer: bool = False,
    ) -> Any:
        recording = _recording.get()
        if recording is not None:
            recording.append(NumberOption(self.key(name), minimum, maximum, integer))
        value = self.raw(name, default)
        if value is None and default is None:
            return None
        problem = number_problem(value, minimum, maximum, integer=integer)
        return value if problem is None else self._bad(name, problem, default)

    def integer(self, name: str, default: Any = _MISSING, **limits: Any) -> Any:
        return self.number(name, default, integer=True, **limits)

    def boolean(self, name: str, default: Any = _MISSING) -> Any:
        value = self.raw(name, default)
        if not isinstance(value, bool):
            return self._bad(name, f"must be true or false, not {shown(value)}", default)
        return value

    def string(
        self, name: str, default: Any = _MISSING, *, choices: Sequence[str] | None = None
    ) -> Any:
        value = self.raw(name, default)
        if value is None and default is None:
            return None
        if not isinstance(value, str):
            return self._bad(name, f"must be a string, not {shown(value)}", default)
        if choices is not None and value not in choices:
            return self._bad(
                name, f"must be one of {', '.join(map(repr, choices))}, not {shown(value)}", default
            )
        return value

    def pin(self, name: str, default: Any = _MISSING) -> Any:
        """A BCM GPIO number (or None when optional and absent)."""
        value = self.raw(name, default)
        if value is None and default is None:
            return None
        try:
            return check_pin(self.key(name), value)
        except ConfigError as exc:
            return self._bad(name, exc.message, default)

    def pin_list(self, name: str, default: Any = _MISSING) -> list[int]:
        value = self.raw(name, default)
        if not isinstance(value, list):
            raise ConfigError(self.key(name), f"must be a list of GPIO numbers, not {shown(value)}")
        return [check_pin(f"{self.key(name)}[{i}]", v) for i, v in enumerate(value)]

    def section(self, name: str) -> Section:
        """A nested table, as its own Section (collecting into the same list)."""
        value = self.raw(name, {})
        if not isinstance(value, Mapping) and self.errors is not None:
            return self._bad(name, f"must be a table, not {type(value).__name__}",
                             Section({}, path=self.key(name), errors=self.errors))
        return Section(value, path=self.key(name), errors=self.errors)

    def finish(self) -> None:
        unknown = [ConfigError(self.key(k), "unknown option")
                   for k in sorted(set(self._mapping) - self._used)]
        if unknown and self.errors is None:
            raise unknown[0]
        if self.errors is not None:
            self.errors.extend(unknown)


def check_pin(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in GPIO_PINS:
        raise ConfigError(key, f"must be a BCM GPIO number 0-27, not {shown(value)}")
    return value
