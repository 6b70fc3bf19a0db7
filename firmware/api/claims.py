"""Phones waiting for the owner to let them take a seat another phone holds.

A phone with a valid invitation for a held seat gets a claim (an id of 128 bits it
polls with); the owner's screen lists the seats with a claim waiting and approves or
refuses it. An approved claim carries the new device token until the phone fetches it
on its next poll; a refused, replaced or expired one tells the phone so once. One
claim waits per seat (a newer one replaces it: the owner decides on the phone in front
of them); everything here lives in memory and expires after `ttl` seconds.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

from firmware.seat_keys import digest
from hal.clock import REAL_TIME, Clock

CLAIM_BYTES = 16  # 128 bits
MAX_ANSWERED = 64  # answered claims kept for their phone's next poll


@dataclass
class Claim:
    seat: int
    join: str  # the hash of the invitation it came with
    at: float
    state: str = "waiting"  # "waiting" | "granted" | "refused"
    token: str | None = None  # when granted, until fetched
    reason: str = ""  # when refused


class Claims:
    def __init__(self, *, ttl: float = 600.0, clock: Clock = REAL_TIME) -> None:
        self.ttl = ttl
        self.clock = clock
        self._by_id: dict[str, Claim] = {}  # by the hash of the claim id

    def open(self, seat: int, join: str) -> str:
        """A new waiting claim for `seat` (replacing the one waiting); its id."""
        for claim in self._by_id.values():
            if claim.seat == seat and claim.state == "waiting":
                claim.state, claim.reason = "refused", (
                    f"another phone's claim for seat {seat} replaced this one")
        claim_id = secrets.token_urlsafe(CLAIM_BYTES)
        self._by_id[digest(claim_id)] = Claim(seat, digest(join), self.clock.now())
        self._trim()
        return claim_id

    def find(self, claim_id: str, seat: int, join: str) -> Claim | None:
        """The claim `claim_id` if it is `seat`'s and came with `join`; None otherwise."""
        self.expire()
        claim = self._by_id.get(digest(claim_id))
        if claim is None or claim.seat != seat or not hmac.compare_digest(claim.join, digest(join)):
            return None
        return claim

    def answered(self, claim_id: str) -> None:
        """The phone has its answer (a token or a refusal): forget the claim."""
        self._by_id.pop(digest(claim_id), None)

    def waiting(self) -> list[int]:
        """The seats with a claim waiting for the owner, in order."""
        self.expire()
        return sorted({c.seat for c in self._by_id.values() if c.state == "waiting"})

    def waiting_for(self, seat: int) -> Claim | None:
        self.expire()
        return next((c for c in self._by_id.values() if c.seat == seat and c.state == "waiting"), None)

    def drop(self, seat: int, reason: str) -> None:
        """Refuse every claim of `seat` still open (the seat was revoked)."""
        for claim in self._by_id.values():
            if claim.seat == seat and claim.state != "refused":
                claim.state, claim.token, claim.reason = "refused", None, reason

    def expire(self) -> bool:
        """Forget the claims older than `ttl`; whether a waiting one went."""
        old = self.clock.now() - self.ttl
        gone = [k for k, c in self._by_id.items() if c.at <= old]
        waited = any(self._by_id[k].state == "waiting" for k in gone)
        for key in gone:
            del self._by_id[key]
        return waited

    def _trim(self) -> None:
        answered = [k for k, c in self._by_id.items() if c.state != "waiting"]
        for key in answered[:max(0, len(answered) - MAX_ANSWERED)]:
            del self._by_id[key]

    def __len__(self) -> int:
        return len(self._by_id)
