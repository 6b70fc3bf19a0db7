"""The German voice says every card name as a German player says it: "Hit" with a short
i (espeak-ng's German rules read „hiet"), "Wild" as the English word, "UNO" as „Uno".
What espeak-ng is given is checked, and what it makes of it, by its own phonemes
(`espeak-ng -x`); the screen keeps the printed names."""

from __future__ import annotations

import stat
import subprocess
from pathlib import Path

from firmware.voice import Espeak
from firmware.words.messages import card_name
from firmware.words.spoken import spoken
from uno_core import EDITIONS


def phonemes(text: str, lang: str = "de") -> str:
    said = subprocess.run(["espeak-ng", "-v", lang, "-x", "-q", "--stdin"],
                          input=spoken(text, lang).encode(), capture_output=True, check=True)
    return said.stdout.decode()


def german_card_names() -> set[str]:
    return {card_name(c, "de", name) for name, ed in EDITIONS.items() for c in ed.deck}


def test_the_text_espeak_gets_says_the_english_card_words_the_german_way(tmp_path: Path):
    heard = tmp_path / "heard.txt"
    fake = tmp_path / "espeak-ng"  # stands in for espeak-ng: keeps what it was given
    fake.write_text(f"#!/bin/sh\ncat > {heard}\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    Espeak("de", program=str(fake)).to_wav("West legt eine grüne Hit-2-Karte.", tmp_path / "x.wav")
    assert heard.read_text() == "West legt eine grüne Hitt-2-Karte."
    Espeak("en", program=str(fake)).to_wav("West plays green Hit 2.", tmp_path / "x.wav")
    assert heard.read_text() == "West plays green Hit 2."  # English reads its own words


def test_the_screen_keeps_the_printed_card_names():
    assert "grüne Hit-2-Karte" in german_card_names()
    assert "Wild-All-Hit-Karte" in german_card_names()


def test_every_german_card_name_is_said_right():
    said = {name: phonemes(name) for name in sorted(german_card_names())}
    wrong = {name: p for name, p in said.items()
             if "h'i:t" in p  # Hit as „hiet"
             or ("Wild" in name and "v'Ilt" in p)  # Wild as the German noun „Wild"
             or "f'i:R" in p  # Fire as „fiere"
             or "r'e:tu:r" in p}  # Retour stressed on its first syllable
    assert wrong == {}
    assert "h'It" in said["rote Hit-2-Karte"]
    assert "aIlt" in said["Wild-Hit-4-Karte"]
    assert "f'aI3" in said["Wild-Hit-Fire-Karte"]


def test_uno_is_said_as_one_word():
    assert "'u:no:" in phonemes("Ost ruft UNO!")
    assert "'u:no:" in phonemes("West hat Ost ohne UNO erwischt.")
