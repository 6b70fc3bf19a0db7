"""Reading one config section: typed options, ranges, unknown keys rejected.

Each hal feature parses its own section with a `Section` (Klipper style)::

    sec = Section(mapping, path="launcher")
    pin = sec.pin("exit_sensor")
    bound = sec.number("max_run_s", default=3.0, minimum=0.1, maximum=30)
    sec.finish()          # raises ConfigError naming the first unknown key

With ``errors=[]`` a section collects instead of stopping at the first bad value: a bad
option that has a default is recorded and reads as its default, so the rest of the
section is still checked (``unotable config check`` lists every problem at once); a bad
required option still raises, and ``finish`` records every unknown key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hal.errors import ConfigError

_MISSING: Any = object()
# BCM numbers a Raspberry Pi header exposes.
GPIO_PINS = range(0, 28)


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

    def _bad(self, name: str, message: str, default: Any) -> Any:
        """Raise, or (collecting, and the option has a default) record and use the default."""
        error = ConfigError(self.key(name), message)
        if self.errors is None or default is _MISSING:
            raise error
        self.errors.append(error)
        return default

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
        value = self.raw(name, default)
        if value is None and default is None:
            return None
        kinds: tuple[type, ...] = (int,) if integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            what = "a whole number" if integer else "a number"
            return self._bad(name, f"must be {what}, not {value!r}", default)
        if minimum is not None and value < minimum:
            return self._bad(name, f"must be at least {minimum}, not {value!r}", default)
        if maximum is not None and value > maximum:
            return self._bad(name, f"must be at most {maximum}, not {value!r}", default)
        return value

    def integer(self, name: str, default: Any = _MISSING, **limits: Any) -> Any:
        return self.number(name, default, integer=True, **limits)

    def boolean(self, name: str, default: Any = _MISSING) -> Any:
        value = self.raw(name, default)
        if not isinstance(value, bool):
            return self._bad(name, f"must be true or false, not {value!r}", default)
        return value

    def string(
        self, name: str, default: Any = _MISSING, *, choices: Sequence[str] | None = None
    ) -> Any:
        value = self.raw(name, default)
        if value is None and default is None:
            return None
        if not isinstance(value, str):
            return self._bad(name, f"must be a string, not {value!r}", default)
        if choices is not None and value not in choices:
            return self._bad(
                name, f"must be one of {', '.join(map(repr, choices))}, not {value!r}", default
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
            raise ConfigError(self.key(name), f"must be a list of GPIO numbers, not {value!r}")
        return [check_pin(f"{self.key(name)}[{i}]", v) for i, v in enumerate(value)]

    def section(self, name: str) -> Section:
        """A nested table, as its own Section (collecting into the same list)."""
        return Section(self.raw(name, {}), path=self.key(name), errors=self.errors)

    def finish(self) -> None:
        unknown = [ConfigError(self.key(k), "unknown option")
                   for k in sorted(set(self._mapping) - self._used)]
        if unknown and self.errors is None:
            raise unknown[0]
        if self.errors is not None:
            self.errors.extend(unknown)


def check_pin(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in GPIO_PINS:
        raise ConfigError(key, f"must be a BCM GPIO number 0-27, not {value!r}")
    return value
