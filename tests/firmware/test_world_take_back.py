"""The twin's world gives a refused (or never heard) declaration's cards back: the ones
just laid, even when an equal card lies further down the discard pile (crash soak:
a restart took back the B8 under the B9 instead of the B8 just laid on it)."""

from __future__ import annotations

import json


def test_the_card_just_laid_comes_back_not_an_equal_one_below(world):
    world.hands = [["B8", "R1"], ["B8", "G2"]]
    world.discard = ["BS"]
    world.lay(1, ["B8"])
    world.discard.append("B9")  # someone plays on it
    world.lay(0, ["B8"])
    world.take_back(0, ["B8"])
    assert world.discard == ["BS", "B8", "B9"]
    assert sorted(world.hands[0]) == ["B8", "R1"]


def test_cards_laid_under_the_top_come_back_from_under_it(world):
    world.hands = [["G5", "Y1"], []]
    world.discard = ["G5", "B2", "Y3"]  # an equal G5 deep down
    world.lay(0, ["G5"], under_top=True)  # the four-tower discard
    assert world.discard == ["G5", "B2", "G5", "Y3"]
    world.take_back(0, ["G5"])
    assert world.discard == ["G5", "B2", "Y3"]
    assert sorted(world.hands[0]) == ["G5", "Y1"]


def test_the_file_holds_the_pile_after_taking_back(world, tmp_path):
    world.hands = [["B8"], []]
    world.discard = ["B8", "B9"]
    world.lay(0, ["B8"])
    world.take_back(0, ["B8"])
    assert json.loads((tmp_path / "journal.db.world.json").read_text())["discard"] == ["B8", "B9"]
