"""The card pad (`hal.pad.Pad`, built with a ``[pad]`` section only): a card tapped on it
is the seat to act's play, declared as the screen and the phones declare it.

A tap becomes the same `api.Play` that ``POST /api/play`` builds, sent by the seat to
act through `Context.submit` (its role checked, journaled with ``"by": {"role":
"seat", "seat", "via": "pad", "tags"}``), so it passes the same gate, engine check,
journal and effects. A card that asks for more waits for it (`pad_play.Pending`): a
wild for a colour chip, a card that names a seat for that seat's button, a card that
takes towers for the towers tapped, Discard All for the other cards it lays until its
player's own button; holding the four towers, the cards laid down are tapped one by
one. The screen and the phone may still declare the play themselves; a chip answers the
first card's colour too.

The pad refuses, changing nothing, with the buzzer's error pattern, the seat's light
blinking a moment and the reason published as a ``refused`` event (the screen's last
notice): two tags at once (except cards a play lays), a tag it does not know, a chip
or a tower nobody asked for, a card whose tag lies on the pile since the last
reshuffle (rebuilt from the journal's tags after a restart), a card while the table
waits for something else. The pad cannot know who tapped: a tap is the seat to act's,
unless under ``jump_in`` a seat not to act pressed its own button within
`JUMP_WINDOW_S` before: then the tap is that seat's jump-in.

The pad polls fast while the table awaits a card or a chip, idle otherwise (set after
each settle). A reader that goes down is said once; play goes on by screen and phones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

import uno_core as U
from firmware.api import requests as api
from firmware.controller.context import (
    Adopted,
    Context,
    Part,
    Replayed,
    RoundEnded,
    SeatChosen,
    Settles,
)
from firmware.controller.declared import BY
from firmware.controller.events import PadChanged
from firmware.controller.pad_play import VIA, Pending, card_play, four_tower_discard
from firmware.controller.seats import SeatButtons, refusal_said, refused_by_rules
from firmware.controller.waiting import Waits
from firmware.errors import Rejected
from firmware.waits import Wait
from hal.pad import Pad as PadReader
from hal.pad import PadDown, PadUp, Tap
from hal.tray import Tray
from uno_core import effects as E
from uno_core.cards import COLOUR_NAMES

CARD_WAITS = frozenset({Wait.TURN, Wait.PLAY_DRAWN, Wait.EXTRA_PLAY})  # a card is awaited
REFUSED_BUZZ = "error"  # the buzzer's refusal pattern
REFUSED_LIGHT_S = 1.5  # how long the seat's light blinks after a refusal
JUMP_WINDOW_S = 3.0  # jump_in: a tap this soon after a seat's own button is that seat's
LAID = (U.Play, U.FourTowerDiscard)  # the actions that lay cards on the pile


class Jumper(NamedTuple):
    """jump_in: `seat` pressed its own button at loop time `at` and `step`; `only`: the
    press did nothing else (it armed a UNO call, else)."""

    seat: int
    at: float
    step: int
    only: bool


class LightBack(NamedTuple):
    """Posted after a refusal: the seat's light shows the turn again, if nothing moved."""

    seat: int
    step: int


