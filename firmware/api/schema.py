"""The API's JSON schemas: one source for request validation and the OpenAPI document."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from firmware.api.requests import ADMIN_ACTIONS, COLORS, DECISIONS, OVERRIDES
from firmware.words.fields import shown
from uno_core import EDITIONS
from uno_core.editions import TOWERS
from uno_core.options import PRESETS

Schema = dict[str, Any]

SEAT: Schema = {"type": "integer", "minimum": 0, "maximum": 9, "description": "seat number, 0-based"}
CARD: Schema = {
    "type": "string", "minLength": 1, "maxLength": 4, "pattern": "^[RGBYW][A-Z0-9+!]{0,3}$",
    "description": "a card in the compact notation of uno_core.cards: R7, G3!, B+2, YS, W, W+4, WT1",
}
CARDS: Schema = {"type": "array", "items": CARD, "maxItems": 120}


def obj(properties: Mapping[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    schema: Schema = {"type": "object", "properties": dict(properties), "additionalProperties": False}
    if required:  # OpenAPI 3.0 forbids an empty list
        schema["required"] = list(required)
    return schema


CHOICES = obj({
    "color": {"type": "string", "enum": list(COLORS)},
    "target": SEAT,
    "cards": CARDS,
    "towers": {"type": "array", "items": {"type": "string", "enum": list(TOWERS)}, "maxItems": 2,
               "description": "towers taken by Take-2-Towers / Wild Take-1-Tower"},
})

# POST endpoints: path -> (request body schema, summary)
BODIES: dict[str, tuple[Schema, str]] = {
    "/api/play": (obj({"seat": SEAT, "card": CARD, "choices": CHOICES}, ("seat", "card")),
                  "declare a play with its choices"),
    "/api/uno": (obj({"seat": SEAT}, ("seat",)), "call UNO"),
    "/api/undo": (obj({"seat": SEAT}, ("seat",)),
                  "take back the seat's declaration while it is the last thing that happened "
                  "and moved nothing physical (409 with the reason otherwise)"),
    "/api/catch": (obj({"seat": SEAT, "target": SEAT}, ("seat", "target")),
                   "catch a player who did not call UNO"),
    "/api/challenge": (obj({"seat": SEAT}, ("seat",)), "challenge the last challengeable play"),
    "/api/hands": (obj({"seat": SEAT, "cards": CARDS}, ("seat", "cards")),
                   "end of round: the cards left in a hand"),
    "/api/decide": (obj({"seat": SEAT, "decision": {"type": "string", "enum": list(DECISIONS)},
                         "color": {"type": "string", "enum": list(COLORS)}, "cards": CARDS},
                        ("seat", "decision")),
                    "a seat's decision: pass, accept (no challenge), guilty / innocent "
                    "(challenge verdict), colour (first card a wild), four-towers (cards laid)"),
    "/api/reveal": (obj({"card": CARD, "seat": SEAT}, ("card",)),
                    "a card turned face up: the first card of the pile, or (with seat) "
                    "the card a seat turned to choose the dealer"),
    "/api/next-round": (obj({}), "end the pause after a round (the round's result stays on "
                                 "the screen until this or [table] round_pause_s)"),
}
ADMIN_BODIES: dict[str, Schema] = {
    "new-match": obj({
        "edition": {"type": "string", "enum": list(EDITIONS)},
        "seats": {"type": "integer", "minimum": 2, "maximum": 10},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**53},
        "names": {"type": "array", "maxItems": 10,
                  "items": {"type": "string", "maxLength": 24}, "description": "players' names by seat"},
        "preset": {"type": "string", "enum": list(PRESETS),
                   "description": "house rules to start from; options override them"},
        "options": {"type": "object", "maxProperties": 64,
                    "additionalProperties": {"anyOf": [
                        {"type": "boolean"}, {"type": "integer"},
                        {"type": "string", "maxLength": 64}]}},
    }),
    "pause": obj({"reason": {"type": "string", "maxLength": 200}}),
    "resume": obj({}),
    "override": obj({
        "kind": {"type": "string", "enum": list(OVERRIDES)},
        "seat": SEAT,
        "tower": {"type": "string", "enum": list(TOWERS)},
        "count": {"type": "integer", "minimum": 0, "maximum": 120},
    }, ("kind",)),
}
assert tuple(ADMIN_BODIES) == ADMIN_ACTIONS

# a secret as the table makes them (secrets.token_urlsafe): anything else is no secret of
# the table's, refused before it is hashed or compared
SECRET: Schema = {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[A-Za-z0-9_-]+$"}
CODE: Schema = {"type": "string", "pattern": "^[0-9]{4}$",
                "description": "the claim's code, shown on the asking phone and the owner's screen"}
SEAT_BODY: Schema = obj({"seat": SEAT}, ("seat",))
CLAIM_ANSWER_BODY: Schema = obj({"seat": SEAT, "code": CODE}, ("seat", "code"))
CLAIM_BODY: Schema = obj({"seat": SEAT, "join": {**SECRET, "description": "the invitation's join secret"},
                          "claim": {**SECRET, "description": "the claim a 202 answered, to poll it"}},
                         ("seat", "join"))
# the seats' door (firmware.api.seat_door): path -> (request body schema, summary)
SEAT_BODIES: dict[str, tuple[Schema, str]] = {
    "/api/seats/claim": (CLAIM_BODY, "a phone joins a seat with its invitation (no token needed): "
                         "200 {seat, token}, or 202 {claim, code, reason} while the owner must approve"),
    "/api/seats/approve": (CLAIM_ANSWER_BODY, "owner: let the phone whose claim shows `code` take the "
                           "seat (revokes the old one; the seat's other claims are refused)"),
    "/api/seats/refuse": (CLAIM_ANSWER_BODY, "owner: refuse the phone whose claim shows `code`"),
    "/api/seats/revoke": (SEAT_BODY, "owner: the seat's phones and invitations stop working"),
    "/api/viewers": (obj({}), "owner: a new viewer token (reads the state, acts for nobody)"),
}

ERROR: Schema = {
    "type": "object",
    "properties": {
        "error": {"type": "string", "description": "bad_request, unauthorized, not_found, rejected, ..."},
        "reason": {"type": "string"},
        "field": {"type": "string", "nullable": True},
        "key": {"type": "string", "description": "a bad field's problem: field.required, "
                "field.maximum, ... (docs/api.md, \"Errors\")"},
        "values": {"type": "object", "additionalProperties": True,
                   "description": "what fills the problem's wording: limit, value, choices, kinds"},
    },
    "required": ["error", "reason"],
}
FREE: Schema = {"type": "object", "additionalProperties": True}
RESULT: Schema = obj({"result": FREE}, ("result",))


class Invalid(ValueError):
    """A JSON value does not match its schema. `key` names the problem (a ``field.*`` key
    of the catalog, `firmware.words.fields`) and `values` fill its wording: ``limit``,
    ``choices`` and ``kinds`` as data, ``value`` as the culprit is shown (its repr, at most
    40 characters). `field` is the dotted path of the culprit (None: the whole body)."""

    def __init__(self, field: str | None, key: str, /, **values: Any) -> None:
        super().__init__(field, key, values)
        self.field = field
        self.key = key
        self.values: dict[str, Any] = values

    def __str__(self) -> str:
        return f"{self.field or 'body'}: {self.key} {self.values}"


_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,), "array": (list,), "string": (str,), "boolean": (bool,),
    "integer": (int,), "number": (int, float), "null": (type(None),),
}


def _is(value: Any, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[kind])


def validate(value: Any, schema: Schema, path: str = "") -> None:
    """Check `value` against the subset of JSON Schema used above; raise `Invalid`."""
    where = path or None
    if "anyOf" in schema:
        problems = []
        for option in schema["anyOf"]:
            try:
                validate(value, option, path)
                break
            except Invalid as exc:
                problems.append(exc)
        else:
            raise _closest(problems, where, value)
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(value, k) for k in kinds):
            raise Invalid(where, "field.type", kinds=list(kinds), value=shown(value))
    if "enum" in schema and value not in schema["enum"]:
        raise Invalid(where, "field.enum", choices=list(schema["enum"]), value=shown(value))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            raise Invalid(where, "field.minimum", limit=schema["minimum"], value=shown(value))
        if "maximum" in schema and value > schema["maximum"]:
            raise Invalid(where, "field.maximum", limit=schema["maximum"], value=shown(value))
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            raise Invalid(where, "field.empty")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise Invalid(where, "field.max_length", limit=schema["maxLength"])
        if "pattern" in schema and not re.search(schema["pattern"], value):
            raise Invalid(where, "field.pattern", value=shown(value))
    if isinstance(value, list):
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise Invalid(where, "field.max_items", limit=schema["maxItems"])
        for i, item in enumerate(value):
            validate(item, schema.get("items", {}), f"{path}[{i}]")
    if isinstance(value, dict):
        if "maxProperties" in schema and len(value) > schema["maxProperties"]:
            raise Invalid(where, "field.max_entries", limit=schema["maxProperties"])
        for name in schema.get("required", ()):
            if name not in value:
                raise Invalid(_join(path, name), "field.required")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in props:
                validate(item, props[name], _join(path, name))
            elif extra is False:
                raise Invalid(_join(path, name), "field.unknown")
            elif isinstance(extra, dict):
                validate(item, extra, _join(path, name))


def _closest(problems: list[Invalid], where: str | None, value: Any) -> Invalid:
    """What an ``anyOf`` says when no option fits: the problem of an option whose type the
    value has (it broke that option's limit), else every type the value could have had."""
    for problem in problems:
        if problem.key != "field.type":
            return problem
    kinds = [kind for problem in problems for kind in problem.values["kinds"]]
    return Invalid(where, "field.type", kinds=kinds, value=shown(value))


def parse(body: bytes) -> Any:
    """A request's body as JSON data; `Invalid` (naming no field) when it is none."""
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        raise Invalid(None, "field.not_json", line=exc.lineno, column=exc.colno) from None
    except ValueError:  # bytes that are no text (UnicodeDecodeError)
        raise Invalid(None, "field.not_text") from None
    except RecursionError:
        raise Invalid(None, "field.too_deep") from None


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def openapi(*, token_required: bool) -> Schema:
    """The OpenAPI 3.0 document served at /api/openapi.json."""

    def responses(ok: Schema, *codes: int) -> dict[str, Any]:
        out: dict[str, Any] = {"200": {"description": "ok", "content": {"application/json": {"schema": ok}}}}
        reasons = {400: "malformed request (names the field)", 401: "missing or wrong token",
                   404: "no such seat or action", 409: "does not fit the table's situation now",
                   422: "forbidden by the rules", 503: "the table is stopping",
                   403: "sent by a page of another origin (Origin or Referer), or a role "
                        "that may not do this (a viewer posting, a seat acting for another)",
                   408: "the body did not arrive in time", 413: "body over 64 KiB",
                   415: "the body is not sent as application/json",
                   421: "the Host header does not name the table (see [api] allowed_hosts)",
                   429: "too many failed tokens from this address: wait Retry-After seconds"}
        for code in (*codes, *((401, 429) if token_required else ()), 403, 421):
            out[str(code)] = {"description": reasons[code],
                              "content": {"application/json": {"schema": ERROR}}}
        return out

    def post(schema: Schema, summary: str, op: str) -> dict[str, Any]:
        return {"post": {
            "operationId": op, "summary": summary,
            "requestBody": {"required": True, "content": {"application/json": {"schema": schema}}},
            "responses": responses(RESULT, 400, 404, 408, 409, 413, 415, 422, 503),
        }}

    paths: dict[str, Any] = {
        "/api/state": {"get": {"operationId": "state", "summary": "public state (no hidden hands)",
                               "responses": responses(FREE)}},
        "/api/health": {"get": {"operationId": "health", "summary": "hardware status",
                                "responses": responses(FREE)}},
        "/api/openapi.json": {"get": {"operationId": "openapi", "summary": "this document",
                                      "responses": responses(FREE)}},
        "/api/editions": {"get": {"operationId": "editions", "summary": (
            "editions with deck, players and house-rule options (type, default, limits)"),
            "responses": responses(FREE)}},
        "/api/messages": {"get": {"operationId": "messages", "summary": (
            "the screen's texts and card names; ?lang=en|de, default the table's language"),
            "responses": responses(FREE, 400)}},
        "/api/screen/launcher": {"post": {"operationId": "screen_launcher", "summary": (
            "press the simulated launcher button (unotable demo --serve only; 404 otherwise)"),
            "responses": responses(RESULT, 404, 415)}},
        "/api/ws": {"get": {"operationId": "events", "summary": (
            "WebSocket: the public state on connect, then one JSON message per event"),
            "responses": {"101": {"description": "switching protocols"},
                          **({"401": {"description": "missing or wrong token"}} if token_required else {}),
                          "403": {"description": "a foreign Origin"},
                          "421": {"description": "the Host header does not name the table"}}}},
    }
    paths["/api/whoami"] = {"get": {"operationId": "whoami", "summary": (
        "who the token is: {role: owner|seat|viewer, seat, name}"), "responses": responses(FREE)}}
    paths["/api/seats"] = {"get": {"operationId": "seats", "summary": (
        "owner: every seat's invitation link and QR code (SVG), and whether a phone holds it"),
        "responses": responses(FREE)}}
    for path, (schema, summary) in {**BODIES, **SEAT_BODIES}.items():
        paths[path] = post(schema, summary, path.removeprefix("/api/").replace("/", "_"))
    for action, schema in ADMIN_BODIES.items():
        paths[f"/api/admin/{action}"] = post(schema, f"admin: {action}", f"admin_{action.replace('-', '_')}")
    doc: Schema = {
        "openapi": "3.0.3",
        "info": {"title": "unotable table API", "version": "1",
                 "description": "Local API of the UNO table daemon; see docs/api.md."},
        "paths": paths,
    }
    if token_required:
        doc["components"] = {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}}
        doc["security"] = [{"bearer": []}]
    return doc
