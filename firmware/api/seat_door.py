"""The seats' door: phones joining a seat, and the owner's say over who holds it.

* ``POST /api/seats/claim {"seat", "join"[, "claim"]}`` (no token): a valid invitation
  for a free seat answers 200 ``{"seat", "token"}`` (the phone's device token); for a
  seat another phone holds 202 ``{"claim", "reason"}``: the phone polls again with its
  ``claim`` until the owner approves (200 with the token; the old phone's token is
  revoked) or refuses (403). A wrong invitation or an unknown claim is 403 and a
  failed attempt of the address (`firmware.api.attempts`).
* ``GET /api/seats`` (owner): every seat with its invitation link (`seat_url` on
  `lan_address`) and that link's QR code (`firmware.qr.qr_svg`), whether a phone holds
  it, has its stream open, or waits for approval; ``reachable`` is false when the table
  serves on loopback only (no phone can open the links).
* ``POST /api/seats/approve|refuse|revoke {"seat"}`` and ``POST /api/viewers`` (a new
  viewer token) are the owner's.

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
from firmware.api.answers import error
from firmware.api.attempts import Attempts
from firmware.api.claims import Claims
from firmware.api.requests import Table, Who
from firmware.errors import Rejected
from firmware.qr import qr_svg
from firmware.seat_keys import BadJoin, SeatKeys, lan_address, reachable_by_phones, seat_url
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
        """At start: a fresh invitation for each seat, for the owner's screen."""
        if self.server.seat_keys is not None:
            for seat in range(len(self.seat_names())):
                self._joins[seat] = self.server.seat_keys.invite(seat)

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
            raise Rejected(f"there is no seat {seat + 1}: the table has {count}", field="seat", status=404)
        return seat

    # -- the owner's -----------------------------------------------------------------
    async def _seats(self, request: web.Request) -> web.Response:
        identity.owner_only("list the seats' invitations", self.seat_name)
        keys = self._keys()
        address = lan_address(self.server.host)
        phones = self.server.public_state()["phones"]
        waiting = set(self.claims.waiting())
        seats = []
        for seat, name in enumerate(self.seat_names()):
            url = seat_url(address, self.server.port, seat, self._join(seat))
            seats.append({"seat": seat, "name": name or f"seat {seat + 1}",
                          "claimed": keys.claimed(seat), "phone": str(seat) in phones,
                          "pending": seat in waiting, "url": url, "svg": qr_svg(url)})
        return web.json_response({"seats": seats, "address": address,
                                  "reachable": reachable_by_phones(address)}, headers=NO_STORE)

    async def _owners_body(self, request: web.Request, doing: str) -> int:
        identity.owner_only(doing, self.seat_name)
        self._keys()
        body = await self.server.read_body(request)
        schema.validate(body, schema.SEAT_BODY)
        return self._seat(body)

    async def _approve(self, request: web.Request) -> web.Response:
        seat = await self._owners_body(request, "approve a phone for a seat")
        claim = self.claims.waiting_for(seat)
        if claim is None:
            raise Rejected(f"no phone is waiting for {self.seat_name(seat)}", field="seat", status=409)
        claim.token = self._keys().grant(seat)  # the old phone's token stops working
        claim.state, claim.at = "granted", self.server.clock.now()
        self.server.recheck_streams()  # closes the old phone's streams, publishes
        log.info("%s: the owner let a new phone take the seat (the old one is out)", self.seat_name(seat))
        return web.json_response({"result": {"seat": seat, "approved": True}})

    async def _refuse(self, request: web.Request) -> web.Response:
        seat = await self._owners_body(request, "refuse a phone for a seat")
        claim = self.claims.waiting_for(seat)
        if claim is None:
            raise Rejected(f"no phone is waiting for {self.seat_name(seat)}", field="seat", status=409)
        claim.state, claim.reason = "refused", f"the table's owner refused this phone for {self.seat_name(seat)}"
        self.announce()
        return web.json_response({"result": {"seat": seat, "refused": True}})

    async def _revoke(self, request: web.Request) -> web.Response:
        seat = await self._owners_body(request, "revoke a seat's phone")
        self._keys().revoke(seat)
        self.claims.drop(seat, f"the table's owner revoked {self.seat_name(seat)}'s phones")
        self._joins[seat] = self._keys().invite(seat)  # the screen's link works again
        self.server.recheck_streams()
        log.info("%s: the owner revoked its phones and invitations", self.seat_name(seat))
        return web.json_response({"result": {"seat": seat, "revoked": True}})

    async def _viewer(self, request: web.Request) -> web.Response:
        identity.owner_only("make a viewer token", self.seat_name)
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
        body = await server.read_body(request)
        schema.validate(body, schema.CLAIM_BODY)
        seat, join = self._seat(body), body["join"]
        if "claim" in body:
            return self._poll(address, seat, join, body["claim"])
        try:
            token = keys.claim(seat, join)
        except BadJoin as exc:
            server.attempts.failed(address, "a wrong invitation")
            return error(403, "rejected", str(exc), "join")
        if token is not None:
            log.info("%s: a phone took the free seat", self.seat_name(seat))
            return web.json_response({"seat": seat, "token": token}, headers=NO_STORE)
        claim_id = self.claims.open(seat, join)
        self.announce()
        return web.json_response({"claim": claim_id, "reason": self._held(seat)}, status=202,
                                 headers=NO_STORE)

    def _held(self, seat: int) -> str:
        return (f"another phone holds {self.seat_name(seat)}: the table's owner must let "
                "this one take it on the table's screen")

    def _poll(self, address: str, seat: int, join: str, claim_id: str) -> web.Response:
        claim = self.claims.find(claim_id, seat, join)
        if claim is None:
            self.server.attempts.failed(address, "an unknown claim")
            return error(403, "rejected", f"no such claim for {self.seat_name(seat)} (it expired "
                         "or was answered): scan the code on the table's screen again", "claim")
        if claim.state == "waiting":
            return web.json_response({"claim": claim_id, "reason": self._held(seat)}, status=202,
                                     headers=NO_STORE)
        self.claims.answered(claim_id)
        if claim.state == "granted" and claim.token is not None:
            return web.json_response({"seat": seat, "token": claim.token}, headers=NO_STORE)
        return error(403, "rejected", claim.reason or "the claim was refused", "claim")

