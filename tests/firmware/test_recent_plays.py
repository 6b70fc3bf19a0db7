"""The strip's plays (`recent` in the public state): five, newest first; an undo takes its
play off; a new match empties it; other events leave it alone."""

from __future__ import annotations

import json
from urllib.request import urlopen

from firmware.api.recent import RecentPlays
from firmware.sim.testbed import SimTable


def play(seat: int, card: str, **more: object) -> dict[str, object]:
    return {"kind": "action", "action": {"type": "play", "seat": seat, "card": card, **more}, "effects": []}


def test_the_last_five_plays_newest_first_with_their_colour_and_target():
    recent = RecentPlays()
    for i, card in enumerate(["R1", "R2", "R3", "R4", "R5"]):
        recent.note(play(i % 4, card))
    recent.note(play(1, "WAA", colour="B", target=3))
    recent.note({"kind": "action", "action": {"type": "draw", "seat": 2}, "effects": []})
    assert recent.public()["recent"] == [{"seat": 1, "card": "WAA", "colour": "B", "target": 3},
                                         {"seat": 0, "card": "R5"}, {"seat": 3, "card": "R4"},
                                         {"seat": 2, "card": "R3"}, {"seat": 1, "card": "R2"}]


def test_an_undo_takes_its_play_off_and_a_new_match_empties_the_strip():
    recent = RecentPlays()
    recent.note(play(0, "R1"))
    recent.note(play(1, "G1"))
    recent.note({"kind": "undone", "seat": 1, "card": "G1", "laid": []})
    assert recent.public()["recent"] == [{"seat": 0, "card": "R1"}]
    recent.note({"kind": "new_match", "edition": "classic", "seats": 4})
    assert recent.public()["recent"] == []


def test_the_daemons_state_holds_the_last_five_plays_as_the_table_played_them(tmp_path):
    with SimTable(tmp_path, "classic", players=4, seed=3) as table:
        st = table.play_until(lambda st: st["step"] >= 40)
        top = st["top"]
        while st["top"] == top:  # until the next card is laid
            table.bot_step()
            st = table.state()
        with urlopen(f"{table.url}/api/state") as answer:
            recent = json.load(answer)["recent"]
    assert len(recent) == 5
    assert recent[0]["card"] == st["top"]  # the newest first
    steps = [play["step"] for play in recent]
    assert steps == sorted(steps, reverse=True) and len(set(steps)) == 5
