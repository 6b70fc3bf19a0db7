"""Why a house rule or a match's set-up is refused (`uno_core.OptionError`, `SetupError`),
in English and German: ``refused.option.<key>`` and ``refused.setup.<key>``, said inside
``refused.option`` and ``refused.setup`` (merged into `firmware.words.messages.MESSAGES`).

uno_core words each key in English (`uno_core.problems`); that English is taken as it is,
German words every key here. tests/firmware/test_problem_words.py checks both against
every key uno_core raises these errors with. A list of known names is said joined by
commas; names, values and editions are said as given (they are what was typed).
"""

from __future__ import annotations

from firmware.words.rejected import Phrase
from uno_core.errors import OptionError, SetupError
from uno_core.problems import OPTION_ENGLISH, SETUP_ENGLISH

PROBLEM_WORDS: dict[str, dict[str, str]] = {
    "en": {**{f"refused.option.{k}": v for k, v in OPTION_ENGLISH.items()},
           **{f"refused.setup.{k}": v for k, v in SETUP_ENGLISH.items()}},
    "de": {
        "refused.option.unknown_preset": "„{value}“ gibt es nicht, nur: {known}",
        "refused.option.unknown_option": "diese Hausregel gibt es nicht, nur: {known}",
        "refused.option.expected_integer": "hier gehört eine ganze Zahl hin, nicht „{value}“",
        "refused.option.expected_bool": "hier gehört ein Ja oder Nein hin, nicht „{value}“",
        "refused.option.expected_text": "hier gehört ein Wort hin, nicht „{value}“",
        "refused.option.not_a_choice": "„{value}“ geht nicht, nur: {known}",
        "refused.option.below_minimum": "„{value}“ ist zu klein: mindestens {minimum}",
        "refused.option.above_maximum": "„{value}“ ist zu groß: höchstens {maximum}",
        "refused.option.expected_name_value": "„Hausregel=Wert“ schreiben",
        "refused.option.expected_true_false": "hier gehört ein Ja oder Nein hin (1 oder 0), "
                                              "nicht „{value}“",
        "refused.option.not_here": "gilt nicht für die Ausgabe {edition}",
        "refused.option.pile_only": "gilt nicht für die Ausgabe {edition}: hier zieht man "
                                    "mit dem Werfer, der zufällig viele Karten auswirft, "
                                    "also nicht Karte für Karte, bis eine passt",
        "refused.option.not_built": "diese Hausregel gibt es noch nicht",
        "refused.setup.not_a_card": "{given} ist keine Karte",
        "refused.setup.hands_or_counts": "die Karten jeder Hand oder ihre Anzahl angeben",
        "refused.setup.counts_not_hands": "am echten Tisch zählt nur, wie viele Karten jede "
                                          "Hand hat: die Anzahl angeben, nicht die Karten",
        "refused.setup.hands_not_counts": "beim Nachspielen zählt jede Karte: die Karten "
                                          "jeder Hand angeben, nicht ihre Anzahl",
        "refused.setup.no_top_card": "auf dem Ablagestapel muss mindestens eine Karte liegen",
        "refused.setup.deck_has": "die Ausgabe {edition} hat {has}-mal {card}, hier liegt "
                                  "sie {uses}-mal",
        "refused.setup.turn_seat": "dran sein kann nur ein Platz von 0 bis {last}, nicht {given}",
        "refused.setup.direction": "die Richtung ist 1 oder -1, nicht {given}",
        "refused.setup.current_colour": "die Farbe muss eine von {known} sein (liegt ein "
                                        "Joker oben, die Farbe dazu angeben), nicht "
                                        "„{given}“",
        "refused.setup.negative_counts": "keine Hand hat weniger als null Karten",
        "refused.setup.too_many_cards": "die Hände halten mehr Karten, als das Spiel hat",
        "refused.setup.score_count": "für die Punkte braucht es {count} Zahlen",
        "refused.setup.no_towers": "die Ausgabe {edition} hat keine Türme",
        "refused.setup.unknown_tower": "einen Turm „{given}“ gibt es nicht, nur: {known}",
        "refused.setup.tower_seat": "Turm {given}: Platz {number} gibt es nicht",
        "refused.setup.seat_count": "{edition} ist für {low} bis {high} Spieler, nicht für "
                                    "{given}",
        "refused.setup.unknown_mode": "eine Spielart „{given}“ gibt es nicht, nur: {known}",
        "refused.setup.unknown_edition": "die Ausgabe „{given}“ gibt es nicht, nur: {known}",
        "refused.setup.deal_too_big": "{count} Hände mit je {size} Karten passen nicht in "
                                      "ein Spiel mit {deck} Karten",
        "refused.setup.snapshot_version": "der gespeicherte Spielstand hat die Fassung "
                                          "„{given}“, nicht {version}",
        "refused.setup.snapshot_field": "dem gespeicherten Spielstand fehlt „{given}“",
        "refused.setup.bad_snapshot": "der gespeicherte Spielstand ist beschädigt: {detail}",
        "refused.setup.kernel_table": "das schnelle Nachspielen braucht jede Karte: am "
                                      "echten Tisch geht es nicht",
    },
}


def problem(exc: OptionError | SetupError) -> Phrase:
    """What `exc` says is wrong, as a part of the refusal that says it (``problem``)."""
    kind = "option" if isinstance(exc, OptionError) else "setup"
    return Phrase(f"refused.{kind}.{exc.key}", exc.values)
