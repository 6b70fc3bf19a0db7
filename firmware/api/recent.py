"""The last plays at the table, for the board's and the phones' strip (``recent`` in the
public state): who played which card, newest first, so a player who looked away sees
the +4 that hit them, and the way each came in (``way``: the card pad, a phone, the
screen, ...). Kept by the API server from the events it streams; a new match
empties it, an undo takes its play off, a restart starts it empty."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

SHOWN = 5  # plays the strip holds: a round of four seats and the one before it


class RecentPlays:
    """The last `SHOWN` plays from the event stream, each ``{seat, card, ...}`` (with
    ``way`` where the event says it)."""

    def __init__(self, size: int = SHOWN) -> None:
        self._plays: deque[dict[str, Any]] = deque(maxlen=size)

    def note(self, event: Mapping[str, Any]) -> None:
        """Take in one streamed event: a play is kept, a new match empties the strip."""
        kind = event.get("kind")
        action = event.get("action")
        if kind == "action" and isinstance(action, Mapping) and action.get("type") == "play":
            play = {k: action[k] for k in ("seat", "card", "colour", "target", "laid") if k in action}
            for key in ("step", "way"):  # the way it came in: pad, phone, screen, ...
                if key in event:
                    play[key] = event[key]
            self._plays.appendleft(play)
        elif kind in ("new_match", "new-match"):
            self._plays.clear()
        elif kind == "undone":
            taken = next((p for p in self._plays if p.get("seat") == event.get("seat")
                          and p.get("card") == event.get("card")), None)
            if taken is not None:
                self._plays.remove(taken)

    def public(self) -> dict[str, Any]:
        """The public state's part: ``{"recent": [newest, ..., oldest]}``."""
        return {"recent": list(self._plays)}
