"""The table's own words turned into what MQTT carries, as pure functions: the state
document from ``GET /api/state``'s public state, the Home Assistant events from the
table's published events, and a round's and a match's results from the engine's
scores before and after the action that ended them.

Names: a result's scores map each player's name to a number, so two seats called
alike, or a seat without a name, are told apart by their seat number (``Anna (2)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from firmware.mqtt.results import MAX_NAME, Result, match_result, round_result
from firmware.mqtt.state import COLOURS, EDITIONS, event_document, state_document

# what the table waits for -> the phase Home Assistant shows (the rest: playing)
DEALING = frozenset({"shuffle", "dealer-cards", "reveal"})
FAULTS = frozenset({"jam", "extra-cards", "alarm", "journal", "cards-out"})


def player_names(names: Sequence[str]) -> list[str]:
    """Each seat's name as results and the state carry it: unique and never empty."""
    cleaned = [(name or "").strip()[:MAX_NAME - 6] or f"seat {i + 1}"
               for i, name in enumerate(names)]
    return [name if cleaned.count(name) == 1 else f"{name} ({i + 1})"
            for i, name in enumerate(cleaned)]


def edition_of(name: str) -> str:
    """An engine edition as Home Assistant's sensor knows it (attack-1999 is attack)."""
    return name if name in EDITIONS else name.split("-")[0] if name.split("-")[0] in EDITIONS \
        else "classic"


def _phase(public: Mapping[str, Any], wait: str | None) -> str:
    if public.get("match") is None or wait == "new-match":
        return "idle"
    if wait == "match-over" or public.get("phase") == "match_over":
        return "match_over"
    if public.get("paused") or wait == "paused":
        return "paused"
    if wait in FAULTS or wait == "reload":
        return "stopped"
    if wait == "round-over" or wait == "hand":
        return "round_over"
    if wait in DEALING:
        return "dealing"
    return "playing"


def state_from_public(public: Mapping[str, Any], names: Sequence[str],
                      readers_down: Sequence[str] = ()) -> dict[str, Any]:
    """The state document of `public` (the controller's public state), its seats called
    `names` (`player_names`); `readers_down`: the tray's readers that do not answer."""
    waiting = public.get("waiting") or {}
    wait = waiting.get("kind")
    seats = int(public.get("seats") or len(names))
    scores = list(public.get("scores") or [0] * seats)
    counts = list(public.get("hand_counts") or [0] * seats)
    to_act = public.get("to_act")
    towers = {t: names[o] if isinstance(o, int) and not isinstance(o, bool)
              and 0 <= o < len(names) else "neutral"
              for t, o in (public.get("towers") or {}).items()}
    colour = public.get("colour")
    fault = waiting.get("message") or wait if wait in FAULTS else None
    return state_document(
        edition=edition_of(str(public.get("edition") or "classic")),
        phase=_phase(public, wait),
        seats=[{"name": names[i], "score": scores[i] if i < len(scores) else 0,
                "cards": counts[i] if i < len(counts) else 0} for i in range(min(seats, len(names)))],
        turn=names[to_act] if isinstance(to_act, int) and 0 <= to_act < len(names) else None,
        top_card=public.get("top"), colour=colour if colour in COLOURS else None,
        round=int(public.get("round") or 0), towers=towers,
        ejected=int((public.get("stats") or {}).get("cards_ejected", 0)),
        hopper="empty" if wait == "reload" else "loaded" if public.get("match") else "unknown",
        fault=fault, readers_down=readers_down, match_running=public.get("match") is not None
        and _phase(public, wait) not in ("idle", "match_over"))


def events_from(event: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """The Home Assistant events one published event of the table makes (none for most)."""
    def seat(i: Any) -> str:
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else "table"

    kind = event.get("kind")
    if kind == "jam":
        return [event_document("jam", message=event.get("message", ""))]
    if kind != "action":
        return []
    out = []
    for e in event.get("effects") or ():
        name = e.get("type")
        if name == "card_played":
            out.append(event_document("card_played", seat=seat(e["seat"]), card=e["card"]))
        elif name == "uno_called":
            out.append(event_document("uno_called", seat=seat(e["seat"])))
        elif name == "uno_penalty":
            out.append(event_document("caught", seat=seat(e["seat"]), by=seat(e["catcher"])))
        elif name == "round_over":
            out.append(event_document("round_won", seat=seat(e["winner"])))
        elif name == "match_over":
            out.append(event_document("match_won", seats=[seat(w) for w in e["winners"]]))
    return out


def results_of(*, table: str, table_name: str, match: str, edition: str,
               names: Sequence[str], before: Sequence[int], after: Sequence[int],
               round_no: int, winner: int, match_winners: Sequence[int] | None,
               at: float) -> list[Result]:
    """The results an action that ended round `round_no` makes: the round's, and the
    match's when `match_winners` (it ended the match too). `before`/`after`: the
    match's scores around it; the round's points are what its winner gained."""
    scores = dict(zip(names, after, strict=True))
    common: dict[str, Any] = {"table": table, "table_name": table_name, "match": match,
                              "edition": edition, "scores": scores, "at": at}
    out = [round_result(round=round_no, winner=names[winner],
                        points=max(0, after[winner] - before[winner]), **common)]
    if match_winners is not None:
        best = match_winners[0] if match_winners else winner
        out.append(match_result(rounds=round_no, winner=names[best], **common))
    return out
