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
from typing import Any

import uno_core as U
from firmware.controller.context import Adopted, By, Context, Part
from firmware.controller.declared import signed
from firmware.controller.hub import first_holding
from firmware.errors import Rejected
from firmware.journal.store import Entry
from firmware.words.rejected import Phrase
from uno_core import effects as E

UNDO = "undo"
# effects of a play that changed the physical table beyond the card on the pile, each
# with the catalog's reason (``undo.why.<reason>``)
PHYSICAL: dict[type, str] = {
    E.Dispense: "dealt",
    E.TowerMoved: "tower",
    E.HandsTraded: "traded",
    E.HandsPassed: "passed",
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


class Undo(Part):
    """Owns the last declaration (`declared`); takes it back when the table rule allows."""

    name = "undo"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.reset()
        ctx.subscribe(Adopted, self._on_adopted, actions=(U.Play,))  # `note` keeps Plays

    def _on_adopted(self, adopted: Adopted) -> None:
        if adopted.seq is not None:  # (a press's Eject is journaled with its ejection)
            self.note(adopted.seq, adopted.action, adopted.effects)

    def journaled(self) -> dict[str, Any]:
        return self.get_status()

    def public(self, state: U.State | None) -> dict[str, Any]:
        return {} if state is None else {"undoable": self.undoable()}

    def reset(self) -> None:
        self.declared: Declared | None = None  # the last Play journaled

    def get_status(self) -> dict[str, Any]:
        d = self.declared
        return {"declared": None if d is None else [d.seq, d.seat, d.card, d.fixed, list(d.laid)]}

    def note(self, seq: int, action: U.Action, fx: list[Any]) -> None:
        """An action was journaled as `seq` (live and in replay)."""
        if not isinstance(action, U.Play):
            return  # the last Play stays on record; an action since it makes it stand
        fixed = next((PHYSICAL[type(e)] for e in fx if type(e) in PHYSICAL), None)
        self.declared = Declared(seq, action.seat, U.format_card(action.card), fixed,
                                 tuple(U.format_card(c) for c in action.laid))

    def refusal(self, seat: int) -> Rejected | None:
        """Why `seat` cannot take its declaration back now (None: it can)."""
        d = self.declared
        t = self.ctx
        if t.state is None or d is None:
            return Rejected("undo.nothing")
        card = U.parse_card(d.card)
        if d.seat != seat:
            return Rejected("undo.not_yours", seat=seat, other=d.seat, card=card)
        if d.fixed is not None:
            return Rejected("undo.fixed", seat=seat, card=card, why=Phrase(f"undo.why.{d.fixed}"))
        if d.seq != t.journal.last_seq:
            return Rejected("undo.went_on", seat=seat, card=card)
        stop = first_holding(t.stops)
        if stop is not None:
            return Rejected("refused.waits", message=stop)
        return None

    def undoable(self) -> dict[str, Any] | None:
        """The declaration that can be taken back now (``public_state``'s ``undoable``)."""
        d = self.declared
        if d is None or self.refusal(d.seat) is not None:
            return None
        return {"seat": d.seat, "card": d.card}

    def take_back(self, seat: int, *, by: By = None) -> dict[str, Any]:
        """Take back `seat`'s last declaration (asked `by`): journal ``undo``, then
        rebuild the state from the journal without it (as a restart would)."""
        refused = self.refusal(seat)
        if refused is not None:
            raise refused
        d = self.declared
        assert d is not None
        t = self.ctx
        undone = {"seat": seat, "card": d.card, "laid": list(d.laid)}
        t.journal.append(UNDO, signed(undone, by), ref=d.seq)
        t.reload()
        t.publish({"kind": "undone", **undone})
        t.settle()
        return {"undone": undone, "step": t.step}
