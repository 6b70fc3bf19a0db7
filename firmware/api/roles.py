"""Who may ask the table for what (issue 20): `refusal(who, request)`.

* the **owner** (the table's own screen, the `[api] token` holder; with no token
  configured, a program on loopback) may do everything;
* **seat N** (a phone holding seat N's device token, or a bot in seat N) declares for
  seat N only: its plays, UNO calls, undos, challenges, hands, decisions and the card
  it turned to choose the dealer; it catches any seat (the catch is its own); anyone
  at the table may tap "next round". The admin's requests and the first card of the
  discard pile (the table's screen turns it) are the owner's;
* a **viewer** only watches: it declares nothing.

The controller asks before anything changes, for every request (HTTP and the bots in
process alike) and refuses with 403. The reason names the role, a seat as every message
names it (`firmware.words.messages.seat_name`: "North", or "seat 3" for seat 2), from
the catalog's ``role.*`` keys.
"""

from __future__ import annotations

from firmware.api import requests as api
from firmware.words.messages import Words

ENGLISH = Words()


def _what(request: api.Request, words: Words) -> str:
    """What `request` asks, as the refusal says it ("seat 3 may not <this>")."""
    if isinstance(request, api.Admin):
        kind = request.action.replace("-", "_")
    elif isinstance(request, api.Reveal) and request.seat is None:
        kind = "first_card"
    else:  # Play -> play, CallUno -> call_uno, NextRound -> next_round
        name = type(request).__name__
        kind = "".join(f"_{c}" if c.isupper() and i else c for i, c in enumerate(name)).lower()
    try:
        return words(f"role.what.{kind}")
    except KeyError:  # a kind of request the catalog does not name
        return kind.replace("_", " ")


def refusal(who: api.Who, request: api.Request, words: Words = ENGLISH) -> str | None:
    """Why `who` may not make `request`, in `words` (the table's language and seat
    names); None: it may."""
    if who.role == "owner":
        return None
    if who.role != "seat" or who.seat is None:
        return words("role.watches", what=_what(request, words))
    if isinstance(request, api.NextRound):
        return None  # anyone at the table taps it
    me = words.seat(who.seat)
    seat = getattr(request, "seat", None)
    if isinstance(request, api.Admin) or not isinstance(seat, int):
        # the admin's, the first card of the pile, a request for no seat
        return words("role.owners_only", seat=me, what=_what(request, words))
    if seat != who.seat:
        return words("role.for_itself", seat=me, other=words.seat(seat))
    return None
