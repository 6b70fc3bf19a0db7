"""Scenario files: any position from TOML or JSON, then actions; bad files name the field."""

import json

import pytest

from uno_core import public_state
from uno_core.cards import parse_cards
from uno_core.record import FormatError
from uno_core.scenario import ScenarioActionError, parse_scenario, run_scenario

POWER = """
edition = "power"
hands = ["R1U R9 B4", "R2 G2 G3", "R+1 Y6 B7"]
top = "R5"
turn = 0
towers = { U = 2 }
actions = [
  { type = "play", seat = 0, card = "R1U" },
  { type = "play", seat = 1, card = "R2" },
  { type = "play", seat = 2, card = "R+1" },
]
"""


def test_a_toml_scenario_sets_up_the_position_and_applies_its_actions():
    sc = parse_scenario(POWER)
    assert sc.start.hands[0] == parse_cards("R1U R9 B4")
    assert sc.start.towers == (2, -1, -1, -1)
    run = run_scenario(sc)
    view = public_state(run.state)
    assert view["towers"]["U"] == 0  # seat 0 captured U with the symbol card
    assert view["top"] == "R+1"
    assert view["hand_counts"] == [2, 2, 2]  # the Draw 1 was blocked: nobody drew
    names = [e.name for e in run.effects]
    assert names == ["card_played", "protection_used"]
    assert run.applied == 3


def test_json_is_the_same_structure():
    data = {"edition": "power", "hands": ["R1U R9 B4", "R2 G2 G3", "R+1 Y6 B7"],
            "top": "R5", "turn": 0, "towers": {"U": 2},
            "actions": [{"type": "play", "seat": 0, "card": "R1U"},
                        {"type": "play", "seat": 1, "card": "R2"},
                        {"type": "play", "seat": 2, "card": "R+1"}]}
    a = run_scenario(parse_scenario(json.dumps(data), "json"))
    b = run_scenario(parse_scenario(POWER))
    assert a.state == b.state and a.effects == b.effects


def test_discard_pile_pile_order_colour_direction_scores():
    sc = parse_scenario("""
edition = "classic"
hands = ["R7 G2", "B3 B4", "Y5 W"]
discard = "G1 G9"
top = "W"
colour = "B"
pile = "R1 R2 R3"
turn = 1
direction = -1
scores = [10, 0, 20]
actions = [{ type = "play", seat = 1, card = "B3", uno = true }, { type = "draw", seat = 0 }]
""")
    assert sc.start.discard == parse_cards("G1 G9 W")
    run = run_scenario(sc)
    # seat 1 played, play goes right to seat 0, who cannot match B3 and draws R3 (top)
    assert run.state.hands[0] == parse_cards("R7 G2 R3")
    assert run.state.pile == parse_cards("R1 R2")
    assert run.state.scores == (10, 0, 20)
    assert run.state.to_act == 2


def test_table_mode_takes_counts():
    run = run_scenario(parse_scenario("""
edition = "attack"
mode = "table"
counts = [3, 1, 4]
top = "G5"
turn = 0
actions = [{ type = "play", seat = 0, card = "GH2" }]
"""))
    assert run.state.counts == (2, 1, 4)
    assert [e.name for e in run.effects][:2] == ["card_played", "owe_presses"]


def test_an_illegal_action_names_its_index_and_rule():
    text = POWER.replace('card = "R2"', 'card = "G2"')  # G2 on R1U: no match
    sc = parse_scenario(text)
    with pytest.raises(ScenarioActionError) as err:
        run_scenario(sc)
    assert err.value.index == 1
    assert "G2" in str(err.value) and "matches neither" in err.value.rule
    assert sc.start.hands[0] == parse_cards("R1U R9 B4")  # the start position is untouched


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (('edition = "power"', 'edition = "flip"'), "position", "flip"),
        (('edition = "power"', ""), "edition", "missing"),
        (('top = "R5"', 'top = "R55"'), "top", "R55"),
        (('top = "R5"', 'top = "R5 R6"'), "top", "one card"),
        (('top = "R5"', ""), "top", "missing"),
        (('"R+1 Y6 B7"', '"R+1 Y6 Q7"'), "hands[2]", "Q7"),
        (('"R+1 Y6 B7"', "7"), "hands[2]", "a card string"),
        (("turn = 0", "turn = 5"), "position", "turn"),
        (("turn = 0", 'turn = "me"'), "turn", "a seat number"),
        (("turn = 0", "colour_of_the_day = 1"), "colour_of_the_day", "unknown field"),
        (("{ U = 2 }", "{ X = 2 }"), "position", "unknown tower"),
        (("{ U = 2 }", '{ U = "two" }'), "towers.U", "seat number"),
        (('card = "R2"', 'card = "R2", wings = 1'), "actions[1]", "wings"),
        (('{ type = "play", seat = 1, card = "R2" }', '"R2"'), "actions[1]",
         "an action is a table"),
        (('"R1U R9 B4"', '"R1U R1U R1U"'), "position", "deck has 1"),
        (("turn = 0", "turn = 0\nseats = 4"), "seats", "says 4"),
        (("turn = 0", "turn = 0\ncounts = [1, 2, 3]"), "counts", "use hands"),
        (("turn = 0", "turn = 0\n[options]\nstacking = true"), "position", "stacking"),
        (("turn = 0", "turn = = 0"), "TOML", "line"),
    ],
)
def test_bad_scenarios_name_the_field(change, where, words):
    old, new = change
    assert old in POWER
    with pytest.raises(FormatError) as err:
        parse_scenario(POWER.replace(old, new, 1))
    assert err.value.where == where
    assert words in str(err.value)


def test_a_late_bad_action_stops_the_parse_before_anything_is_applied():
    # the last action is malformed: parsing fails, so no action has been tried at all
    text = POWER.replace('{ type = "play", seat = 2, card = "R+1" }',
                         '{ type = "play", seat = 2, card = "R+9" }')
    with pytest.raises(FormatError) as err:
        parse_scenario(text)
    assert err.value.where == "actions[2]"


@pytest.mark.parametrize(
    ("text", "where"),
    [("[1, 2]", "JSON"), ('{"edition": "classic",\n "top": }', "line 2")],
)
def test_bad_json_names_where(text, where):
    with pytest.raises(FormatError) as err:
        parse_scenario(text, "json")
    assert err.value.where == where


def test_unknown_format_is_rejected():
    with pytest.raises(FormatError, match="unknown scenario format"):
        parse_scenario(POWER, "yaml")
