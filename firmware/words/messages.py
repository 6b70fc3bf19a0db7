"""What the table says, in English and German: the message catalog (issue 14).

`MESSAGES[lang][key]` is a `str.format` template with named placeholders; both
languages hold the same keys with the same placeholders (a test checks it). Card names
are not a second card list: they are keyed by `uno_core.cards`' kinds (English from
`uno_core.cards.KIND_NAMES`, German from the seeds' words in `KINDS_DE`; an edition
whose sheet calls a card otherwise overrides it in `EDITION_KINDS_DE`). docs/voice.md
has the table of German names with the seed each comes from.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from contextvars import ContextVar

from firmware.words.fields import FIELD_WORDS
from firmware.words.options import OPTION_WORDS
from firmware.words.pad import PAD_WORDS
from firmware.words.page import PAGE
from firmware.words.problems import PROBLEM_WORDS
from firmware.words.refusals import REFUSAL_WORDS, say_refusal
from firmware.words.rejected import REJECTED_WORDS, Keyed, say
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
from uno_core.errors import IllegalAction

LANGUAGES = ("en", "de")
DEFAULT_LANGUAGE = "en"
# the language the request being answered asked for (the API sets it from Accept-Language);
# None: the table's own `[table] language`
ANSWER_LANGUAGE: ContextVar[str | None] = ContextVar("answer_language", default=None)

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
# English: uno_core's names, but the Extreme wild in English words (its name is the
# German sheet's, 003 „Extremer Zug")
KINDS_EN: dict[str, str] = {**KIND_NAMES, WILD_EXTREME: "Wild Extreme Move"}
KINDS: dict[str, Mapping[str, str]] = {"en": KINDS_EN, "de": KINDS_DE}
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
# A German colour before a card takes the ending its case and article ask for (every card
# is feminine, a „Karte" or „die 7"): „rote 7", „mit roter 7", „vor der roten 7".
CARD_COLOUR_STEMS: Mapping[str, str] = {"R": "rot", "G": "grün", "B": "blau", "Y": "gelb"}
# The forms a message may ask a name in, as "{card:the_dat}": bare (the default), "acc",
# "dat" (no article), "the" / "the_dat" (definite article), "a" / "a_dat" (indefinite),
# "The" / "A" (with the article capitalised, to begin a sentence).
CASE_FORMS = ("acc", "dat", "the", "the_dat", "a", "a_dat", "The", "A")
_ARTICLES: dict[str, Mapping[str, str]] = {
    "en": {"the": "the ", "the_dat": "the ", "a": "a ", "a_dat": "a ", "The": "The ",
           "A": "A "},
    "de": {"the": "die ", "the_dat": "der ", "a": "eine ", "a_dat": "einer ", "The": "Die ",
           "A": "Eine "},
}
_GERMAN_ENDINGS = {"": "e", "acc": "e", "dat": "er", "the": "e", "the_dat": "en", "a": "e",
                   "a_dat": "en", "The": "e", "A": "e"}


class Forms(str):
    """A name that a message can ask in another case or with an article: "{card:the_dat}"
    gives „der roten 7" where "{card}" gives „rote 7". The plain string is the bare form,
    so a Forms goes wherever a name did (JSON, joins, comparisons)."""

    forms: Mapping[str, str]

    def __new__(cls, bare: str, forms: Mapping[str, str] | None = None) -> Forms:
        self = super().__new__(cls, bare)
        self.forms = dict(forms or {})
        return self

    def __format__(self, spec: str) -> str:
        return self.forms.get(spec, str(self)) if spec else str(self)


class _Formatter(string.Formatter):
    """str.format, but a case form asked of a plain name (a seat's, a number) is the name
    itself: names without articles do not change with their case."""

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec in CASE_FORMS:
            return format(value, format_spec) if isinstance(value, Forms) else str(value)
        return super().format_field(value, format_spec)


_FORMAT = _Formatter()
# A colour's letter on a card's corner and on the colour buttons, beside its shape: the
# German letters are not the English ones (G would be Grün and Gelb, Y nothing)
COLOUR_LETTERS: dict[str, Mapping[str, str]] = {
    "en": {"R": "R", "G": "G", "B": "B", "Y": "Y"},
    "de": {"R": "Ro", "G": "Gr", "B": "Bl", "Y": "Ge"},
}
# the name of the person's seat in `demo --serve`: a pronoun, which the voice's sentences
# (written for a third person) cannot take, so the voice names that seat by its number
PERSON = "You"
# The names the table gives seats nobody named (`[table] names`, the demo's bots and its
# person, "You"), said in the language of the screen or the voice
DEFAULT_NAMES: dict[str, Mapping[str, str]] = {
    "en": {},
    "de": {"North": "Nord", "East": "Ost", "South": "Süd", "West": "West", "You": "Du"},
}
# Towers as said aloud (000: „U, N, O und ! (Ausrufezeichen)"); letters say themselves.
TOWER_WORDS: dict[str, Mapping[str, str]] = {
    "en": {"!": "exclamation mark"},
    "de": {"!": "Ausrufezeichen"},
}

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "card.number": "{colour} {number}",
        "card.symbol": "{colour} {number} with tower {tower}",
        "card.coloured": "{colour} {kind}",
        "seat.fallback": "seat {number}",
        "voice.person": "Seat {number}",
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
        "hands_passed": "Everyone passes their hand on to the next player.",
        "round.winner_takes": "{seat} wins the round: plus {points}, total {total}.",  # no "1 points"
        "round.running_low": "{seat} wins the round. {seat}'s total: {total}.",
        "match.one": "{seats} wins the match with {score} points!",
        "match.many": "{seats} win the match with {score} points!",
        # the table's own messages: waits, refusals, stops (firmware/controller/)
        "slot.neutral": "the neutral slot",
        "slot.nowhere": "nowhere",
        "resume": "then resume (POST /api/admin/resume)",
        "wait.new_match": "start a match (admin new-match)",
        "wait.match_over": "match over",
        "wait.paused": "paused ({reason}): resume to go on",
        "wait.dealer_cards": "everyone turns a card to choose the dealer (reveal)",
        "wait.shuffle_start": "gather all cards, shuffle, load the launcher, then resume",
        "wait.shuffle_pile": "the launcher is empty: shuffle the discard pile but its top card "
                             "into it, then resume",
        "wait.reveal": "{seat}: turn the first card and say which it is",
        "wait.ejecting": "the launcher is ejecting",
        "wait.ejecting_for": "the launcher is ejecting for {seat}",
        "wait.aiming": "the launcher turns to {seat}",
        "wait.press_until": "{seat}: press the launcher until cards come",
        "wait.press": "{seat}: press the launcher {count} more time(s)",
        "wait.decide": "{seat}: {what}",
        "wait.what.turn": "your turn",
        "wait.what.play-drawn": "play the drawn card or keep it",
        "wait.what.draw-until": "play the drawn card if it fits, else draw again",
        "wait.what.extra-play": "play another card or pass",
        "wait.what.challenge": "challenge the Wild Draw 4 or take the cards",
        "wait.what.verdict": "look at the hand: guilty or innocent?",
        "wait.what.colour": "choose the first colour",
        "wait.what.four-towers": "all four towers: lay down all cards but one?",
        "wait.what.hand": "enter the cards left in the hand",
        "wait.tower": "move tower {tower} to {slot}",
        "stop.jam": "the launcher is jammed: clear it, {resume}",
        "stop.reload": "the launcher's hopper is empty: reload it, {resume}",
        "stop.extra_cards": "{count} card(s) too many came out for {seat}: put them back under "
                            "the launcher's stack, {resume}",
        "stop.cut_off": "an ejection to {seat} was cut off: count the cards that came out and "
                        "enter them (override cards-out)",
        "alarm.moved": "tower {tower} moved to {slot} without a capture: put it back at {expected}",
        "alarm.lifted": "tower {tower} was lifted off {slot} without a capture: put it back at "
                        "{expected}",
        "alarm.stands": "tower {tower} stands at {slot} without a capture: put it back at "
                        "{expected}",
        "alarm.off_tray": "tower {tower} is off the tray without a capture: put it back at "
                          "{expected}",
        "event.protected": "tower {tower} protects {seat} from {card}",
        "event.stuck_cards": "Cards came out stuck together for {seat} ({count} more): "
                             "counted, pull them apart",
        "refused.no_match": "no match: start one with POST /api/admin/new-match",
        "refused.match_over": "the match is over: start a new one with POST /api/admin/new-match",
        "refused.waits": "the table waits: {message}",
        "refused.ejecting": "the launcher is ejecting: wait for it before a new match",
        "refused.not_playing": "{seat} does not play in this match",
        "refused.nothing_to_call": "{seat} has {count} cards: nothing to call",
        "refused.no_tower_wait": "the table does not wait for tower {tower} at {slot}",
        "button.seat": "{seat}'s button",
        "refused.no_seat": "there is no seat {value}: the table has seats 1 to {last}",
        "refused.decision": "decision {decision} is not one of {decisions}",
        "refused.count_missing": "cards-out needs the counted cards: count",
        "refused.tower_missing": "tower-seen needs the tower",
        "refused.your_hand": "your hand is {cards}",
        "refused.not_yours": "you do not hold {card}",
        "refused.no_pause": "no round is over: there is no pause to end",
        "refused.already_paused": "the table is already paused",
        "refused.buttons": "seats {seats}: the table has buttons for {buttons}",
        "refused.round_over": "the round is over: tap next round first (POST /api/next-round)",
        "refused.nothing_to_resume": "nothing to resume: the table is not paused and waits "
                                     "for no reload",
        "refused.nothing_to_count": "no ejection was cut off: there is nothing to count",
        "refused.no_press": "nobody is to press now",
        "refused.dealer_seat": "choosing the dealer: say which seat turned the card",
        "refused.no_reveal": "no card is waiting to be turned now",
        "refused.no_alarm": "there is no alarm to clear",
        "wait.round_over": "round {round} is over: {seat} went out; {next}",
        "wait.next_round_tap": "tap next round",
        "wait.next_round_in": "the next round starts in {seconds} s, or tap next round",
        "undo.nothing": "there is no declaration to take back",
        "undo.not_yours": "{seat} has no declaration to take back: the last one is "
                          "{other}'s {card}",
        "undo.fixed": "{seat}'s {card} stands: {why}, which the table cannot put back",
        "undo.went_on": "{seat}'s {card} stands: the table went on since (the next player "
                        "acted, or a button, press or card came in between)",
        # issue 12, house rules at the table (firmware/controller/turn_timer.py, the screen)
        "event.turn_warning": "{seat}: {seconds} seconds left",
        "event.turn_timeout.draw": "{seat} ran out of time and draws",
        "event.turn_timeout.pass": "{seat} ran out of time and passes",
        "event.turn_timeout.warn": "{seat} ran out of time",
        "refused.jump_in_late": "{seat} cannot jump in: {first} was first",
        "badge.stack.cards": "stack: +{count} pending, {seat}",
        "badge.stack.presses": "stack: {count} presses pending, {seat}",
        "badge.stack_draws": "stacking: {value}",
        "badge.seven_zero": "7-0",
        "badge.jump_in": "jump-in",
        "badge.draw_until_playable": "draw until playable",
        "badge.forced_play": "forced play",
        "badge.no_bluff": "no bluff",
        "badge.no_action_finish": "no action finish",
        # the rules other tables play (issue 23)
        "badge.stacked_draw4_challenge": "+4 on a stack may be challenged",
        "badge.jump_in_wilds": "jump-in on wilds",
        "badge.no_jump_in_on_stack": "no jump-in on a stack",
        "badge.no_draw_finish": "no draw-card finish",
        "badge.banned_finish_penalty": "banned finish costs {value}",
        "badge.false_uno_penalty": "false UNO costs {value}",
        "badge.swap_uno_called": "swapped-in UNO counts as called",
        "badge.playable_draw_penalty": "drawing with a playable card costs {value}",
        "badge.turn_timer_s": "turn timer {value} s",
        "badge.timer_left": "{seat}: {left} s left",
        # unotable demo --serve: what the person at the simulated table may not do
        "demo.bots_turn": "it is {seat}'s turn: the launcher button is yours to press on "
                          "your own turn",
        "demo.not_now": "the launcher button is for your own draw or press; the table waits "
                        "for: {what}",
        "demo.twin_does": "the simulated table does this itself (counting, turning cards, "
                          "towers): nothing to enter here",
        "demo.only_yours": "you play seat {number}; the bots play {other}: the page declares only "
                           "for your own seat",
        # issue 20: who may ask the table for what (firmware/api/roles.py)
        "role.for_itself": "{seat} may act only for {seat}, not for {other}",
        "role.owners_only": "{seat} may not {what}: only the table's owner may",
        "role.watches": "a viewer only watches: it may not {what}",
        "role.what.new_match": "start a new match",
        "role.what.pause": "pause the table",
        "role.what.resume": "resume the table",
        "role.what.override": "override what the table sees",
        "role.what.first_card": "turn the first card",
        "role.what.play": "play a card",
        "role.what.call_uno": "call UNO",
        "role.what.undo": "take a declaration back",
        "role.what.catch": "catch a seat",
        "role.what.challenge": "challenge",
        "role.what.hands": "enter a hand",
        "role.what.decide": "decide",
        "role.what.reveal": "turn a card",
        "role.what.next_round": "start the next round",
        "slot.neutral:acc": "the neutral slot",
        "slot.neutral:dat": "the neutral slot",
        "undo.why.dealt": "cards were dealt for it",
        "undo.why.tower": "a tower changed hands",
        "undo.why.traded": "hands were traded",
        "undo.why.passed": "hands were passed on",
    },
    "de": {
        "card.number": "{colour} {number}",
        "card.symbol": "{colour} {number} mit Turm {tower}",
        "card.coloured": "{colour} {kind}",
        "seat.fallback": "Platz {number}",
        "voice.person": "Platz {number}",
        "neutral": "der neutrale Platz",
        "and": "{first} und {second}",
        "turn": "{seat} ist dran.",
        "card_played": "{seat} legt {card:a}.",  # every card is a „Karte": KINDS_DE
        "colour_chosen": "{seat} wünscht sich {colour}.",  # 002 „sich die gelbe Farbe wünschen"
        "first_card": "Die erste Karte ist {card:a}.",
        "dealer": "{seat} ist Kartengeber.",  # 000 „ist der Kartengeber"
        "deal": "Jeder bekommt {count} Karten.",
        "draw.one": "{seat} nimmt eine Karte.",
        "draw.many": "{seat} nimmt {count} Karten.",
        "press.one": "{seat}, drück einmal den Werfer.",  # 001 „den Werfer aktivieren"
        "press.many": "{seat}, drück {count}-mal den Werfer.",
        "press.until": "{seat}, drück den Werfer, bis Karten kommen.",
        "press.everyone": "Alle drücken einmal den Werfer.",
        "ejected.none": "Keine Karte für {seat}.",
        "ejected.one": "Eine Karte für {seat}.",
        "ejected.many": "{count} Karten für {seat}.",
        "skipped": "{seat} muss aussetzen.",
        "direction": "Die Spielrichtung ändert sich.",  # 002 „Dann ändert sich die Spielrichtung"
        "protected": "Turm {tower} schützt {seat} vor {card:the_dat}.",  # 000 „gegen … geschützt"
        "tower.to_seat": "Turm {tower} geht an {seat}.",
        "tower.to_neutral": "Turm {tower} kommt zurück auf den neutralen Platz.",
        "uno.called": "{seat} ruft UNO!",  # 000 „„UNO!" rufen"
        "uno.caught": "{catcher} hat {seat} ohne UNO erwischt.",  # 000 „erwischt wird"
        "uno.forgot": "{seat} hat UNO vergessen.",
        "challenge.guilty": "Zu Recht angezweifelt: {player} hat geblufft.",  # 000 „Ist er schuldig"
        "challenge.innocent": "Zu Unrecht angezweifelt: {player} hat nicht geblufft, {challenger} bekommt die Strafe.",
        "hands_traded": "{seat} tauscht die Karten mit {other}.",
        "hands_passed": "Alle geben ihre Karten an den nächsten Spieler weiter.",
        "round.winner_takes": "{seat} gewinnt die Runde: plus {points}, insgesamt {total}.",
        "round.running_low": "{seat} gewinnt die Runde. Punktestand von {seat}: {total}.",
        "match.one": "{seats} gewinnt das Spiel mit {score} Punkten!",
        "match.many": "{seats} gewinnen das Spiel mit {score} Punkten!",
        "slot.neutral": "der neutrale Platz",
        "slot.nowhere": "nirgends",
        "resume": "dann fortsetzen",
        "wait.new_match": "Ein neues Spiel starten",
        "wait.match_over": "Das Spiel ist vorbei",
        "wait.paused": "Pause ({reason}): zum Weiterspielen fortsetzen",
        "wait.dealer_cards": "Jeder deckt eine Karte auf, um den Kartengeber zu bestimmen",
        "wait.shuffle_start": "Alle Karten einsammeln und mischen, in den Werfer legen, dann fortsetzen",
        "wait.shuffle_pile": "Der Werfer ist leer: den Ablagestapel bis auf die oberste Karte mischen und in den Werfer legen, dann fortsetzen",
        "wait.reveal": "{seat}: die erste Karte aufdecken und sagen, welche es ist",
        "wait.ejecting": "Der Werfer wirft Karten aus",
        "wait.ejecting_for": "Der Werfer wirft Karten für {seat} aus",
        "wait.aiming": "Der Werfer dreht sich zu {seat}",
        "wait.press_until": "{seat}: den Werfer drücken, bis Karten kommen",
        "wait.press": "{seat}: den Werfer noch {count}-mal drücken",
        "wait.decide": "{seat}: {what}",
        "wait.what.turn": "du bist dran",
        "wait.what.play-drawn": "die gezogene Karte legen oder behalten",
        "wait.what.draw-until": "die gezogene Karte legen, wenn sie passt, sonst weiter ziehen",
        "wait.what.extra-play": "noch eine Karte legen oder passen",
        "wait.what.challenge": "die Zieh-4-Karte anzweifeln oder die Karten nehmen",
        "wait.what.verdict": "die Hand ansehen: schuldig oder unschuldig?",
        "wait.what.colour": "die erste Farbe wählen",
        "wait.what.four-towers": "mit allen vier Türmen alle Karten bis auf eine ablegen?",
        "wait.what.hand": "die Karten auf der Hand eingeben",
        "wait.tower": "Turm {tower} auf {slot:acc} stellen",
        "stop.jam": "Der Werfer klemmt: den Stau beseitigen, {resume}",
        "stop.reload": "Der Werfer ist leer: Karten nachlegen, {resume}",
        "stop.extra_cards": "Für {seat} sind Karten zu viel herausgekommen ({count}): unter den Stapel im Werfer zurücklegen, {resume}",
        "stop.cut_off": "Ein Auswurf an {seat} wurde unterbrochen: die herausgekommenen Karten zählen und eingeben",
        "alarm.moved": "Turm {tower} wurde ohne Eroberung auf {slot:acc} gestellt: zurück auf {expected:acc}",
        "alarm.lifted": "Turm {tower} steht ohne Eroberung nicht mehr auf {slot:dat}: zurück auf {expected:acc}",
        "alarm.stands": "Turm {tower} steht ohne Eroberung auf {slot:dat}: zurück auf {expected:acc}",
        "alarm.off_tray": "Turm {tower} wurde ohne Eroberung vom Brett genommen: zurück auf {expected:acc}",
        "event.protected": "Turm {tower} schützt {seat} vor {card:the_dat}",
        "refused.no_match": "Es läuft kein Spiel: erst ein neues Spiel starten",
        "refused.match_over": "Das Spiel ist vorbei: ein neues Spiel starten",
        "refused.waits": "Der Tisch wartet: {message}",
        "refused.ejecting": "Der Werfer wirft gerade aus: vor einem neuen Spiel abwarten",
        "event.stuck_cards": "Für {seat} sind Karten aneinandergeklebt herausgekommen ({count} mehr): mitgezählt, bitte auseinandernehmen",
        "refused.not_playing": "{seat} spielt in diesem Spiel nicht mit",
        "refused.nothing_to_call": "{seat} hat gerade kein UNO zu rufen (Karten auf der Hand: {count})",
        "refused.no_tower_wait": "Der Tisch wartet nicht darauf, dass Turm {tower} auf {slot:acc} gestellt wird",
        "button.seat": "die Taste von {seat}",
        "refused.no_seat": "Platz {value} gibt es nicht: der Tisch hat die Plätze 1 bis {last}",
        "refused.decision": "Die Entscheidung {decision} gibt es hier nicht, nur: {decisions}",
        "refused.count_missing": "Die Anzahl der herausgekommenen Karten fehlt",
        "refused.tower_missing": "Es fehlt, welcher Turm gesehen wurde",
        "refused.your_hand": "Auf deiner Hand sind: {cards}",
        "refused.not_yours": "Du hast keine {card}",
        "refused.no_pause": "Keine Runde ist vorbei: es gibt keine Pause zu beenden",
        "refused.already_paused": "Der Tisch pausiert schon",
        "refused.buttons": "{seats} Plätze, aber der Tisch hat nur Tasten für {buttons}",
        "refused.round_over": "Die Runde ist vorbei: erst „Nächste Runde“ antippen",
        "refused.nothing_to_resume": "Nichts fortzusetzen: der Tisch pausiert nicht und wartet auf kein Nachladen",
        "refused.nothing_to_count": "Kein Auswurf wurde unterbrochen: es gibt nichts zu zählen",
        "refused.no_press": "Niemand muss jetzt drücken",
        "refused.dealer_seat": "Der Kartengeber wird bestimmt: sagen, welcher Platz die Karte aufgedeckt hat",
        "refused.no_reveal": "Jetzt wartet keine Karte darauf, aufgedeckt zu werden",
        "refused.no_alarm": "Es gibt keinen Alarm aufzuheben",
        # 002 „Sobald ein Spieler seine Hand leert …, endet die Runde"
        "wait.round_over": "Runde {round} ist vorbei, {seat} hat keine Karten mehr: {next}",
        "wait.next_round_tap": "„Nächste Runde“ antippen",
        "wait.next_round_in": "In {seconds} s beginnt die nächste Runde, oder gleich „Nächste Runde“ antippen",
        "undo.nothing": "Es gibt keine Ansage zum Zurücknehmen",
        "undo.not_yours": "{seat} hat keine Ansage zum Zurücknehmen: die letzte ist {card:the} von {other}",
        "undo.fixed": "Nicht mehr zurückzunehmen: {card:the} von {seat}, denn {why}",
        "undo.went_on": "Nicht mehr zurückzunehmen: {card:the} von {seat}, denn der Tisch hat seither weitergemacht (der nächste Spieler war dran, oder eine Taste, ein Druck oder eine Karte kam dazwischen)",
        # issue 12, house rules at the table (firmware/controller/turn_timer.py, the screen)
        "event.turn_warning": "{seat}: noch {seconds} Sekunden",
        "event.turn_timeout.draw": "{seat} war zu langsam und zieht",
        "event.turn_timeout.pass": "{seat} war zu langsam und passt",
        "event.turn_timeout.warn": "{seat}: die Zeit ist abgelaufen",
        "refused.jump_in_late": "{seat} kann nicht dazwischenwerfen: {first} war schneller",
        "badge.stack.cards": "Stapel: +{count} für {seat}",
        "badge.stack.presses": "Stapel: {count}-mal drücken für {seat}",
        "badge.stack_draws": "Stapeln: {value}",
        "badge.seven_zero": "7-0",
        "badge.jump_in": "Dazwischenwerfen",
        "badge.draw_until_playable": "Ziehen, bis es passt",
        "badge.forced_play": "Legezwang",
        "badge.no_bluff": "Kein Bluff mit Zieh 4",
        "badge.no_action_finish": "Nicht mit Aktionskarte beenden",
        "badge.stacked_draw4_challenge": "Zieh 4 auf dem Stapel anzweifeln",
        "badge.jump_in_wilds": "Mit Farbenwahl dazwischenwerfen",
        "badge.no_jump_in_on_stack": "Nicht auf einen Stapel dazwischenwerfen",
        "badge.no_draw_finish": "Nicht mit Ziehkarte beenden",
        "badge.banned_finish_penalty": "Strafe für verbotenes Beenden: {value}",
        "badge.false_uno_penalty": "Strafe für falsches UNO: {value}",
        "badge.swap_uno_called": "Getauschte letzte Karte gilt als gerufen",
        "badge.playable_draw_penalty": "Strafe für Ziehen statt Legen: {value}",
        "badge.turn_timer_s": "Zugzeit {value} s",
        "badge.timer_left": "{seat}: noch {left} s",
        "demo.bots_turn": "{seat} ist dran: den Werfer drückst du, wenn du selbst dran bist",
        "demo.not_now": "Der Knopf am Werfer ist nur für dein eigenes Ziehen oder Drücken; gerade heißt es: {what}",
        "demo.twin_does": "Das erledigt der simulierte Tisch selbst (zählen, Karten aufdecken, Türme): hier ist nichts einzugeben",
        "demo.only_yours": "Du spielst Platz {number}, die Bots spielen {other}: hier sagst du nur für deinen eigenen Platz an",
        "role.for_itself": "{seat} darf nur für sich selbst handeln, nicht für {other}",
        "role.owners_only": "Nur der Besitzer des Tisches darf {what}, nicht {seat}",
        "role.watches": "Wer nur zuschaut, kann das nicht: {what}",
        "role.what.new_match": "ein neues Spiel starten",
        "role.what.pause": "den Tisch anhalten",
        "role.what.resume": "den Tisch weiterlaufen lassen",
        "role.what.override": "übergehen, was der Tisch sieht",
        "role.what.first_card": "die erste Karte aufdecken",
        "role.what.play": "eine Karte legen",
        "role.what.call_uno": "UNO rufen",
        "role.what.undo": "eine Ansage zurücknehmen",
        "role.what.catch": "jemanden erwischen",
        "role.what.challenge": "anzweifeln",
        "role.what.hands": "eine Hand eingeben",
        "role.what.decide": "entscheiden",
        "role.what.reveal": "eine Karte aufdecken",
        "role.what.next_round": "die nächste Runde starten",
        "slot.neutral:acc": "den neutralen Platz",
        "slot.neutral:dat": "dem neutralen Platz",
        "undo.why.dealt": "für sie wurden schon Karten ausgeteilt",
        "undo.why.tower": "ein Turm hat schon den Platz gewechselt",
        "undo.why.traded": "die Hände wurden schon getauscht",
        "undo.why.passed": "die Hände wurden schon weitergegeben",
    },
}

for _lang in LANGUAGES:  # the screen's words, the engine's refusals, bad fields: one catalog
    MESSAGES[_lang].update(PAGE[_lang])
    MESSAGES[_lang].update(REFUSAL_WORDS[_lang])
    MESSAGES[_lang].update(FIELD_WORDS[_lang])
    MESSAGES[_lang].update(OPTION_WORDS[_lang])
    MESSAGES[_lang].update(PAD_WORDS[_lang])
    MESSAGES[_lang].update(REJECTED_WORDS[_lang])
    MESSAGES[_lang].update(PROBLEM_WORDS[_lang])


def check_language(lang: str) -> str:
    if lang not in MESSAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    return lang


def text(lang: str, key: str, **values: object) -> str:
    """The message `key` in `lang`, its placeholders filled from `values` (a placeholder
    may ask a `Forms` value for a case form: "{card:the_dat}"). Where the catalog holds
    the message's case forms too (``key:acc``, ``key:dat``), the answer carries them."""
    catalog = MESSAGES[check_language(lang)]
    said = _FORMAT.format(catalog[key], **values)
    forms = {spec: _FORMAT.format(catalog[f"{key}:{spec}"], **values)
             for spec in CASE_FORMS if f"{key}:{spec}" in catalog}
    return Forms(said, forms) if forms else said


def asked_language(header: str) -> str | None:
    """The first of our languages an ``Accept-Language`` header names ("de-DE,de;q=0.9,
    en;q=0.8" -> "de"), by its order and q-values; None when it names none of them."""
    ranked = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        primary = tag.strip().split("-")[0].lower()
        if primary in LANGUAGES and q > 0:
            ranked.append((-q, i, primary))
    return min(ranked)[2] if ranked else None


def seat_name(seat: int, names: Sequence[str], lang: str = DEFAULT_LANGUAGE) -> str:
    """How every message of the table names a seat (engine seat `seat`, 0-based): by its
    name, else "seat N" numbered from 1, as the screen numbers seats."""
    if 0 <= seat < len(names) and names[seat]:
        return DEFAULT_NAMES[check_language(lang)].get(names[seat], names[seat])
    return text(lang, "seat.fallback", number=seat + 1)


class Words:
    """The table's messages in one language, naming seats by `names` (`seat_name`)."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE, names: Sequence[str] = ()) -> None:
        self.lang = check_language(lang)
        self.names = names

    def __call__(self, key: str, **values: object) -> str:
        return text(self.lang, key, **values)

    def seat(self, seat: int) -> str:
        return seat_name(seat, self.names, self.lang)

    def card(self, card: Card, edition: str | None = None) -> str:
        return card_name(card, self.lang, edition)

    def kind(self, kind: str, edition: str | None = None) -> str:
        return kind_name(kind, self.lang, edition)

    def kind_noun(self, kind: str, edition: str | None = None) -> Forms:
        return kind_noun(kind, self.lang, edition)

    def colour(self, colour: str) -> str:
        return colour_name(colour, self.lang)

    def tower(self, tower: str) -> str:
        return tower_name(tower, self.lang)

    def refusal(self, exc: IllegalAction, edition: str | None = None) -> str:
        """An engine refusal (`IllegalAction`: its rule's key and values) in these words,
        said to the seat that tried the action (`firmware.words.refusals`)."""
        return say_refusal(exc, self, edition)

    def rejected(self, refusal: Keyed, edition: str | None = None) -> str:
        """A refusal of the daemon (`firmware.errors.Rejected`: a key and its values) in
        these words, cards by `edition`'s names (`firmware.words.rejected`)."""
        return say(refusal, self, edition)


def screen_catalog(lang: str, table_language: str = DEFAULT_LANGUAGE) -> dict[str, object]:
    """What the screen words itself with (GET /api/messages): every message of `lang`,
    the name of each card and card kind of each edition's deck (the seeds' words in
    German), and the colours as words."""
    from uno_core import EDITIONS  # noqa: PLC0415 - the editions only the screen needs
    from uno_core.cards import format_card  # noqa: PLC0415

    check_language(lang)
    cards = {name: {format_card(c): card_name(c, lang, name) for c in ed.deck}
             for name, ed in EDITIONS.items()}
    kinds = {name: {c.kind: kind_name(c.kind, lang, name) for c in ed.deck}
             for name, ed in EDITIONS.items()}
    return {"language": lang, "table_language": table_language, "languages": list(LANGUAGES),
            "messages": dict(MESSAGES[lang]), "cards": cards, "kinds": kinds,
            "colours": dict(COLOURS[lang]), "colour_letters": dict(COLOUR_LETTERS[lang]),
            "default_names": dict(DEFAULT_NAMES[lang])}


def kind_name(kind: str, lang: str, edition: str | None = None) -> str:
    """The name of a card kind (`uno_core.cards` constants) as `edition`'s sheet says it."""
    own = EDITION_KINDS[check_language(lang)].get(edition or "", {})
    return own.get(kind) or KINDS[lang][kind]


def colour_name(colour: str, lang: str) -> str:
    return COLOURS[check_language(lang)][colour]


def tower_name(tower: str, lang: str) -> str:
    return TOWER_WORDS[check_language(lang)].get(tower, tower)


def kind_noun(kind: str, lang: str, edition: str | None = None) -> Forms:
    """A card kind as a noun a sentence can put an article before: in German a „Karte"
    (feminine: "eine rote Aussetzen-Karte", nominative and accusative alike), its name
    of several words coupled with hyphens as German writes such compounds (000
    „Zieh-4"-Farbenwahlkarten, 003 „Joker"-Karte); in English the name itself. Its
    article forms (`Forms`) give „vor der Zieh-2-Karte"."""
    name = kind_name(kind, lang, edition)
    if lang == "de":
        name = "-".join(name.replace("+", " ").split()) + "-Karte"
    return Forms(name, {spec: _ARTICLES[lang].get(spec, "") + name for spec in CASE_FORMS})


def card_name(card: Card, lang: str, edition: str | None = None) -> Forms:
    """A card as said aloud: "red 7", "rote Zieh-2-Karte", "Zieh-4-Farbenwahl-Karte",
    with its case forms (`Forms`): „mit roter 7", „vor der roten 7", „einer Joker-Karte"."""
    forms = {spec: _card_form(card, lang, edition, spec) for spec in CASE_FORMS}
    return Forms(_card_form(card, lang, edition, ""), forms)


def _card_form(card: Card, lang: str, edition: str | None, spec: str) -> str:
    kind = kind_noun(card.kind, lang, edition)
    article = _ARTICLES[lang].get(spec, "")
    if card.is_wild:
        return article + kind
    if lang == "de":
        colour = CARD_COLOUR_STEMS[card.colour] + _GERMAN_ENDINGS[spec]
    else:
        colour = CARD_COLOURS[lang][card.colour]
    if card.kind == NUMBER and card.symbol:
        said = text(lang, "card.symbol", colour=colour, number=card.number,
                    tower=tower_name(card.symbol, lang))
    elif card.kind == NUMBER:
        said = text(lang, "card.number", colour=colour, number=card.number)
    else:
        said = text(lang, "card.coloured", colour=colour, kind=kind)
    return article + said
