"""The rules engine's refusals in the table's language (issues 14 and 23).

uno_core refuses an action with `IllegalAction(action, key, **values)`: the rule's key
and its values (seats numbered from 0, cards, colour codes). Each key is worded here in
English and German (``refusal.<key>``, merged into `firmware.words.messages.MESSAGES`), the
way the screen words its own hints ("green 5 does not fit: needs blue or a Reverse"):
seats by name, cards and colours as said aloud. A refusal is answered to the one who
tried the action, so where the rule's seat is the action's own seat the ``.you`` form
speaks to them ("it is West's turn, not yours"). Nothing parses a text: a key with no
wording here fails tests/firmware/test_refusal_words.py, which checks the catalogues
against every key uno_core can raise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from uno_core.cards import NUMBER, Card
from uno_core.errors import IllegalAction


class Wording(Protocol):  # firmware.words.messages.Words (not imported: it imports this module)
    def __call__(self, key: str, **values: object) -> str: ...

    def seat(self, seat: int) -> str: ...

    def card(self, card: Card, edition: str | None = None) -> str: ...

    def kind(self, kind: str, edition: str | None = None) -> str: ...

    def kind_noun(self, kind: str, edition: str | None = None) -> str: ...

    def colour(self, colour: str) -> str: ...

    def tower(self, tower: str) -> str: ...


REFUSAL_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "refusal.not_your_turn": "it is {to_act}'s turn, not {seat}'s",
        "refusal.not_your_turn.you": "it is {to_act}'s turn, not yours",
        "refusal.no_seat": "there is no {seat} at this table",
        "refusal.not_a_card": "that is not a card",
        "refusal.all_seen": "every {card} is already on the table: none can be in a hand",
        "refusal.holds_only": "{seat} holds only {count} cards",
        "refusal.holds_only.you": "you hold only {count} cards",
        "refusal.not_held": "{seat} does not hold {card}",
        "refusal.not_held.you": "you do not hold {card}",
        "refusal.not_all_held": "{seat} does not hold all of those cards",
        "refusal.not_all_held.you": "you do not hold all of those cards",
        "refusal.drawn_only": "after drawing, only the drawn card may be played",
        "refusal.symbol": "{card} does not fit: no {kind} on a card with {symbol}",
        "refusal.turned_first": "{card} does not fit: on the turned {top} the first player "
                                "lays only {colour} and takes no towers",
        "refusal.no_match": "{card} does not fit: needs {colour} or {same}",
        "refusal.no_match.wild": "{card} does not fit: needs {colour}",
        "refusal.wild_restricted": "a Wild only when you hold no {colour} card",
        "refusal.wild_colour": "a wild card needs a colour: red, green, blue or yellow",
        "refusal.colour_not_wild": "only a wild card names a colour",
        "refusal.uno_count": "UNO is called with one card left, not {count}",
        "refusal.target": "{card} needs another player as its target",
        "refusal.no_target": "{card} takes no target",
        "refusal.towers": "{card} takes {count} of the towers {towers}",
        "refusal.no_towers": "{card} takes no towers",
        "refusal.discard_colour": "Discard All lays only {colour} cards, not {card}",
        "refusal.not_enough_unseen": "not that many {card} are left",
        "refusal.discard_all": "Discard All lays every other {colour} card too: {cards}",
        "refusal.lays_none": "{card} lays no other cards",
        "refusal.pass_not_now": "there is nothing to pass now",
        "refusal.challenge_not_now": "there is no Wild Draw 4 to challenge now",
        "refusal.verdict_not_now": "no challenge waits for a verdict now",
        "refusal.first_colour_not_now": "the first colour is not chosen now",
        "refusal.hand_entry_not_now": "no hand is entered now",
        "refusal.four_towers_not_now": "the four-tower discard is not possible now",
        "refusal.no_press": "nobody owes a press now",
        "refusal.draw_by_press": "in this edition you draw by pressing the launcher",
        "refusal.draw_from_pile": "this edition has no launcher: draw from the pile",
        "refusal.draw_only_stuck": "you may draw only when you cannot play",
        "refusal.no_draw": "{seat} cannot draw now",
        "refusal.no_draw.you": "you cannot draw now",
        "refusal.uno_at_play": "UNO is called with the play of the second-to-last card; a "
                               "forgotten call has cost its cards already: nothing to call "
                               "late or to catch",
        "refusal.nothing_to_call": "{seat} has no UNO to call",
        "refusal.nothing_to_call.you": "you have no UNO to call",
        "refusal.no_catch": "{seat} cannot be caught: no forgotten UNO is open (it closes "
                            "when the next player starts a turn)",
        "refusal.no_catch.you": "you cannot be caught: no forgotten UNO is open",
        "refusal.catch_self": "you cannot catch yourself",
        "refusal.colour_choice": "choose red, green, blue or yellow",
        "refusal.hand_count": "{seat} holds {count} cards, not {given}",
        "refusal.hand_count.you": "you hold {count} cards, not {given}",
        "refusal.hand_entry_public": "every {card} is already on the table: it cannot be "
                                     "in this hand",
        "refusal.four_towers_public": "every {card} is already on the table: it cannot be "
                                      "laid",
        "refusal.all_but_one": "lay all your cards but one: {count} cards",
        "refusal.no_chance": "the table waits for no card or count now",
        "refusal.wrong_chance": "the table waits for {chance} now",
        "refusal.chance_first": "the table waits for {chance} first",
        "refusal.not_unseen": "every {card} is already on the table",
        "refusal.dealer_count": "one card for each of the {seats} seats, not {count}",
        "refusal.deck_has_only": "the deck has only {count} × {card}",
        "refusal.shuffle_unknown": "at the table the shuffle's order is not known: leave it "
                                   "empty",
        "refusal.shuffle_order": "the order must list every card once: 0 to {last}",
        "refusal.eject_count": "the number of cards must be a whole number, 0 or more",
        "refusal.launcher_holds": "the launcher holds only {count} cards",
        "refusal.match_over": "the match is over",
        "refusal.not_an_action": "that is not an action of this game",
        "refusal.stack_pending": "a stack of {count} {unit} waits for {seat}: add a +2 or "
                                 "take them",
        "refusal.stack_pending.you": "a stack of {count} {unit} waits for you: add a +2 or "
                                     "take them",
        "refusal.stack_pending_draw4": "a stack of {count} {unit} waits for {seat}: add a "
                                       "+4 or take them",
        "refusal.stack_pending_draw4.you": "a stack of {count} {unit} waits for you: add a "
                                           "+4 or take them",
        "refusal.stack_pending_cross": "a stack of {count} {unit} waits for {seat}: add a "
                                       "+2 or a +4, or take them",
        "refusal.stack_pending_cross.you": "a stack of {count} {unit} waits for you: add a "
                                           "+2 or a +4, or take them",
        "refusal.no_bluff": "{card} only when you hold no {colour} card (no bluffing)",
        "refusal.no_action_finish": "nobody goes out on an action or wild card like {card}",
        "refusal.no_draw_finish": "nobody goes out on a draw card like {card}",
        "refusal.forced_play": "the drawn card fits: it must be played",
        "refusal.draw_until": "play the drawn card if it fits, else draw again",
        "refusal.jump_chance": "no jump-in now: the table waits for {chance} first",
        "refusal.jump_challenge": "no jump-in while a Wild Draw 4 challenge is open",
        "refusal.jump_phase": "no jump-in now",
        "refusal.jump_owed": "no jump-in while cards or presses are owed: they come first",
        "refusal.jump_wild": "no jump-in on a wild card",
        "refusal.jump_stack": "no jump-in while a stack is pending",
        "refusal.jump_identical": "out of turn only the very same card as {top} may jump in, "
                                  "not {card}",
        "refusal.jump_first": "no {card} is left: an earlier jump-in laid the last one (the "
                              "first one counts)",
        "refusal.the_table": "the table",
        "refusal.unit.cards": "cards",
        "refusal.unit.presses": "presses",
        "refusal.chance.eject": "the launcher's cards",
        "refusal.chance.shuffle": "a shuffle",
        "refusal.chance.dealer_cards": "the cards that choose the dealer",
        "refusal.chance.reveal": "the first card",
        "refusal.or_a": "a {same}",
        "refusal.or_an": "an {same}",
    },
    "de": {
        "refusal.not_your_turn": "{to_act} ist dran, nicht {seat}",
        "refusal.not_your_turn.you": "{to_act} ist dran, nicht du",
        "refusal.no_seat": "{seat} gibt es an diesem Tisch nicht",
        "refusal.not_a_card": "Das ist keine Karte",
        "refusal.all_seen": "Jede {card} liegt schon offen: keine kann auf einer Hand sein",
        "refusal.holds_only": "{seat} hat nicht so viele Karten (nur {count})",
        "refusal.holds_only.you": "Du hast nicht so viele Karten (nur {count})",
        "refusal.not_held": "{seat} hat keine {card}",
        "refusal.not_held.you": "Du hast keine {card}",
        "refusal.not_all_held": "{seat} hat nicht alle diese Karten",
        "refusal.not_all_held.you": "Du hast nicht alle diese Karten",
        "refusal.drawn_only": "Nach dem Ziehen darf nur die gezogene Karte gelegt werden",
        "refusal.symbol": "{card:The} passt nicht: keine {kind} auf eine Karte mit Turm {symbol}",
        "refusal.turned_first": "{card:The} passt nicht: auf die aufgedeckte {top} legt der erste Spieler nur {colour} und nimmt keine Türme",
        "refusal.no_match": "{card:The} passt nicht: nur {colour} oder {same}",
        "refusal.no_match.wild": "{card:The} passt nicht: nur {colour}",
        "refusal.wild_restricted": "Eine Farbenwahl-Karte nur, wenn du keine Karte in {colour} hast",
        "refusal.wild_colour": "Eine Farbenwahl-Karte braucht eine Farbe: Rot, Grün, Blau oder Gelb",
        "refusal.colour_not_wild": "Nur mit einer Farbenwahl-Karte wünscht man sich eine Farbe",
        "refusal.uno_count": "UNO ruft man mit einer Karte auf der Hand, nicht mit {count}",
        "refusal.target": "{card:The} braucht einen anderen Spieler als Ziel",
        "refusal.no_target": "{card:The} hat kein Ziel",
        "refusal.towers": "{card:The} nimmt {count} von den Türmen {towers}",
        "refusal.no_towers": "{card:The} nimmt keine Türme",
        "refusal.discard_colour": "Mit dieser Karte legt man nur Karten in {colour} ab, nicht {card:the}",
        "refusal.not_enough_unseen": "So oft gibt es {card:the} nicht mehr",
        "refusal.discard_all": "Dazu gehört auch jede andere Karte in {colour}: {cards}",
        "refusal.lays_none": "Mit {card:the_dat} legt man keine anderen Karten ab",
        "refusal.pass_not_now": "Jetzt gibt es nichts zu passen",
        "refusal.challenge_not_now": "Jetzt gibt es keine Zieh-4-Karte zum Anzweifeln",
        "refusal.verdict_not_now": "Jetzt wartet keine angezweifelte Karte auf ein Urteil",
        "refusal.first_colour_not_now": "Die erste Farbe wird jetzt nicht gewählt",
        "refusal.hand_entry_not_now": "Jetzt wird keine Hand eingegeben",
        "refusal.four_towers_not_now": "Ablegen mit vier Türmen geht jetzt nicht",
        "refusal.no_press": "Niemand muss jetzt drücken",
        "refusal.draw_by_press": "In dieser Ausgabe zieht man, indem man den Werfer drückt",
        "refusal.draw_from_pile": "Diese Ausgabe hat keinen Werfer: vom Stapel ziehen",
        "refusal.draw_only_stuck": "Ziehen darfst du nur, wenn du nicht legen kannst",
        "refusal.no_draw": "{seat} kann jetzt nicht ziehen",
        "refusal.no_draw.you": "Du kannst jetzt nicht ziehen",
        "refusal.uno_at_play": "UNO ruft man beim Legen der vorletzten Karte; ein vergessener Ruf hat seine Strafkarten schon gekostet: nichts nachzurufen, niemand zu erwischen",
        "refusal.nothing_to_call": "{seat} hat kein UNO zu rufen",
        "refusal.nothing_to_call.you": "Du hast kein UNO zu rufen",
        "refusal.no_catch": "{seat} kann nicht erwischt werden: kein vergessenes UNO ist "
                            "offen (das endet, wenn der nächste Spieler seinen Zug beginnt)",
        "refusal.no_catch.you": "Dich kann niemand erwischen: kein vergessenes UNO ist offen",
        "refusal.catch_self": "Du kannst dich nicht selbst erwischen",
        "refusal.colour_choice": "Wähle Rot, Grün, Blau oder Gelb",
        "refusal.hand_count": "Karten auf der Hand von {seat}: {count}, nicht {given}",
        "refusal.hand_count.you": "Karten auf deiner Hand: {count}, nicht {given}",
        "refusal.hand_entry_public": "Jede {card} liegt schon offen: sie kann nicht auf dieser Hand sein",
        "refusal.four_towers_public": "Jede {card} liegt schon offen: sie kann nicht abgelegt werden",
        "refusal.all_but_one": "Alle Karten bis auf eine ablegen, also {count}",
        "refusal.no_chance": "Der Tisch wartet jetzt auf keine Karte und keine Anzahl",
        "refusal.wrong_chance": "Der Tisch wartet jetzt auf {chance}",
        "refusal.chance_first": "Der Tisch wartet zuerst auf {chance}",
        "refusal.not_unseen": "Jede {card} liegt schon offen",
        "refusal.dealer_count": "Eine Karte für jeden der {seats} Plätze, nicht {count}",
        "refusal.deck_has_only": "Das Spiel hat {card:the} nur {count}-mal",
        "refusal.shuffle_unknown": "Am Tisch ist die Reihenfolge beim Mischen unbekannt: leer lassen",
        "refusal.shuffle_order": "Die Reihenfolge muss jede Karte einmal nennen: 0 bis {last}",
        "refusal.eject_count": "Die Anzahl der Karten muss eine ganze Zahl sein, 0 oder mehr",
        "refusal.launcher_holds": "So viele Karten sind nicht im Werfer (nur {count})",
        "refusal.match_over": "Das Spiel ist vorbei",
        "refusal.not_an_action": "Das ist kein Zug in diesem Spiel",
        "refusal.stack_pending": "Auf {seat} wartet ein Stapel ({count} {unit}): eine +2 drauflegen oder alles nehmen",
        "refusal.stack_pending.you": "Auf dich wartet ein Stapel ({count} {unit}): eine +2 drauflegen oder alles nehmen",
        "refusal.stack_pending_draw4": "Auf {seat} wartet ein Stapel ({count} {unit}): eine +4 drauflegen oder alles nehmen",
        "refusal.stack_pending_draw4.you": "Auf dich wartet ein Stapel ({count} {unit}): eine +4 drauflegen oder alles nehmen",
        "refusal.stack_pending_cross": "Auf {seat} wartet ein Stapel ({count} {unit}): eine +2 oder +4 drauflegen oder alles nehmen",
        "refusal.stack_pending_cross.you": "Auf dich wartet ein Stapel ({count} {unit}): eine +2 oder +4 drauflegen oder alles nehmen",
        "refusal.no_bluff": "{card:The} nur, wenn du keine Karte in {colour} hast (kein Bluff)",
        "refusal.no_action_finish": "Niemand geht mit einer Aktions- oder Farbenwahl-Karte wie {card:the_dat} aus",
        "refusal.no_draw_finish": "Niemand geht mit einer Ziehkarte wie {card:the_dat} aus",
        "refusal.forced_play": "Die gezogene Karte passt: sie muss gelegt werden",
        "refusal.draw_until": "Die gezogene Karte legen, wenn sie passt, sonst weiter ziehen",
        "refusal.jump_chance": "Jetzt kein Dazwischenwerfen: der Tisch wartet zuerst auf {chance}",
        "refusal.jump_challenge": "Kein Dazwischenwerfen, solange eine Zieh-4-Karte angezweifelt wird",
        "refusal.jump_phase": "Jetzt kein Dazwischenwerfen",
        "refusal.jump_owed": "Kein Dazwischenwerfen, solange Karten oder Drücke offen sind: die kommen zuerst",
        "refusal.jump_wild": "Kein Dazwischenwerfen auf eine Farbenwahl-Karte",
        "refusal.jump_stack": "Kein Dazwischenwerfen, solange ein Stapel offen ist",
        "refusal.jump_identical": "Außer der Reihe darf nur genau dieselbe Karte wie {top:the} dazwischengeworfen werden, nicht {card:the}",
        "refusal.jump_first": "Keine {card} mehr übrig: ein früheres Dazwischenwerfen hat die letzte gelegt (das erste zählt)",
        "refusal.the_table": "der Tisch",
        "refusal.unit.cards": "Karten",
        "refusal.unit.presses": "Drücke",
        "refusal.chance.eject": "die Karten aus dem Werfer",
        "refusal.chance.shuffle": "das Mischen",
        "refusal.chance.dealer_cards": "die Karten, die den Kartengeber bestimmen",
        "refusal.chance.reveal": "die erste Karte",
        "refusal.or_a": "eine {same}",
        "refusal.or_an": "eine {same}",
    },
}

_EN = REFUSAL_WORDS["en"]
_SEAT_VALUES = ("seat", "to_act")  # the values that are seats (0-based; -1: the table)


def _same(top: Card, words: Wording, edition: str | None) -> str:
    """What else fits on `top` besides its colour: its number or its kind, with "a"/"an"."""
    same = str(top.number) if top.kind == NUMBER else words.kind_noun(top.kind, edition)
    return words("refusal.or_an" if same.startswith("8") else "refusal.or_a", same=same)


def say_value(name: str, value: object, words: Wording, edition: str | None) -> object:
    """One value of a refusal as a sentence says it."""
    if name in _SEAT_VALUES and isinstance(value, int):
        return words.seat(value) if value >= 0 else words("refusal.the_table")
    if isinstance(value, Card):
        return words.card(value, edition)
    if name == "cards" and isinstance(value, tuple):
        return ", ".join(words.card(c, edition) for c in value)
    if name == "colour" and isinstance(value, str) and value:
        return words.colour(value)
    if name == "towers" and isinstance(value, tuple):
        return " ".join(words.tower(t) for t in value)
    if name in ("symbol", "tower") and isinstance(value, str):
        return words.tower(value)
    if name in ("unit", "chance"):
        return words(f"refusal.{name}.{value}")
    return value


def derived_values(key: str, values: Mapping[str, object], words: Wording,
                   edition: str | None) -> dict[str, object]:
    """Values the wording of catalogue `key` needs that the engine does not give (it gives
    what they come from)."""
    top, card = values.get("top"), values.get("card")
    if key.startswith("refusal.no_match") and isinstance(top, Card) and top.colour:
        return {"same": _same(top, words, edition)}
    if key == "refusal.symbol" and isinstance(card, Card):
        return {"kind": words.kind_noun(card.kind, edition)}
    return {}


def refusal_key(exc: IllegalAction) -> str:
    """The catalogue key `exc` is said by: its rule's, to the seat that tried the action
    in the ``.you`` form where the rule's seat is that seat."""
    key, values = exc.key, exc.values
    top = values.get("top")
    if key == "no_match" and not (isinstance(top, Card) and top.colour):
        key = "no_match.wild"  # a wild on top: only its named colour fits
    asker = getattr(exc.action, "seat", None)
    if asker is not None and values.get("seat") == asker and f"refusal.{key}.you" in _EN:
        key += ".you"
    return f"refusal.{key}"


def say_refusal(exc: IllegalAction, words: Wording, edition: str | None = None) -> str:
    """`exc` said in `words`' language to the seat that tried the action: seats by name,
    cards as said aloud (`edition`'s names)."""
    key, values = refusal_key(exc), exc.values
    said = {name: say_value(name, v, words, edition) for name, v in values.items()}
    said.update(derived_values(key, values, words, edition))
    return words(key, **said)
