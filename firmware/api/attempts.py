"""Failed logins slowed down per client address.

A wrong token (or a wrong join secret, or an unknown claim) is a failed attempt of the
address it came from. After `allowed` failures within `window` seconds the address
must wait before it may try again: `retry_after(address)` says how long (the server
answers 429 with ``Retry-After`` meanwhile, without looking at the token), and every
failure after that waits twice as long, up to `cap`. An address that fails nothing for
`forgive` seconds starts afresh. Another address is never slowed by it, and a success
forgives nothing (a valid viewer token must not buy an attacker fresh guesses).

Failures are logged at most once a second (with how many were held back); a token or
secret never is. At most `addresses` addresses are remembered (the longest quiet goes).
"""

from __future__ import annotations

import logging
import math
from collections import OrderedDict, deque
from dataclasses import dataclass, field

from hal.clock import REAL_TIME, Clock

log = logging.getLogger(__name__)


@dataclass
class _Address:
    failures: deque[float] = field(default_factory=deque)  # within the window
    strikes: int = 0  # waits imposed since the last forgiveness
    last: float = 0.0
    until: float = 0.0  # no attempt before this


class Attempts:
    def __init__(self, *, allowed: int = 5, window: float = 60.0, base: float = 1.0,
                 cap: float = 60.0, forgive: float = 600.0, addresses: int = 4096,
                 clock: Clock = REAL_TIME) -> None:
        if allowed < 1 or window <= 0 or base <= 0 or cap < base or addresses < 1:
            raise ValueError("allowed, window, base, addresses must be positive and cap >= base")
        self.allowed, self.window, self.base, self.cap = allowed, window, base, cap
        self.forgive = max(forgive, window, cap)
        self.addresses = addresses
        self.clock = clock
        self._by: OrderedDict[str, _Address] = OrderedDict()
        self._logged_at: float | None = None
        self._held = 0

    def retry_after(self, address: str) -> int | None:
        """Whole seconds `address` must still wait, or None: it may try now."""
        entry = self._by.get(address)
        if entry is None:
            return None
        left = entry.until - self.clock.now()
        return math.ceil(left) if left > 0 else None

    def failed(self, address: str, what: str = "a wrong token") -> None:
        """`address` failed once (`what`: for the log, never the secret itself)."""
        now = self.clock.now()
        entry = self._by.pop(address, None)
        if entry is None or now - entry.last > self.forgive:
            entry = _Address()
        self._by[address] = entry  # the newest at the end
        while len(self._by) > self.addresses:
            self._by.popitem(last=False)
        entry.last = now
        entry.failures.append(now)
        while entry.failures and entry.failures[0] <= now - self.window:
            entry.failures.popleft()
        if entry.strikes or len(entry.failures) >= self.allowed:
            entry.strikes += 1
            wait = min(self.cap, self.base * 2 ** min(entry.strikes - 1, 32))
            entry.until = now + wait
        self._log(address, what, entry)

    def _log(self, address: str, what: str, entry: _Address) -> None:
        now = self.clock.now()
        if self._logged_at is not None and now - self._logged_at < 1.0:
            self._held += 1
            return
        self._logged_at = now
        held, self._held = self._held, 0
        waits = f"; it waits {math.ceil(entry.until - now)} s" if entry.until > now else ""
        more = f" (and {held} more failed attempts since the last one logged)" if held else ""
        log.warning("%s from %s: %d failed within %g s%s%s", what, address,
                    len(entry.failures), self.window, waits, more)

    def __len__(self) -> int:
        return len(self._by)
