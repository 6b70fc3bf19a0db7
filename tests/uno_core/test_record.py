"""Game records: write, read, replay; bad records name their line and change nothing."""

import json
import random

import pytest

from tests.uno_core.helpers import play_match
from uno_core import EDITIONS, EnterHand, Play, Shuffle, get_edition, snapshot
from uno_core.bots import RandomBot
from uno_core.bots import play_match as bot_match
from uno_core.cards import parse_card
from uno_core.record import (
    FormatError,
    ReplayMismatch,
    read_record,
    replay_record,
    write_record,
)


def _record(edition="classic", seats=3, seed=5, mode="simulation", options=None,
            effects=True, final=True):
    state, log = play_match(edition, seats, seed, mode=mode,
                            options=options or {"target_score": 150})
    return state, write_record(edition, seats, [a for a, _ in log],
                               options=options or {"target_score": 150}, mode=mode, seed=seed,
                               effects=[fx for _, fx in log] if effects else None,
                               final=state if final else None)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("mode", ["simulation", "table"])
def test_a_record_replays_to_the_same_final_state(edition, mode):
    state, text = _record(edition, 3, seed=21, mode=mode)
    final, _ = replay_record(text)
    assert snapshot(final) == snapshot(state)
    assert final.over


def test_header_carries_edition_options_seats_mode_and_seed():
    _, text = _record("power", 4, seed=9, options={"target_score": 100, "uno_penalty": 4})
    head = json.loads(text.splitlines()[0])
    # every option of the edition is listed with its value, not only the overrides, so a
    # reader needs no table of defaults (issue 11)
    every = {"draw_then_play": True, "draw_when_playable": True, "forgotten_uno": "catch",
             "hand_size": 7, "scoring": "winner_takes", "target_score": 100,
             "two_player_reverse_skips": True, "uno_penalty": 4,
             "wild_draw4_restricted": True,
             # the house rules, off (issue 12)
             "stack_draws": "off", "seven_zero": False, "jump_in": False,
             "draw_until_playable": False, "forced_play": False, "no_bluff": False,
             "no_action_finish": False, "turn_timer_s": 0, "timeout_action": "draw",
             # the rules other tables play, off (issue 23)
             "stacked_draw4_challenge": False, "jump_in_wilds": False,
             "no_jump_in_on_stack": False, "no_draw_finish": False,
             "banned_finish_penalty": 0, "false_uno_penalty": 0,
             "swap_uno_called": False, "playable_draw_penalty": 0}
    assert head == {"record": "unotable-game", "version": 1, "edition": "power", "seats": 4,
                    "mode": "simulation", "options": every, "seed": 9}
    rec = read_record(text)
    assert (rec.edition, rec.seats, rec.seed, dict(rec.options)) == ("power", 4, 9, every)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_header_lists_the_value_of_every_option_of_the_edition(edition):
    text = write_record(edition, 2, [], options={"target_score": 77})
    options = json.loads(text.splitlines()[0])["options"]
    assert set(options) == set(get_edition(edition).option_defaults)
    assert options["target_score"] == 77
    assert options == {**get_edition(edition).option_defaults, "target_score": 77}


def test_a_header_with_only_overrides_still_reads_defaults_fill_the_rest():
    # records written before every option was listed (journals, old bug reports)
    old = ('{"edition": "classic", "mode": "simulation", "options": {"target_score": 150}, '
           '"record": "unotable-game", "seats": 2, "version": 1}\n')
    state, _ = replay_record(old)
    assert state.options.target_score == 150
    assert state.options.wild_draw4_points == 70


def test_every_line_after_the_header_is_one_action_or_the_result():
    state, text = _record("attack", 3, seed=4)
    lines = [json.loads(x) for x in text.splitlines()]
    assert lines[-1] == {"result": {"round": state.round_no, "phase": "match_over",
                                    "scores": list(state.scores),
                                    "winners": list(state.winners)}}
    kinds = {line["type"] for line in lines[1:-1]}
    assert {"dealer_cards", "shuffle", "play", "press", "eject"} <= kinds


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_card_of_the_deck_survives_a_record(edition):
    deck = EDITIONS[edition].deck
    text = write_record(edition, 2, [EnterHand(0, deck), Play(1, deck[-1], colour="R")])
    rec = read_record(text)
    assert rec.actions[0].cards == deck
    assert rec.actions[1].card == deck[-1]


def test_a_record_without_effects_or_result_still_replays():
    state, text = _record("extreme", 2, seed=3, effects=False, final=False)
    assert all("effects" not in json.loads(x) for x in text.splitlines()[1:])
    final, _ = replay_record(text)
    assert final == state


def test_records_from_bots_replay():
    rng = random.Random(2)
    log = bot_match("attack-1999", 3, [RandomBot(rng, forget_uno=0.5) for _ in range(3)], rng)
    text = write_record("attack-1999", 3, log.actions, effects=log.effects, final=log.state)
    assert replay_record(text)[0] == log.state


