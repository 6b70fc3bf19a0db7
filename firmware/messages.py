"""What the table says, in English and German: the message catalog (issue 14).

`MESSAGES[lang][key]` is a `str.format` template with named placeholders; both
languages hold the same keys with the same placeholders (a test checks it). Card names
are not a second card list: they are keyed by `uno_core.cards`' kinds (English from
`uno_core.cards.KIND_NAMES`, German from the seeds' words in `KINDS_DE`; an edition
whose sheet calls a card otherwise overrides it in `EDITION_KINDS_DE`). docs/voice.md
has the table of German names with the seed each comes from.
"""

from __future__ import annotations

from collections.abc import Mapping

from uno_core.cards import (
    COLOUR_NAMES,
    DISCARD_ALL,
    DRAW1,
    DRAW2,
    HIT2,
    KIND_NAMES,
    NUMBER,
    REVERSE,
    SKIP,
    TAKE2,
    TRADE_HANDS,
    WILD,
    WILD_ALL_HIT,
    WILD_ATTACK,
    WILD_CUSTOM,
    WILD_DRAW4,
    WILD_EXTREME,
    WILD_HIT4,
    WILD_HIT_FIRE,
    WILD_TAKE1,
    Card,
)

LANGUAGES = ("en", "de")
DEFAULT_LANGUAGE = "en"

# German card names; the seed each comes from (shared/seeds/, docs/rules.md's numbering):
# 000 = UNO Power, 001 = UNO Attack, 002 = UNO classic, 003 = UNO Extreme.
KINDS_DE: dict[str, str] = {
    NUMBER: "Zahl",
    DRAW1: "Zieh 1",  # 000 „Zieh 1"-Karte
    DRAW2: "Zieh 2",  # 002 «Zieh 2», 000 „Zieh 2"
    SKIP: "Aussetzen",  # 002 «Aussetzen», 000, 003 „die Karte Aussetzen"
    REVERSE: "Retour",  # 002 «Retour», 000 „Retour"-Karte
    TAKE2: "Nimm-2-Türme",  # 000 „Nimm-2-Türme"-Karte
    HIT2: "Hit 2",  # 001 „Hit 2-Karten"
    DISCARD_ALL: "Alle ablegen",  # 001 „Die Karte "Alle ablegen""
    TRADE_HANDS: "Hände tauschen",  # 001 „mit einem gegnerischen Spieler die Hände zu tauschen"
    WILD: "Farbenwahl",  # 002 «Farbenwahl»
    WILD_DRAW4: "Zieh-4-Farbenwahl",  # 000 „Zieh 4"-Farbenwahl-Karte, „Zieh-4"-Farbenwahlkarten
    WILD_TAKE1: "Nimm-1-Turm-Farbenwahl",  # 000 „Nimm-1-Turm"-Farbenwahl-Karte
    WILD_HIT4: "Wild Hit 4",  # 001 „Wild Hit 4"
    WILD_ATTACK: "Wild Attack-Attack",  # 001 „Wild Attack-Attack"
    WILD_CUSTOM: "Wild anpassbar",  # 001 „Wild anpassbar"
    WILD_HIT_FIRE: "Wild Hit Fire",  # 001 „Wild Hit Fire Card"
    WILD_ALL_HIT: "Wild All Hit",  # 001 „Wild All Hit"
    WILD_EXTREME: "Extremer Zug",  # 003 „Die Joker-Karte „Extremer Zug""
}
# Where an edition's own sheet names a card differently.
EDITION_KINDS_DE: dict[str, dict[str, str]] = {
    "classic": {WILD_DRAW4: "Zieh 4 + Farbenwahl"},  # 002 «Zieh 4 + Farbenwahl»
    "attack": {WILD: "Joker"},  # 001 „einen Joker ausspielen"
    "attack-1999": {WILD: "Joker"},
    # 003 „Die Karte +2 oder „zweimal drücken"", „Die Karte „Alles ablegen"", „Joker"-Karte
    "extreme": {HIT2: "Zweimal drücken", DISCARD_ALL: "Alles ablegen", WILD: "Joker"},
}
KINDS: dict[str, Mapping[str, str]] = {"en": KIND_NAMES, "de": KINDS_DE}
EDITION_KINDS: dict[str, Mapping[str, Mapping[str, str]]] = {"en": {}, "de": EDITION_KINDS_DE}

