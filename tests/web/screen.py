"""Helpers for the screen tests: a `Table` over the rules engine and the API server in a thread.

`EngineTable` is a small `Table` over the rules engine in simulation mode, for tests that
set up a particular position; `Served` runs the real API server (`firmware.api.ApiServer`)
on a real `TableLoop` in a background thread, like the daemon does.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from typing import Any

from firmware.api import Admin, ApiServer, CallUno, Catch, Challenge, Decide, Hands, Play
from firmware.errors import Rejected
from firmware.loop import TableLoop
from firmware.words.messages import ANSWER_LANGUAGE, Words
from firmware.words.refusals import refusal_key
from firmware.words.rejected import json_values
from uno_core import (
    CHANCE,
    IllegalAction,
    State,
    apply,
    get_edition,
    new_match,
    parse_card,
    public_state,
    sample_outcome,
)
from uno_core import actions as A
from uno_core.actions import action_to_dict
from uno_core.effects import effect_to_dict
from uno_core.options import preset_options

COLOUR_LETTER = {"red": "R", "green": "G", "blue": "B", "yellow": "Y"}


class EngineTable:
    """The referee of a simulated table: requests become engine actions; chance is seeded.

    `hardware(action)` is what the table's buttons would do (draw, press, pass).
    """

    def __init__(self, state: State, *, seed: int = 1, names: list[str] | None = None) -> None:
        self.state = state
        self.rng = random.Random(seed)
        self.names = names
        self.paused = False
        self.extra: dict[str, Any] = {}
        self.publish: Callable[[dict[str, Any]], None] = lambda event: None
        self.requests: list[Any] = []
        self.armed: set[int] = set()  # UNO said before the play (as the controller arms it)
        self._chance()

    @classmethod
    def new(cls, edition: str, seats: int, *, seed: int = 1, options: dict[str, Any] | None = None,
            names: list[str] | None = None) -> EngineTable:
        return cls(new_match(edition, seats, options), seed=seed, names=names)

    def _chance(self) -> None:
        while self.state.to_act == CHANCE:
            self.state, _ = apply(self.state, sample_outcome(self.state, self.rng))

    def act(self, action: Any) -> dict[str, Any]:
        try:
            self.state, effects = apply(self.state, action)
        except IllegalAction as exc:  # as the controller refuses it: the rule's key and values
            raise Rejected(refusal_key(exc), status=422, **exc.values) from None
        self._chance()
        if isinstance(action, A.Play):
            self.armed.discard(action.seat)
        for effect in effects:
            self.publish(effect_to_dict(effect))
        self.publish({"kind": "action", "action": action_to_dict(action),
                      "effects": [effect_to_dict(e) for e in effects]})
        return {"effects": len(effects)}

    def hardware(self, action: Any) -> dict[str, Any]:
        return self.act(action)

    # -- the Table interface
    def public_state(self) -> dict[str, Any]:
        out = dict(public_state(self.state), paused=self.paused, uno_armed=sorted(self.armed),
                   **self.extra)
        if self.names:
            out["names"] = self.names
        return out

    def refused(self, refusal: Rejected) -> dict[str, Any]:
        """Worded as the controller words it, in the language asked for."""
        words = Words(ANSWER_LANGUAGE.get() or "en", self.names or ())
        return {"reason": words.rejected(refusal, self.state.edition.name), "key": refusal.key,
                "values": json_values(refusal.values, words)}

    def health(self) -> dict[str, Any]:
        return {"ok": True, "launcher": {"ok": True, "hopper": "full"},
                "tray": {"ok": True, "readers": 5, "connected": 5}}

    def submit(self, request: Any) -> dict[str, Any]:
        self.requests.append(request)
        if isinstance(request, Admin):
            return self._admin(request)
        if self.paused:
            raise Rejected("refused.waits", message="paused")
        if isinstance(request, Play):
            ch = request.choices
            laid = tuple(parse_card(c) for c in ch.get("cards", ()))
            left = self.state.counts[request.seat] - 1 - len(laid)
            return self.act(A.Play(
                request.seat, parse_card(request.card), COLOUR_LETTER.get(ch.get("color", ""), ""),
                ch.get("target", -1), tuple(ch.get("towers", ())), laid,
                uno=request.seat in self.armed and left == 1))
        if isinstance(request, CallUno):
            if self.state.exposed != request.seat and self.state.counts[request.seat] == 2:
                self.armed.add(request.seat)  # said before the second-to-last card
                self.publish({"kind": "uno_armed", "seat": request.seat})
                return {"armed": True}
            return self.act(A.CallUno(request.seat))
        if isinstance(request, Catch):
            return self.act(A.Catch(request.seat, request.target))
        if isinstance(request, Challenge):
            return self.act(A.Challenge(request.seat))
        if isinstance(request, Decide):
            return self.act(self._decision(request))
        if isinstance(request, Hands):
            return self.act(A.EnterHand(request.seat, tuple(parse_card(c) for c in request.cards)))
        raise Rejected("refused.unknown_request", request=type(request).__name__)

    @staticmethod
    def _decision(r: Decide) -> Any:
        if r.decision in ("guilty", "innocent"):
            return A.Verdict(r.seat, r.decision == "guilty")
        if r.decision == "colour":
            return A.ChooseColour(r.seat, COLOUR_LETTER[r.color])
        if r.decision == "four-towers":
            return A.FourTowerDiscard(r.seat, tuple(parse_card(c) for c in r.cards))
        return {"pass": A.Pass, "accept": A.Accept}[r.decision](r.seat)

    def _admin(self, request: Admin) -> dict[str, Any]:
        p = request.params
        if request.action == "pause":
            self.paused = True
        elif request.action == "resume":
            self.paused = False
        elif request.action == "new-match":
            edition = p.get("edition", self.state.edition.name)
            options = dict(p.get("options", {}))
            if "preset" in p:  # as the controller does: the request's options over the preset's
                options = {**preset_options(p["preset"], get_edition(edition)), **options}
            self.state = new_match(edition, p.get("seats", self.state.n), options)
            self.names = list(p["names"]) if "names" in p else None
            self._chance()
        self.publish({"kind": request.action})
        return {}


class Served:
    """The API server on a TableLoop in a thread, like the daemon; `restart()` is a daemon restart."""

    def __init__(self, table: EngineTable, port: int = 0, token: str | None = None) -> None:
        self.table = table
        self.token = token
        self.aio = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.aio.run_forever, daemon=True)
        self.thread.start()
        self.port = port
        self._run(self._start())

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.aio).result(10)

    async def _start(self) -> None:
        self.loop = TableLoop()
        await self.loop.start()
        self.server = ApiServer(self.table, self.loop, port=self.port, token=self.token)
        self.table.publish = self.server.publish
        await self.server.start()
        self.port = self.server.port

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def do(self, fn: Callable[[], Any]) -> Any:
        """Run `fn()` on the table's loop (as a hardware event would be handled)."""

        async def call() -> Any:
            return fn()

        return self._run(call())

    def stop(self) -> None:
        self._run(self.loop.close())

    def start(self) -> None:
        self._run(self._start())

    def close(self) -> None:
        if not self.loop.closed:
            self.stop()
        self.aio.call_soon_threadsafe(self.aio.stop)
        self.thread.join(5)
        self.aio.close()
