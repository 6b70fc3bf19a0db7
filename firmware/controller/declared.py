"""Who declared what (issue 20): the sender's role is checked before anything changes,
the journal says who made each declaration, and a request sent twice with the same
Idempotency-Key is taken once.

`Declarers.answer` is the way in of every request (`Controller.submit`): it refuses
what the sender's role may not do (`firmware.api.roles.refusal`, 403), answers a
request whose key it has taken already with that answer, and lets the parts answer the
rest. A part that writes a request's declaration passes its ``"by"`` with it
(`by_of(request)`, then `signed(payload, by)` or `Context.accept(action, by=by)`):
``{"role", "seat"}`` (and ``"key"`` when the request carried one). The launcher and the
buttons pass none, so their walks never pass here. An entry without ``"by"`` is the
table's own: its owner on the table itself (a journal written before seats holds
nothing else), the buttons, the launcher and the timers.

The keys taken are remembered (the last `RECENT_KEYS`) with their answers; after a
restart they are read back from the match's entries (undone ones too: what was taken
back stays taken), answered ``{"duplicate": true}``.

While a request is answered its sender is known (`Declarers.way`), so the event of each
action it declares says the way it came in (``"way"``: pad, phone, screen, ...), which
the board's strip of the last plays shows.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

import uno_core as U
from firmware.api import requests as api
from firmware.api.roles import refusal
from firmware.controller.context import By, Context, Part, Replayed
from firmware.errors import Rejected

BY = "by"  # the payload key of who made a declaration
RECENT_KEYS = 512
MAX_KEY = 200  # characters of an Idempotency-Key (it is journaled with the declaration)
Sender = tuple[str, int | None, str]  # (role, seat, key): whose key it is
# the ways in a declaration's "by" records: the table's own readers and Home Assistant's
# buttons (the API's ways are the log's only, so the journal of a table without them
# reads as before)
JOURNALED_WAYS = ("pad", "mqtt")
# the way a declaration came in as the event stream says it (`Declarers.way`), from its
# sender's `via`: the owner's screen and a program holding the owner's token are one way
WAYS = {"pad": "pad", "phone": "phone", "mqtt": "mqtt", "bot": "bot",
        "local": "screen", "token": "screen", "screen": "screen"}
TABLE_WAY = "table"  # no request: the table's own buttons, timers and launcher


def by_json(who: api.Who, key: str = "") -> dict[str, Any]:
    """A declaration's ``"by"``: the role and seat (and the request's key, if any; the
    way it came in, if the table's own reader)."""
    out: dict[str, Any] = {"role": who.role, "seat": who.seat}
    if who.via in JOURNALED_WAYS:
        out["via"] = who.via
    if who.tags:
        out["tags"] = list(who.tags)
    if key:
        out["key"] = key
    return out


def signs(request: api.Request | None) -> bool:
    """Whether the entries written for `request` carry ``"by"``: everyone's but the
    owner's on the table itself without a key (which reads the same without it)."""
    return request is not None and (request.by != api.OWNER or bool(request.key))


def by_of(request: api.Request) -> By:
    """The ``"by"`` the declarations `request` makes carry (None: they carry none)."""
    return by_json(request.by, request.key) if signs(request) else None


def signed(payload: dict[str, Any], by: By) -> dict[str, Any]:
    """`payload` as journaled for a declaration made `by` someone (itself for None; a
    ``"by"`` of its own, next_round's "tap", gives way)."""
    return payload if by is None else {**payload, BY: by}


def who_of(payload: Mapping[str, Any]) -> api.Who:
    """Who made the declaration a journal `payload` holds (none said: the owner);
    KeyError, TypeError or ValueError for a ``"by"`` that names nobody."""
    by = payload.get(BY)
    if not isinstance(by, Mapping):  # none, or next_round's "tap" / "timer"
        return api.OWNER
    return api.Who(str(by["role"]), by.get("seat"))


def engine_action(payload: Mapping[str, Any]) -> U.Action:
    """The engine action of an ``action`` entry, whoever declared it."""
    return U.action_from_dict({k: v for k, v in payload.items() if k != BY})


def check_key(key: str) -> None:
    """Raise Rejected (400) for a key that is too long or not printable ASCII."""
    if len(key) > MAX_KEY or not (key.isascii() and key.isprintable()):
        raise Rejected("refused.key", most=MAX_KEY,
                       given=f"{key[:40]!r}{'...' if len(key) > 40 else ''}", status=400)


def sender(who: api.Who, key: str) -> Sender:
    return (who.role, who.seat, key)


class Declarers(Part):
    """Owns the keys taken (`taken`)."""

    name = "declarers"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.taken: OrderedDict[Sender, dict[str, Any]] = OrderedDict()
        self.sending: api.Who | None = None  # the sender of the request being answered
        ctx.subscribe(Replayed, lambda _e: self.recall())

    def answer(self, request: api.Request, answer: Callable[[api.Request], Any]
               ) -> dict[str, Any]:
        """`answer(request)` if its sender may make it and has not made it already."""
        who = request.by
        refused = refusal(who, request)
        if refused is not None:
            raise refused
        if request.key:
            check_key(request.key)
            first = self.taken.get(sender(who, request.key))
            if first is not None:
                return {**first, "duplicate": True}
        journal = self.ctx.journal
        written = journal.last_seq
        before, self.sending = self.sending, who
        try:
            result: dict[str, Any] = answer(request)
        except Exception:
            if request.key and journal.last_seq != written:  # refused after a write:
                self.remember(sender(who, request.key), {})  # what was written stays taken
            raise
        finally:
            self.sending = before
        if request.key:
            self.remember(sender(who, request.key), dict(result or {}))
        return result

    def way(self) -> str:
        """The way the declaration being made came in (`WAYS`; `TABLE_WAY` outside a
        request, and for a sender's way this table does not know)."""
        who = self.sending
        return TABLE_WAY if who is None else WAYS.get(who.via, TABLE_WAY)

    def remember(self, key: Sender, result: dict[str, Any]) -> None:
        self.taken[key] = result
        self.taken.move_to_end(key)
        while len(self.taken) > RECENT_KEYS:
            self.taken.popitem(last=False)

    def recall(self) -> None:
        """The match was rebuilt from the journal: the keys its entries carry are taken
        (answered ``{"duplicate": true}``; one remembered live keeps its answer)."""
        match = self.ctx.match
        if match is None:
            return
        for entry in self.ctx.journal.entries(match_id=match.id):
            by = entry.payload.get(BY) if isinstance(entry.payload, Mapping) else None
            if isinstance(by, Mapping) and by.get("key") and "role" in by:
                key = (str(by["role"]), by.get("seat"), str(by["key"]))
                if key not in self.taken:
                    self.remember(key, {})
