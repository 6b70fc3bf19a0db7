"""`selftest`'s voice line: whether the voice reaches a sound device when it runs as the
service. With the desktop's PipeWire owning ALSA's default device, the service's user
gets no sound from it, and selftest names the `[voice] device` to set, with this
machine's own cards. The speaker is the real espeak-ng; the machine's ALSA files are
written by the test."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.commands.selftest import FAIL, OK, SKIP, voice_check
from firmware.commands.sound_check import device_advice
from firmware.config import DEFAULT_PATH, load_config
from firmware.voice import Espeak

PI4_CARDS = """\
 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                      bcm2835 Headphones
 1 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
"""
PI5_CARDS = """\
 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 1 [vc4hdmi1       ]: vc4-hdmi - vc4-hdmi-1
                      vc4-hdmi-1
"""


def a_machine(tmp_path: Path, cards: str | None, server: str | None) -> tuple[Path, Path]:
    """/proc/asound/cards and /etc/alsa/conf.d as the test sets them."""
    listing = tmp_path / "cards"
    listing.write_text(cards if cards is not None else "--- no soundcards ---\n")
    conf = tmp_path / "conf.d"
    conf.mkdir()
    if server:
        (conf / server).write_text("pcm.!default { type pipewire }\n")
    return listing, conf


def voiced(device: str = ""):
    config = load_config(DEFAULT_PATH)
    return replace(config, voice=replace(config.voice, enabled=True, device=device))


def espeak(config, cards: Path) -> Espeak:
    voice = config.voice
    return Espeak(config.table.language, voice=voice.voice, device=voice.device, cards=cards)


@pytest.mark.parametrize(("cards", "card"), [(PI4_CARDS, "Headphones"), (PI5_CARDS, "vc4hdmi0")])
def test_with_the_desktops_pipewire_selftest_names_the_device_to_set(tmp_path, cards, card):
    listing, conf = a_machine(tmp_path, cards, "99-pipewire-default.conf")
    config = voiced()
    name, outcome, detail = voice_check(config, speaker=espeak(config, listing), cards=listing,
                                        conf=conf)
    assert (name, outcome) == ("voice", FAIL)
    assert detail.startswith("PipeWire owns the default sound device, which the service's user "
                             "(no desktop session) cannot reach: set [voice] device = "
                             f'"plughw:CARD={card}" in {DEFAULT_PATH}')
    assert detail.endswith(f"(this machine's cards: {', '.join(listing_ids(cards))})")


def listing_ids(cards: str) -> list[str]:
    return [line.split("[")[1].split("]")[0].strip() for line in cards.splitlines() if "[" in line]


def test_without_a_sound_server_the_default_device_is_the_card_and_fine(tmp_path):
    listing, conf = a_machine(tmp_path, PI4_CARDS, None)
    config = voiced()
    assert voice_check(config, speaker=espeak(config, listing), cards=listing, conf=conf) == (
        "voice", OK, "espeak-ng speaks through the default sound device")


def test_a_named_device_needs_no_advice(tmp_path):
    listing, conf = a_machine(tmp_path, PI4_CARDS, "99-pipewire-default.conf")
    assert device_advice("plughw:CARD=Headphones", "config.toml", cards=listing, conf=conf) is None


def test_a_machine_with_no_card_is_told_so(tmp_path):
    listing, conf = a_machine(tmp_path, None, None)
    config = voiced()
    name, outcome, detail = voice_check(config, speaker=espeak(config, listing), cards=listing,
                                        conf=conf)
    assert outcome == FAIL and detail == f"no audio device ({listing} lists no sound card)"


def test_selftest_says_a_silent_voice_is_off(tmp_path, capsys):
    assert main(["selftest", "--yes", "--json"]) == 0
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert checks["voice"]["outcome"] == SKIP
    assert checks["voice"]["detail"] == f"[voice] enabled = false in {DEFAULT_PATH}"
