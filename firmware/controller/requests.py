"""Requests for the decisions a seat makes besides playing a card, and for the cards
the table turns face up. They reach `Table.submit` like every API request.

* `Decide(seat, decision, color, cards)`: ``pass`` (keep the drawn card, decline an
  extra play or the four-tower discard), ``accept`` (take the Wild Draw 4 without a
  challenge; pressing the launcher button does the same), ``guilty`` / ``innocent``
  (the challenger saw the hand), ``colour`` (the first card turned is a wild: `color`),
  ``four-towers`` (lay `cards`, all but one, holding the four towers).
* `Reveal(card, seat)`: a card turned face up: the first card of the discard pile
  (`seat` omitted), or at match start the card each seat turned to choose the dealer.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware.api.requests import Request

DECISIONS = ("pass", "accept", "guilty", "innocent", "colour", "four-towers")


@dataclass(frozen=True)
class Decide(Request):
    seat: int
    decision: str
    color: str = ""
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reveal(Request):
    card: str
    seat: int | None = None
