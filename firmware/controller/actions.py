"""What a request means to the engine: an API request (`firmware.api.requests`) or the
launcher button becomes one `uno_core` action, which the coordinator validates,
journals and adopts (`Controller.accept`).

Choosing the dealer takes one card from every seat: the cards come one `Reveal`
request at a time and are kept (journaled as ``dealer_card``) until the last one makes
the `DealerCards` action.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import uno_core as U
from firmware.api import requests as api
from firmware.api.roles import refusal
from firmware.controller.context import Adopted, Context, Part
from firmware.controller.declared import by_of, signed
from firmware.controller.ejections import Ejections
from firmware.controller.seats import SeatButtons, press_action
from firmware.controller.slots import effects_json
from firmware.controller.undo import Undo
from firmware.errors import Rejected
from uno_core.cards import COLOUR_NAMES

COLOUR_LETTERS = {name: letter for letter, name in COLOUR_NAMES.items()}
DEALER_CARD = "dealer_card"  # journal kind: a card turned to choose the dealer
__all__ = ["DEALER_CARD", "Jump", "Requests", "colour", "press_action"]


def colour(name: str) -> str:
    """The API names colours (red, ...); the engine uses letters (R, ...)."""
    return COLOUR_LETTERS.get(name, name)


class Jump(NamedTuple):
    """A jump-in the table took: the step after it, who, which card."""

    step: int
    seat: int
    card: U.Card


class Requests(Part):
    """Owns the cards turned so far to choose the dealer; turns every request but the
    admin's into an engine action (or a UNO call, an undo)."""

    name = "requests"

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.reset()
        ctx.subscribe(Adopted, lambda a: self.adopt(a.action), actions=(U.DealerCards,))
        ctx.journal_kind(DEALER_CARD, lambda e: self.replay_dealer_card(e.payload))
        ctx.answers(api.Request, self.submit)  # every request no other part answers

    def reset(self) -> None:
        self.dealer_cards: dict[int, U.Card] = {}
        self.jumped: Jump | None = None  # the last jump-in the table took; live only (a race)

    def get_status(self) -> dict[str, Any]:
        return {"dealer_cards": {str(seat): U.format_card(card)
                                 for seat, card in sorted(self.dealer_cards.items())}}

    def journaled(self) -> dict[str, Any]:
        return self.get_status()

    def adopt(self, action: U.Action) -> None:
        if isinstance(action, U.DealerCards):
            self.dealer_cards.clear()

    def turned_for_dealer(self) -> dict[int, U.Card]:
        """The cards turned so far to choose the dealer, by seat."""
        return dict(self.dealer_cards)

    def replay_dealer_card(self, payload: dict[str, Any]) -> None:
        self.dealer_cards[int(payload["seat"])] = U.parse_card(payload["card"])

    def submit(self, request: api.Request) -> dict[str, Any]:
        t = self.ctx
        if isinstance(request, api.Reveal):
            return self._reveal(request)
        self._check_seat(request)
        by = by_of(request)
        if isinstance(request, api.CallUno):
            return t.peer(SeatButtons).call_uno(request.seat, by=by)
        if isinstance(request, api.Undo):
            return t.peer(Undo).take_back(request.seat, by=by)
        s = t.gate()
        action: U.Action
        if isinstance(request, api.Play):
            action = play = self._play(s, request)
            self._first_jump(play)
        elif isinstance(request, api.Catch):
            action = U.Catch(request.seat, request.target)
        elif isinstance(request, api.Challenge):
            action = U.Challenge(request.seat)
        elif isinstance(request, api.Hands):
            action = U.EnterHand(request.seat, tuple(U.parse_card(c) for c in request.cards))
        elif isinstance(request, api.Decide):
            action = self._decision(request)
        else:
            raise Rejected("refused.unknown_request", request=type(request).__name__, status=404)
        to_act = s.to_act  # read now: accepting may change `s` itself (apply works in place)
        fx = t.accept(action, by=by)
        if isinstance(action, U.Play) and action.seat != to_act:
            self.jumped = Jump(t.step, action.seat, action.card)
        return {"accepted": U.action_to_dict(action),
                "effects": effects_json(fx), "step": t.step}

    def _first_jump(self, play: U.Play) -> None:
        """jump_in: the first declaration the table receives wins. The same card declared
        by another seat right after a jump-in with it (nothing happened between) answered
        the same moment: every card exists twice at most, so both are on the pile and the
        late one is still in that hand. Refused, even if it is now that seat's turn."""
        j = self.jumped
        if j is not None and j.step == self.ctx.step and j.card == play.card \
                and j.seat != play.seat:
            raise Rejected("refused.jump_in_late", seat=play.seat, first=j.seat, status=409)

    def _check_seat(self, request: Any) -> None:
        s = self.ctx.state
        n = s.n if s is not None else self.ctx.config.table.seats
        for name in ("seat", "target"):
            value = getattr(request, name, None)
            if isinstance(value, int) and not 0 <= value < n:
                raise Rejected("refused.no_seat", value=value + 1,  # as the screen counts
                               last=n, field=name, status=404)

    def _play(self, s: U.State, r: api.Play) -> U.Play:
        ch = dict(r.choices)
        laid = tuple(U.parse_card(c) for c in ch.get("cards", ()))
        left = s.counts[r.seat] - 1 - len(laid)
        return U.Play(r.seat, U.parse_card(r.card), colour=colour(ch.get("color", "")),
                      target=ch.get("target", -1), towers=tuple(ch.get("towers", ())),
                      laid=laid, uno=left == 1 and self.ctx.peer(SeatButtons).is_armed(r.seat))

    def _decision(self, r: api.Decide) -> U.Action:
        seat = r.seat
        if r.decision == "pass":
            return U.Pass(seat)
        if r.decision == "accept":
            return U.Accept(seat)
        if r.decision in ("guilty", "innocent"):
            return U.Verdict(seat, r.decision == "guilty")
        if r.decision == "colour":
            return U.ChooseColour(seat, colour(r.color))
        if r.decision == "four-towers":
            laid = tuple(U.parse_card(c) for c in r.cards)
            return U.FourTowerDiscard(seat, laid, uno=self.ctx.peer(SeatButtons).is_armed(seat))
        raise Rejected("refused.decision", decision=repr(r.decision),
                       decisions=", ".join(api.DECISIONS), field="decision", status=400)

    def _reveal(self, r: api.Reveal) -> dict[str, Any]:
        t = self.ctx
        s = t.gate(chance_ok=True)
        card = U.parse_card(r.card)
        by = by_of(r)
        if s.to_act == U.CHANCE and s.chance == "dealer_cards":
            if r.seat is None or not 0 <= r.seat < s.n:
                raise Rejected("refused.dealer_seat", field="seat", status=422)
            turned = {**self.dealer_cards, r.seat: card}
            missing = [i for i in range(s.n) if i not in turned]
            if missing:
                t.journal.append(DEALER_CARD, signed({"seat": r.seat,
                                                      "card": U.format_card(card)}, by))
                self.dealer_cards[r.seat] = card
                return {"missing": missing, "step": t.step}
            fx = t.accept(U.DealerCards(tuple(turned[i] for i in range(s.n))), by=by)
            return {"effects": effects_json(fx), "step": t.step}
        if s.to_act == U.CHANCE and s.chance == "reveal" and t.peer(Ejections).first_turned():
            # the first card of the pile is the table's (its screen), whatever seat is named
            refused = refusal(r.by, api.Reveal(r.card))
            if refused is not None:
                raise refused
            fx = t.accept(U.Reveal(card), by=by)
            return {"effects": effects_json(fx), "step": t.step}
        raise Rejected("refused.no_reveal")