def _lines(text):
    return text.splitlines()


def _join(lines):
    return "\n".join(lines) + "\n"


def test_a_changed_effect_is_a_mismatch_naming_the_line():
    _, text = _record("classic", 3, seed=8)
    lines = _lines(text)
    i = next(n for n, x in enumerate(lines) if '"card_played"' in x)
    data = json.loads(lines[i])
    for e in data["effects"]:
        if e["type"] == "card_played":
            e["seat"] = (e["seat"] + 1) % 3
    lines[i] = json.dumps(data)
    with pytest.raises(ReplayMismatch) as err:
        replay_record(_join(lines))
    assert err.value.line == i + 1
    assert f"line {i + 1}" in str(err.value)


def test_a_changed_result_is_a_mismatch():
    _, text = _record("classic", 3, seed=8)
    lines = _lines(text)
    result = json.loads(lines[-1])
    result["result"]["scores"][0] += 1
    lines[-1] = json.dumps(result)
    with pytest.raises(ReplayMismatch, match="the record says"):
        replay_record(_join(lines))


def test_an_illegal_action_names_its_line_and_rule():
    _, text = _record("classic", 3, seed=8, effects=False)
    lines = _lines(text)
    i = next(n for n, x in enumerate(lines) if '"type": "play"' in x)
    data = json.loads(lines[i])
    data["seat"] = (data["seat"] + 1) % 3  # not this seat's turn
    lines[i] = json.dumps(data)
    with pytest.raises(FormatError) as err:
        replay_record(_join(lines))
    assert err.value.where == f"line {i + 1}"
    assert "not seat" in err.value.message and "turn" in err.value.message


HEADER = json.dumps({"record": "unotable-game", "version": 1, "edition": "classic",
                     "seats": 2, "mode": "simulation", "options": {}})


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("", "line 1", "no header"),
        ("{not json\n", "line 1", "not JSON"),
        ('{"record": "chess"}\n', "line 1", "not a game record"),
        (HEADER.replace('"version": 1', '"version": 9') + "\n", "line 1", "version 9"),
        (HEADER.replace('"seats": 2', '"seats": "two"') + "\n", "line 1", "'seats'"),
        (HEADER.replace('"classic"', '"uno-flip"') + "\n", "line 1", "uno-flip"),
        (HEADER.replace('"options": {}', '"options": {"stacking": true}') + "\n", "line 1",
         "stacking"),
        (HEADER.replace('"mode": "simulation"', '"mode": "dream"') + "\n", "line 1", "dream"),
        (HEADER[:-1] + ', "colour": "R"}\n', "line 1", "unknown header field 'colour'"),
        (HEADER + '\n{"type": "fly", "seat": 0}\n', "line 2", "unknown action type"),
        (HEADER + '\n{"type": "play", "seat": 0, "card": "R77"}\n', "line 2", "R77"),
        (HEADER + '\n{"type": "draw", "seat": 0, "wings": 2}\n', "line 2", "wings"),
        (HEADER + '\n[1, 2]\n', "line 2", "JSON object"),
        (HEADER + '\n\n{"type": "draw", "seat": 0}\n', "line 2", "blank line"),
        (HEADER + '\n{"result": {}}\n{"type": "draw", "seat": 0}\n', "line 3",
         "nothing may follow"),
        (HEADER + '\n{"type": "draw", "seat": 0, "effects": 3}\n', "line 2", "effects"),
    ],
)
def test_bad_records_name_the_line(text, where, words):
    with pytest.raises(FormatError) as err:
        read_record(text)
    assert err.value.where == where
    assert words in str(err.value)


def test_a_chance_outcome_that_does_not_fit_is_rejected_with_its_line():
    text = write_record("classic", 2, [Shuffle((0, 1, 2))])  # dealer cards come first
    with pytest.raises(FormatError) as err:
        replay_record(text)
    assert err.value.where == "line 2" and "dealer_cards" in err.value.message


def test_header_seats_outside_the_edition_are_rejected():
    text = HEADER.replace('"seats": 2', '"seats": 11') + "\n"
    with pytest.raises(FormatError, match="2-10 players"):
        replay_record(text)


def test_cards_in_records_use_the_notation():
    text = write_record("power", 2, [Play(0, parse_card("G3O"))])
    assert json.loads(text.splitlines()[1]) == {"type": "play", "seat": 0, "card": "G3O"}


def test_the_example_header_in_formats_md_is_the_one_written_today():
    from pathlib import Path

    from uno_core.record import header_line

    doc = (Path(__file__).resolve().parents[2] / "docs" / "formats.md").read_text(encoding="utf-8")
    example = next(line for line in doc.splitlines() if line.startswith('{"edition": "classic"'))
    assert example == header_line("classic", 3, seed=1)
