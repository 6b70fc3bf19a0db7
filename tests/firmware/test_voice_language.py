"""Each language speaks with its own espeak-ng voice, and the seats nobody named are said
in that language: a German table says "Süd", with espeak-ng's German voice, not the
English "South" in German sounds ("Zu:t")."""

from __future__ import annotations

from firmware.announce import announcements
from firmware.config import VoiceConfig
from firmware.voice import Espeak
from tests.firmware.announce_samples import NAMES, SAMPLES


def spoken(lang: str) -> list[str]:
    return [line for _what, event, turn, edition in SAMPLES
            for line in announcements(event, lang, NAMES, edition=edition, turn=turn)]


def test_each_language_has_its_own_espeak_voice_unless_one_is_named():
    for lang in ("en", "de"):
        argv = Espeak.from_config(VoiceConfig(enabled=True), lang).command()
        assert argv[argv.index("-v") + 1] == lang
    named = Espeak.from_config(VoiceConfig(enabled=True, voice="de+f3"), "en").command()
    assert named[named.index("-v") + 1] == "de+f3"


def test_the_default_seat_names_are_said_in_the_tables_language():
    german = " ".join(spoken("de"))
    for english, deutsch in (("North", "Nord"), ("East", "Ost"), ("South", "Süd")):
        assert deutsch in german and english not in german
    english = " ".join(spoken("en"))
    assert "South" in english and "Süd" not in english
