"""The voice hooked to a running simulated table, as docs/voice.md wires it: every
event of a real round gives sentences that name seats by name, in both languages."""

from __future__ import annotations

import re

import pytest

from firmware.announce import announcements, turn_of
from firmware.sim.testbed import SimTable
from firmware.voice import Voice


class Recorder:
    """A speaker that says everything at once into a list."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def problem(self) -> None:
        return None

    def speak(self, text: str) -> None:
        self.said.append(text)

    def stop(self) -> None:
        pass


# what each edition's round must have said, in English and in German
TOLD = {"power": (("Tower ", "Turm "), ("Tower ", "Turm ")),
        "attack": ((" cards for ", " Karten für "), ("press the launcher", "den Werfer"))}


@pytest.mark.parametrize("edition", sorted(TOLD))
def test_a_round_is_told_in_english_and_german(tmp_path, mock_factory, edition):
    lines: dict[str, list[str]] = {"en": [], "de": []}
    speaker = Recorder()
    with SimTable(tmp_path, edition, seed=2, factory=mock_factory, forget_uno=0.5) as table, \
            Voice(speaker, queue_size=10_000) as voice:
        ctl = table.controller
        names = ctl.names
        speaker_fed: list[str] = []

        def hook(event):  # the hook of docs/voice.md, here in both languages
            for lang, said in lines.items():
                said += announcements(event, lang, names, edition=ctl.state.edition.name,
                                      scoring=ctl.state.options.scoring, turn=turn_of(ctl.state))
            voice.say_all(lines["en"][len(speaker_fed):])
            speaker_fed[:] = lines["en"]

        table.call(lambda: ctl.listeners.append(hook))
        table.play_until(lambda st: st["stats"]["rounds"] >= 1)
    en, de = lines["en"], lines["de"]
    assert len(en) == len(de) > 50
    assert names == ["North", "East", "South", "West"]
    for line in en + de:
        # every seat by its name: no "seat 3" / „Platz 3" (the neutral place is „der neutrale Platz")
        assert "{" not in line and "seat" not in line.lower() and not re.search(r"platz \d", line.lower())
    assert any(line.endswith(", your turn.") for line in en)
    assert any(line.endswith(" ist dran.") for line in de)
    for english, german in TOLD[edition]:
        assert any(english in line for line in en) and any(german in line for line in de)
    assert sum("wins the round" in line for line in en) == 1
    assert sum("gewinnt die Runde" in line for line in de) == 1
    # the voice said what the hook gave it, in order, once the worker caught up
    assert speaker.said == en[:len(speaker.said)] and voice.dropped == 0
