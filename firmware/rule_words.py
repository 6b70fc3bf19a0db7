"""The rules engine's refusals in the table's language (issue 14).

uno_core words an `IllegalAction.rule` in English and numbers seats from 0; it has no
languages and is not changed for them. At the firmware's boundary each rule text is
recognised by its pattern and said again from the catalog (``rule.*`` keys, merged
into `firmware.messages.MESSAGES`), every seat by its name. A text no pattern knows (a
rule added later) keeps its English, with each "seat N" renamed: never lost, at worst
untranslated. tests/firmware/test_messages.py checks every pattern against the
engine's own refusals.
"""

from __future__ import annotations

import re
from typing import Protocol


class _Words(Protocol):  # firmware.messages.Words (not imported: it imports this module)
    def __call__(self, key: str, **values: object) -> str: ...

    def seat(self, seat: int) -> str: ...


_CARD = r"(?P<card>[RGBYW]\S*)"
_TURN = r"\(to act: (?P<to_act>-?\d+), phase (?P<phase>\w+)\)"
# (pattern of the engine's text, catalog key); groups named seat/to_act are seats
RULES: list[tuple[re.Pattern[str], str]] = [(re.compile(p + r"\Z"), key) for p, key in [
    (r"it is not seat (?P<seat>-?\d+)'s turn to play " + _TURN, "rule.not_your_turn"),
    (r"no " + _CARD + r" is left unseen: it cannot be in a hand", "rule.all_seen"),
    (r"no " + _CARD + r" is left unseen: an earlier jump-in laid the last one \(the first "
     r"declaration wins\)", "rule.jump_first"),
    (r"no " + _CARD + r" is left unseen", "rule.not_unseen"),
    (r"(?P<what>hand entry|four-tower discard): no " + _CARD + r" is left unseen \(all copies "
     r"are public since the last reshuffle\)", "rule.public"),
    (r"seat (?P<seat>-?\d+) holds only (?P<count>\d+) cards", "rule.holds_only"),
    (r"seat (?P<seat>-?\d+) does not hold all of those cards", "rule.not_all_held"),
    (r"seat (?P<seat>-?\d+) does not hold " + _CARD, "rule.not_held"),
    (r"after drawing only the drawn card may be played", "rule.drawn_only"),
    (r"no " + _CARD + r" on a power symbol (?P<symbol>\S) card \((?P<top>\S+)\)", "rule.symbol"),
    (r"on a turned (?P<top>\S+) the first player takes no towers and lays only a "
     r"(?P<colour>\w) card, not " + _CARD, "rule.turned_first"),
    (_CARD + r" matches neither colour (?P<colour>\w) nor (?P<top>\S+)", "rule.no_match"),
    (r"a Wild may only be played with no (?P<colour>\w) card in hand", "rule.wild_restricted"),
    (r"a wild needs a colour \(one of (?P<colours>[RGBY ]+)\)", "rule.wild_colour"),
    (r"only a wild card names a colour", "rule.colour_not_wild"),
    (r"UNO is called with one card left, not (?P<count>-?\d+)", "rule.uno_count"),
    (_CARD + r" needs a target seat other than (?P<seat>-?\d+)", "rule.target"),
    (_CARD + r" takes no target", "rule.no_target"),
    (_CARD + r" takes (?P<count>\d+) tower\(s\) from (?P<towers>.*)", "rule.towers"),
    (_CARD + r" takes no towers", "rule.no_towers"),
    (r"Discard All lays only (?P<colour>\w) cards, not " + _CARD, "rule.discard_colour"),
    (r"Discard All must lay all other (?P<colour>\w) cards: (?P<cards>.*)", "rule.discard_all"),
    (_CARD + r" lays no other cards", "rule.lays_none"),
    (r"(?P<what>passing|deciding a challenge|a challenge verdict|choosing the first colour|"
     r"entering a hand|the four-tower discard) is not possible now " + _TURN, "rule.not_now"),
    (r"no launcher press is owed now", "rule.no_press"),
    (r"this edition draws by pressing the launcher", "rule.draw_by_press"),
    (r"this edition has no launcher: draw from the pile", "rule.draw_from_pile"),
    (r"you may only draw on your turn when you cannot play", "rule.draw_only_stuck"),
    (r"seat (?P<seat>-?\d+) cannot draw now " + _TURN, "rule.no_draw"),
    (r"UNO is called before the second-to-last card is laid, with the play; a forgotten "
     r"call was penalised at once: there is nothing to call late or to catch \(option "
     r"forgotten_uno='at_play'\)", "rule.uno_at_play"),
    (r"seat (?P<seat>-?\d+) has no uncalled UNO to call", "rule.nothing_to_call"),
    (r"seat (?P<seat>-?\d+) cannot be caught: no forgotten UNO open \(the window closes when "
     r"the next player starts a turn\)", "rule.no_catch"),
    (r"a player cannot catch himself", "rule.catch_self"),
    (r"seat (?P<seat>-?\d+) holds (?P<count>\d+) cards, not (?P<given>\d+)", "rule.hand_count"),
    (r"lay all cards but one: (?P<count>\d+) cards", "rule.all_but_one"),
    (r"the match is over", "rule.match_over"),
    # house rules (issue 12)
    (r"a " + _CARD + r" only with no (?P<colour>\w) card in hand \(no_bluff\)", "rule.no_bluff"),
    (r"a drawn card that fits must be played \(forced_play\)", "rule.forced_play"),
    (r"a stack of (?P<count>\d+) (?P<unit>cards|presses) is pending on seat (?P<seat>-?\d+): "
     r"answer with .* or take them \(stack_draws='\w+'\)", "rule.stack_pending"),
    (r"draw_until_playable: play the drawn card if it fits, else draw again; .*",
     "rule.draw_until"),
    (r"no jump-in in phase (?P<phase>\w+)", "rule.jump_phase"),
    (r"no jump-in on a wild: its colour was named, no card in a hand carries it",
     "rule.jump_wild"),
    (r"no jump-in while draws or presses are owed: they come first", "rule.jump_owed"),
    (r"nobody may go out on an action or wild card like " + _CARD + r" \(no_action_finish\)",
     "rule.no_action_finish"),
    (r"out of turn only a card identical to the top card (?P<top>\S+) may be played "
     r"\(jump_in\), not " + _CARD, "rule.jump_identical"),
    (r"there is no seat (?P<number>-?\d+)", "rule.no_seat"),
    (r"no chance outcome is due \(to act: seat (?P<to_act>-?\d+)\)", "rule.no_chance"),
]]
_SEATS = ("seat", "to_act")
_ENGINE_SEAT = re.compile(r"\bseat (\d+)\b")  # how uno_core's texts name a seat

