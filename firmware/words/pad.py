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
        "pad.colour": "{seat}: tap a colour chip for the {card}",
        "pad.seat": "{seat}: press the button of the seat the {card} names",
        "pad.towers": "{seat}: tap on the pad the towers the {card} takes, {count} of "
                      "{towers}",
        "pad.cards": "{seat}: tap the other {colour} cards the {card} lays, one after "
                     "another, then press your own button",
        "pad.four_towers": "{seat}: {count} more to lay down with the four towers: tap "
                           "them one after another",
        "pad.read": "{seat}: {count} tapped",
        "pad.tower_not_now": "a tower answers a card that takes towers: tap that card "
                             "first",
        "pad.tower_not_free": "tower {tower} cannot be taken now: {towers} can",
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
        "pad.colour": "{seat}: einen Farbchip für die {card} auflegen",
        "pad.seat": "{seat}: die Taste des Platzes drücken, den die {card} nennt",
        "pad.towers": "{seat}: die Türme, die die {card} nimmt, auf das Lesefeld legen, "
                      "{count} von {towers}",
        "pad.cards": "{seat}: die übrigen Karten der Farbe {colour}, die die {card} "
                     "ablegt, eine nach der anderen auflegen, dann die eigene Taste drücken",
        "pad.four_towers": "{seat}: noch {count} zum Ablegen mit den vier Türmen: eine "
                           "nach der anderen auflegen",
        "pad.read": "{seat}: bisher {count} aufgelegt",
        "pad.tower_not_now": "Ein Turm gehört zu einer Karte, die Türme nimmt: erst die "
                             "Karte auflegen",
        "pad.tower_not_free": "Turm {tower} kann jetzt nicht genommen werden, nur {towers}",
        "pad.jump": "{seat} wirft dazwischen: jetzt die Karte auflegen",
        "pad.down": "Das Lesefeld für Karten antwortet nicht ({reason}): weiter mit dem "
                    "Bildschirm und den Handys",
        "pad.up": "Das Lesefeld für Karten antwortet wieder",
        "pad.refused": "Das Lesefeld",
    },
}
