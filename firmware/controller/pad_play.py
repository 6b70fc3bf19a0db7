"""A play the card pad is putting together (`firmware.controller.pad`): the card tapped,
then what it still waits for, one answer at a time, in this order:

- ``colour``: a wild's colour, a colour chip;
- ``seat``: the seat a card names, that seat's button;
- ``towers``: the towers a Take-2-Towers or a Wild Take-1-Tower takes, each tower
  tapped on the pad (not asked when the free towers are exactly as many as it takes);
- ``cards``: the other cards Discard All lays, each tapped, until the player's own
  seat button says that was all; the cards the four-tower discard lays down (every
  card but one, so the table knows when the last one came).

`request` is then the same `api.Play` (or four-tower `api.Decide`) the screen builds,
with every tag the pad read for it (journaled: a restart knows those copies lie on
the pile).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import uno_core as U
from firmware.api import requests as api
from firmware.controller.actions import colour
from uno_core.kinds import TARGETED
from uno_core.matching import free_towers, kind_rule, needs_target, tower_count

VIA = "pad"  # the way a tap's declaration came in, as the journal records it
FOUR_TOWERS = ""  # `Pending.card` of the four-tower discard: no card played, cards laid


@dataclass
class Pending:
    """What `seat` tapped at `step` (`card`, or FOUR_TOWERS) and the answers so far."""

    seat: int
    card: str
    step: int
    uids: list[str]  # the tags read for this play: the card's first, then the laid ones
    wild: bool = False
    targeted: bool = False
    towers_needed: int = 0
    free: tuple[str, ...] = ()  # the towers it may take
    lays: bool = False  # Discard All: cards until the seat's own button
    lay_count: int = -1  # the four-tower discard: exactly this many cards
    colour: str = ""  # the colour's name, as the API takes it
    target: int = -1
    towers: list[str] = field(default_factory=list)
    laid: list[str] = field(default_factory=list)
    done: bool = False  # Discard All: the seat's own button said that was all

    def wants(self) -> str:
        """The next answer it waits for: colour, seat, towers, cards; "" when complete."""
        if self.wild and not self.colour:
            return "colour"
        if self.targeted and self.target < 0:
            return "seat"
        if len(self.towers) < self.towers_needed:
            return "towers"
        if self.lay_count >= 0:
            return "cards" if len(self.laid) < self.lay_count else ""
        if self.lays and not self.done:
            return "cards"
        return ""

    def left(self) -> int | None:
        """How many towers or cards it still waits for; None when that is open (Discard
        All lays cards until its player's own button) or it waits for neither."""
        wants = self.wants()
        if wants == "towers":
            return self.towers_needed - len(self.towers)
        if wants == "cards" and self.lay_count >= 0:
            return self.lay_count - len(self.laid)
        return None

    def request(self) -> api.Request:
        """The declaration, as the screen would send it, by `seat` via the pad."""
        who = api.Who("seat", self.seat, via=VIA, tags=tuple(self.uids))
        if self.card == FOUR_TOWERS:
            return api.Decide(self.seat, "four-towers", cards=tuple(self.laid), by=who)
        choices: dict[str, Any] = {}
        if self.colour:
            choices["color"] = self.colour
        if self.target >= 0:
            choices["target"] = self.target
        if self.towers:
            choices["towers"] = list(self.towers)
        if self.laid:
            choices["cards"] = list(self.laid)
        return api.Play(self.seat, self.card, choices, by=who)

    def trial(self, s: U.State, laid: list[str]) -> U.Action:
        """The play with `laid` as its laid cards and, for a choice not made yet, one the
        engine takes (the current colour, the next seat, the first free towers): checked
        on a copy, it says whether the card itself, or one more card laid, may go."""
        return U.Play(self.seat, U.parse_card(self.card),
                      colour=colour(self.colour) or ((s.colour or "R") if self.wild else ""),
                      target=self.target if self.target >= 0 or not self.targeted
                      else (self.seat + 1) % s.n,
                      towers=tuple(self.towers or self.free[:self.towers_needed]),
                      laid=tuple(U.parse_card(c) for c in laid))


def card_play(s: U.State, seat: int, code: str, uid: str, step: int) -> Pending:
    """`seat` tapped `code`: the choices its card asks for (towers it must take when
    there is no choice are taken at once)."""
    card = U.parse_card(code)
    p = Pending(seat, code, step, [uid], wild=card.colour == "",
                targeted=card.kind in TARGETED or needs_target(s, card),
                lays=kind_rule(s, card).lays)
    want = tower_count(s, card)
    if want and s.edition.towers:
        free = tuple(free_towers(s, seat))
        p.towers_needed, p.free = min(want, len(free)), free
        if p.towers_needed == len(free):
            p.towers = list(free)
    return p


def four_tower_discard(s: U.State, seat: int, step: int) -> Pending:
    """`seat` holds the four towers and starts laying down every card but one."""
    return Pending(seat, FOUR_TOWERS, step, [], lay_count=max(s.counts[seat] - 1, 0))
