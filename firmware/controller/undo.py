"""Taking back a mistaken declaration (`POST /api/undo {"seat"}`).

The journal is append-only: an undo is an ``undo`` entry whose `ref` is the seq of the
``action`` it takes back, and every reader of the journal (the controller's replay,
`unotable replay --record`) reads it through `standing`, which leaves the undone
actions out. The table rule (docs/architecture.md, "Controller"): only the last
entry of the journal can be taken back, only when it is a `Play` of the seat asking,
and only when the play had no effect a person cannot put back by picking the card up
again (`PHYSICAL`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from firmware.journal import Entry

UNDO = "undo"
# effects of a play that changed the physical table beyond the card on the pile
PHYSICAL = {
    "dispense": "cards were dealt for it",
    "tower_moved": "a tower changed hands",
    "hands_traded": "hands were traded",
}


@dataclass(frozen=True)
class Declared:
    """The last `Play` the controller journaled: `seq`, who, which card (and the cards
    laid with it, Discard All), and why it cannot be taken back (`fixed`, None when
    nothing physical followed it)."""

    seq: int
    seat: int
    card: str
    fixed: str | None
    laid: tuple[str, ...] = ()


def standing(entries: Iterable[Entry]) -> list[Entry]:
    """The entries of one match in order, without the actions an ``undo`` took back
    (and without the ``undo`` entries themselves)."""
    entries = list(entries)
    undone = {e.ref for e in entries if e.kind == UNDO}
    return [e for e in entries if e.kind != UNDO and e.seq not in undone]
