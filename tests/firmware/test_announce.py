"""What the table says for each event: names, languages, and nothing said twice."""

from __future__ import annotations

import random
import typing

import pytest

import uno_core as U
from firmware.announce import _SPOKEN, SILENT, announcements, turn_of
from tests.firmware.announce_samples import NAMES, SAMPLES, action_event, card
from uno_core import effects as E

SAID = {kind: (event, turn, edition) for kind, event, turn, edition in SAMPLES}


def say(kind: str, lang: str = "en", names=NAMES) -> list[str]:
    event, turn, edition = SAID[kind]
    return announcements(event, lang, names, edition=edition, turn=turn)


def test_every_effect_of_the_engine_is_either_spoken_or_left_to_the_screen():
    engine = {cls.name for cls in typing.get_args(E.Effect)}
    assert set(_SPOKEN) | SILENT == engine
    assert not set(_SPOKEN) & SILENT


def test_a_play_says_the_card_and_whose_turn_it_is_by_name():
    assert say("turn") == ["North plays red 7.", "East, your turn."]
    assert say("turn", "de", ("Nord", "Ost", "Süd", "West")) == ["Nord legt eine rote 7.", "Ost ist dran."]


def test_cards_owed_say_how_many_and_to_whom():
    assert say("draw two") == ["North plays blue Draw 2.", "East takes 2 cards.",
                               "East is skipped.", "South, your turn."]
    assert say("presses", "de") == ["West legt eine grüne Hit-2-Karte.",
                                    "Nord, drück 2-mal den Werfer."]
    assert say("ejected") == ["3 cards for South.", "West, your turn."]


def test_protection_tower_capture_uno_and_catch():
    assert say("protection")[1] == "Tower N protects South from Draw 2."
    assert say("protection", "de")[1] == "Turm N schützt Süd vor der Zieh-2-Karte."
    assert say("tower capture")[1] == "Tower exclamation mark goes to South."
    assert say("tower capture", "de")[0] == "Süd legt eine rote 3 mit Turm Ausrufezeichen."
    assert say("uno call")[1] == "East calls Uno!"
    assert say("uno catch") == ["West caught East without Uno.", "East takes 2 cards.",
                                "South, your turn."]


def test_the_round_winner_is_told_with_the_points_won_and_the_total():
    assert say("round winner") == ["South plays yellow 9.",
                                   "South wins the round: plus 55, total 55."]
    assert say("match winner", "de")[-1] == "Süd gewinnt das Spiel mit 510 Punkten!"
    event, _turn, _ed = SAID["round winner"]
    assert announcements(event, "en", NAMES, scoring="running_low")[-1] == (
        "South wins the round. South's total: 55.")


def test_a_tie_names_every_winner():
    event = action_event(U.EnterHand(0, ()), E.MatchOver((0, 2), (500, 0, 500, 0)))
    assert announcements(event, "en", NAMES) == ["North and South win the match with 500 points!"]
    assert announcements(event, "de", NAMES) == ["Nord und Süd gewinnen das Spiel mit 500 Punkten!"]


def test_the_deal_is_one_sentence_and_an_own_press_says_only_what_came():
    deal = action_event(U.Shuffle(), *(E.Dispense(i, 7) for i in range(4)))
    assert announcements(deal, "en", NAMES) == ["Everyone gets 7 cards."]
    draw = action_event(U.Draw(1), E.Dispense(1, 1))
    assert announcements(draw, "en", NAMES, turn=2) == ["East takes one card.", "South, your turn."]
    press = action_event(U.Press(1), E.OwePresses(1, 1, E.FIXED))
    assert announcements(press, "en", NAMES) == []
    assert announcements(action_event(U.Eject(0), E.Ejected(1, 0)), "en", NAMES, turn=2) == [
        "No cards for East.", "South, your turn."]


def test_everyone_pressing_once_is_said_once():
    event = action_event(U.Play(0, card("WAH"), colour="R"), E.CardPlayed(0, card("WAH")),
                         E.ColourChosen(0, "R"),
                         *(E.OwePresses(i, 1, E.EVERYONE_ONCE) for i in range(4)))
    assert announcements(event, "de", NAMES, edition="attack-1999") == [
        "Nord legt eine Wild-All-Hit-Karte.", "Nord wünscht sich Rot.", "Alle drücken einmal den Werfer."]


def test_a_late_uno_call_does_not_repeat_whose_turn_it_is():
    event = action_event(U.CallUno(1), E.UnoCalled(1))
    assert announcements(event, "en", NAMES, turn=2) == ["East calls Uno!"]


def test_a_tower_going_back_and_a_seat_without_a_name_is_numbered_from_one():
    event = action_event(U.FourTowerDiscard(0, ()), E.TowerMoved("U", E.NEUTRAL))
    assert announcements(event, "en", ()) == ["Tower U goes back to the middle."]
    event = action_event(U.Play(4, card("R1")), E.CardPlayed(4, card("R1")))
    assert announcements(event, "en", NAMES) == ["seat 5 plays red 1."]


@pytest.mark.parametrize("kind", ["new_match", "refused", "tower_capture", "protected", "paused"])
def test_events_besides_actions_are_not_spoken(kind):
    # tower_capture / protected repeat the action's own effects: said once, from the action
    assert announcements({"kind": kind, "seat": 0, "tower": "U", "slot": 0}, "en", NAMES) == []


def test_turn_of_is_the_seat_to_play_and_nobody_while_presses_are_owed():
    rng = random.Random(5)
    state = U.new_match("attack", 3)
    seen_turn = seen_owed = False
    for _ in range(400):
        if state.to_act == U.CHANCE:
            state, _fx = U.apply(state, U.sample_outcome(state, rng))
            continue
        if state.over:
            break
        if state.queue:
            assert turn_of(state) is None
            seen_owed = True
        elif state.phase == "play":
            assert turn_of(state) == state.to_act
            seen_turn = True
        state, _fx = U.apply(state, rng.choice(U.legal_actions(state)))
    assert seen_turn and seen_owed
    assert turn_of(None) is None


def test_the_voice_names_the_demos_person_by_the_seats_number_in_either_language():
    """A pronoun takes its own verb ("Du bist", "You play"); the voice's sentences are
    written for a name, so it names the person's seat instead."""
    names = ["You", "East", "South", "West"]
    turn = {"kind": "action", "action": {"type": "play", "seat": 3, "card": "R7"},
            "effects": []}
    assert announcements(turn, "de", names, edition="classic", turn=0)[-1] == "Platz 1 ist dran."
    assert announcements(turn, "en", names, edition="classic", turn=0)[-1] == "Seat 1, your turn."
    assert announcements(turn, "de", ["Anna", *names[1:]], edition="classic", turn=0)[-1] == (
        "Anna ist dran.")
