"""How many cards one dark pulse of the launcher's exit beam was.

A card that leaves the launcher darkens the exit beam for about the same time every
time (its length over its speed). Two or more cards stuck together pass as one
longer pulse: counting edges alone would count them as one card. `CardPulses` knows
one card's dark time, from ``[launcher] card_dark_s`` (what ``unotable selftest``
measures) or, without it, learned as the median of the recent pulses (most pulses
are single cards), and turns a pulse's dark time into the cards it must be:

- up to ``stuck_ratio`` card times: one card;
- longer, up to `MAX_STUCK_CARDS` and a half card times: ``round(dark / card)`` cards,
  at least two, which are flagged as stuck;
- longer still: one card resting in the beam (or a dirty sensor), not stuck cards.

Cards stuck with less than ``stuck_ratio - 1`` of a card's length between their
edges look like one card: no beam can tell them apart.
"""

from __future__ import annotations

import statistics
import threading
from collections import deque
from typing import Any

from hal.clock import Clock

MAX_STUCK_CARDS = 4
LEARN_FROM = 5  # pulses seen before a learned card time is trusted
LEARN_WINDOW = 15  # the recent pulses a learned card time is the median of


class CardPulses:
    def __init__(self, card_dark_s: float | None, stuck_ratio: float) -> None:
        self.configured = card_dark_s
        self.stuck_ratio = stuck_ratio
        self._recent: deque[float] = deque(maxlen=LEARN_WINDOW)

    def card_s(self) -> float | None:
        """One card's dark time: the configured one, else the learned one (None until
        `LEARN_FROM` pulses were seen)."""
        if self.configured is not None:
            return self.configured
        if len(self._recent) < LEARN_FROM:
            return None
        return statistics.median(self._recent)

    def longest_s(self) -> float:
        """The longest pulse that still counts as cards (0 while the card time is unknown)."""
        card = self.card_s()
        return 0.0 if card is None else (MAX_STUCK_CARDS + 0.5) * card

    def cards(self, dark_s: float) -> int:
        """The cards a pulse `dark_s` long must be (and, unconfigured, learn from it)."""
        card = self.card_s()
        if self.configured is None:
            self._recent.append(dark_s)
        if card is None or dark_s <= self.stuck_ratio * card or dark_s > self.longest_s():
            return 1
        return max(2, round(dark_s / card))


class ExitBeam:
    """The beam's pulse under way: since when it is dark and whose it is (the launcher's
    ejection then, or None), under the launcher's `lock`; `stuck` counts the cards
    beyond one that all pulses were."""

    def __init__(self, pulses: CardPulses, clock: Clock, lock: threading.RLock) -> None:
        self.pulses = pulses
        self._clock = clock
        self._lock = lock
        self._since: float | None = None
        self._owner: Any = None
        self._ended = threading.Event()
        self.stuck = 0

    def dark(self, owner: Any) -> Any:
        """The beam went dark for `owner`'s card; returns `owner`."""
        with self._lock:
            self._since, self._owner = self._clock.now(), owner
        return owner

    def light(self) -> tuple[Any, float, int] | None:
        """The beam is clear again: (the pulse's owner, its dark time, the cards beyond
        one it must have been), None when no pulse was under way."""
        with self._lock:
            since, owner = self._since, self._owner
            self._since = self._owner = None
            if since is None:
                return None
            dark = self._clock.now() - since
            extra = self.pulses.cards(dark) - 1
            self.stuck += extra
            self._ended.set()
            return owner, dark, extra

    def await_end(self, owner: Any) -> None:
        """A pulse of `owner` still dark: wait for its end, at most as long as a pulse
        that still counts as cards lasts (on the clock: virtual time runs on)."""
        while True:
            with self._lock:
                since = self._since if self._owner is owner else None
                self._ended.clear()
            if since is None:
                return
            left = since + self.pulses.longest_s() - self._clock.now()
            if left <= 0:
                return
            self._clock.wait(self._ended, left)
