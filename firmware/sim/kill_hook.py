"""The simulated players' kill hook, for the crash soak (`bench/crash.py`).

With ``kill_after=(KIND, N)`` the process SIGKILLs itself right after the N-th answer
to a KIND request (`request_kind`; ``any`` counts every kind), or at the N-th named
moment of the card pad (``pad-tap``: a tapped play about to be committed;
``pad-journaled``: just committed), having written what the table held at that moment
into the world file (`Controller.journaled_view`). After the restart, `check_answered`
compares it with what the journal brought back: a difference is an answered request
the crash lost (``answers_lost`` in the world's notes).
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable
from typing import Any

from firmware.api import requests as api
from firmware.api.routes import to_http
from firmware.sim.world import World


def request_kind(request: api.Request) -> str:
    """A request's name for the kill hook: its API path (``play``, ``admin-resume``, ...),
    a reveal as ``reveal-dealer`` or ``reveal-first``, an override by its kind."""
    path, body = to_http(request)
    if isinstance(request, api.Reveal):
        return "reveal-dealer" if request.seat is not None else "reveal-first"
    if isinstance(request, api.Admin) and request.action == "override":
        return f"override-{body.get('kind')}"
    return path.removeprefix("/api/").replace("/", "-")


class KillHook:
    """`table()`: what the table holds now (`Controller.journaled_view`); `step()`: its
    step. `kill()` ends the process (SIGKILL, as a power cut would)."""

    def __init__(self, world: World, kill_after: tuple[str, int] | None, *,
                 table: Callable[[], dict[str, Any]], step: Callable[[], int],
                 kill: Callable[[], None] = lambda: os.kill(os.getpid(), signal.SIGKILL)
                 ) -> None:
        self.world = world
        self.kill_after = kill_after
        self._table = table
        self._step = step
        self._kill = kill
        self.answers = 0

    def answered(self, request: api.Request) -> None:
        """After each answered request: kill after the `kill_after` one."""
        self.moment(request_kind(request), counts_as_any=True)

    def moment(self, name: str, *, counts_as_any: bool = False) -> None:
        """A named moment of the table (an answered request's kind, or the card pad's
        ``pad-tap`` just before a tapped play's commit and ``pad-journaled`` right after
        it): kill at the `kill_after` one."""
        if self.kill_after is None:
            return
        kind, nth = self.kill_after
        if kind != name and not (counts_as_any and kind == "any"):
            return
        self.answers += 1
        if self.answers < nth:
            return
        with self.world.change():
            self.world.notes["answered"] = {"request": name, "step": self._step(),
                                            "table": self._table()}
        self._kill()

    def check_answered(self) -> None:
        """Call right after the controller replayed its journal: a request answered just
        before a kill must have come back (else it counts in ``answers_lost``)."""
        notes = self.world.notes
        answered = notes.get("answered")
        if answered is None:
            return
        now = json.loads(json.dumps(self._table()))
        with self.world.change():
            del notes["answered"]
            notes["answers_checked"] = notes.get("answers_checked", 0) + 1
            if now != answered["table"]:
                notes["answers_lost"] = notes.get("answers_lost", 0) + 1
                lost = [k for k in now if now[k] != answered["table"].get(k)]
                self.world._disagree(f"step {answered['step']}: {answered['request']} was "
                                     f"answered before a kill, but the restart did not bring "
                                     f"back the table's {', '.join(lost)}")
