"""Bounded records for the simulated devices, so a twin can run for days.

The twins remember what happened (commands a reader executed, cards that left the
launcher, motor changes, pin state changes) for tests and for the simulated world.
A daemon on the twin plays thousands of matches, so every such record keeps only
its most recent entries:

- `RecentLog`: an append-only log that keeps the last `maxlen` entries but counts
  and indexes every entry ever appended, so a reader that remembers a position
  (``log[cursor:]``, then ``cursor = len(log)``) keeps working after old entries
  are dropped.
- `bounded_pin_class(base)`: a gpiozero mock pin class whose ``states`` history
  keeps the last `PIN_HISTORY` changes (``assert_states`` and friends still work:
  they walk ``states`` from its oldest kept entry).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")

# More than any test or one match needs (a match ejects a few hundred cards and
# switches the motor a few hundred times, a seat LED changes about a hundred times),
# and small: a daemon on the twin fills them within a few matches and then stays at
# the same size (with 4096/1024 the twin's ~20 records took ~100 matches and ~3 MB
# to fill, which looked like a leak in `bench/longrun.py`).
LOG_ENTRIES = 1024
PIN_HISTORY = 256


class RecentLog(Generic[T]):
    """The last `maxlen` entries of an append-only log, indexed from its first entry ever.

    ``len()`` is the number of entries ever appended; iterating, ``==`` and ``list()``
    give the kept ones, oldest first. Indexing and slicing use positions counted from
    the first entry ever; asking for a dropped entry raises IndexError.
    """

    def __init__(self, entries: Iterable[T] = (), *, maxlen: int = LOG_ENTRIES) -> None:
        if maxlen < 1:
            raise ValueError(f"maxlen must be at least 1, not {maxlen!r}")
        self.maxlen = maxlen
        self._kept: deque[T] = deque(maxlen=maxlen)
        self._total = 0
        self.extend(entries)

    @property
    def dropped(self) -> int:
        """How many of the oldest entries are no longer kept."""
        return self._total - len(self._kept)

    def append(self, entry: T) -> None:
        self._kept.append(entry)
        self._total += 1

    def extend(self, entries: Iterable[T]) -> None:
        for entry in entries:
            self.append(entry)

    def __len__(self) -> int:
        return self._total

    def __iter__(self) -> Iterator[T]:
        return iter(self._kept)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            positions = range(*index.indices(self._total))
            if positions and min(positions) < self.dropped:
                raise IndexError(
                    f"entries before {self.dropped} were dropped (the log keeps {self.maxlen})"
                )
            return [self._kept[i - self.dropped] for i in positions]
        position = index + self._total if index < 0 else index
        if not self.dropped <= position < self._total:
            raise IndexError(f"no entry {index} (kept: {self.dropped}..{self._total - 1})")
        return self._kept[position - self.dropped]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RecentLog):
            return list(self._kept) == list(other._kept) and self._total == other._total
        if isinstance(other, list):
            return self.dropped == 0 and list(self._kept) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RecentLog({list(self._kept)!r}, dropped={self.dropped}, maxlen={self.maxlen})"


def bounded_pin_class(base: type, history: int = PIN_HISTORY) -> type:
    """A subclass of the gpiozero mock pin class `base` whose ``states`` keeps only the
    last `history` state changes (gpiozero's own keeps every change forever)."""
    if getattr(base, "pin_history", None) == history:
        return base

    class BoundedPin(base):  # type: ignore[misc]
        pin_history = history

        def clear_states(self) -> None:
            super().clear_states()
            self.states: Any = deque(self.states, maxlen=history)

    BoundedPin.__name__ = f"Bounded{base.__name__}"
    return BoundedPin
