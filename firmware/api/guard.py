"""The API's front door: only the table's own page and programs that are no web page.

A browser lets any web page it shows send requests to ``http://127.0.0.1:8080``; the
checks here make sure such a page can neither change nor read the table
(docs/operations.md, "Who may reach the API"):

* ``Host`` must be there and name this daemon: ``localhost``, a loopback address, the configured
  ``[api] host``, the address the connection came in on, or an ``[api] allowed_hosts``
  name. Anything else is a DNS-rebinding page or a mistake: 421.
* ``Origin``, when sent, must be the table's own (``http://`` + the ``Host`` asked
  for); a state-changing request without ``Origin`` is judged by its ``Referer``
  instead. A foreign one gets 403, the WebSocket upgrade included. Programs (curl,
  scripts, the bots) send neither and are let through.
* A POST with a body must say ``Content-Type: application/json`` (415): the "simple"
  cross-origin bodies a page may send without asking (text/plain, forms) never are.

Every answer carries the security headers (`SECURITY_HEADERS`, with the page's strict
Content-Security-Policy) and never an ``Access-Control-Allow-Origin``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import urlsplit

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


class Refused(Exception):
    """A request the front door does not let in; the server answers it as JSON."""

    def __init__(self, status: int, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.status, self.kind, self.reason = status, kind, reason


def split_host(value: str) -> str:
    """The name in a ``Host`` value, lower case, without port or trailing dot."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:8080
        return value[1:value.find("]")] if "]" in value else value
    name, colon, port = value.rpartition(":")
    if colon and (port.isdigit() or not port) and ":" not in name:
        value = name
    return value.rstrip(".") if value != "." else value


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


class FrontDoor:
    """The checks above for a daemon serving `host`, plus the extra `allowed_hosts`."""

    def __init__(self, host: str, allowed_hosts: Iterable[str] = ()) -> None:
        self.names = frozenset({"localhost", split_host(host),
                                *(split_host(h) for h in allowed_hosts)})

    def host_ok(self, host: str, local_address: str | None) -> bool:
        name = split_host(host)
        if name in self.names:
            return True
        address = _address(name)
        if address is None:
            return False
        return address.is_loopback or (local_address is not None and address == _address(local_address))

    def check(self, method: str, *, host: str | None, origin: str | None, referer: str | None,
              content_type: str | None, has_body: bool, local_address: str | None = None) -> None:
        """Raise `Refused` when a request with these headers may not pass."""
        if host is None or not host.strip():  # HTTP/1.0 may leave it out: it names nothing
            raise Refused(421, "wrong_host", "this is the table's API; a request must name it in "
                          "its Host header")
        if not self.host_ok(host, local_address):
            raise Refused(421, "wrong_host", f"this is the table's API; Host {host!r} does not name it "
                    "(DNS rebinding?). Use its address, or add the name to [api] allowed_hosts")
        if origin is not None:
            if not _same_origin(origin, host, bare=True):
                raise Refused(403, "foreign_origin", f"requests from pages of another origin ({origin!r}) "
                        "are refused; only the table's own page may call the API")
        elif referer is not None and method not in SAFE_METHODS and not _same_origin(referer, host):
            raise Refused(403, "foreign_origin", "requests from pages of another origin (Referer "
                    f"{referer!r}) are refused; only the table's own page may call the API")
        if method == "POST" and (has_body or content_type is not None):
            mime = (content_type or "").split(";", 1)[0].strip().lower()
            if mime != "application/json":
                raise Refused(415, "unsupported_media_type", "a POST body must be JSON sent as "
                        f"'Content-Type: application/json', not {content_type or 'without a type'!r}")

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        sock = request.transport.get_extra_info("sockname") if request.transport else None
        headers = request.headers
        self.check(
            request.method, host=headers.get("Host"), origin=headers.get("Origin"),
            referer=headers.get("Referer"), content_type=headers.get("Content-Type"),
            has_body=request.body_exists, local_address=sock[0] if sock else None)
        return await handler(request)


def _same_origin(url: str, host: str | None, *, bare: bool = False) -> bool:
    """Whether `url` (an Origin or Referer) is the origin of a page served as `host`;
    `bare`: nothing may follow the port (an Origin never has a path)."""
    if host is None:
        return False
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    if bare and (parts.path or parts.query or parts.fragment):
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """`on_response_prepare`: the headers above on every answer, the page's included."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
