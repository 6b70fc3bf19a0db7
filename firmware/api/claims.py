"""Phones waiting for the owner to let them take a seat another phone holds.

A phone with a valid invitation for a held seat gets a claim: an id of 128 bits it polls
with, and a short code of four digits it shows its player. The owner's screen lists each
waiting claim with its code, so the owner approves the phone in front of them and not
whichever asked last: an approval names the seat and the code and binds that one claim.
Codes differ between the claims of one seat. Several phones may wait for one seat (at
most `MAX_WAITING`; a newer one pushes the oldest out); approving one refuses the others.

An approved claim carries the new device token until the phone fetches it on its next
poll; a refused, replaced or expired one tells the phone so once. A claim stands on its
invitation: when the seat is revoked (here or by `unotable seats revoke` in another
process) every claim of the seat still open is refused, a granted one included.
Everything here lives in memory and expires after `ttl` seconds.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

from firmware.errors import Rejected
from firmware.seat_keys import digest
from hal.clock import REAL_TIME, Clock

CLAIM_BYTES = 16  # 128 bits
CODE_DIGITS = 4
MAX_WAITING = 4  # claims waiting for one seat at once
MAX_ANSWERED = 64  # answered claims kept for their phone's next poll


@dataclass
class Claim:
    seat: int
    join: str  # the hash of the invitation it came with
    code: str  # what the phone and the owner's prompt show
    at: float
    state: str = "waiting"  # "waiting" | "granted" | "refused"
    token: str | None = None  # when granted, until fetched
    refusal: Rejected | None = None  # when refused: what the phone is told

    def refuse(self, key: str) -> None:
        """Refused: the phone is told why (`key`, said of the claim's seat) once it polls."""
        refusal = Rejected(key, seat=self.seat, field="claim", status=403)
        self.state, self.token, self.refusal = "refused", None, refusal


class Claims:
    def __init__(self, *, ttl: float = 600.0, clock: Clock = REAL_TIME) -> None:
        self.ttl = ttl
        self.clock = clock
        self._by_id: dict[str, Claim] = {}  # by the hash of the claim id

    def open(self, seat: int, join: str) -> tuple[str, str]:
        """A new waiting claim for `seat`: its id and its code. Another phone's claim
        waiting or granted stays as it is, but for the oldest waiting one of more than
        `MAX_WAITING`."""
        waiting = [c for c in self._by_id.values() if c.seat == seat and c.state == "waiting"]
        for claim in waiting[:max(0, len(waiting) - MAX_WAITING + 1)]:
            claim.refuse("claim.crowded")
        taken = {c.code for c in self._by_id.values() if c.seat == seat and c.state != "refused"}
        code = _code()
        while code in taken:
            code = _code()
        claim_id = secrets.token_urlsafe(CLAIM_BYTES)
        self._by_id[digest(claim_id)] = Claim(seat, digest(join), code, self.clock.now())
        self._trim()
        return claim_id, code

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

    def waiting(self) -> list[dict[str, int | str]]:
        """The claims waiting for the owner, ``{"seat", "code"}``, by seat, oldest first."""
        self.expire()
        ordered = sorted((c for c in self._by_id.values() if c.state == "waiting"),
                         key=lambda c: (c.seat, c.at))
        return [{"seat": c.seat, "code": c.code} for c in ordered]

    def waiting_for(self, seat: int, code: str) -> Claim | None:
        """The claim with `code` waiting for `seat`, or None."""
        self.expire()
        return next((c for c in self._by_id.values()
                     if c.seat == seat and c.state == "waiting" and c.code == code), None)

    def open_claims(self) -> list[Claim]:
        """Every claim not yet refused (waiting, or granted and not fetched)."""
        return [c for c in self._by_id.values() if c.state != "refused"]

    def drop(self, seat: int, key: str, *, but: Claim | None = None) -> None:
        """Refuse every claim of `seat` still open (the seat was revoked), or every one
        waiting but `but` (the owner approved `but`)."""
        for claim in self._by_id.values():
            if claim.seat == seat and claim is not but and (
                    claim.state == "waiting" or (but is None and claim.state == "granted")):
                claim.refuse(key)

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


def _code() -> str:
    return f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
