"""Every kind of announcement, spoken by espeak-ng in both languages, is audible and
as long as its text (measured in the WAV itself: frames / rate, no clock)."""

from __future__ import annotations

import math
import shutil
import wave
from array import array
from pathlib import Path

import pytest

from firmware.announce import announcements
from firmware.voice import Espeak
from tests.firmware.announce_samples import NAMES, SAMPLES

GERMAN_NAMES = ("Nord", "Ost", "Süd", "West")
SILENCE_RMS = 300  # 16-bit samples; espeak-ng's speech at volume 100 is far above this
# seconds of audio per character of text at 160 words per minute: speech runs at about
# 0.06-0.08 s per character; anything outside this range is silence, clipping or garbage
PER_CHAR_S = (0.03, 0.2)


@pytest.fixture(scope="module", autouse=True)
def _espeak_installed():
    if shutil.which("espeak-ng") is None:
        pytest.fail("espeak-ng is missing: tests/run installs it (apt-get install espeak-ng)")


def listen(path: Path) -> tuple[float, float]:
    """(duration in seconds, RMS) of a mono 16-bit WAV file."""
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        frames = wav.getnframes()
        samples = array("h", wav.readframes(frames))
        rate = wav.getframerate()
    rms = math.sqrt(sum(s * s for s in samples) / len(samples)) if samples else 0.0
    return frames / rate, rms


def spoken(lang: str) -> list[tuple[str, str]]:
    names = GERMAN_NAMES if lang == "de" else NAMES
    return [(kind, line) for kind, event, turn, edition in SAMPLES
            for line in announcements(event, lang, names, edition=edition, turn=turn)]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_announcement_is_audible_speech_of_plausible_length(tmp_path, lang):
    lines = spoken(lang)
    assert {kind for kind, _ in lines} == {kind for kind, *_ in SAMPLES}  # each kind says something
    espeak = Espeak(lang)
    figures = []
    for i, (kind, line) in enumerate(lines):
        wav = tmp_path / f"{i}.wav"
        espeak.to_wav(line, wav)
        seconds, rms = listen(wav)
        assert rms > SILENCE_RMS, f"{kind}: {line!r} is silent (RMS {rms:.0f})"
        low, high = PER_CHAR_S[0] * len(line), PER_CHAR_S[1] * len(line)
        assert low < seconds < high, f"{kind}: {line!r} lasts {seconds:.2f} s"
        figures.append((len(line), seconds))
    shortest, longest = min(figures), max(figures)
    assert longest[1] > shortest[1]  # a longer sentence takes longer to say


def test_speed_and_volume_reach_the_audio(tmp_path):
    line = "Tower N protects South from Draw 2."
    espeak_slow, espeak_fast = Espeak("en", speed=100), Espeak("en", speed=300, volume=30)
    espeak_slow.to_wav(line, tmp_path / "slow.wav")
    espeak_fast.to_wav(line, tmp_path / "fast.wav")
    (slow, loud), (fast, quiet) = listen(tmp_path / "slow.wav"), listen(tmp_path / "fast.wav")
    assert slow > 2 * fast
    assert loud > 2 * quiet > 0


def test_a_named_device_gets_the_speech_through_the_player(tmp_path):
    # a stand-in for `aplay -q -D DEVICE`: keeps the WAV it is given and its arguments
    player = tmp_path / "aplay"
    player.write_text(f'#!/bin/sh\necho "$@" > {tmp_path}/args\ncat > {tmp_path}/played.wav\n')
    player.chmod(0o755)
    Espeak("de", device="plughw:CARD=Headphones", player=str(player)).speak("Süd gewinnt die Runde.")
    assert (tmp_path / "args").read_text().split() == ["-q", "-D", "plughw:CARD=Headphones"]
    seconds, rms = listen(tmp_path / "played.wav")
    assert rms > SILENCE_RMS and seconds > 0.5
