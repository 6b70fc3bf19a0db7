"""The table's screen: the static page (`firmware/web/`) and the edition catalogue it reads.

`add_screen_routes(app)` adds, to the API's aiohttp application:

* ``GET /`` — the page (``web/index.html``) and ``GET /static/<file>`` — its modules,
  style and icons, all from the installed package (no CDN, no build step);
* ``GET /seat/<n>`` — the same page as a seat's own, on that player's phone: opened from
  the seat's link (``/seat/<n>#join=<secret>``) it claims the seat, keeps the device token
  it is given and shows only what that seat may do (docs/screen.md, "A seat's phone");
* ``POST /api/screen/launcher`` — the simulated table's launcher button, for a person
  playing in the browser (``unotable demo --serve``); 404 on a real table;
* ``GET /api/editions`` — every edition with its deck (distinct cards in notation),
  player range, draw mode, its house-rule options with type, default, choices, limits
  and doc, what each preset sets in it, and the public rules the page checks itself
  (``uno_core.page_rules``), so that match set-up (a control per option), the card
  picker and the page's checks are built from the rules engine's data;
* ``GET /api/messages[?lang=de]`` — the screen's texts and card names in a language
  (default: the table's `[table] language`), from `firmware.words.messages`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from firmware.words.fields import say_invalid, shown
from firmware.words.messages import (
    ANSWER_LANGUAGE,
    DEFAULT_LANGUAGE,
    LANGUAGES,
    Words,
    screen_catalog,
)
from uno_core import EDITIONS, OPTION_SPECS
from uno_core.cards import TOWER_PROTECTS, format_card
from uno_core.kinds import KINDS
from uno_core.options import PRESETS, preset_options
from uno_core.page_rules import page_rules

WEB_DIR = Path(__file__).with_name("web")
PUBLIC_PREFIXES = ("/static/",)  # served without the API token: the page holds no secrets
PUBLIC_PATHS = ("/", "/api/messages")  # the page's words too: it can say it needs a token


def editions_catalog() -> dict[str, Any]:
    """``{"editions": [{name, description, players, launcher, towers, deck, options,
    presets, rules, kinds, protects}]}``; `presets` maps each `[table] preset` to the
    options it sets there, `rules` is what the page checks before it asks
    (``uno_core.page_rules``), `kinds` each card kind of the deck to its rule's parameters,
    `protects` each tower to the kind it protects against."""
    out = []
    for ed in EDITIONS.values():
        options = {}
        for name, default in ed.option_defaults.items():
            spec = OPTION_SPECS[name]
            entry: dict[str, Any] = {"type": spec.type.__name__, "default": default, "doc": spec.doc}
            if spec.choices:
                entry["choices"] = list(spec.choices)
            if spec.minimum is not None:
                entry["minimum"] = spec.minimum
            if spec.maximum is not None:
                entry["maximum"] = spec.maximum
            options[name] = entry
        out.append({
            "name": ed.name,
            "description": ed.description,
            "players": {"min": ed.min_players, "max": ed.max_players},
            "launcher": ed.launcher,
            "towers": ed.towers,
            "deck": list(dict.fromkeys(format_card(c) for c in ed.deck)),
            "options": options,
            "presets": {p: preset_options(p, ed) for p in PRESETS},
            "rules": page_rules(ed),  # what the page checks itself (web/rules.js)
            # what each kind of the deck does and what each tower protects against: the
            # page's "what does this do" sheet words them (uno_core.kinds.KINDS)
            "kinds": {kind: KINDS[kind]._asdict() for kind in dict.fromkeys(c.kind for c in ed.deck)
                      if kind in KINDS},
            "protects": dict(TOWER_PROTECTS) if ed.towers else {},
        })
    return {"editions": out}


SEAT_PAGE = re.compile(r"/seat/\d{1,3}")  # a seat's own page: the same page, no secret in it


def is_public(path: str) -> bool:
    """Whether `path` is part of the static page (no token needed to load it)."""
    return path in PUBLIC_PATHS or path.startswith(PUBLIC_PREFIXES) or SEAT_PAGE.fullmatch(path) is not None


async def _index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})


async def _editions(request: web.Request) -> web.Response:
    return web.json_response(editions_catalog())


def _messages(table: Callable[[], Any]) -> Callable[[web.Request], Any]:
    async def messages(request: web.Request) -> web.Response:
        config = getattr(table(), "config", None)
        table_language = config.table.language if config is not None else DEFAULT_LANGUAGE
        lang = request.query.get("lang", table_language)
        if lang not in LANGUAGES:  # the API's bad field (docs/api.md, "Errors")
            values = {"choices": list(LANGUAGES), "value": shown(lang)}
            words = Words(ANSWER_LANGUAGE.get() or DEFAULT_LANGUAGE)
            return web.json_response(
                {"error": "bad_request", "field": "lang", "key": "field.enum", "values": values,
                 "reason": say_invalid("lang", "field.enum", values, words)}, status=400)
        return web.json_response(screen_catalog(lang, table_language))

    return messages


def add_screen_routes(app: web.Application, table: Callable[[], Any]) -> None:
    """Add the page's routes; `table()` is the served `Table` (for the on-screen launcher)."""

    async def launcher(request: web.Request) -> web.Response:
        press = getattr(table(), "screen_press", None)
        if press is None:
            return web.json_response(
                {"error": "not_found", "field": None,
                 "reason": "this table's launcher is pressed by hand, not on the screen "
                           "(only `unotable demo --serve` has an on-screen launcher button)"},
                status=404)
        return web.json_response({"result": press()})

    app.router.add_get("/", _index)
    app.router.add_get(r"/seat/{seat:\d{1,3}}", _index)  # the page reads its seat from the path
    app.router.add_get("/api/editions", _editions)
    app.router.add_get("/api/messages", _messages(table))
    app.router.add_post("/api/screen/launcher", launcher)
    app.router.add_static("/static/", WEB_DIR, append_version=False)
