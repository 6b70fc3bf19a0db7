"""What the table says after each event: pure functions from a published event to text.

The controller publishes ``{"kind": "action", "action": {...}, "effects": [...]}`` for
every action it accepted (`uno_core.action_to_dict` / `effect_to_dict`, the same JSON
the screen gets). `announcements` turns one such event into the sentences the voice
speaks, in the table's language, naming every seat by its name. It knows nothing of
the controller: whose turn it is comes in as `turn` (`turn_of(state)`), so the hook is::

    ctl.listeners.append(lambda e: voice.say_all(announcements(
        e, lang, ctl.names, edition=ctl.state.edition.name, turn=turn_of(ctl.state))))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import uno_core as U
from firmware.words.messages import (
    MESSAGES,
    PERSON,
    Words,
    card_name,
    colour_name,
    kind_noun,
    tower_name,
)
from hal.tray import NEUTRAL
from uno_core.effects import EVERYONE_ONCE, UNTIL_CARDS

# a seat's own press on its turn: what the launcher gives is said, not the press it owes
OWN_PRESSES = ("draw", "press")
# effects the voice leaves to the screen: the physical steps they stand for are shown there
SILENT = frozenset({"cards_laid", "reshuffled", "card_returned", "prompt"})


def turn_of(state: U.State | None) -> int | None:
    """The seat whose turn it is to play, or None (nobody, or something is owed first)."""
    if state is None or state.over or state.phase != "play" or state.queue:
        return None
    return state.to_act if state.to_act >= 0 else None


class _Say(Words):
    """The context of one event: language, seat names, edition."""

    def __init__(self, lang: str, names: Sequence[str], edition: str | None) -> None:
        super().__init__(lang, names)
        self.edition = edition

    def seat(self, seat: int) -> str:
        """A seat's name, but the demo's person by the seat's number: "Du ist dran" and
        "You plays" are what a pronoun makes of a sentence written for a name."""
        if 0 <= seat < len(self.names) and self.names[seat] == PERSON:
            return self("voice.person", number=seat + 1)
        return super().seat(seat)

    def seats(self, seats: Sequence[int]) -> str:
        named = [self.seat(s) for s in seats]
        if len(named) < 2:
            return "".join(named)
        return self("and", first=", ".join(named[:-1]), second=named[-1])

    def card(self, notation: str) -> str:
        return card_name(U.parse_card(notation), self.lang, self.edition)

    def count(self, key: str, count: int, **values: object) -> str:
        """`key`.none / .one / .many by `count` (.none only where the catalog has it)."""
        if count == 0 and f"{key}.none" in MESSAGES[self.lang]:
            return self(f"{key}.none", **values)
        return self(f"{key}.one" if count == 1 else f"{key}.many", count=count, **values)



# what the card pad says aloud: it waits for a chip or a seat, its reader went down or up
PAD_NOTICES = ("pad", "pad_waits")


def announcements(event: Mapping[str, Any], lang: str, seat_names: Sequence[str], *,
                  edition: str | None = None, scoring: str = "winner_takes",
                  turn: int | None = None) -> list[str]:
    """The sentences to speak for one published event (empty for events not spoken).

    `turn`: the seat whose turn it is after the event (`turn_of`); `scoring`: the
    match's ``scoring`` option (how a round's points are told)."""
    if event.get("via") == "pad" or event.get("kind") in PAD_NOTICES:
        # the card pad's notices come worded in the table's language already
        return [str(event.get("message") or event.get("reason"))]
    if event.get("kind") != "action":
        return []
    say = _Say(lang, seat_names, edition)
    action = event.get("action") or {}
    effects: list[Mapping[str, Any]] = list(event.get("effects") or [])
    out: list[str] = []
    dispenses = [e for e in effects if e["type"] == "dispense"]
    dealt = len(dispenses) == len(seat_names) > 1 and len({e["count"] for e in dispenses}) == 1
    if dealt:
        out.append(say("deal", count=dispenses[0]["count"]))
    everyone = False
    for e in effects:
        kind = e["type"]
        own = action.get("type") in OWN_PRESSES and e.get("seat") == action.get("seat")
        if kind == "dispense" and dealt:
            continue
        if kind == "owe_presses":
            if own and e["mode"] != EVERYONE_ONCE:
                continue
            if e["mode"] == EVERYONE_ONCE:
                if not everyone:
                    out.append(say("press.everyone"))
                everyone = True
                continue
        line = _SPOKEN.get(kind)
        if line is not None:
            said = line(say, e, scoring)
            if said:
                out.append(said)
    if turn is not None and action.get("type") != "call_uno":
        out.append(say("turn", seat=say.seat(turn)))
    return out


Line = Callable[[_Say, Mapping[str, Any], str], str]


def _presses(say: _Say, e: Mapping[str, Any], _scoring: str) -> str:
    seat = say.seat(e["seat"])
    if e["mode"] == UNTIL_CARDS:
        return say("press.until", seat=seat)
    return say.count("press", e["count"], seat=seat)


def _tower(say: _Say, e: Mapping[str, Any], _scoring: str) -> str:
    tower = tower_name(e["tower"], say.lang)
    if e["seat"] == NEUTRAL:
        return say("tower.to_neutral", tower=tower)
    return say("tower.to_seat", tower=tower, seat=say.seat(e["seat"]))


def _protected(say: _Say, e: Mapping[str, Any], _scoring: str) -> str:
    kind = U.parse_card(e["card"]).kind  # "protects from Draw 2", whatever its colour
    return say("protected", tower=tower_name(e["tower"], say.lang), seat=say.seat(e["seat"]),
               card=kind_noun(kind, say.lang, say.edition))


def _penalty(say: _Say, e: Mapping[str, Any], _scoring: str) -> str:
    if e["catcher"] < 0:
        return say("uno.forgot", seat=say.seat(e["seat"]))
    return say("uno.caught", catcher=say.seat(e["catcher"]), seat=say.seat(e["seat"]))


def _challenge(say: _Say, e: Mapping[str, Any], _scoring: str) -> str:
    key = "challenge.guilty" if e["guilty"] else "challenge.innocent"
    return say(key, player=say.seat(e["player"]), challenger=say.seat(e["challenger"]))


def _round(say: _Say, e: Mapping[str, Any], scoring: str) -> str:
    winner = e["winner"]
    key = "round.running_low" if scoring == "running_low" else "round.winner_takes"
    return say(key, seat=say.seat(winner), points=sum(e["points"]), total=e["scores"][winner])


def _match(say: _Say, e: Mapping[str, Any], _scoring: str) -> str:
    winners = list(e["winners"])
    key = "match.one" if len(winners) == 1 else "match.many"
    return say(key, seats=say.seats(winners), score=e["scores"][winners[0]] if winners else 0)


_SPOKEN: dict[str, Line] = {
    "card_played": lambda say, e, _s: say("card_played", seat=say.seat(e["seat"]),
                                          card=say.card(e["card"])),
    "colour_chosen": lambda say, e, _s: say("colour_chosen", seat=say.seat(e["seat"]),
                                            colour=colour_name(e["colour"], say.lang)),
    "first_card": lambda say, e, _s: say("first_card", card=say.card(e["card"])),
    "dealer_chosen": lambda say, e, _s: say("dealer", seat=say.seat(e["seat"])),
    "dispense": lambda say, e, _s: say.count("draw", e["count"], seat=say.seat(e["seat"])),
    "owe_presses": _presses,
    "ejected": lambda say, e, _s: say.count("ejected", e["count"], seat=say.seat(e["seat"])),
    "player_skipped": lambda say, e, _s: say("skipped", seat=say.seat(e["seat"])),
    "direction_changed": lambda say, e, _s: say("direction"),
    "protection_used": _protected,
    "tower_moved": _tower,
    "uno_called": lambda say, e, _s: say("uno.called", seat=say.seat(e["seat"])),
    "uno_penalty": _penalty,
    "challenge_resolved": _challenge,
    "hands_traded": lambda say, e, _s: say("hands_traded", seat=say.seat(e["seat"]),
                                           other=say.seat(e["other"])),
    "hands_passed": lambda say, _e, _s: say("hands_passed"),
    "round_over": _round,
    "match_over": _match,
}
