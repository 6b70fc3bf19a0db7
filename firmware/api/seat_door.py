"""The seats' door: phones joining a seat, and the owner's say over who holds it.

* ``POST /api/seats/claim {"seat", "join"[, "claim"]}`` (no token): a valid invitation
  for a free seat answers 200 ``{"seat", "token"}`` (the phone's device token); for a
  seat another phone holds 202 ``{"claim", "code", "reason"}``: the phone shows its
  ``code`` and polls again with its ``claim`` until the owner approves that code (200
  with the token; the old phone's token is revoked) or refuses (403). Every refused
  claim (a body that is no claim, a wrong invitation, an unknown claim, a seat the table
  lacks) and every new claim of a held seat is a failed attempt of the address
  (`firmware.api.attempts`): strangers are slowed as wrong tokens are. A claim of a held
  seat writes nothing to disk.
* ``GET /api/seats`` (owner): every seat with its invitation link (`seat_url` on
  `lan_address`) and that link's QR code (`firmware.qr.qr_svg`), whether a phone holds
  it, has its stream open, or waits for approval; ``reachable`` is false when the table
  serves on loopback only (no phone can open the links).
* ``POST /api/seats/approve|refuse {"seat", "code"}``, ``POST /api/seats/revoke
  {"seat"}`` and ``POST /api/viewers`` (a new viewer token) are the owner's. A revoke,
  here or by `unotable seats revoke` in another process, refuses every claim of the seat
  still open (`firmware.api.claims`).

The server mints one invitation per seat when it starts (kept in memory, its hash in
the store) and a new one whenever a seat's are gone, so the owner's screen always has
a link to show, also during play.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from aiohttp import web

from firmware.api import identity, schema
from firmware.api.attempts import Attempts
from firmware.api.claims import Claim, Claims
from firmware.api.requests import Table, Who
from firmware.errors import Rejected
from firmware.qr import qr_svg
from firmware.safe_files import UnsafeFile
from firmware.seat_keys import BadJoin, SeatKeys, lan_address, reachable_by_phones, seat_url
from firmware.words.rejected import Phrase
from hal.clock import Clock

log = logging.getLogger(__name__)

CLAIM_PATH = "/api/seats/claim"
NO_STORE = {"Cache-Control": "no-store"}  # answers with a secret in them


class Host(Protocol):
    """What the door needs of the API server (`firmware.api.server.ApiServer`)."""

    table: Table
    host: str
    port: int
    clock: Clock
    seat_keys: SeatKeys | None
    attempts: Attempts
    client_address: Callable[[web.Request], str]

    def public_state(self) -> dict[str, Any]: ...

    def publish(self, event: Mapping[str, Any]) -> None: ...

    def stream_callers(self) -> list[Who]: ...

    def recheck_streams(self) -> None: ...

    async def read_body(self, request: web.Request) -> Any: ...


class SeatDoor:
    def __init__(self, server: Host) -> None:
        self.server = server
        self.claims = Claims(clock=server.clock)
        self._joins: dict[int, str] = {}  # the invitation the owner's screen shows, per seat
        self._published: dict[str, Any] = {"phones": {}, "claims": []}

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/api/seats", self._seats)
        app.router.add_post(CLAIM_PATH, self._claim)
        app.router.add_post("/api/seats/approve", self._approve)
        app.router.add_post("/api/seats/refuse", self._refuse)
        app.router.add_post("/api/seats/revoke", self._revoke)
        app.router.add_post("/api/viewers", self._viewer)

    # -- what everyone sees ------------------------------------------------------------
    def public_part(self) -> dict[str, Any]:
        """The public state's ``phones`` (seats with a phone's stream open) and ``claims``
        (seats with a claim waiting for the owner); never a secret."""
        phones = sorted({w.seat for w in self.server.stream_callers()
                         if w.role == "seat" and w.via == "phone" and w.seat is not None})
        return {"phones": {str(seat): True for seat in phones}, "claims": self.claims.waiting()}

    def check_claims(self) -> None:
        """Refuse the open claims the seats' keys no longer back: a waiting claim whose
        invitation is gone, a granted one whose token is (the seat was revoked, maybe by
        another process, or given to another phone)."""
        keys = self.server.seat_keys
        if keys is None:
            return
        changed = False
        for claim in self.claims.open_claims():
            if claim.state == "granted" and claim.token is not None:
                if keys.who(claim.token) != claim.seat:
                    claim.refuse("claim.revoked")
            elif not keys.holds_invitation(claim.seat, claim.join):
                claim.refuse("claim.invitation_gone")
                changed = True
        if changed:
            self.announce()

    def announce(self) -> None:
        """Publish ``{"kind": "seats", "phones", "claims"}`` if either changed."""
        part = self.public_part()
        if part != self._published:
            self._published = part
            self.server.publish({"kind": "seats", **part})

    # -- seats and their names -------------------------------------------------------
    def seat_names(self) -> list[str]:
        names = self.server.table.public_state().get("names")
        return [str(n) for n in names] if isinstance(names, list) else []

    def seat_name(self, seat: int) -> str:
        """The match's name for `seat`, else "seat N" counted from 1 (as the screen does)."""
        names = self.seat_names()
        return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat + 1}"

    def invite_every_seat(self) -> None:
        """At start: a fresh invitation for each seat, for the owner's screen. One that
        cannot be written (a full disk) is made when the screen asks for it: the table
        starts anyway, paused on its journal until there is room."""
        if self.server.seat_keys is not None:
            for seat in range(len(self.seat_names())):
                try:
                    self._joins[seat] = self.server.seat_keys.invite(seat)
                except OSError as exc:
                    if isinstance(exc, UnsafeFile):  # a link at its file: refused, not skipped
                        raise
                    log.warning("cannot write the seats' invitations to %s: %s (made when "
                                "the screen asks for them)", self.server.seat_keys.path, exc)
                    return

    def _join(self, seat: int) -> str:
        keys = self.server.seat_keys
        assert keys is not None
        join = self._joins.get(seat)
        if join is None or not keys.valid_join(seat, join):
            join = self._joins[seat] = keys.invite(seat)
        return join

    def _keys(self) -> Any:
        if self.server.seat_keys is None:
            raise web.HTTPNotFound(reason="this table keeps no seat keys: phones cannot join")
        return self.server.seat_keys

    def _seat(self, body: dict[str, Any]) -> int:
        seat = int(body["seat"])
        count = len(self.seat_names())
        if count and seat >= count:
            raise Rejected("refused.no_seat", value=seat + 1, last=count, field="seat", status=404)
        return seat

    # -- the owner's -----------------------------------------------------------------
    async def _seats(self, request: web.Request) -> web.Response:
        identity.owner_only(Phrase("role.what.seats"))
        keys = self._keys()
        address = lan_address(self.server.host)
        phones = self.server.public_state()["phones"]
        asking: dict[int, list[str]] = {}
        for claim in self.claims.waiting():
            asking.setdefault(int(claim["seat"]), []).append(str(claim["code"]))
        seats = []
        for seat, name in enumerate(self.seat_names()):
            url = seat_url(address, self.server.port, seat, self._join(seat))
            seats.append({"seat": seat, "name": name or f"seat {seat + 1}",
                          "claimed": keys.claimed(seat), "phone": str(seat) in phones,
                          "pending": seat in asking, "codes": asking.get(seat, []),
                          "url": url, "svg": qr_svg(url)})
        return web.json_response({"seats": seats, "address": address,
                                  "reachable": reachable_by_phones(address)}, headers=NO_STORE)

    async def _owners_body(self, request: web.Request, what: str,
                           body_schema: schema.Schema = schema.SEAT_BODY) -> dict[str, Any]:
        identity.owner_only(Phrase(f"role.what.{what}"))
        self._keys()
        body = await self.server.read_body(request)
        schema.validate(body, body_schema)
        self._seat(body)
        return dict(body)

    def _waiting(self, body: dict[str, Any]) -> Claim:
        """The claim the owner answers: the one with the body's code waiting for its seat
        (409 when it no longer waits: answered, expired, revoked or pushed out)."""
        seat, code = int(body["seat"]), str(body["code"])
        self.check_claims()
        claim = self.claims.waiting_for(seat, code)
        if claim is None:
            raise Rejected("refused.no_claim", code=code, seat=seat, field="code", status=409)
        return claim

    async def _approve(self, request: web.Request) -> web.Response:
        body = await self._owners_body(request, "approve", schema.CLAIM_ANSWER_BODY)
        claim = self._waiting(body)
        seat = claim.seat
        claim.token = self._keys().grant(seat)  # the old phone's token stops working
        claim.state, claim.at = "granted", self.server.clock.now()
        self.claims.drop(seat, "claim.taken", but=claim)
        self.server.recheck_streams()  # closes the old phone's streams, publishes
        log.info("%s: the owner let the phone showing %s take the seat (the old one is out)",
                 self.seat_name(seat), claim.code)
        return web.json_response({"result": {"seat": seat, "code": claim.code, "approved": True}})

    async def _refuse(self, request: web.Request) -> web.Response:
        body = await self._owners_body(request, "refuse", schema.CLAIM_ANSWER_BODY)
        claim = self._waiting(body)
        claim.refuse("claim.refused")
        self.announce()
        return web.json_response({"result": {"seat": claim.seat, "code": claim.code, "refused": True}})

    async def _revoke(self, request: web.Request) -> web.Response:
        seat = self._seat(await self._owners_body(request, "revoke"))
        self._keys().revoke(seat)
        self.claims.drop(seat, "claim.seat_revoked")
        self._joins[seat] = self._keys().invite(seat)  # the screen's link works again
        self.server.recheck_streams()
        log.info("%s: the owner revoked its phones and invitations", self.seat_name(seat))
        return web.json_response({"result": {"seat": seat, "revoked": True}})

    async def _viewer(self, request: web.Request) -> web.Response:
        identity.owner_only(Phrase("role.what.viewer_token"))
        keys = self._keys()
        schema.validate(await self.server.read_body(request), schema.obj({}))
        return web.json_response({"token": keys.viewer()}, headers=NO_STORE)

    # -- a phone joining -------------------------------------------------------------
    async def _claim(self, request: web.Request) -> web.Response:
        server = self.server
        address = server.client_address(request)
        wait = server.attempts.retry_after(address)
        if wait is not None:
            return identity.too_many(wait)
        keys = self._keys()
        try:
            body = await server.read_body(request)
            schema.validate(body, schema.CLAIM_BODY)
            seat, join = self._seat(body), body["join"]
        except (schema.Invalid, Rejected, web.HTTPRequestEntityTooLarge):
            server.attempts.failed(address, "a claim that is no claim")
            raise  # answered 400 (404 for a seat the table lacks) by the server
        if "claim" in body:
            return self._poll(address, seat, join, body["claim"])
        try:
            token = keys.claim(seat, join)
        except BadJoin:
            server.attempts.failed(address, "a wrong invitation")
            raise Rejected("claim.bad_join", seat=seat, field="join", status=403) from None
        if token is not None:
            log.info("%s: a phone took the free seat", self.seat_name(seat))
            return web.json_response({"seat": seat, "token": token}, headers=NO_STORE)
        server.attempts.failed(address, "a claim of a held seat")  # slowed like a guess
        claim_id, code = self.claims.open(seat, join)
        self.announce()
        return web.json_response({"claim": claim_id, "code": code, "reason": self._held(seat)},
                                 status=202, headers=NO_STORE)

    def _held(self, seat: int) -> str:
        return (f"another phone holds {self.seat_name(seat)}: the table's owner must let "
                "this one take it on the table's screen")

    def _poll(self, address: str, seat: int, join: str, claim_id: str) -> web.Response:
        self.check_claims()
        claim = self.claims.find(claim_id, seat, join)
        if claim is None:
            self.server.attempts.failed(address, "an unknown claim")
            raise Rejected("claim.unknown", seat=seat, field="claim", status=403)
        if claim.state == "waiting":
            return web.json_response({"claim": claim_id, "code": claim.code, "reason": self._held(seat)},
                                     status=202, headers=NO_STORE)
        self.claims.answered(claim_id)
        if claim.state == "granted" and claim.token is not None:
            return web.json_response({"seat": seat, "token": claim.token}, headers=NO_STORE)
        raise claim.refusal or Rejected("claim.refused", seat=seat, field="claim", status=403)

