"""Who a request is, from its ``Authorization: Bearer`` token.

* the ``[api] token`` -> the owner (``via="token"``);
* a seat's device token (`firmware.seat_keys`) -> that seat (``via="phone"``);
* a viewer token -> a viewer: it may read (state, health, the stream), POST nothing;
* no token at all -> the owner (today's rights) only when no ``[api] token`` is
  configured, which the server allows on loopback only; otherwise 401;
* any other token (wrong, forged, revoked, another scheme) -> 401, and a failed
  attempt of its address (`firmware.api.attempts`: 429 with ``Retry-After``).

The auth middleware (`firmware.api.server`) puts the answer in `CALLER` for the
handlers: `who()`. Tokens are compared in constant time and never logged or echoed.
"""

from __future__ import annotations

import contextvars
import hmac
import ipaddress

from aiohttp import web

from firmware.api import schema
from firmware.api.answers import error
from firmware.api.requests import Who
from firmware.errors import Rejected
from firmware.seat_keys import SeatKeys, digest
from firmware.words.rejected import Phrase

MAX_KEY = 64  # characters of an Idempotency-Key
UNAUTHORIZED = "send a valid token as 'Authorization: Bearer <token>'"
WRONG_SCHEME = "\0"  # what a non-bearer Authorization counts as: nobody's token

# who the request being handled is, and the token it came with (set by the middleware)
CALLER: contextvars.ContextVar[tuple[Who, str | None]] = contextvars.ContextVar("api_caller")


class Identities:
    """Resolves tokens: the owner's `token` (None: none configured) and the `seat_keys`
    (None: no seats, no viewers)."""

    def __init__(self, token: str | None, seat_keys: SeatKeys | None) -> None:
        self._token = token
        self.seat_keys = seat_keys

    def resolve(self, token: str) -> Who | None:
        """Who `token` is: the owner, a seat, a viewer, or None (no one)."""
        # surrogatepass: a header that is not UTF-8, or a lone surrogate, is a wrong token, not a crash
        given = token.encode("utf-8", "surrogatepass")
        if self._token is not None and hmac.compare_digest(given, self._token.encode()):
            return Who("owner", via="token")
        if self.seat_keys is not None:
            seat = self.seat_keys.who(token)
            if seat is not None:
                return Who("seat", seat, "phone")
            if self.seat_keys.is_viewer(token):
                return Who("viewer", via="viewer")
        return None


def given_token(request: web.Request) -> str | None:
    """The bearer token the request carries (None: none, or an empty one)."""
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if request.path == "/api/ws" and "token" in request.query:
        scheme, value = "bearer", request.query["token"]  # browsers cannot set WS headers
    if not scheme and not value:
        return None
    if scheme.lower() != "bearer":
        return WRONG_SCHEME
    return value.strip() or None


def _normal(text: str) -> str | None:
    """`text` as one address is always written (an IPv4 address mapped into IPv6 as the
    IPv4 address), or None when it is no address."""
    try:
        address = ipaddress.ip_address(text.strip().split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


class ClientAddress:
    """The address a request's failed attempts are counted by: its peer's, or, for a
    request from `trusted_proxy` (``[api] trusted_proxy``), the client's address that
    proxy put last in ``X-Forwarded-For``. Anyone else's ``X-Forwarded-For`` is ignored:
    it is whatever the sender likes."""

    def __init__(self, trusted_proxy: str | None = None) -> None:
        self.trusted_proxy = _normal(trusted_proxy) if trusted_proxy else None

    def __call__(self, request: web.Request) -> str:
        peer = request.remote or ""
        peer = _normal(peer) or peer
        if self.trusted_proxy is None or peer != self.trusted_proxy:
            return peer
        # the proxy appends the address it was reached from: the last entry is its own word
        forwarded = ",".join(request.headers.getall("X-Forwarded-For", []))
        client = _normal(forwarded.rsplit(",", 1)[-1]) if forwarded.strip() else None
        return client or peer


client_address = ClientAddress()  # no proxy trusted: the peer's address


def who() -> Who:
    """Who sent the request being handled (LookupError on a path the middleware lets
    through unjudged: the page, a phone's claim)."""
    return CALLER.get()[0]


def stream_identity(caller: Who, token: str | None) -> str:
    """Whose quota an event stream counts against: the owner, a seat, one viewer token."""
    if caller.role == "viewer":
        return f"viewer {digest(token or '')[:16]}"
    return "owner" if caller.role == "owner" else str(caller)


def owner_only(what: Phrase) -> None:
    """Rejected (403) unless the owner sent the request; the refusal names the role and
    `what` was asked (a ``role.what.*`` key)."""
    caller = who()
    if caller.role == "viewer":
        raise Rejected("role.watches", what=what, status=403)
    if caller.role != "owner":
        seat = caller.seat if caller.seat is not None else str(caller)
        raise Rejected("role.owners_only", seat=seat, what=what, status=403)


def idempotency_key(request: web.Request) -> str:
    """The ``Idempotency-Key`` header ("" without one); 400 when it is too long."""
    key = request.headers.get("Idempotency-Key", "").strip()
    if len(key) > MAX_KEY:
        raise schema.Invalid("Idempotency-Key", "field.max_length", limit=MAX_KEY)
    return key


def unauthorized() -> web.Response:
    return error(401, "unauthorized", UNAUTHORIZED, **{"WWW-Authenticate": 'Bearer realm="unotable"'})


def too_many(wait: int) -> web.Response:
    return error(429, "too_many_attempts", "too many failed attempts from this address: "
                 f"try again in {wait} s", **{"Retry-After": str(wait)})
