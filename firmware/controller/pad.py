"""The card pad (`hal.pad.Pad`, built with a ``[pad]`` section only): a card tapped on it
is the seat to act's play, declared as the screen and the phones declare it.

A tap becomes the same `api.Play` that ``POST /api/play`` builds, sent by the seat to
act through `Context.submit` (its role checked, journaled with ``"by": {"role":
"seat", "seat", "via": "pad"}``), so it passes the same gate, engine check, journal and
effects. A wild waits for a colour chip, and a card that names a seat (Wild
Attack-Attack, Trade Hands, a 7 under seven_zero) for that seat's button (the screen and
the phone may still declare the card themselves); a chip answers the first card's
colour too.

The pad refuses, changing nothing, with the buzzer's error pattern, the seat's light
blinking a moment and the reason published as a ``refused`` event (the screen's last
notice): two tags at once, a tag it does not know, a chip when no colour is asked, a
card whose tag it laid on the pile since the last reshuffle, a card while the table
waits for something else. The pad cannot know who tapped: a tap is the seat to act's,
unless under ``jump_in`` a seat not to act pressed its own button within
`JUMP_WINDOW_S` before: then the tap is that seat's jump-in.

The pad polls fast while the table awaits a card or a chip, idle otherwise (set after
each settle). A reader that goes down is said once; play goes on by screen and phones.

A tapped card's tag is journaled with its play, in the same commit (`TAG`): a restart
knows which tags lie on the pile, so a card tapped again after a crash is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import uno_core as U
from firmware.api import requests as api
from firmware.controller.context import (
    Adopted,
    Committing,
    Context,
    Part,
    RoundEnded,
    SeatChosen,
    Settles,
)
from firmware.controller.events import PadChanged
from firmware.controller.seats import SeatButtons, refusal_said
from firmware.controller.undo import Undo
from firmware.controller.waiting import Waits
from firmware.errors import Rejected
from firmware.journal.store import Entry
from firmware.waits import Wait
from hal.pad import Pad as PadReader
from hal.pad import PadDown, PadUp, Tap
from uno_core import effects as E
from uno_core.cards import COLOUR_NAMES
from uno_core.kinds import TARGETED
from uno_core.matching import needs_target

VIA = "pad"  # the way a tap's declaration came in, as the journal records it
CARD_WAITS = frozenset({Wait.TURN, Wait.PLAY_DRAWN, Wait.EXTRA_PLAY})  # a card is awaited
REFUSED_BUZZ = "error"  # the buzzer's refusal pattern
REFUSED_LIGHT_S = 1.5  # how long the seat's light blinks after a refusal
JUMP_WINDOW_S = 3.0  # jump_in: a tap this soon after a seat's own button is that seat's
TAG = "pad_tag"  # journal kind: {"uid", "step"}, the tag of a play the pad declared


class Pending(NamedTuple):
    """A card tapped at `step` for `seat`: a wild waits for its colour chip (`colour`
    once tapped), then a card that names a seat (`target`) for that seat's button."""

    seat: int
    card: str
    uid: str
    step: int
    wild: bool
    target: bool
    colour: str = ""

    def wants_chip(self) -> bool:
        return self.wild and not self.colour

    def wants_seat(self) -> bool:
        return self.target and not self.wants_chip()


class LightBack(NamedTuple):
    """Posted after a refusal: the seat's light shows the turn again, if nothing moved."""

    seat: int
    step: int


