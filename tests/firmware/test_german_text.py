"""Every German sentence the table can say or show, in one file to read through:
docs/german.txt. The test fails while the file in the tree is not what the catalog makes
now; `.venv/bin/python tests/firmware/test_german_text.py` writes it anew.

The file holds what the voice says for an event of every kind it speaks, every card of
every edition as it is named, and every message of the German catalog (waits, refusals,
the screen's words, the set-up's) with its placeholders filled by example values, so
that a sentence reads as it will at the table.
"""

from __future__ import annotations

import string
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from firmware.announce import announcements  # noqa: E402
from firmware.words.messages import MESSAGES, card_name, kind_noun, text  # noqa: E402
from tests.firmware.announce_samples import NAMES, SAMPLES  # noqa: E402
from uno_core import EDITIONS, parse_card  # noqa: E402

GERMAN_TXT = ROOT / "docs" / "german.txt"

# what a placeholder stands for at the table, German as it comes in (cards and the neutral
# place with their case forms, as `Words` gives them)
RED_7 = card_name(parse_card("R7"), "de")
NEUTRAL_SLOT = text("de", "slot.neutral")
EXAMPLES: dict[str, object] = {
    "seat": "Süd (Platz 3)", "other": "Ost (Platz 2)", "player": "Süd", "challenger": "Ost",
    "catcher": "West", "first": "Nord, Ost", "second": "Süd", "seats": "Nord und Süd",
    "winners": "Süd", "card": RED_7, "cards": "rote 1, grüne 5",
    "top": card_name(parse_card("R5"), "de"), "same": "5",
    "kind": kind_noun("+2", "de"), "colour": "Rot", "colours": "Rot, Blau", "count": "3",
    "number": "3", "tower": "U", "towers": "U N", "slot": "Süd", "expected": NEUTRAL_SLOT,
    "owner": "Neutraler Platz", "where": "Süd", "points": "23", "score": "510", "total": "196",
    "round": "2", "seconds": "20", "left": "12", "value": "30", "target": "500",
    "min": "2", "max": "10", "need": "7", "limit": "120", "edition": "UNO Power",
    "reason": "Abendessen", "message": "den Werfer drücken", "what": "du bist dran",
    "who": "Süd: ", "enter": "Süd: die Karten auf der Hand eingeben",
    "title": "Süd: Karten auf der Hand", "next": "„Nächste Runde“ antippen",
    "resume": "dann fortsetzen", "error": "Zeitüberschreitung", "status": "409",
    "penalty": "", "extra": " (Rot)", "after": " und U genommen", "event": "E17",
    "chance": "das Mischen", "fault": "Stau", "field": "seat", "problem": "fehlt",
    "name": "Anna", "symbol": "U", "unit": "Karten", "decision": "'vielleicht'",
    "decisions": "pass, accept", "given": "2", "last": "4", "buttons": "4",
    "choices": "'red', 'green'", "kinds": "eine Zahl", "to_act": "Ost",
    "why": "die Hände wurden schon getauscht", "missing": "Nord, Ost", "code": "4821",
    "uid": "04A1B2C3D4E501",  # a card pad's tag
    "line": "1", "column": "12",  # where a request's body stops being JSON
    "said": "Süd legt die rote 7", "way": "Lesefeld",  # a recent play and how it came in
    # the daemon's own refusals (firmware/words/rejected.py)
    "most": "200", "request": "Play", "method": "POST", "path": "/api/play",
    "cause": "Der Speicher ist voll", "option": "stack_draws", "known": "classic, power",
    "low": "2", "high": "10", "asked": "attack", "asked_seats": "5", "action": "pause",
    # why an option or a set-up is refused (firmware/words/problems.py)
    "minimum": "0", "maximum": "600", "has": "2", "uses": "3", "size": "30", "deck": "108",
    "version": "1", "detail": "list index out of range",
}


# where a message takes another form of a value than the one above
KEY_EXAMPLES: dict[str, dict[str, object]] = {
    "card.number": {"colour": "rote"}, "card.symbol": {"colour": "rote"},
    "card.coloured": {"colour": "rote", "kind": "Aussetzen-Karte"},
    "page.choose": {"what": "eine Farbe"}, "page.did": {"what": "eine rote 7 gelegt"},
    "page.penalty": {"what": "Strafkarten: 2"}, "page.ev.tray_at": {"what": "ein Leser antwortet nicht"},
    "page.ev.new_match": {"seats": "4"}, "refused.buttons": {"seats": "6"},
    "refusal.dealer_count": {"seats": "4"}, "refused.no_seat": {"value": "31"},
    "match.one": {"seats": "Süd"}, "refused.jump_in_late": {"first": "Ost"},
    "rule.not_now": {"what": "Passen"}, "rule.public": {"what": "rote 7"},
    "refused.waits": {"message": "Turm U auf den neutralen Platz stellen"},
    "wait.decide": {"what": "die erste Farbe wählen"},
    "role.owners_only": {"what": "ein neues Spiel starten"},
    "role.watches": {"what": "eine Karte legen"},
    "page.alarm_moved": {"slot": "Süd"}, "page.tower_to": {"slot": NEUTRAL_SLOT},
    "wait.tower": {"slot": NEUTRAL_SLOT}, "alarm.stands": {"slot": NEUTRAL_SLOT},
    "page.ev.tower_lifted": {"slot": NEUTRAL_SLOT},
    "page.did.laid": {"cards": "gelbe 3, gelbe 5"},
    "page.why.symbol": {"kind": "Zieh 2"},
    "refused.journal": {"path": "/var/lib/unotable/journal.db"}, "refused.key": {"given": "'ä'"},
}


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def german_text() -> str:
    lines = ["# Every German sentence the table can say or show (tests/firmware/test_german_text.py",
             "# writes this file; read it through after changing German words).", "",
             "## The voice, for an event of each kind it speaks", ""]
    for what, event, turn, edition in SAMPLES:
        for sentence in announcements(event, "de", NAMES, edition=edition, turn=turn):
            lines.append(f"{what}: {sentence}")
    lines += ["", "## Every card, as the voice and the screen name it, per edition", ""]
    for name, ed in EDITIONS.items():
        said = dict.fromkeys(card_name(card, "de", name) for card in ed.deck)
        lines.append(f"{name}: " + " · ".join(said))
    lines += ["", "## Every message: waits, refusals, the screen's and the set-up's words", ""]
    for key, template in sorted(MESSAGES["de"].items()):
        values = {**EXAMPLES, **KEY_EXAMPLES.get(key, {})}
        filled = {n: values.get(n, f"‹{n}›") for n in placeholders(template)}
        lines.append(f"{key}: {text('de', key, **filled)}")
    return "\n".join(lines) + "\n"


def test_docs_german_txt_holds_every_german_sentence_as_the_catalog_makes_it_now():
    stale = not GERMAN_TXT.exists() or GERMAN_TXT.read_text() != german_text()
    assert not stale, ("docs/german.txt is stale: run .venv/bin/python "
                       "tests/firmware/test_german_text.py and read the new lines through")


def test_every_placeholder_has_an_example_value():
    used = {n for t in MESSAGES["de"].values() for n in placeholders(t)}
    assert used - set(EXAMPLES) == set()


if __name__ == "__main__":
    GERMAN_TXT.write_text(german_text())
    print(GERMAN_TXT)
