"""`unotable scenario FILE`: the resulting public state and last effects; exit 2 with the
action, its index and the rule for an illegal action, or the reason for a bad file."""

import json
import shutil
from pathlib import Path

import pytest

from firmware.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "power-capture.toml"


def scenario(capsys, *args):
    code = main(["scenario", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_example_scenario_prints_state_and_effects(capsys):
    code, out, err = scenario(capsys, str(EXAMPLE))
    assert code == 0 and err == ""
    assert "top R+1" in out
    # the text counts seats from 1, as the screen does (the file's seat 0 is seat 1)
    assert "towers: U: seat 1" in out
    assert "protection_used(seat=1, tower=U, card=R+1)" in out
    assert "card_played(seat=3, card=R+1)" in out


def test_the_text_counts_seats_from_1_as_the_screen(capsys):
    code, out, _ = scenario(capsys, str(EXAMPLE))
    assert code == 0
    assert "to act seat 1" in out and "after 3 actions" in out
    assert "hand counts: seat 1: 2  seat 2: 2  seat 3: 2" in out
    assert "scores: seat 1: 0  seat 2: 0  seat 3: 0" in out
    header, _, rest = out.partition("\n")
    assert "the file's seat 0 is seat 1" in header
    assert "seat 0" not in rest and "seat=0" not in rest


def test_json_output(capsys):
    code, out, _ = scenario(capsys, str(EXAMPLE), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["applied"] == 3
    assert data["state"]["towers"]["U"] == 0
    assert data["state"]["hand_counts"] == [2, 2, 2]
    assert [e["type"] for e in data["effects"]] == ["card_played", "protection_used"]
    assert "hands" not in data["state"]  # public information only


def test_a_json_scenario_file(capsys, tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"edition": "classic", "hands": ["R7 G2", "B3 R4"],
                                "top": "R5", "actions": [{"type": "play", "seat": 0,
                                                          "card": "R7"}]}))
    code, out, _ = scenario(capsys, str(path), "--json")
    assert code == 0
    assert json.loads(out)["state"]["top"] == "R7"


def test_an_illegal_action_exits_2_naming_action_index_and_rule(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(EXAMPLE.read_text().replace('card = "R2"', 'card = "G2"'))
    code, out, err = scenario(capsys, str(path))
    assert code == 2
    assert out == ""  # nothing half-printed
    assert "action 1 play(seat=1, card=G2) is illegal" in err
    assert "matches neither colour R nor R1U" in err


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("turn = 0", "turn = = 0"), "TOML"),
        (('top = "R5"', 'top = "R55"'), "top: 'R55'"),
        (("turn = 0", "turn = 0\nfoo = 1"), "foo: unknown field"),
    ],
)
def test_a_bad_file_exits_2_with_the_reason(capsys, tmp_path, change, words):
    path = tmp_path / "bad.toml"
    path.write_text(EXAMPLE.read_text().replace(*change, 1))
    code, out, err = scenario(capsys, str(path))
    assert code == 2 and out == ""
    assert words in err and str(path) in err


def test_a_missing_file_exits_2(capsys, tmp_path):
    code, out, err = scenario(capsys, str(tmp_path / "nope.toml"))
    assert code == 2 and "No such file" in err


def test_the_suffix_picks_the_format(capsys, tmp_path):
    path = tmp_path / "s.json"
    shutil.copy(EXAMPLE, path)  # TOML text in a .json file
    code, _, err = scenario(capsys, str(path))
    assert code == 2 and "not JSON" in err


@pytest.mark.parametrize("path", sorted(EXAMPLE.parent.glob("*.toml")), ids=lambda p: p.stem)
def test_every_documented_example_applies(capsys, path):
    code, out, err = scenario(capsys, str(path), "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["applied"] >= 1


def test_table_example_reports_the_guilty_verdict(capsys):
    code, out, _ = scenario(capsys, str(EXAMPLE.parent / "classic-table-draw4.toml"), "--json")
    data = json.loads(out)
    assert data["state"]["mode"] == "table"
    assert data["state"]["hand_counts"] == [5, 7, 6]  # the guilty player took four
    assert {"type": "dispense", "seat": 1, "count": 4} in data["effects"]
