"""A seat without a name is said as data: the state's `names` holds "" for it (no text
stands for "no name"), and every message, the MQTT state and a restart agree."""

from __future__ import annotations

from firmware.api import requests as api
from firmware.config import DEFAULT_PATH, load_config
from firmware.mqtt.from_table import player_names
from firmware.sim.testbed import SimTable


def test_a_seat_the_new_match_names_not_is_empty_in_the_state_and_seat_n_in_words(tmp_path):
    with SimTable(tmp_path, "classic", players=3) as table:
        table.submit(api.Admin("new-match", {"names": ["Ann"]}))
        st = table.settle()
        assert st["names"] == ["Ann", "", ""]
        assert player_names(st["names"]) == ["Ann", "seat 2", "seat 3"]  # Home Assistant's
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn" and st["to_act"] > 0)
        assert st["waiting"]["message"] == f"seat {st['to_act'] + 1}: your turn"  # as the screen counts
    with SimTable(tmp_path, "classic", players=3) as again:  # the journal's replay
        assert again.state()["names"] == ["Ann", "", ""]


def test_a_config_without_names_leaves_every_seat_unnamed(tmp_path):
    shipped = DEFAULT_PATH.read_text()
    path = tmp_path / "config.toml"
    path.write_text("".join(line for line in shipped.splitlines(keepends=True)
                            if not line.startswith("names = ")))
    assert load_config(path).table.names == ("", "", "", "")