# A colour as a word of its own ("chooses red") and in front of a card ("a red 7");
# 000: „18 blaue Karten … grüne … rote … gelbe", 002: „eine rote 9".
COLOURS: dict[str, Mapping[str, str]] = {
    "en": COLOUR_NAMES,
    "de": {"R": "Rot", "G": "Grün", "B": "Blau", "Y": "Gelb"},
}
CARD_COLOURS: dict[str, Mapping[str, str]] = {
    "en": COLOUR_NAMES,
    "de": {"R": "rote", "G": "grüne", "B": "blaue", "Y": "gelbe"},
}
# Towers as said aloud (000: „U, N, O und ! (Ausrufezeichen)"); letters say themselves.
TOWER_WORDS: dict[str, Mapping[str, str]] = {
    "en": {"!": "exclamation mark"},
    "de": {"!": "Ausrufezeichen"},
}

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "card.number": "{colour} {number}",
        "card.symbol": "{colour} {number} with {tower}",
        "card.coloured": "{colour} {kind}",
        "seat.fallback": "seat {number}",
        "neutral": "the middle",
        "and": "{first} and {second}",
        "turn": "{seat}, your turn.",
        "card_played": "{seat} plays {card}.",
        "colour_chosen": "{seat} chooses {colour}.",
        "first_card": "The first card is {card}.",
        "dealer": "{seat} deals.",
        "deal": "Everyone gets {count} cards.",
        "draw.one": "{seat} takes one card.",
        "draw.many": "{seat} takes {count} cards.",
        "press.one": "{seat}, press the launcher once.",
        "press.many": "{seat}, press the launcher {count} times.",
        "press.until": "{seat}, press the launcher until cards come.",
        "press.everyone": "Everyone presses the launcher once.",
        "ejected.none": "No cards for {seat}.",
        "ejected.one": "One card for {seat}.",
        "ejected.many": "{count} cards for {seat}.",
        "skipped": "{seat} is skipped.",
        "direction": "The direction changes.",
        "protected": "Tower {tower} protects {seat} from {card}.",
        "tower.to_seat": "Tower {tower} goes to {seat}.",
        "tower.to_neutral": "Tower {tower} goes back to the middle.",
        "uno.called": "{seat} calls Uno!",
        "uno.caught": "{catcher} caught {seat} without Uno.",
        "uno.forgot": "{seat} forgot to call Uno.",
        "challenge.guilty": "Challenge: {player} was bluffing.",
        "challenge.innocent": "Challenge: {player} played fair, {challenger} pays.",
        "hands_traded": "{seat} trades hands with {other}.",
        "round.winner_takes": "{seat} wins the round and scores {points} points, {total} in all.",
        "round.running_low": "{seat} wins the round. {seat} has {total} points.",
        "match.one": "{seats} wins the match with {score} points!",
        "match.many": "{seats} win the match with {score} points!",
    },
    "de": {
        "card.number": "{colour} {number}",
        "card.symbol": "{colour} {number} mit {tower}",
        "card.coloured": "{colour} {kind}",
        "seat.fallback": "Platz {number}",
        "neutral": "die Mitte",
        "and": "{first} und {second}",
        "turn": "{seat} ist dran.",
        "card_played": "{seat} legt {card}.",
        "colour_chosen": "{seat} wünscht sich {colour}.",  # 002 „sich die gelbe Farbe wünschen"
        "first_card": "Die erste Karte ist {card}.",
        "dealer": "{seat} ist Kartengeber.",  # 000 „ist der Kartengeber"
        "deal": "Jeder bekommt {count} Karten.",
        "draw.one": "{seat} nimmt eine Karte.",
        "draw.many": "{seat} nimmt {count} Karten.",
        "press.one": "{seat}, drück einmal den Werfer.",  # 001 „den Werfer aktivieren"
        "press.many": "{seat}, drück {count} mal den Werfer.",
        "press.until": "{seat}, drück den Werfer, bis Karten kommen.",
        "press.everyone": "Alle drücken einmal den Werfer.",
        "ejected.none": "Keine Karte für {seat}.",
        "ejected.one": "Eine Karte für {seat}.",
        "ejected.many": "{count} Karten für {seat}.",
        "skipped": "{seat} muss aussetzen.",
        "direction": "Die Spielrichtung ändert sich.",  # 002 „Dann ändert sich die Spielrichtung"
        "protected": "Turm {tower} schützt {seat} vor {card}.",  # 000 „gegen … geschützt"
        "tower.to_seat": "Turm {tower} geht an {seat}.",
        "tower.to_neutral": "Turm {tower} kommt zurück in die Mitte.",
        "uno.called": "{seat} ruft Uno!",  # 000 „„UNO!" rufen"
        "uno.caught": "{catcher} hat {seat} ohne Uno erwischt.",  # 000 „erwischt wird"
        "uno.forgot": "{seat} hat Uno vergessen.",
        "challenge.guilty": "Herausforderung: {player} ist schuldig.",  # 000 „Ist er schuldig"
        "challenge.innocent": "Herausforderung: {player} ist unschuldig, {challenger} zahlt.",
        "hands_traded": "{seat} tauscht die Hände mit {other}.",
        "round.winner_takes": "{seat} gewinnt die Runde und bekommt {points} Punkte, "
                              "insgesamt {total}.",
        "round.running_low": "{seat} gewinnt die Runde. {seat} hat {total} Punkte.",
        "match.one": "{seats} gewinnt das Spiel mit {score} Punkten!",
        "match.many": "{seats} gewinnen das Spiel mit {score} Punkten!",
    },
}


def check_language(lang: str) -> str:
    if lang not in MESSAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    return lang


def text(lang: str, key: str, **values: object) -> str:
    """The message `key` in `lang`, its placeholders filled from `values`."""
    return MESSAGES[check_language(lang)][key].format(**values)


def kind_name(kind: str, lang: str, edition: str | None = None) -> str:
    """The name of a card kind (`uno_core.cards` constants) as `edition`'s sheet says it."""
    own = EDITION_KINDS[check_language(lang)].get(edition or "", {})
    return own.get(kind) or KINDS[lang][kind]


def colour_name(colour: str, lang: str) -> str:
    return COLOURS[check_language(lang)][colour]


def tower_name(tower: str, lang: str) -> str:
    return TOWER_WORDS[check_language(lang)].get(tower, tower)


def card_name(card: Card, lang: str, edition: str | None = None) -> str:
    """A card as said aloud: "red 7", "rote Zieh 2", "Zieh 4 + Farbenwahl"."""
    kind = kind_name(card.kind, lang, edition)
    if card.is_wild:
        return kind
    colour = CARD_COLOURS[lang][card.colour]
    if card.kind == NUMBER and card.symbol:
        return text(lang, "card.symbol", colour=colour, number=card.number,
                    tower=tower_name(card.symbol, lang))
    if card.kind == NUMBER:
        return text(lang, "card.number", colour=colour, number=card.number)
    return text(lang, "card.coloured", colour=colour, kind=kind)
