"""`[table] language` and `[voice]`: validated at load like every other section."""

from __future__ import annotations

import pytest

from firmware.cli import main
from firmware.config import DEFAULT_PATH, VoiceConfig, load_config
from tests.firmware.test_config import refused, write


def test_the_built_in_default_speaks_english_and_keeps_quiet():
    cfg = load_config(DEFAULT_PATH)
    assert cfg.table.language == "en"
    assert cfg.voice == VoiceConfig(enabled=False, voice="", speed=160, volume=100, device="")


def test_a_file_without_voice_section_has_the_defaults(tmp_path):
    text = DEFAULT_PATH.read_text()
    path = tmp_path / "config.toml"
    path.write_text(text[:text.index("[voice]")])
    assert load_config(path).voice == VoiceConfig()


def test_a_german_table_with_its_voice(tmp_path):
    cfg = load_config(write(tmp_path, """
        [table]
        language = "de"
        [voice]
        enabled = true
        voice = "de+f3"
        speed = 140
        volume = 180
        device = "plughw:CARD=Headphones"
        """))
    assert cfg.table.language == "de"
    assert cfg.voice == VoiceConfig(True, "de+f3", 140, 180, "plughw:CARD=Headphones")


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        ("[table]\nlanguage = 'fr'\n", "table.language", "must be one of 'en', 'de', not 'fr'"),
        ("[voice]\nenabled = 'yes'\n", "voice.enabled", "true or false"),
        ("[voice]\nspeed = 20\n", "voice.speed", "at least 80"),
        ("[voice]\nspeed = 500\n", "voice.speed", "at most 450"),
        ("[voice]\nvolume = -1\n", "voice.volume", "at least 0"),
        ("[voice]\nvolume = 1.5\n", "voice.volume", "whole number"),
        ("[voice]\nvoice = 'de; rm -rf /'\n", "voice.voice", "espeak-ng voice like 'de'"),
        ("[voice]\ndevice = '-D hw:0'\n", "voice.device", "ALSA device like 'hw:1,0'"),
        ("[voice]\nlanguage = 'de'\n", "voice.language", "unknown option"),
        ("voice = true\n", "voice", "must be a table"),
    ],
)
def test_a_bad_voice_option_is_an_error_naming_its_key(tmp_path, text, key, message):
    error = refused(tmp_path, text, key)
    assert (error.key, message in error.message) == (key, True), error.message


def test_config_check_lists_every_voice_error(tmp_path, capsys):
    path = write(tmp_path, "[table]\nlanguage = 'fr'\n[voice]\nspeed = 1\nvolume = 999\npitch = 3\n")
    assert main(["config", "check", str(path)]) == 1
    out = capsys.readouterr()
    assert out.out.splitlines() == [
        f"{path}: table.language: must be one of 'en', 'de', not 'fr'",
        f"{path}: voice.speed: must be at least 80, not 1",
        f"{path}: voice.volume: must be at most 200, not 999",
        f"{path}: voice.pitch: unknown option"]
    assert "4 problems" in out.err
