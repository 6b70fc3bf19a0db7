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
process alike) and refuses with 403: a `Rejected` keyed ``role.*``, its values the
sender's seat and what it asked, worded where it is said (a seat as every message names
it: "North", or "seat 3" for seat 2).
"""

from __future__ import annotations

from firmware.api import requests as api
from firmware.errors import Rejected
from firmware.words.messages import MESSAGES
from firmware.words.rejected import Phrase


def _what(request: api.Request) -> Phrase | str:
    """What `request` asks, as the refusal says it ("seat 3 may not <this>")."""
    if isinstance(request, api.Admin):
        kind = request.action.replace("-", "_")
    elif isinstance(request, api.Reveal) and request.seat is None:
        kind = "first_card"
    else:  # Play -> play, CallUno -> call_uno, NextRound -> next_round
        name = type(request).__name__
        kind = "".join(f"_{c}" if c.isupper() and i else c for i, c in enumerate(name)).lower()
    key = f"role.what.{kind}"
    return Phrase(key) if key in MESSAGES["en"] else kind.replace("_", " ")


def refusal(who: api.Who, request: api.Request) -> Rejected | None:
    """Why `who` may not make `request`: the refusal (403) to raise; None: it may."""
    if who.role == "owner":
        return None
    if who.role != "seat" or who.seat is None:
        return Rejected("role.watches", what=_what(request), status=403)
    if isinstance(request, api.NextRound):
        return None  # anyone at the table taps it
    seat = getattr(request, "seat", None)
    if isinstance(request, api.Admin) or not isinstance(seat, int):
        # the admin's, the first card of the pile, a request for no seat
        return Rejected("role.owners_only", seat=who.seat, what=_what(request), status=403)
    if seat != who.seat:
        return Rejected("role.for_itself", seat=who.seat, other=seat, status=403)
    return None
