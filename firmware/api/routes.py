"""Each API request's path and JSON body, both ways, from one table.

The server builds a typed request from a body its schema validated (`BUILDERS`); a
client that speaks for a person's screen (the simulated players) sends a request
as that body (`to_http`). A body's fields are the request's own fields by name, a
field at its default left out, so the two directions cannot drift apart.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from firmware.api import requests as api
from firmware.api import schema
from firmware.words.fields import shown
from uno_core.cards import parse_card
from uno_core.errors import NotationError


def _card(field: str, text: str) -> str:
    """`text` if it is a card in uno_core's notation (the schema checked it is a string)."""
    try:
        parse_card(text)
    except NotationError:
        raise schema.Invalid(field, "field.card", value=shown(text)) from None
    return text


def _cards(field: str, texts: list[str]) -> tuple[str, ...]:
    return tuple(_card(f"{field}[{i}]", t) for i, t in enumerate(texts))


def _play(body: dict[str, Any]) -> api.Play:
    choices = dict(body.get("choices", {}))
    if "cards" in choices:
        choices["cards"] = _cards("choices.cards", choices["cards"])
    return api.Play(body["seat"], _card("card", body["card"]), MappingProxyType(choices))


def _decide(body: dict[str, Any]) -> api.Request:
    return api.Decide(body["seat"], body["decision"], body.get("color", ""),
                  _cards("cards", body.get("cards", [])))


def _reveal(body: dict[str, Any]) -> api.Request:
    return api.Reveal(_card("card", body["card"]), body.get("seat"))


# path -> (the request it carries, how the server builds it from a validated body)
ROUTES: dict[str, tuple[type[api.Request], Callable[[dict[str, Any]], api.Request]]] = {
    "/api/decide": (api.Decide, _decide),
    "/api/reveal": (api.Reveal, _reveal),
    "/api/play": (api.Play, _play),
    "/api/uno": (api.CallUno, lambda b: api.CallUno(b["seat"])),
    "/api/undo": (api.Undo, lambda b: api.Undo(b["seat"])),
    "/api/catch": (api.Catch, lambda b: api.Catch(b["seat"], b["target"])),
    "/api/challenge": (api.Challenge, lambda b: api.Challenge(b["seat"])),
    "/api/hands": (api.Hands, lambda b: api.Hands(b["seat"], _cards("cards", b["cards"]))),
    "/api/next-round": (api.NextRound, lambda b: api.NextRound()),
}
assert set(ROUTES) == set(schema.BODIES)
BUILDERS: dict[str, Callable[[dict[str, Any]], api.Request]] = {
    path: build for path, (_kind, build) in ROUTES.items()}
SENDER_FIELDS = frozenset({"by", "key"})  # `api.Request`'s own: headers, not body fields
_PATHS: dict[type[api.Request], str] = {kind: path for path, (kind, _build) in ROUTES.items()}


def to_http(request: api.Request) -> tuple[str, dict[str, Any]]:
    """The API path and JSON body of a request, as a person's screen would send it. Who
    sends it and its key are not in the body: the token and the Idempotency-Key header
    say them (`firmware.sim.api_client`)."""
    if isinstance(request, api.Admin):
        return f"/api/admin/{request.action}", dict(request.params)
    path = _PATHS.get(type(request))
    if path is None:
        raise TypeError(f"no API path for {request!r}")
    body = {}
    for field in dataclasses.fields(request):
        if field.name in SENDER_FIELDS:
            continue
        value = getattr(request, field.name)
        if field.default is not dataclasses.MISSING and value == field.default:
            continue
        if field.default_factory is not dataclasses.MISSING and value == field.default_factory():
            continue
        body[field.name] = _plain(value)
    return path, body


def _plain(value: Any) -> Any:
    """JSON data: tuples as lists, mappings as dicts (nested too)."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value