class Pad(Part):
    """Owns the tags on the pile since the last reshuffle and the play being tapped."""

    name = "pad"

    def __init__(self, ctx: Context, reader: PadReader, tray: Tray | None = None) -> None:
        self.ctx = ctx
        self.reader = reader
        self.down: str | None = None  # why the reader is down, while it is
        self.refusals = 0
        self.declared = 0
        # told "tap" just before a tapped play's commit and "journaled" right after it:
        # the demo's kill hook (firmware.sim.kill_hook)
        self.moment: Callable[[str], None] = lambda _name: None
        # a PN532 tray's towers carry tags the pad reads too (an RDM6300's it never sees)
        self.towers = {uid: tower for tower, uid in tray.config.towers.items()} \
            if tray is not None else {}
        self.reset()
        ctx.on(PadChanged, self._on_pad)
        ctx.on(LightBack, self._light_back)
        ctx.subscribe(Settles, lambda _e: self._pace())
        ctx.subscribe(Adopted, self._adopted)
        ctx.subscribe(RoundEnded, lambda _e: self._pile_emptied())
        ctx.subscribe(Replayed, lambda _e: self._recall())
        ctx.subscribe(SeatChosen, self._seat_chosen)

    def reset(self) -> None:
        self.on_pile: dict[str, int] = {}  # tag UID -> the journal entry of its play
        self.replayed: list[int] = []  # the entries replayed that laid cards since then
        self.pending: Pending | None = None
        self.jumper: Jumper | None = None

    # -- status -----------------------------------------------------------------------
    def get_status(self) -> dict[str, Any]:
        """The reader's status and the part's; its counts are live only (not in the
        table's stats, which a restart rebuilds from the journal)."""
        p = self.pending
        wants = p.wants() if p is not None else ""
        return {**self.reader.get_status(), "down": self.down,
                "awaiting_chip": p.card if p is not None and wants == "colour" else None,
                "awaiting_seat": p.card if p is not None and wants == "seat" else None,
                "waits": None if p is None else {"seat": p.seat, "card": p.card, "wants": wants,
                                                  "towers": list(p.towers), "laid": list(p.laid)},
                "declared": self.declared, "refused": self.refusals}

    def journaled(self) -> dict[str, Any]:
        return {"on_pile": sorted(self.on_pile)}

    # -- the tags on the pile -------------------------------------------------------------
    def _adopted(self, adopted: Adopted) -> None:
        if adopted.live:  # a play's choices answer the moment it was tapped in, no later
            self.pending = None
        if any(isinstance(e, E.Reshuffled) for e in adopted.effects):
            self._pile_emptied()
        if not adopted.live and adopted.seq is not None and isinstance(adopted.action, LAID):
            self.replayed.append(adopted.seq)

    def _pile_emptied(self) -> None:
        self.on_pile.clear()
        self.replayed.clear()

    def _recall(self) -> None:
        """The match was rebuilt from the journal (a restart, an undo): the tags its
        standing plays since the last reshuffle carry lie on the pile."""
        t = self.ctx
        wanted = set(self.replayed)
        self.replayed = []
        if not wanted or t.match is None:
            return
        for entry in t.journal.entries(match_id=t.match.id, after=min(wanted) - 1):
            by = entry.payload.get(BY) if entry.seq in wanted else None
            if isinstance(by, dict) and by.get("via") == VIA:
                self.on_pile.update(dict.fromkeys(by.get("tags") or (), entry.seq))

    # -- the pace -------------------------------------------------------------------------
    def awaits_card(self) -> bool:
        """Whether the table awaits a card (or a chip, a tower) the pad can answer."""
        if self.pending is not None:
            return self.pending.wants() in ("colour", "towers", "cards")
        kind = self.ctx.peer(Waits).current().kind
        return kind in CARD_WAITS or kind in (Wait.COLOUR, Wait.FOUR_TOWERS)

    def _pace(self) -> None:
        self.reader.set_pace(self.awaits_card())

    def public(self, state: U.State | None) -> dict[str, Any]:
        """``pad`` in the public state: whether the reader answers, and what the pad waits
        for (``wants``: a ``card``, a ``colour`` chip, a ``seat``'s button, ``towers``,
        ``cards`` a play lays, ``left`` of them when that is known) from `seat`."""
        shown: dict[str, Any] = {"ok": self.down is None, "wants": None, "seat": None,
                                 "card": None, "left": None}
        if self.down is not None or state is None:  # a pad that fails waits for nothing
            return {"pad": shown}
        p = self._live_pending()
        kind = self.ctx.peer(Waits).current().kind
        if p is not None and p.wants():
            shown.update(wants=p.wants(), seat=p.seat, card=p.card or None, left=p.left())
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

    def _live_pending(self) -> Pending | None:
        p = self.pending
        return p if p is not None and p.step == self.ctx.step else None

    def _tapped(self, tap: Tap) -> None:
        p = self._live_pending()
        several = p is not None and p.wants() in ("towers", "cards")  # the rules lay several
        if len(tap.on_pad) > 1 and not several:
            raise Rejected("pad.two_tags", count=len(tap.on_pad))
        for uid in tap.uids:  # each in turn: a refusal keeps those before it
            self._one_tag(uid)

    def _one_tag(self, uid: str) -> None:
        t = self.ctx
        cfg = self.reader.config
        chip, code, tower = cfg.colour_of(uid), cfg.card_of(uid), self.towers.get(uid)
        if chip is not None:
            self._chip(chip)
            return
        if tower is not None:
            self._tower(tower)
            return
        if code is None:
            raise Rejected("pad.unknown", uid=uid)
        p = self._live_pending()
        if uid in self.on_pile:
            raise Rejected("pad.on_pile")
        if p is not None and p.wants() == "cards" and uid not in p.uids[:1]:
            if uid in p.uids:
                raise Rejected("pad.on_pile")
            self._lay(p, uid, code)
            return
        # (else a card played anew, its own card tapped again included: it starts anew)
        s = t.gate()
        kind = t.peer(Waits).current().kind
        if kind == Wait.FOUR_TOWERS:
            self.pending = four_tower_discard(s, s.to_act, t.step)
            try:
                self._lay(self.pending, uid, code)
            except Rejected:  # its first card refused: no discard begun
                self.pending = None
                raise
            return
        if kind not in CARD_WAITS:
            if kind in (Wait.PRESS, Wait.CHALLENGE, Wait.VERDICT, Wait.COLOUR):
                raise Rejected("pad.turn", seat=s.to_act)
            raise Rejected("pad.not_a_card_now", message=t.peer(Waits).current())
        pending = card_play(s, self._tapper(s, code), code, uid, t.step)
        self._check(pending, pending.trial(s, []))  # a card that cannot go is refused at once
        self.pending = pending
        self._advance()

    def _check(self, p: Pending, action: U.Action) -> None:
        """Raise Rejected with the engine's reason if it would refuse `action` now."""
        t = self.ctx
        s = t.state
        assert s is not None
        try:
            U.apply(s.clone(), action)
        except U.IllegalAction as exc:
            raise refused_by_rules(exc, 422) from None

    def _lay(self, p: Pending, uid: str, code: str) -> None:
        """One more card laid with the play: checked as the engine checks it."""
        s = self.ctx.state
        assert s is not None
        if p.lay_count < 0:  # Discard All: the play with it laid too
            self._check(p, p.trial(s, [*p.laid, code]))
        else:  # the four-tower discard: a card still unseen (its count is checked at the end)
            card = U.parse_card(code)
            if Counter([*p.laid, code])[code] > s.unseen.get(card, 0):
                exc = U.IllegalAction(U.FourTowerDiscard(p.seat, (card,)),
                                      "four_towers_public", card=card)
                raise refused_by_rules(exc, 422)
        p.laid.append(code)
        p.uids.append(uid)
        self._then(lambda: (p.laid.pop(), p.uids.pop()))

    def _advance(self) -> None:
        """Declare the play once it has every answer, else say what it waits for."""
        p = self.pending
        assert p is not None
        wants = p.wants()
        if not wants:
            self._declare(p)
        elif wants != "cards" or len(p.laid) == (1 if p.lay_count >= 0 else 0):
            self._ask(p, wants)
        else:  # one more card laid: shown, not said (the first sentence said it all)
            words = self.ctx.words
            self.ctx.publish({"kind": "pad_read", "seat": p.seat, "card": p.card,
                              "wants": wants, "laid": list(p.laid),
                              "message": words("pad.read", seat=words.seat(p.seat),
                                               count=len(p.laid))})

    def _ask(self, p: Pending, wants: str) -> None:
        """Say what the play waits for."""
        t = self.ctx
        words = t.words
        card = words.card(U.parse_card(p.card), t.state.edition.name if t.state else None) \
            if p.card else ""
        values: dict[str, Any] = {"seat": words.seat(p.seat), "card": card}
        if wants == "towers":
            values.update(count=p.towers_needed - len(p.towers), towers=self._towers_left(p))
        elif wants == "cards" and p.lay_count >= 0:
            values.update(count=p.lay_count - len(p.laid))
        elif wants == "cards":
            values.update(colour=words.colour(U.parse_card(p.card).colour))
        key = "pad.four_towers" if wants == "cards" and p.lay_count >= 0 else f"pad.{wants}"
        t.publish({"kind": "pad_waits", "seat": p.seat, "card": p.card, "wants": wants,
                   "message": words(key, **values)})

    def _chip(self, colour: str) -> None:
        t = self.ctx
        p = self._live_pending()
        name = COLOUR_NAMES[colour]
        if p is not None and p.wants() == "colour":
            p.colour = name
            self._then(lambda: setattr(p, "colour", ""))
            return
        s = t.state
        if p is None and s is not None and t.peer(Waits).current().kind == Wait.COLOUR:
            t.submit(api.Decide(s.to_act, "colour", color=name,
                                by=api.Who("seat", s.to_act, via=VIA)))
            self.declared += 1
            return
        raise Rejected("pad.chip_not_now")

    def _tower(self, tower: str) -> None:
        p = self._live_pending()
        if p is None or p.wants() != "towers":
            raise Rejected("pad.tower_not_now")
        if tower not in p.free or tower in p.towers:
            raise Rejected("pad.tower_not_free", tower=tower,
                           towers=tuple(x for x in p.free if x not in p.towers))
        p.towers.append(tower)
        self._then(p.towers.pop)

    def _towers_left(self, p: Pending) -> str:
        words = self.ctx.words
        return ", ".join(words.tower(x) for x in p.free if x not in p.towers)

    def _seat_chosen(self, chosen: SeatChosen) -> bool:
        """A seat's button while a tapped card waits for its target: that seat; the
        player's own button while Discard All collects its cards: that was all. Under
        jump_in, a seat not to act opens its jump-in window, unless the press calls UNO
        or catches (it is taken only where it would arm, call or catch nothing)."""
        p = self._live_pending()
        wants = p.wants() if p is not None else ""
        if p is not None and wants == "seat":
            p.target = chosen.seat
            self._pressed(lambda: setattr(p, "target", -1))
            return True
        if p is not None and wants == "cards" and p.lay_count < 0 and chosen.seat == p.seat:
            p.done = True
            self._pressed(lambda: setattr(p, "done", False))
            return True
        if p is not None and wants:
            return False  # the button does what it does without the pad
        return self._jump_button(chosen.seat)

    def _then(self, take_back: Callable[[], Any]) -> None:
        """An answer came: declare the play if complete, else say what it waits for;
        refused, the answer is taken back (the play still waits for it)."""
        try:
            self._advance()
        except Rejected:
            take_back()
            raise

    def _pressed(self, take_back: Callable[[], Any]) -> None:
        """A button answered the play (its press is taken either way: a refusal is said)."""
        try:
            self._then(take_back)
        except Rejected as exc:
            self._refuse(exc)

    def _jump_button(self, seat: int) -> bool:
        s = self.ctx.state
        if s is None or not s.options.jump_in or seat == s.to_act or not 0 <= seat < s.n:
            return False
        if s.exposed >= 0:  # the button calls UNO or catches: that is all it does
            return False
        only = s.counts[seat] != 2  # else the button arms its UNO call too
        self.jumper = Jumper(seat, self.ctx.loop.now(), self.ctx.step, only)
        self.ctx.publish({"kind": "pad_waits", "seat": seat, "wants": "jump",
                          "message": self.ctx.words("pad.jump", seat=self.ctx.words.seat(seat))})
        return only

    def _tapper(self, s: U.State, code: str) -> int:
        """Who tapped: the seat whose jump-in window is open (nothing happened since its
        button), else the seat to act. A press that also armed a UNO call opens the
        window for the top card's twin only: any other card is the seat to act's."""
        jumper, self.jumper = self.jumper, None
        if jumper is None or self.ctx.loop.now() - jumper.at > JUMP_WINDOW_S \
                or jumper.step != self.ctx.step:
            return s.to_act
        if jumper.only or U.parse_card(code) == s.discard[-1]:
            return jumper.seat
        return s.to_act

    def _declare(self, p: Pending) -> None:
        t = self.ctx
        self.moment("tap")
        t.submit(p.request())
        self.pending = None
        self.on_pile.update(dict.fromkeys(p.uids, t.journal.last_seq))
        self.declared += 1
        self.moment("journaled")

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