RULE_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "rule.the_table": "the table",
        "rule.not_your_turn": "it is not {seat}'s turn to play (to act: {to_act})",
        "rule.all_seen": "no {card} is left unseen: it cannot be in a hand",
        "rule.not_unseen": "no {card} is left unseen",
        "rule.public": "{what}: no {card} is left unseen (all copies are public since the last "
                       "reshuffle)",
        "rule.what.hand entry": "hand entry",
        "rule.what.four-tower discard": "four-tower discard",
        "rule.holds_only": "{seat} holds only {count} cards",
        "rule.not_all_held": "{seat} does not hold all of those cards",
        "rule.not_held": "{seat} does not hold {card}",
        "rule.drawn_only": "after drawing only the drawn card may be played",
        "rule.symbol": "no {card} on a power symbol {symbol} card ({top})",
        "rule.turned_first": "on a turned {top} the first player takes no towers and lays only "
                             "a {colour} card, not {card}",
        "rule.no_match": "{card} matches neither colour {colour} nor {top}",
        "rule.wild_restricted": "a Wild may only be played with no {colour} card in hand",
        "rule.wild_colour": "a wild needs a colour (one of {colours})",
        "rule.colour_not_wild": "only a wild card names a colour",
        "rule.uno_count": "UNO is called with one card left, not {count}",
        "rule.target": "{card} needs a target seat other than {seat}",
        "rule.no_target": "{card} takes no target",
        "rule.towers": "{card} takes {count} tower(s) from {towers}",
        "rule.no_towers": "{card} takes no towers",
        "rule.discard_colour": "Discard All lays only {colour} cards, not {card}",
        "rule.discard_all": "Discard All must lay all other {colour} cards: {cards}",
        "rule.lays_none": "{card} lays no other cards",
        "rule.not_now": "{what} is not possible now (to act: {to_act})",
        "rule.what.passing": "passing",
        "rule.what.deciding a challenge": "deciding a challenge",
        "rule.what.a challenge verdict": "a challenge verdict",
        "rule.what.choosing the first colour": "choosing the first colour",
        "rule.what.entering a hand": "entering a hand",
        "rule.what.the four-tower discard": "the four-tower discard",
        "rule.no_press": "no launcher press is owed now",
        "rule.draw_by_press": "this edition draws by pressing the launcher",
        "rule.draw_from_pile": "this edition has no launcher: draw from the pile",
        "rule.draw_only_stuck": "you may only draw on your turn when you cannot play",
        "rule.no_draw": "{seat} cannot draw now (to act: {to_act})",
        "rule.uno_at_play": "UNO is called before the second-to-last card is laid, with the "
                            "play; a forgotten call was penalised at once: there is nothing to "
                            "call late or to catch (option forgotten_uno='at_play')",
        "rule.nothing_to_call": "{seat} has no uncalled UNO to call",
        "rule.no_catch": "{seat} cannot be caught: no forgotten UNO open (the window closes "
                         "when the next player starts a turn)",
        "rule.catch_self": "a player cannot catch himself",
        "rule.hand_count": "{seat} holds {count} cards, not {given}",
        "rule.all_but_one": "lay all cards but one: {count} cards",
        "rule.match_over": "the match is over",
        "rule.no_chance": "the table waits for no card or count now (to act: {to_act})",
        "rule.jump_first": "no {card} is left: an earlier jump-in laid the last one (the "
                           "first declaration wins)",
        "rule.no_bluff": "a {card} only with no {colour} card in hand (no bluffing)",
        "rule.forced_play": "a drawn card that fits must be played",
        "rule.stack_pending": "a stack of {count} {unit} is pending on {seat}: answer with a "
                              "draw card or take them",
        "rule.unit.cards": "cards",
        "rule.unit.presses": "presses",
        "rule.draw_until": "play the drawn card if it fits, else draw again",
        "rule.jump_phase": "no jump-in now ({phase})",
        "rule.jump_wild": "no jump-in on a wild",
        "rule.jump_owed": "no jump-in while draws or presses are owed: they come first",
        "rule.no_action_finish": "nobody may go out on an action or wild card like {card}",
        "rule.jump_identical": "out of turn only a card identical to the top card {top} may be "
                               "played, not {card}",
        "rule.no_seat": "there is no such seat ({number})",
    },
    "de": {
        "rule.the_table": "der Tisch",
        "rule.not_your_turn": "{seat} ist nicht am Zug (dran: {to_act})",
        "rule.all_seen": "keine {card} mehr ungesehen: sie kann nicht auf einer Hand sein",
        "rule.not_unseen": "keine {card} mehr ungesehen",
        "rule.public": "{what}: keine {card} mehr ungesehen (alle liegen seit dem letzten "
                       "Mischen offen)",
        "rule.what.hand entry": "Eingabe der Hand",
        "rule.what.four-tower discard": "Ablegen mit vier Türmen",
        "rule.holds_only": "{seat} hat nur {count} Karten",
        "rule.not_all_held": "{seat} hat nicht alle diese Karten",
        "rule.not_held": "{seat} hat keine {card}",
        "rule.drawn_only": "nach dem Ziehen darf nur die gezogene Karte gelegt werden",
        "rule.symbol": "keine {card} auf eine Karte mit Power-Symbol {symbol} ({top})",
        "rule.turned_first": "auf eine aufgedeckte {top} nimmt der erste Spieler keine Türme "
                             "und legt nur eine Karte der Farbe {colour}, nicht {card}",
        "rule.no_match": "{card} passt weder zur Farbe {colour} noch zu {top}",
        "rule.wild_restricted": "eine Farbenwahl darf nur legen, wer keine Karte der Farbe "
                                "{colour} hat",
        "rule.wild_colour": "eine Farbenwahl braucht eine Farbe (eine von {colours})",
        "rule.colour_not_wild": "nur eine Farbenwahl wünscht sich eine Farbe",
        "rule.uno_count": "UNO wird mit einer Karte auf der Hand gerufen, nicht mit {count}",
        "rule.target": "{card} braucht einen Gegner außer {seat}",
        "rule.no_target": "{card} hat keinen Gegner",
        "rule.towers": "{card} nimmt {count} Turm/Türme aus {towers}",
        "rule.no_towers": "{card} nimmt keine Türme",
        "rule.discard_colour": "Alle ablegen legt nur Karten der Farbe {colour}, nicht {card}",
        "rule.discard_all": "Alle ablegen muss alle anderen Karten der Farbe {colour} legen: "
                            "{cards}",
        "rule.lays_none": "{card} legt keine anderen Karten",
        "rule.not_now": "{what} geht jetzt nicht (dran: {to_act})",
        "rule.what.passing": "Passen",
        "rule.what.deciding a challenge": "über eine Herausforderung entscheiden",
        "rule.what.a challenge verdict": "ein Urteil über die Herausforderung",
        "rule.what.choosing the first colour": "die erste Farbe wählen",
        "rule.what.entering a hand": "eine Hand eingeben",
        "rule.what.the four-tower discard": "das Ablegen mit vier Türmen",
        "rule.no_press": "niemand muss jetzt den Werfer drücken",
        "rule.draw_by_press": "in dieser Ausgabe zieht man, indem man den Werfer drückt",
        "rule.draw_from_pile": "diese Ausgabe hat keinen Werfer: vom Stapel ziehen",
        "rule.draw_only_stuck": "ziehen darf nur, wer am Zug ist und nicht legen kann",
        "rule.no_draw": "{seat} kann jetzt nicht ziehen (dran: {to_act})",
        "rule.uno_at_play": "UNO wird vor dem Ablegen der vorletzten Karte gerufen, mit dem "
                            "Zug; ein vergessener Ruf hat sofort gekostet: nichts nachzurufen "
                            "und niemand zu erwischen (Option forgotten_uno='at_play')",
        "rule.nothing_to_call": "{seat} hat kein offenes UNO zu rufen",
        "rule.no_catch": "{seat} kann nicht erwischt werden: kein vergessenes UNO offen (das "
                         "endet, wenn der nächste Spieler seinen Zug beginnt)",
        "rule.catch_self": "niemand kann sich selbst erwischen",
        "rule.hand_count": "{seat} hat {count} Karten, nicht {given}",
        "rule.all_but_one": "alle Karten bis auf eine ablegen: {count} Karten",
        "rule.match_over": "das Spiel ist vorbei",
        "rule.no_chance": "der Tisch wartet jetzt auf keine Karte und keine Anzahl (dran: "
                          "{to_act})",
        "rule.jump_first": "keine {card} mehr übrig: ein früheres Reinwerfen hat die letzte "
                           "gelegt (wer zuerst meldet, gewinnt)",
        "rule.no_bluff": "eine {card} nur ohne {colour}-Karte auf der Hand (kein Bluff)",
        "rule.forced_play": "eine gezogene Karte, die passt, muss gelegt werden",
        "rule.stack_pending": "auf {seat} liegt ein Stapel von {count} {unit}: mit einer "
                              "Ziehkarte antworten oder alle nehmen",
        "rule.unit.cards": "Karten",
        "rule.unit.presses": "Drücken",
        "rule.draw_until": "die gezogene Karte legen, wenn sie passt, sonst weiter ziehen",
        "rule.jump_phase": "jetzt kein Reinwerfen ({phase})",
        "rule.jump_wild": "kein Reinwerfen auf eine Farbwahlkarte",
        "rule.jump_owed": "kein Reinwerfen, solange Karten oder Drücke offen sind: die kommen "
                          "zuerst",
        "rule.no_action_finish": "niemand darf mit einer Aktions- oder Farbwahlkarte wie "
                                 "{card} ausgehen",
        "rule.jump_identical": "außer der Reihe nur eine Karte gleich der obersten {top}, "
                               "nicht {card}",
        "rule.no_seat": "diesen Platz gibt es nicht ({number})",
    },
}


def say_rule(rule: str, words: _Words) -> str:
    """`rule` (an `IllegalAction.rule`) said in `words`' language, seats by name."""
    for pattern, key in RULES:
        found = pattern.match(rule)
        if found is None:
            continue
        values: dict[str, object] = dict(found.groupdict())
        for name in _SEATS:
            if name in values:
                seat = int(str(values[name]))
                values[name] = words.seat(seat) if seat >= 0 else words("rule.the_table")
        if "what" in values:
            values["what"] = words(f"rule.what.{values['what']}")
        if "unit" in values:
            values["unit"] = words(f"rule.unit.{values['unit']}")
        if "number" in values:  # a seat the table does not have: counted from 1 as shown
            values["number"] = int(str(values["number"])) + 1
        return words(key, **values)
    return _ENGINE_SEAT.sub(lambda m: words.seat(int(m.group(1))), rule)
