"""The set-up sheet's words for the house rules, the presets and the editions, in English
and German (merged into `firmware.words.messages.MESSAGES`, so the page gets them with
``GET /api/messages``).

One entry per option key of `uno_core.options.OPTION_SPECS`: ``option.<key>`` is its
label, ``option.<key>.help`` a one-line explanation shown under it (a touch screen has
no hover), ``option.<key>.<choice>`` each choice of a choice option. A new option needs
its entries here in both languages: tests/firmware/test_option_words.py names any that
is missing. Presets (``preset.<name>``, ``.help``) and editions (``edition.<name>``)
likewise.
"""

from __future__ import annotations

OPTION_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "option.draw_then_play": "Play the drawn card",
        "option.draw_then_play.help": "after drawing on your turn you may lay the drawn card "
                                      "at once; off: drawing ends the turn",
        "option.draw_when_playable": "Draw although you could play",
        "option.draw_when_playable.help": "you may draw instead of laying a card that fits; "
                                          "then only the drawn card may be played",
        "option.wild_draw4_restricted": "Wild Draw 4 only without the colour",
        "option.wild_draw4_restricted.help": "only with no card of the current colour; the "
                                             "next player may challenge it",
        "option.wild_draw4_points": "Points of a Wild Draw 4",
        "option.wild_draw4_points.help": "what a Wild Draw 4 left in a hand counts at the "
                                         "round's end",
        "option.wild_restricted": "Wild only without the colour",
        "option.wild_restricted.help": "a plain Wild only with no card of the current colour",
        "option.skip_reverse_extra_turn": "Skip and Reverse give another turn",
        "option.skip_reverse_extra_turn.help": "when the player of a Skip or Reverse lays "
                                               "another card at once",
        "option.skip_reverse_extra_turn.two-player": "with two players",
        "option.skip_reverse_extra_turn.always": "always",
        "option.two_player_reverse_skips": "Reverse skips with two players",
        "option.two_player_reverse_skips.help": "with two players a Reverse works like a "
                                                "Skip: the same player goes again",
        "option.wild_customizable": "What the Wild Customizable does",
        "option.wild_customizable.help": "the action the blank wild card stands for, besides "
                                         "choosing a colour",
        "option.wild_customizable.wild": "just a Wild",
        "option.wild_customizable.skip": "a Skip",
        "option.wild_customizable.reverse": "a Reverse",
        "option.wild_customizable.hit-2": "a Hit 2",
        "option.wild_customizable.hit-4": "a Wild Hit 4",
        "option.wild_customizable.attack-attack": "an Attack-Attack",
        "option.wild_customizable.hit-fire": "a Hit Fire",
        "option.wild_customizable.all-hit": "an All Hit",
        "option.wild_customizable.trade-hands": "Trade Hands",
        "option.all_hit_scope": "Who presses for Wild All Hit",
        "option.all_hit_scope.help": "everyone, or everyone but the player who laid it",
        "option.all_hit_scope.all": "everyone",
        "option.all_hit_scope.others": "the others",
        "option.scoring": "Scoring",
        "option.scoring.help": "who gets the points of the cards left in the hands",
        "option.scoring.winner_takes": "the winner takes the others' cards",
        "option.scoring.running_low": "everyone counts their own; lowest wins",
        "option.target_score": "Points to win the match",
        "option.target_score.help": "the match ends when a total reaches this",
        "option.uno_penalty": "Penalty for a forgotten UNO",
        "option.uno_penalty.help": "cards to take (launcher editions: presses) when UNO was "
                                   "not called",
        "option.forgotten_uno": "A forgotten UNO",
        "option.forgotten_uno.help": "when the penalty for a forgotten UNO call falls",
        "option.forgotten_uno.at_play": "at once, with the card",
        "option.forgotten_uno.catch": "only if someone catches it",
        "option.hand_size": "Cards dealt",
        "option.hand_size.help": "how many cards each player gets at the start of a round",
        "option.stack_draws": "Stack draw cards",
        "option.stack_draws.help": "answer a draw card with another: the count adds up "
                                   "until someone cannot and takes them all",
        "option.stack_draws.off": "no",
        "option.stack_draws.same": "the same kind",
        "option.stack_draws.cross": "any draw card",
        "option.stack_draws.up": "upwards only: +4 on +2",
        "option.stacked_draw4_challenge": "Challenge a Wild Draw 4 on a stack",
        "option.stacked_draw4_challenge.help": "a Wild Draw 4 laid on draw cards already "
                                               "stacked may be challenged too",
        "option.jump_in_wilds": "Jump in with wilds",
        "option.jump_in_wilds.help": "a Wild may jump in on a Wild, a Wild Draw 4 on a "
                                     "Wild Draw 4",
        "option.no_jump_in_on_stack": "No jumping in on a stack",
        "option.no_jump_in_on_stack.help": "while draw cards are stacked nobody may jump in",
        "option.no_draw_finish": "No going out on a draw card",
        "option.no_draw_finish.help": "the last card may not make anyone draw; Skip and "
                                      "Reverse may finish",
        "option.banned_finish_penalty": "Cards for a banned last card",
        "option.banned_finish_penalty.help": "who tries to go out on a banned card takes "
                                             "these and keeps playing (0: only refused)",
        "option.false_uno_penalty": "Cards for a false UNO call",
        "option.false_uno_penalty.help": "who calls UNO with two cards or more takes these "
                                         "(0: the call is only refused)",
        "option.swap_uno_called": "A swapped-in last card counts as called",
        "option.swap_uno_called.help": "whoever gets a one-card hand by a 7 or 0 cannot "
                                       "be caught",
        "option.playable_draw_penalty": "Cards for drawing instead of playing",
        "option.playable_draw_penalty.help": "bots only (the table cannot see a hand): "
                                             "drawing with a card that fits costs these",
        "option.seven_zero": "Seven swaps, zero passes",
        "option.seven_zero.help": "a 7 swaps hands with a player you choose; a 0 passes "
                                  "every hand on",
        "option.jump_in": "Jump in",
        "option.jump_in.help": "a card identical to the top card may be laid out of turn; "
                               "play goes on from there",
        "option.draw_until_playable": "Draw until it fits",
        "option.draw_until_playable.help": "a player who cannot play draws one card at a "
                                           "time until one fits",
        "option.forced_play": "A drawn card that fits must be played",
        "option.forced_play.help": "no keeping a playable drawn card",
        "option.no_bluff": "No bluffing with Wild Draw 4",
        "option.no_bluff.help": "a Wild Draw 4 only with no card of the current colour, and "
                                "no challenge",
        "option.no_action_finish": "No going out on an action card",
        "option.no_action_finish.help": "the last card may not be an action or wild card",
        "option.turn_timer_s": "Seconds for a turn",
        "option.turn_timer_s.help": "0: no timer; the seat's light blinks in the last 5 "
                                    "seconds",
        "option.timeout_action": "When the time runs out",
        "option.timeout_action.help": "what the table does for a player whose turn timer ran "
                                      "out",
        "option.timeout_action.draw": "the player draws",
        "option.timeout_action.pass": "the player passes",
        "option.timeout_action.warn": "only a warning",
        "preset.seed": "As printed in the rules",
        "preset.seed.help": "the rules sheet in the box, every house rule off",
        "preset.mattel": "Mattel's official rules",
        "preset.mattel.help": "where Mattel's current rules differ from the sheet in the box",
        "preset.party": "Party",
        "preset.party.help": "stack draw cards, seven swaps and zero passes, jump in",
        "edition.classic": "UNO: 108 cards, drawn from the pile",
        "edition.power": "UNO Power: 112 cards and the towers U N O !",
        "edition.attack": "UNO Attack: 112 cards and a card launcher",
        "edition.attack-1999": "UNO Attack (1999 deck): 112 cards and a card launcher",
        "edition.extreme": "UNO Extreme: 112 cards and a random card dispenser",
    },
    "de": {
        "option.draw_then_play": "Gezogene Karte gleich legen",
        "option.draw_then_play.help": "wer in seinem Zug zieht, darf die gezogene Karte "
                                      "sofort legen; aus: Ziehen beendet den Zug",
        "option.draw_when_playable": "Ziehen, obwohl man legen könnte",
        "option.draw_when_playable.help": "statt eine passende Karte zu legen, darf man "
                                          "ziehen; dann nur die gezogene legen",
        "option.wild_draw4_restricted": "Zieh 4 nur ohne die Farbe",
        "option.wild_draw4_restricted.help": "Zieh 4 darf nur legen, wer keine Karte der "
                                             "aktuellen Farbe hat; der Nächste darf anzweifeln",
        "option.wild_draw4_points": "Punkte einer Zieh-4-Karte",
        "option.wild_draw4_points.help": "was eine Zieh-4-Karte, die am Rundenende auf der "
                                         "Hand ist, zählt",
        "option.wild_restricted": "Farbenwahl nur ohne die Farbe",
        "option.wild_restricted.help": "eine einfache Farbenwahl-Karte darf nur legen, wer "
                                       "keine Karte der aktuellen Farbe hat",
        "option.skip_reverse_extra_turn": "Aussetzen und Retour: noch ein Zug",
        "option.skip_reverse_extra_turn.help": "wann, wer Aussetzen oder Retour legt, gleich "
                                               "noch eine Karte legen darf",
        "option.skip_reverse_extra_turn.two-player": "zu zweit",
        "option.skip_reverse_extra_turn.always": "immer",
        "option.two_player_reverse_skips": "Retour zu zweit wie Aussetzen",
        "option.two_player_reverse_skips.help": "zu zweit wirkt Retour wie Aussetzen: "
                                                "dieselbe Person ist noch einmal dran",
        "option.wild_customizable": "Was die anpassbare Karte tut",
        "option.wild_customizable.help": "wofür die leere Joker-Karte steht, außer eine Farbe "
                                         "zu wählen",
        "option.wild_customizable.wild": "nur Farbenwahl",
        "option.wild_customizable.skip": "Aussetzen",
        "option.wild_customizable.reverse": "Retour",
        "option.wild_customizable.hit-2": "Hit 2",
        "option.wild_customizable.hit-4": "Wild Hit 4",
        "option.wild_customizable.attack-attack": "Attack-Attack",
        "option.wild_customizable.hit-fire": "Hit Fire",
        "option.wild_customizable.all-hit": "All Hit",
        "option.wild_customizable.trade-hands": "Hände tauschen",
        "option.all_hit_scope": "Wer bei Wild All Hit drückt",
        "option.all_hit_scope.help": "alle, oder alle außer der Person, die sie gelegt hat",
        "option.all_hit_scope.all": "alle",
        "option.all_hit_scope.others": "die anderen",
        "option.scoring": "Punkte zählen",
        "option.scoring.help": "wer die Punkte der Karten bekommt, die auf den Händen bleiben",
        "option.scoring.winner_takes": "der Gewinner bekommt alle Punkte",
        "option.scoring.running_low": "jeder zählt selbst, die wenigsten gewinnen",
        "option.target_score": "Punkte zum Sieg",
        "option.target_score.help": "das Spiel endet, wenn jemand so viele Punkte hat",
        "option.uno_penalty": "Strafe für vergessenes UNO",
        "option.uno_penalty.help": "so viele Karten nehmen (Werfer-Ausgaben: so oft drücken), "
                                   "wenn UNO nicht gerufen wurde",
        "option.forgotten_uno": "Vergessenes UNO",
        "option.forgotten_uno.help": "wann die Strafe für ein vergessenes UNO fällig wird",
        "option.forgotten_uno.at_play": "sofort, mit der Karte",
        "option.forgotten_uno.catch": "nur, wenn jemand es bemerkt",
        "option.hand_size": "Karten zum Start",
        "option.hand_size.help": "wie viele Karten jeder zu Beginn einer Runde bekommt",
        "option.stack_draws": "Ziehkarten stapeln",
        "option.stack_draws.help": "eine Ziehkarte mit einer weiteren beantworten: die Zahl "
                                   "wächst, bis jemand nicht kann und alle nimmt",
        "option.stack_draws.off": "nein",
        "option.stack_draws.same": "nur gleiche",
        "option.stack_draws.cross": "alle Ziehkarten",
        "option.stack_draws.up": "nur aufwärts: +4 auf +2",
        "option.stacked_draw4_challenge": "Zieh 4 auf dem Stapel anzweifeln",
        "option.stacked_draw4_challenge.help": "auch eine Zieh-4-Karte, die auf schon "
                                               "gestapelte Ziehkarten kommt, darf man anzweifeln",
        "option.jump_in_wilds": "Mit Farbenwahl dazwischenwerfen",
        "option.jump_in_wilds.help": "Farbenwahl auf Farbenwahl und Zieh 4 auf Zieh 4 dürfen "
                                     "dazwischengeworfen werden",
        "option.no_jump_in_on_stack": "Nicht auf einen Stapel dazwischenwerfen",
        "option.no_jump_in_on_stack.help": "solange Ziehkarten gestapelt sind, wirft niemand "
                                           "dazwischen",
        "option.no_draw_finish": "Nicht mit Ziehkarte beenden",
        "option.no_draw_finish.help": "die letzte Karte darf niemanden ziehen lassen; "
                                      "Aussetzen und Retour sind erlaubt",
        "option.banned_finish_penalty": "Strafkarten für verbotenes Beenden",
        "option.banned_finish_penalty.help": "wer mit einer verbotenen Karte ausgehen will, "
                                             "nimmt so viele und spielt weiter (0: nur abgelehnt)",
        "option.false_uno_penalty": "Strafkarten für falsches UNO",
        "option.false_uno_penalty.help": "wer mit zwei oder mehr Karten UNO ruft, nimmt so "
                                         "viele (0: der Ruf wird nur abgelehnt)",
        "option.swap_uno_called": "Getauschte letzte Karte gilt als gerufen",
        "option.swap_uno_called.help": "wer durch eine 7 oder 0 nur noch eine Karte hat, "
                                       "kann nicht erwischt werden",
        "option.playable_draw_penalty": "Strafkarten für Ziehen statt Legen",
        "option.playable_draw_penalty.help": "nur für Bots (der Tisch sieht keine Hand): wer "
                                             "zieht, obwohl eine Karte passt, nimmt so viele",
        "option.seven_zero": "Sieben tauscht, Null gibt weiter",
        "option.seven_zero.help": "mit einer 7 tauscht man die Karten mit jemandem; bei einer "
                                  "0 geben alle ihre Karten weiter",
        "option.jump_in": "Dazwischenwerfen",
        "option.jump_in.help": "eine Karte, die genau der obersten gleicht, darf jeder "
                               "jederzeit legen; von dort geht es weiter",
        "option.draw_until_playable": "Ziehen, bis es passt",
        "option.draw_until_playable.help": "wer nicht legen kann, zieht so lange einzeln, bis "
                                           "eine Karte passt",
        "option.forced_play": "Passende gezogene Karte legen",
        "option.forced_play.help": "eine gezogene Karte, die passt, muss gelegt werden",
        "option.no_bluff": "Kein Bluff mit Zieh 4",
        "option.no_bluff.help": "Zieh 4 nur ohne Karte der aktuellen Farbe, und kein "
                                "Anzweifeln",
        "option.no_action_finish": "Nicht mit Aktionskarte beenden",
        "option.no_action_finish.help": "die letzte Karte darf keine Aktions- oder "
                                        "Farbenwahl-Karte sein",
        "option.turn_timer_s": "Sekunden pro Zug",
        "option.turn_timer_s.help": "0: keine Zeitbegrenzung; in den letzten 5 Sekunden "
                                    "blinkt das Licht am Platz",
        "option.timeout_action": "Wenn die Zeit abläuft",
        "option.timeout_action.help": "was der Tisch tut, wenn die Zugzeit abgelaufen ist",
        "option.timeout_action.draw": "es wird gezogen",
        "option.timeout_action.pass": "es wird gepasst",
        "option.timeout_action.warn": "nur eine Warnung",
        "preset.seed": "Wie in der Anleitung",
        "preset.seed.help": "die Regeln aus der Schachtel, ohne Hausregeln",
        "preset.mattel": "Offizielle Mattel-Regeln",
        "preset.mattel.help": "wo die heutigen Regeln von Mattel von der Anleitung in der "
                              "Schachtel abweichen",
        "preset.party": "Party",
        "preset.party.help": "Ziehkarten stapeln, Sieben tauscht und Null gibt weiter, "
                             "Dazwischenwerfen",
        "edition.classic": "UNO: 108 Karten, vom Stapel gezogen",
        "edition.power": "UNO Power: 112 Karten und die Türme U N O !",
        "edition.attack": "UNO Attack: 112 Karten und ein Kartenwerfer",
        "edition.attack-1999": "UNO Attack (Karten von 1999): 112 Karten und ein Kartenwerfer",
        "edition.extreme": "UNO Extreme: 112 Karten und ein Kartenwerfer mit Zufall",
    },
}
