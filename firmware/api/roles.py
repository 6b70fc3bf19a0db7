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
process alike) and refuses with 403, the reason naming the role.
"""

from __future__ import annotations

from firmware.api import requests as api

OWNERS_ONLY = "owners_only"
FOR_ITSELF = "for_itself"
WATCHES = "watches"
WORDS: dict[str, dict[str, str]] = {
    "en": {
        FOR_ITSELF: "{who} may act only for {who}, not for {other}",
        OWNERS_ONLY: "{who} may not {what}: only the table's owner may",
        WATCHES: "a viewer only watches: it may not {what}",
    },
    "de": {
        FOR_ITSELF: "{who} darf nur für {who} handeln, nicht für {other}",
        OWNERS_ONLY: "{What} darf nur der Tisch selbst, nicht {who}",
        WATCHES: "{What} darf nicht, wer nur zuschaut",
    },
}
# what a request does, as the refusal says it ("seat 2 may not <this>")
WHAT: dict[str, dict[str, str]] = {
    "en": {
        "new-match": "start a new match", "pause": "pause the table",
        "resume": "resume the table", "override": "override what the table sees",
        "first-card": "turn the first card", "Play": "play a card",
        "CallUno": "call UNO", "Undo": "take a declaration back", "Catch": "catch a seat",
        "Challenge": "challenge", "Hands": "enter a hand", "Decide": "decide",
        "Reveal": "turn a card", "NextRound": "start the next round",
    },
    "de": {
        "new-match": "ein neues Spiel starten", "pause": "den Tisch anhalten",
        "resume": "den Tisch weiterlaufen lassen",
        "override": "übergehen, was der Tisch sieht",
        "first-card": "die erste Karte aufdecken", "Play": "eine Karte legen",
        "CallUno": "Uno rufen", "Undo": "eine Ansage zurücknehmen",
        "Catch": "jemanden erwischen", "Challenge": "herausfordern",
        "Hands": "eine Hand eingeben", "Decide": "entscheiden",
        "Reveal": "eine Karte aufdecken", "NextRound": "die nächste Runde starten",
    },
}


def _who(who: api.Who, lang: str) -> str:
    if who.role == "seat" and lang == "de":
        return f"Platz {who.seat}"
    return str(who)


def _what(request: api.Request, lang: str) -> str:
    words = WHAT.get(lang, WHAT["en"])
    if isinstance(request, api.Admin):
        return words.get(request.action, request.action)
    if isinstance(request, api.Reveal) and request.seat is None:
        return words["first-card"]
    name = type(request).__name__
    return words.get(name, name)


def _say(template: str, request: api.Request, lang: str, **values: str) -> str:
    what = _what(request, lang)
    return template.format(what=what, What=what[:1].upper() + what[1:], **values)


def refusal(who: api.Who, request: api.Request, lang: str = "en") -> str | None:
    """Why `who` may not make `request` (in `lang`, "en" or "de"); None: it may."""
    if who.role == "owner":
        return None
    words = WORDS.get(lang, WORDS["en"])
    if who.role != "seat":
        return _say(words[WATCHES], request, lang)
    if isinstance(request, api.NextRound):
        return None  # anyone at the table taps it
    if isinstance(request, api.Admin) or (isinstance(request, api.Reveal)
                                          and request.seat is None):
        return _say(words[OWNERS_ONLY], request, lang, who=_who(who, lang))
    seat = getattr(request, "seat", None)
    if not isinstance(seat, int):  # a request kind this table does not know
        return _say(words[OWNERS_ONLY], request, lang, who=_who(who, lang))
    if seat != who.seat:
        other = api.Who("seat", seat)
        return words[FOR_ITSELF].format(who=_who(who, lang), other=_who(other, lang))
    return None
