"""What the card pad says (`firmware.controller.pad`): its refusals, what it waits for,
and its reader going down and up, in English and German. Merged into
`firmware.words.messages.MESSAGES` (``pad.*`` keys)."""

from __future__ import annotations

PAD_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "pad.on_pile": "that card is already on the pile",
        "pad.two_tags": "{count} cards on the pad at once: tap one card at a time",
        "pad.unknown": "the pad does not know this tag ({uid}): enrol it with "
                       "`unotable cards enroll`",
        "pad.turn": "it is {seat}'s turn",
        "pad.not_a_card_now": "the table does not wait for a card: {message}",
        "pad.chip_not_now": "a colour chip answers a wild's colour: tap the wild first",
        "pad.tap_chip": "{seat}: tap a colour chip for the {card}",
        "pad.press_seat": "{seat}: press the button of the seat the {card} names",
        "pad.jump": "{seat} jumps in: tap the card now",
        "pad.down": "the card pad does not answer ({reason}): play on with the screen "
                    "and the phones",
        "pad.up": "the card pad answers again",
        "pad.refused": "the card pad",
    },
    "de": {
        "pad.on_pile": "Diese Karte liegt schon auf dem Ablagestapel",
        "pad.two_tags": "{count} Karten auf dem Lesefeld: bitte eine nach der anderen auflegen",
        "pad.unknown": "Das Lesefeld kennt diesen Aufkleber nicht ({uid}): mit "
                       "„unotable cards enroll“ anlernen",
        "pad.turn": "{seat} ist dran",
        "pad.not_a_card_now": "Der Tisch wartet gerade auf keine Karte: {message}",
        "pad.chip_not_now": "Ein Farbchip wählt die Farbe einer Farbenwahl-Karte: erst die "
                            "Karte auflegen",
        "pad.tap_chip": "{seat}: einen Farbchip für die {card} auflegen",
        "pad.press_seat": "{seat}: die Taste des Platzes drücken, den die {card} nennt",
        "pad.jump": "{seat} wirft dazwischen: jetzt die Karte auflegen",
        "pad.down": "Das Lesefeld für Karten antwortet nicht ({reason}): weiter mit dem "
                    "Bildschirm und den Handys",
        "pad.up": "Das Lesefeld für Karten antwortet wieder",
        "pad.refused": "Das Lesefeld",
    },
}
