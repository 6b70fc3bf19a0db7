"""The running daemon speaks: `[voice] enabled` on the twin, through an injected speaker
(a recorder), and a missing espeak-ng warns once while the table plays on."""

from __future__ import annotations

import json
import logging
import threading
import urllib.request

from firmware.sim.testbed import SimTable
from firmware.voice import Espeak


class Recorder:
    """A speaker that says everything at once into a list."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.lock = threading.Lock()

    def problem(self) -> None:
        return None

    def speak(self, text: str) -> None:
        with self.lock:
            self.said.append(text)

    def stop(self) -> None:
        pass


def health(table: SimTable) -> dict:
    with urllib.request.urlopen(f"{table.url}/api/health", timeout=10) as answer:
        return json.load(answer)


def spoken_until(table: SimTable, speaker: Recorder, text: str) -> list[str]:
    """What the voice said once it has said a line holding `text` (the worker is a thread)."""
    for _ in range(500):
        with speaker.lock:
            if any(text in line for line in speaker.said):
                return list(speaker.said)
        table.settle()
        threading.Event().wait(0.01)
    raise AssertionError(f"the voice never said {text!r}: {speaker.said[-5:]}")


def test_a_running_daemon_speaks_turns_and_the_round_winner(tmp_path, mock_factory):
    speaker = Recorder()
    with SimTable(tmp_path, "classic", seed=3, factory=mock_factory, speaker=speaker) as table:
        table.play_until(lambda st: st["stats"]["rounds"] >= 1)
        said = spoken_until(table, speaker, "wins the round")
        status = health(table)["voice"]
    assert any(line.endswith(", your turn.") and line.split(",")[0] in table.controller.names
               for line in said)
    winner_lines = [line for line in said if "wins the round: plus" in line]
    assert len(winner_lines) == 1 and winner_lines[0].split(" wins")[0] in ("North", "East",
                                                                            "South", "West")
    assert status["enabled"] and status["problem"] is None and status["spoken"] >= len(said) - 1


def test_the_daemon_speaks_german_when_the_table_does(tmp_path, mock_factory):
    speaker = Recorder()
    with SimTable(tmp_path, "classic", seed=3, factory=mock_factory, speaker=speaker,
                  language="de") as table:
        table.play_until(lambda st: st["stats"]["rounds"] >= 1)
        said = spoken_until(table, speaker, "gewinnt die Runde")
    assert any(line.endswith(" ist dran.") for line in said)
    assert not any("your turn" in line for line in said)


def test_a_missing_espeak_warns_once_and_the_table_plays_on(tmp_path, mock_factory, caplog):
    missing = Espeak("en", program=str(tmp_path / "no-espeak-ng"))
    with caplog.at_level(logging.WARNING, logger="firmware.voice"), \
            SimTable(tmp_path, "classic", seed=3, factory=mock_factory, speaker=missing) as table:
        st = table.play_until(lambda st: st["stats"]["rounds"] >= 1)
        status = health(table)["voice"]
    warnings = [r.getMessage() for r in caplog.records if r.name == "firmware.voice"]
    assert warnings == [f"voice: {tmp_path / 'no-espeak-ng'} is not installed "
                        "(sudo apt-get install espeak-ng); the table plays on without speaking"]
    assert st["stats"]["rounds"] >= 1
    assert status["enabled"] and not status["active"] and "not installed" in status["problem"]
