"""The API's one error shape, ``{"error": KIND, "reason": "...", "field": ... | null}``
(a bad field's adds its problem's ``key`` and ``values``, and so does a refusal), also
for what aiohttp answers by itself, before or without the application: malformed HTTP
and an ``Expect:`` header it does not know."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from firmware.api.schema import Invalid
from firmware.errors import Rejected
from firmware.words.fields import say_invalid
from firmware.words.messages import Words


def rejected(refusal: Rejected, said: Mapping[str, Any]) -> web.Response:
    """A refusal's answer (docs/api.md, "Errors"): the one error shape, with the refusal's
    key and values (`said`: `Table.refused`) beside its words."""
    return web.json_response({"error": "rejected", "reason": said["reason"],
                              "field": refusal.field, "key": said["key"],
                              "values": said["values"]}, status=refusal.status)


def error(status: int, kind: str, reason: str, field: str | None = None, **headers: str) -> web.Response:
    """The JSON error answer every refusal of the API gets (docs/api.md, "Errors")."""
    return web.json_response({"error": kind, "reason": reason, "field": field},
                             status=status, headers=headers or None)


class _JsonErrorHandler(RequestHandler):
    """aiohttp's connection protocol, answering malformed HTTP (a bad request line or
    header, a header over 8 KiB, broken chunked framing) in the API's JSON shape
    instead of plain text."""

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        plain = super().handle_error(request, status, exc, message)  # logs (rate-limited)
        reason = message or (exc.message if isinstance(getattr(exc, "message", None), str) else None) \
            or getattr(plain, "text", None) or "bad request"
        kind = "bad_request" if status < 500 else "internal"
        answer = error(status, kind, f"malformed HTTP: {reason}" if status < 500 else reason,
                       **{"X-Content-Type-Options": "nosniff"})
        answer.force_close()
        return answer


Handle = Callable[[web.BaseRequest], Awaitable[web.StreamResponse]]


def json_errors_outside_the_app(handle: Handle) -> Handle:
    """aiohttp answers an `Expect:` header before any middleware runs: in JSON too."""

    async def handler(request: web.BaseRequest) -> web.StreamResponse:
        try:
            return await handle(request)
        except web.HTTPException as exc:
            if exc.status < 400:
                raise
            return error(exc.status, "http_error", exc.text or exc.reason)
        except UnicodeError:  # aiohttp failed quoting an undecodable header (Expect: \xff)
            return error(400, "bad_request", "a header is not valid UTF-8")

    return handler


def protocols_with_json_errors(server: web.Server) -> Callable[[], asyncio.Protocol]:
    """aiohttp's protocol factory with JSON errors (its own, should its options change)."""
    kwargs = getattr(server, "_kwargs", None)
    if not isinstance(kwargs, dict):
        return server
    aio = asyncio.get_running_loop()
    return lambda: _JsonErrorHandler(server, loop=aio, **kwargs)



def bad_field(problem: Invalid, words: Words) -> web.Response:
    """The 400 of a request that does not match its schema: the problem worded in `words`,
    with its catalog key and values beside (docs/api.md, "Errors")."""
    reason = say_invalid(problem.field, problem.key, problem.values, words)
    return web.json_response({"error": "bad_request", "reason": reason, "field": problem.field,
                              "key": problem.key, "values": problem.values}, status=400)
