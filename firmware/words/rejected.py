"""The daemon's refusals (`firmware.errors.Rejected`) as data, worded once where they are
said: a refusal is a catalogue key and its values (seats numbered from 0, cards as
`Card`, a wait as the table keeps it, a `Phrase` for a part worded on its own), like the
engine's (`firmware.words.refusals`). The API answers with the words in the language
the request asked for and sends the key and the values beside them; the screen and the
voice say it in the table's language; a log line says it in English.

`REJECTED_WORDS` words the daemon's own refusals that `firmware.words.messages` does
not (merged into `MESSAGES`); tests/firmware/test_refusal_words.py checks that every key
a `Rejected` is raised with is worded in both languages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from firmware.words.refusals import Wording, derived_values, say_value
from uno_core.cards import Card, format_card


class Keyed(Protocol):
    """A refusal: `Rejected`, or a `Phrase` inside one."""

    @property
    def key(self) -> str: ...

    @property
    def values(self) -> Mapping[str, object]: ...


@dataclass(frozen=True)
class Phrase:
    """A catalogue key and its values, worded where it is said (a part of a refusal)."""

    key: str
    values: Mapping[str, object] = field(default_factory=dict)


# values that are seats (0-based), said by name; a tower's slot is one when it is an int
_SEATS = ("seat", "to_act", "first", "other", "slot", "person")


def _said(name: str, value: object, words: Wording, edition: str | None) -> object:
    if isinstance(value, Phrase):
        return say(value, words, edition)
    if isinstance(value, Card):
        return words.card(value, edition)
    if name in _SEATS and isinstance(value, int) and value >= 0:
        return words.seat(value)
    if name == "cause" and isinstance(value, str):  # why the journal cannot be written
        return words(f"journal.cause.{value}")
    to_json = getattr(value, "to_json", None)
    if callable(to_json):  # a wait (`firmware.controller.stops`): its message
        return to_json(words)["message"]
    said = say_value(name, value, words, edition)
    if isinstance(said, tuple):  # names as given (an option's choices): joined by commas
        return ", ".join(str(v) for v in said)
    return said


def say(refusal: Keyed, words: Wording, edition: str | None = None) -> str:
    """`refusal` in `words`' language and seat names, cards by `edition`'s names."""
    values = refusal.values
    said = {name: _said(name, v, words, edition) for name, v in values.items()}
    said.update(derived_values(refusal.key, values, words, edition))
    return words(refusal.key, **said)


def json_value(value: object, words: Wording) -> Any:
    """A refusal's value as the API sends it: cards as their codes ("R7"), a wait as the
    state's ``waiting`` shows it, a `Phrase` as its key and values."""
    if isinstance(value, Phrase):
        return {"key": value.key, "values": json_values(value.values, words)}
    if isinstance(value, Card):
        return format_card(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [json_value(v, words) for v in value]
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json(words)
    return value


def json_values(values: Mapping[str, object], words: Wording) -> dict[str, Any]:
    return {name: json_value(v, words) for name, v in values.items()}


REJECTED_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "refused.no_claim": "no phone with the code {code} is waiting for {seat}",
        "refused.viewer": "a viewer only watches: it may not {method} {path}",
        "refused.nothing_to_call_at_play": "{seat} has {count} cards: nothing to call (UNO "
                                           "is called before the second-to-last card: press "
                                           "while holding two cards; a forgotten call is "
                                           "drawn at once, nobody catches)",
        "refused.key": "Idempotency-Key must be at most {most} printable ASCII characters, "
                       "not {given}",
        "refused.unknown_request": "unknown request {request}",
        "refused.journal": "the table waits: cannot write the journal {path}: {cause} (the "
                           "table is paused and goes on by itself once it can write again)",
        "refused.files_full": "cannot write the table's files: the disk is full: free some "
                              "space, then ask again",
        "journal.cause.disk-full": "the disk is full",
        "journal.cause.read-only": "the file or its directory is read-only",
        "journal.cause.io": "an I/O error",
        "journal.cause.lost": "the file was deleted or replaced",
        "refused.option": "option {option}: {problem}",
        "refused.setup": "this match cannot be set up: {problem}",
        "refused.edition": "there is no edition {edition}: one of {known}",
        "refused.seat_count": "{edition} is for {low} to {high} players, not {count}",
        "demo.person_seats": "you play seat {number}: choose {number} seats or more",
        "sim.one_deck": "the simulated table holds a {edition} deck for {seats} seats, not "
                        "{asked} for {asked_seats}: set [table] edition and seats in the "
                        "config and restart to simulate that",
        "sim.pad_waits": "the card pad still waits: {message}",
        "claim.crowded": "too many phones asked for {seat} at once; this one waited longest: "
                         "scan the code on the table's screen again",
        "claim.revoked": "{seat} was revoked or given to another phone before this one "
                         "fetched it",
        "claim.invitation_gone": "the invitation for {seat} was revoked or replaced: scan the "
                                 "code on the table's screen again",
        "claim.taken": "the table's owner let another phone take {seat}",
        "claim.refused": "the table's owner refused this phone for {seat}",
        "claim.seat_revoked": "the table's owner revoked {seat}'s phones",
        "claim.bad_join": "this invitation is not valid for {seat} (it was revoked or "
                          "replaced): scan the code on the table's screen again",
        "claim.unknown": "no such claim for {seat} (it expired or was answered): scan the code "
                         "on the table's screen again",
        "role.what.seats": "list the seats' invitations",
        "role.what.approve": "approve a phone for a seat",
        "role.what.refuse": "refuse a phone for a seat",
        "role.what.revoke": "revoke a seat's phone",
        "role.what.viewer_token": "make a viewer token",
        "role.what.admin": "use the owner's action {action}",
    },
    "de": {
        "refused.no_claim": "Kein Handy mit der Nummer {code} wartet auf {seat}",
        "refused.viewer": "Wer nur zuschaut, kann nichts ändern ({method} {path})",
        "refused.nothing_to_call_at_play": "{seat} hat gerade kein UNO zu rufen (Karten auf "
                                           "der Hand: {count}) (UNO ruft man, bevor man die "
                                           "vorletzte Karte legt: mit zwei Karten auf der "
                                           "Hand drücken; ein vergessener Ruf kostet sofort "
                                           "Strafkarten, erwischen kann man niemanden)",
        "refused.key": "Der Schlüssel der Anfrage darf höchstens {most} druckbare "
                       "Zeichen ohne Umlaute haben, nicht {given}",
        "refused.unknown_request": "Unbekannte Anfrage {request}",
        "refused.journal": "Der Tisch wartet: das Journal {path} kann nicht geschrieben "
                           "werden. {cause} (der Tisch pausiert und macht von selbst "
                           "weiter, sobald es wieder geht)",
        "refused.files_full": "Die Dateien des Tisches können nicht geschrieben werden: der "
                              "Speicher ist voll. Platz schaffen, dann noch einmal versuchen",
        "journal.cause.disk-full": "Der Speicher ist voll",
        "journal.cause.read-only": "Die Datei oder ihr Ordner ist schreibgeschützt",
        "journal.cause.io": "Ein Fehler beim Lesen oder Schreiben",
        "journal.cause.lost": "Die Datei wurde gelöscht oder ersetzt",
        "refused.option": "Hausregel {option}: {problem}",
        "refused.setup": "Dieses Spiel lässt sich so nicht aufbauen: {problem}",
        "refused.edition": "Die Ausgabe {edition} gibt es nicht, nur: {known}",
        "refused.seat_count": "{edition} ist für {low} bis {high} Spieler, nicht für {count}",
        "demo.person_seats": "Du spielst Platz {number}: mindestens {number} Plätze wählen",
        "sim.one_deck": "Der simulierte Tisch hat ein Kartenspiel der Ausgabe {edition} für "
                        "{seats} Plätze, nicht {asked} für {asked_seats}: dafür die Ausgabe "
                        "und die Plätze in der Konfiguration ändern und neu starten",
        "sim.pad_waits": "Das Lesefeld wartet noch: {message}",
        "claim.crowded": "Zu viele Handys wollten gleichzeitig {seat}; dieses hat am längsten "
                         "gewartet: den Code am Bildschirm des Tisches noch einmal scannen",
        "claim.revoked": "{seat} wurde abgemeldet oder einem anderen Handy gegeben, bevor "
                         "dieses Handy zugreifen konnte",
        "claim.invitation_gone": "Die Einladung für {seat} gilt nicht mehr: den Code am "
                                 "Bildschirm des Tisches noch einmal scannen",
        "claim.taken": "Der Gastgeber hat {seat} einem anderen Handy gegeben",
        "claim.refused": "Der Gastgeber hat dieses Handy für {seat} abgewiesen",
        "claim.seat_revoked": "Der Gastgeber hat die Handys von {seat} abgemeldet",
        "claim.bad_join": "Diese Einladung gilt nicht für {seat} (sie wurde zurückgenommen "
                          "oder ersetzt): den Code am Bildschirm des Tisches noch einmal scannen",
        "claim.unknown": "Diese Anfrage für {seat} gibt es nicht (abgelaufen oder schon "
                         "beantwortet): den Code am Bildschirm des Tisches noch einmal scannen",
        "role.what.seats": "die Einladungen der Plätze zeigen",
        "role.what.approve": "ein Handy für einen Platz zulassen",
        "role.what.refuse": "ein Handy für einen Platz abweisen",
        "role.what.revoke": "das Handy eines Platzes abmelden",
        "role.what.viewer_token": "einen Zugang zum Zuschauen anlegen",
        "role.what.admin": "die Aktion {action} des Besitzers nutzen",
    },
}
