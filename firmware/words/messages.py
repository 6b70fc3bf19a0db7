"""What the table says, in English and German: the message catalog (issue 14).

`MESSAGES[lang][key]` is a `str.format` template with named placeholders; both
languages hold the same keys with the same placeholders (a test checks it). Card names
are not a second card list: they are keyed by `uno_core.cards`' kinds (English from
`uno_core.cards.KIND_NAMES`, German from the seeds' words in `KINDS_DE`; an edition
whose sheet calls a card otherwise overrides it in `EDITION_KINDS_DE`). docs/voice.md
has the table of German names with the seed each comes from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextvars import ContextVar

from firmware.words.fields import FIELD_WORDS
from firmware.words.options import OPTION_WORDS
from firmware.words.pad import PAD_WORDS
from firmware.words.page import PAGE
from firmware.words.refusals import REFUSAL_WORDS, say_refusal
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
# A colour's letter on a card's corner and on the colour buttons, beside its shape: the
# German letters are not the English ones (G would be Grün and Gelb, Y nothing)
COLOUR_LETTERS: dict[str, Mapping[str, str]] = {
    "en": {"R": "R", "G": "G", "B": "B", "Y": "Y"},
    "de": {"R": "Ro", "G": "Gr", "B": "Bl", "Y": "Ge"},
}
# The names the table gives seats nobody named (`[table] names`, the demo's bots), said in
# the language of the screen or the voice
DEFAULT_NAMES: dict[str, Mapping[str, str]] = {
    "en": {},
    "de": {"North": "Nord", "East": "Ost", "South": "Süd", "West": "West"},
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
        "round.winner_takes": "{seat} wins the round: plus {points}, {total} in all.",  # no "1 points"
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
        "event.stuck_cards": "{count} more card(s) came out stuck to another for {seat}: "
                             "counted, pull them apart",
        "refused.no_match": "no match: start one with POST /api/admin/new-match",
        "refused.match_over": "the match is over: start a new one with POST /api/admin/new-match",
        "refused.waits": "the table waits: {message}",
        "refused.ejecting": "the launcher is ejecting: wait for it before a new match",
        "refused.not_playing": "{seat} does not play in this match",
        "refused.nothing_to_call": "{seat} has {count} cards: nothing to call",
        "refused.call_before": " (UNO is called before the second-to-last card: press while "
                               "holding two cards; a forgotten call is drawn at once, nobody "
                               "catches)",
        "refused.no_tower_wait": "the table does not wait for tower {tower} at {slot}",
        "button.seat": "{seat}'s button",
        "refused.no_seat": "{field} {value}: the table has seats 0-{last}",
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
        "demo.only_yours": "you play {seat}; the bots play {other}: the page declares only "
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
    },
    "de": {
        "card.number": "{colour} {number}",
        "card.symbol": "{colour} {number} mit Turm {tower}",
        "card.coloured": "{colour} {kind}",
        "seat.fallback": "Platz {number}",
        "neutral": "die Mitte",
        "and": "{first} und {second}",
        "turn": "{seat} ist dran.",
        "card_played": "{seat} legt eine {card}.",  # every card is a „Karte": KINDS_DE
        "colour_chosen": "{seat} wünscht sich {colour}.",  # 002 „sich die gelbe Farbe wünschen"
        "first_card": "Die erste Karte ist eine {card}.",
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
        "protected": "Turm {tower} schützt {seat} vor der {card}.",  # 000 „gegen … geschützt"
        "tower.to_seat": "Turm {tower} geht an {seat}.",
        "tower.to_neutral": "Turm {tower} kommt zurück in die Mitte.",
        "uno.called": "{seat} ruft Uno!",  # 000 „„UNO!" rufen"
        "uno.caught": "{catcher} hat {seat} ohne Uno erwischt.",  # 000 „erwischt wird"
        "uno.forgot": "{seat} hat Uno vergessen.",
        "challenge.guilty": "Herausforderung: {player} ist schuldig.",  # 000 „Ist er schuldig"
        "challenge.innocent": "Herausforderung: {player} ist unschuldig, {challenger} zahlt.",
        "hands_traded": "{seat} tauscht die Karten mit {other}.",
        "hands_passed": "Alle geben ihre Karten an den nächsten Spieler weiter.",
        "round.winner_takes": "{seat} gewinnt die Runde: plus {points}, Punktestand {total}.",
        "round.running_low": "{seat} gewinnt die Runde. Punktestand von {seat}: {total}.",
        "match.one": "{seats} gewinnt das Spiel mit {score} Punkten!",
        "match.many": "{seats} gewinnen das Spiel mit {score} Punkten!",
        "slot.neutral": "den neutralen Platz",
        "slot.nowhere": "nirgends",
        "resume": "dann fortsetzen (POST /api/admin/resume)",
        "wait.new_match": "ein Spiel starten (admin new-match)",
        "wait.match_over": "Spiel vorbei",
        "wait.paused": "Pause ({reason}): zum Weiterspielen fortsetzen",
        "wait.dealer_cards": "jeder deckt eine Karte auf, um den Kartengeber zu bestimmen "
                             "(reveal)",
        "wait.shuffle_start": "alle Karten einsammeln, mischen, den Werfer laden, dann "
                              "fortsetzen",
        "wait.shuffle_pile": "der Werfer ist leer: den Ablagestapel bis auf die oberste Karte "
                             "mischen und einlegen, dann fortsetzen",
        "wait.reveal": "{seat}: die erste Karte aufdecken und sagen, welche es ist",
        "wait.ejecting": "der Werfer wirft Karten aus",
        "wait.ejecting_for": "der Werfer wirft Karten für {seat} aus",
        "wait.aiming": "der Werfer dreht sich zu {seat}",
        "wait.press_until": "{seat}: den Werfer drücken, bis Karten kommen",
        "wait.press": "{seat}: den Werfer noch {count}-mal drücken",
        "wait.decide": "{seat}: {what}",
        "wait.what.turn": "du bist dran",
        "wait.what.play-drawn": "die gezogene Karte legen oder behalten",
        "wait.what.draw-until": "die gezogene Karte legen, wenn sie passt, sonst weiter ziehen",
        "wait.what.extra-play": "noch eine Karte legen oder passen",
        "wait.what.challenge": "die Zieh-4-Karte herausfordern oder die Karten nehmen",
        "wait.what.verdict": "die Hand ansehen: schuldig oder unschuldig?",
        "wait.what.colour": "die erste Farbe wählen",
        "wait.what.four-towers": "alle vier Türme: alle Karten bis auf eine ablegen?",
        "wait.what.hand": "die Karten auf der Hand eingeben",
        "wait.tower": "Turm {tower} auf {slot} stellen",
        "stop.jam": "der Werfer klemmt: Stau beseitigen, {resume}",
        "stop.reload": "der Werfer ist leer: Karten nachlegen, {resume}",
        "stop.extra_cards": "{count} Karte(n) zu viel für {seat} herausgekommen: unter den "
                            "Stapel im Werfer zurücklegen, {resume}",
        "stop.cut_off": "ein Auswurf an {seat} wurde unterbrochen: die herausgekommenen "
                        "Karten zählen und eingeben (override cards-out)",
        "alarm.moved": "Turm {tower} wurde ohne Eroberung auf {slot} gestellt: zurück auf "
                       "{expected}",
        "alarm.lifted": "Turm {tower} wurde ohne Eroberung von {slot} genommen: zurück auf "
                        "{expected}",
        "alarm.stands": "Turm {tower} steht ohne Eroberung auf {slot}: zurück auf {expected}",
        "alarm.off_tray": "Turm {tower} ist ohne Eroberung vom Brett genommen: zurück auf "
                          "{expected}",
        "event.protected": "Turm {tower} schützt {seat} vor {card}",
        "event.stuck_cards": "{count} Karte(n) mehr klebten für {seat} an einer anderen: "
                             "mitgezählt, bitte trennen",
        "refused.no_match": "kein Spiel: eins starten mit POST /api/admin/new-match",
        "refused.match_over": "das Spiel ist vorbei: ein neues starten mit "
                              "POST /api/admin/new-match",
        "refused.waits": "der Tisch wartet: {message}",
        "refused.ejecting": "der Werfer wirft aus: vor einem neuen Spiel abwarten",
        "refused.not_playing": "{seat} spielt in diesem Spiel nicht mit",
        "refused.nothing_to_call": "{seat} hat {count} Karten: kein Uno zu rufen",
        "refused.call_before": " (Uno wird vor der vorletzten Karte gerufen: mit zwei Karten "
                               "auf der Hand drücken; ein vergessener Ruf kostet sofort, "
                               "niemand erwischt)",
        "refused.no_tower_wait": "der Tisch wartet nicht auf Turm {tower} auf {slot}",
        "button.seat": "Taste von {seat}",
        "refused.no_seat": "{field} {value}: der Tisch hat die Plätze 0-{last}",
        "refused.decision": "die Entscheidung {decision} ist keine von {decisions}",
        "refused.count_missing": "cards-out braucht die gezählten Karten: count",
        "refused.tower_missing": "tower-seen braucht den Turm",
        "refused.your_hand": "deine Hand ist {cards}",
        "refused.not_yours": "du hast keine {card}",
        "refused.no_pause": "keine Runde ist vorbei: es gibt keine Pause zu beenden",
        "refused.already_paused": "der Tisch pausiert schon",
        "refused.buttons": "{seats} Plätze: der Tisch hat Tasten für {buttons}",
        "refused.round_over": "die Runde ist vorbei: erst „Nächste Runde“ antippen "
                              "(POST /api/next-round)",
        "refused.nothing_to_resume": "nichts fortzusetzen: der Tisch pausiert nicht und wartet "
                                     "auf kein Nachladen",
        "refused.nothing_to_count": "kein Auswurf wurde unterbrochen: es gibt nichts zu zählen",
        "refused.no_press": "niemand muss jetzt drücken",
        "refused.dealer_seat": "Kartengeber bestimmen: sagen, welcher Platz die Karte "
                               "aufgedeckt hat",
        "refused.no_reveal": "jetzt wartet keine Karte darauf, aufgedeckt zu werden",
        "refused.no_alarm": "es gibt keinen Alarm aufzuheben",
        # 002 „Sobald ein Spieler seine Hand leert …, endet die Runde"
        "wait.round_over": "Runde {round} ist vorbei, keine Karten mehr: {seat}; {next}",
        "wait.next_round_tap": "„Nächste Runde“ antippen",
        "wait.next_round_in": "die nächste Runde beginnt in {seconds} s, oder „Nächste Runde“ "
                              "antippen",
        "undo.nothing": "es gibt keine Ansage zum Zurücknehmen",
        "undo.not_yours": "{seat} hat keine Ansage zum Zurücknehmen: die letzte ist "
                          "{card} von {other}",
        "undo.fixed": "{card} von {seat} bleibt: {why}, das kann der Tisch nicht zurücknehmen",
        "undo.went_on": "{card} von {seat} bleibt: der Tisch hat seither weitergemacht (der "
                        "nächste Spieler war dran, oder eine Taste, ein Druck oder eine Karte "
                        "kam dazwischen)",
        # issue 12, house rules at the table (firmware/controller/turn_timer.py, the screen)
        "event.turn_warning": "{seat}: noch {seconds} Sekunden",
        "event.turn_timeout.draw": "{seat}: Zeit abgelaufen, zieht",
        "event.turn_timeout.pass": "{seat}: Zeit abgelaufen, passt",
        "event.turn_timeout.warn": "{seat}: Zeit abgelaufen",
        "refused.jump_in_late": "{seat} kann nicht dazwischenwerfen: {first} war schneller",
        "badge.stack.cards": "Stapel: +{count} offen, {seat}",
        "badge.stack.presses": "Stapel: {count}× drücken offen, {seat}",
        "badge.stack_draws": "Stapeln: {value}",
        "badge.seven_zero": "7-0",
        "badge.jump_in": "Dazwischenwerfen",
        "badge.draw_until_playable": "ziehen bis passend",
        "badge.forced_play": "Legezwang",
        "badge.no_bluff": "kein Bluff",
        "badge.no_action_finish": "kein Aktionskarten-Ende",
        "badge.stacked_draw4_challenge": "+4 auf dem Stapel anzweifelbar",
        "badge.jump_in_wilds": "Dazwischenwerfen mit Farbenwahl",
        "badge.no_jump_in_on_stack": "kein Dazwischenwerfen auf einen Stapel",
        "badge.no_draw_finish": "kein Ende mit Ziehkarte",
        "badge.banned_finish_penalty": "verbotenes Ende kostet {value}",
        "badge.false_uno_penalty": "falsches UNO kostet {value}",
        "badge.swap_uno_called": "getauschtes UNO gilt als gerufen",
        "badge.playable_draw_penalty": "Ziehen trotz passender Karte kostet {value}",
        "badge.turn_timer_s": "Zugzeit {value} s",
        "badge.timer_left": "{seat}: noch {left} s",
        "demo.bots_turn": "{seat} ist dran: den Werfer drückst du, wenn du selbst dran bist",
        "demo.not_now": "der Werfer-Knopf ist für dein eigenes Ziehen oder Drücken; der Tisch "
                        "wartet auf: {what}",
        "demo.twin_does": "das erledigt der simulierte Tisch selbst (zählen, Karten aufdecken, "
                          "Türme): hier ist nichts einzugeben",
        "demo.only_yours": "du spielst {seat}, die Bots spielen {other}: die Seite sagt nur "
                           "für deinen eigenen Platz an",
        "role.for_itself": "{seat} darf nur für {seat} handeln, nicht für {other}",
        "role.owners_only": "nur der Tisch selbst darf {what}, nicht {seat}",
        "role.watches": "wer zuschaut, darf nur zusehen, nicht {what}",
        "role.what.new_match": "ein neues Spiel starten",
        "role.what.pause": "den Tisch anhalten",
        "role.what.resume": "den Tisch weiterlaufen lassen",
        "role.what.override": "übergehen, was der Tisch sieht",
        "role.what.first_card": "die erste Karte aufdecken",
        "role.what.play": "eine Karte legen",
        "role.what.call_uno": "Uno rufen",
        "role.what.undo": "eine Ansage zurücknehmen",
        "role.what.catch": "jemanden erwischen",
        "role.what.challenge": "herausfordern",
        "role.what.hands": "eine Hand eingeben",
        "role.what.decide": "entscheiden",
        "role.what.reveal": "eine Karte aufdecken",
        "role.what.next_round": "die nächste Runde starten",
    },
}

for _lang in LANGUAGES:  # the screen's words, the engine's refusals, bad fields: one catalog
    MESSAGES[_lang].update(PAGE[_lang])
    MESSAGES[_lang].update(REFUSAL_WORDS[_lang])
    MESSAGES[_lang].update(FIELD_WORDS[_lang])
    MESSAGES[_lang].update(OPTION_WORDS[_lang])
    MESSAGES[_lang].update(PAD_WORDS[_lang])


def check_language(lang: str) -> str:
    if lang not in MESSAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    return lang


def text(lang: str, key: str, **values: object) -> str:
    """The message `key` in `lang`, its placeholders filled from `values`."""
    return MESSAGES[check_language(lang)][key].format(**values)


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

    def colour(self, colour: str) -> str:
        return colour_name(colour, self.lang)

    def tower(self, tower: str) -> str:
        return tower_name(tower, self.lang)

    def refusal(self, exc: IllegalAction, edition: str | None = None) -> str:
        """An engine refusal (`IllegalAction`: its rule's key and values) in these words,
        said to the seat that tried the action (`firmware.words.refusals`)."""
        return say_refusal(exc, self, edition)


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


def kind_noun(kind: str, lang: str, edition: str | None = None) -> str:
    """A card kind as a noun a sentence can put an article before: in German a „Karte"
    (feminine: "eine rote Aussetzen-Karte", nominative and accusative alike), its name
    of several words coupled with hyphens as German writes such compounds (000
    „Zieh-4"-Farbenwahlkarten, 003 „Joker"-Karte); in English the name itself."""
    name = kind_name(kind, lang, edition)
    if lang != "de":
        return name
    return "-".join(name.replace("+", " ").split()) + "-Karte"


def card_name(card: Card, lang: str, edition: str | None = None) -> str:
    """A card as said aloud: "red 7", "rote Zieh-2-Karte", "Zieh-4-Farbenwahl-Karte"."""
    kind = kind_noun(card.kind, lang, edition)
    if card.is_wild:
        return kind
    colour = CARD_COLOURS[lang][card.colour]
    if card.kind == NUMBER and card.symbol:
        return text(lang, "card.symbol", colour=colour, number=card.number,
                    tower=tower_name(card.symbol, lang))
    if card.kind == NUMBER:
        return text(lang, "card.number", colour=colour, number=card.number)
    return text(lang, "card.coloured", colour=colour, kind=kind)