class Pad(Part):
    """Owns the tags it laid on the pile this round and a card awaiting its choices."""

    name = "pad"

    def __init__(self, ctx: Context, reader: PadReader) -> None:
        self.ctx = ctx
        self.reader = reader
        self.down: str | None = None  # why the reader is down, while it is
        self.refusals = 0
        self.declared = 0
        self._tag: str | None = None  # the tag of the play being submitted
        # told "tap" just before a tapped play's commit and "journaled" right after it:
        # the demo's kill hook (firmware.sim.kill_hook)
        self.moment: Callable[[str], None] = lambda _name: None
        self.reset()
        ctx.on(PadChanged, self._on_pad)
        ctx.on(LightBack, self._light_back)
        ctx.subscribe(Settles, lambda _e: self._pace())
        ctx.subscribe(Adopted, self._adopted)
        ctx.subscribe(RoundEnded, lambda _e: self._pile_gone())
        ctx.subscribe(SeatChosen, self._seat_chosen)
        ctx.subscribe(Committing, self._committing, actions=(U.Play,))
        ctx.journal_kind(TAG, self._laid)

    def reset(self) -> None:
        self.on_pile: dict[str, int] = {}  # tag UID -> the step its play made
        self.cleared_at = 0  # the step that last emptied the pile (a round's end, a reshuffle)
        self.pending: Pending | None = None
        self.jumper: tuple[int, float] | None = None  # (seat, loop time of its button)

    # -- status -----------------------------------------------------------------------
    def get_status(self) -> dict[str, Any]:
        """The reader's status and the part's; its counts are live only (not in the
        table's stats, which a restart rebuilds from the journal)."""
        p = self.pending
        return {**self.reader.get_status(), "down": self.down,
                "awaiting_chip": p.card if p is not None and p.wants_chip() else None,
                "awaiting_seat": p.card if p is not None and p.wants_seat() else None,
                "declared": self.declared, "refused": self.refusals}

    def journaled(self) -> dict[str, Any]:
        return {"pad_on_pile": dict(sorted(self.on_pile.items()))}

    def carried(self) -> Any:
        return dict(self.on_pile)

    def carry(self, kept: Any) -> None:
        """After a rebuild (an undo): the tags of plays that still stand stay on the pile."""
        step = self.ctx.step
        self.on_pile = {uid: made for uid, made in kept.items() if made <= step}

    # -- the table moves on -------------------------------------------------------------
    def _adopted(self, adopted: Adopted) -> None:
        if adopted.live:  # a card's choices answer the moment it was tapped in, no later
            self.pending = None
        if any(isinstance(e, E.Reshuffled) for e in adopted.effects):
            self._pile_gone()
        for entry in adopted.joined:
            if entry.kind == TAG:
                self._laid(entry)

    def _committing(self, committing: Committing) -> tuple[str, dict[str, Any]] | None:
        """A play the pad declared is journaled with its tag, in the same commit."""
        uid, self._tag = self._tag, None
        if uid is None:
            return None
        self.moment("tap")
        return TAG, {"uid": uid, "step": committing.step}

    def _laid(self, entry: Entry) -> None:
        """A tag journaled with its play (live, or in replay right after that play):
        it lies on the pile, unless its play was taken back (the step is not this one)
        or the pile was emptied at that step (the round ended with it)."""
        step = entry.payload["step"]
        if step != self.ctx.step:
            return
        self.ctx.peer(Undo).joined(entry.seq)  # the play can still be taken back
        if step > self.cleared_at:
            self.on_pile[entry.payload["uid"]] = step

    def _pile_gone(self) -> None:
        self.on_pile.clear()
        self.cleared_at = self.ctx.step

    def awaits_card(self) -> bool:
        """Whether the table awaits a card (or a chip) the pad can answer."""
        if self.pending is not None:
            return self.pending.wants_chip()
        kind = self.ctx.peer(Waits).current().kind
        return kind in CARD_WAITS or kind == Wait.COLOUR

    def _pace(self) -> None:
        self.reader.set_pace(self.awaits_card())

    def public(self, state: U.State | None) -> dict[str, Any]:
        """``pad`` in the public state: whether the reader answers, and what the pad waits
        for (``wants``: a ``card``, a ``colour`` chip, a ``seat``'s button) from `seat`."""
        shown: dict[str, Any] = {"ok": self.down is None, "wants": None, "seat": None, "card": None}
        p = self.pending
        if self.down is not None or state is None:  # a pad that fails waits for nothing
            return {"pad": shown}
        kind = self.ctx.peer(Waits).current().kind
        if p is not None and p.step == self.ctx.step and kind in CARD_WAITS:
            shown.update(wants="colour" if p.wants_chip() else "seat", seat=p.seat, card=p.card)
        elif kind in CARD_WAITS or kind == Wait.COLOUR:
            shown.update(wants="card" if kind in CARD_WAITS else "colour", seat=state.to_act)
        return {"pad": shown}

    # -- what the pad saw ---------------------------------------------------------------
    def _on_pad(self, changed: PadChanged) -> None:
        event = changed.event
        t = self.ctx
        if isinstance(event, PadDown):
            if self.down is None:
                self.down = event.reason
                t.publish({"kind": "pad", "ok": False, "reason": event.reason,
                           "message": t.words("pad.down", reason=event.reason)})
        elif isinstance(event, PadUp):
            if self.down is not None:
                self.down = None
                t.publish({"kind": "pad", "ok": True, "message": t.words("pad.up")})
        elif isinstance(event, Tap):
            try:
                self._tapped(event)
            except Rejected as exc:
                self._refuse(exc)
            self._pace()

    def _tapped(self, tap: Tap) -> None:
        t = self.ctx
        if len(tap.on_pad) > 1:  # the rules' multi-card plays are declared on the screen
            raise Rejected("pad.two_tags", count=len(tap.on_pad))
        uid = tap.uids[0]
        cfg = self.reader.config
        chip, code = cfg.colour_of(uid), cfg.card_of(uid)
        if chip is not None:
            self._chip(chip)
            return
        if code is None:
            raise Rejected("pad.unknown", uid=uid)
        if uid in self.on_pile:
            raise Rejected("pad.on_pile")
        s = t.gate()
        kind = t.peer(Waits).current().kind
        if kind not in CARD_WAITS:
            if kind in (Wait.PRESS, Wait.CHALLENGE, Wait.VERDICT, Wait.COLOUR):
                raise Rejected("pad.turn", seat=s.to_act)
            raise Rejected("pad.not_a_card_now", message=t.peer(Waits).current())
        seat = self._tapper(s.to_act)
        card = U.parse_card(code)
        wild, target = card.colour == "", card.kind in TARGETED or needs_target(s, card)
        if wild or target:
            self.pending = Pending(seat, code, uid, t.step, wild, target)
            self._ask()
            return
        self._declare(seat, code, uid, {})

    def _ask(self) -> None:
        """Say what the pending card waits for: a colour chip, else a seat's button."""
        t, p = self.ctx, self.pending
        assert p is not None
        words = t.words
        chip = p.wants_chip()
        message = words("pad.tap_chip" if chip else "pad.press_seat", seat=words.seat(p.seat),
                        card=words.card(U.parse_card(p.card)))
        t.publish({"kind": "pad_waits", "seat": p.seat, "card": p.card,
                   "wants": "colour" if chip else "seat", "message": message})

    def _chip(self, colour: str) -> None:
        t = self.ctx
        p = self.pending
        name = COLOUR_NAMES[colour]
        if p is not None and p.step == t.step and p.wants_chip():
            self.pending = p._replace(colour=name)
            if p.target:
                self._ask()
            else:
                self._declare(p.seat, p.card, p.uid, {"color": name})
            return
        s = t.state
        if s is not None and t.peer(Waits).current().kind == Wait.COLOUR:
            t.submit(api.Decide(s.to_act, "colour", color=name, by=self._who(s.to_act)))
            self.declared += 1
            return
        raise Rejected("pad.chip_not_now")

    def _seat_chosen(self, chosen: SeatChosen) -> bool:
        """A seat's button while a tapped card waits for its target: that seat. Under
        jump_in, a seat not to act opens its jump-in window (the press is taken only
        where it would call or catch nothing)."""
        p = self.pending
        if p is None or not p.wants_seat() or p.step != self.ctx.step:
            return self._jump_button(chosen.seat)
        choices: dict[str, Any] = {"target": chosen.seat}
        if p.colour:
            choices["color"] = p.colour
        try:
            self._declare(p.seat, p.card, p.uid, choices)
        except Rejected as exc:  # (the card still waits: another seat's button may do)
            self._refuse(exc)
        return True

    def _jump_button(self, seat: int) -> bool:
        s = self.ctx.state
        if s is None or not s.options.jump_in or seat == s.to_act or not 0 <= seat < s.n:
            return False
        self.jumper = (seat, self.ctx.loop.now())
        self.ctx.publish({"kind": "pad_waits", "seat": seat, "wants": "jump",
                          "message": self.ctx.words("pad.jump", seat=self.ctx.words.seat(seat))})
        return s.exposed < 0 and s.counts[seat] != 2  # else the button calls or catches too

    def _tapper(self, to_act: int) -> int:
        """Who tapped: the seat whose jump-in window is open, else the seat to act."""
        jumper, self.jumper = self.jumper, None
        if jumper is not None and self.ctx.loop.now() - jumper[1] <= JUMP_WINDOW_S:
            return jumper[0]
        return to_act

    def _declare(self, seat: int, code: str, uid: str, choices: dict[str, Any]) -> None:
        self._tag = uid
        try:
            self.ctx.submit(api.Play(seat, code, choices, by=self._who(seat)))
        finally:
            self._tag = None
        self.pending = None
        self.declared += 1
        self.moment("journaled")

    @staticmethod
    def _who(seat: int) -> api.Who:
        return api.Who("seat", seat, via=VIA)

    # -- a refusal ----------------------------------------------------------------------
    def _refuse(self, exc: Rejected) -> None:
        t = self.ctx
        self.refusals += 1
        seats = t.peer(SeatButtons)
        seats.buzz(REFUSED_BUZZ)
        s = t.state
        seat = s.to_act if s is not None else -1
        if 0 <= seat < seats.buttons():
            seats.light(seat, "blink")
            t.loop.after(REFUSED_LIGHT_S, LightBack(seat, t.step))
        t.publish({"kind": "refused", "what": t.words("pad.refused"), **refusal_said(t, exc),
                   "seat": seat if seat >= 0 else None, "via": VIA})

    def _light_back(self, back: LightBack) -> None:
        if back.step == self.ctx.step:  # else the table showed the turn since
            self.ctx.peer(SeatButtons).light(back.seat, True)
