"""The voice: never blocks the caller, drops stale sentences, warns once, closes."""

from __future__ import annotations

import logging
import shutil
import threading

import pytest

from firmware.config import VoiceConfig
from firmware.voice import Espeak, SpeakError, Voice, open_voice

WAIT_S = 10  # a generous bound for a worker thread to get going; never reached when it works


class HeldSpeaker:
    """Says each sentence only when the test lets it (`release`); records what it said."""

    def __init__(self, problem: str | None = None, fail: bool = False) -> None:
        self._problem = problem
        self.fail = fail
        self.started = threading.Semaphore(0)
        self.release = threading.Event()
        self.said: list[str] = []
        self.stopped = 0

    def problem(self) -> str | None:
        return self._problem

    def speak(self, text: str) -> None:
        self.started.release()
        if not self.release.wait(WAIT_S):
            raise AssertionError("the test never released the speaker")
        if self.stopped:
            return  # cut short: nothing said
        if self.fail:
            raise SpeakError("aplay exited with 1: audio open error: No such device")
        self.said.append(text)

    def stop(self) -> None:
        self.stopped += 1
        self.release.set()


def wait_idle(voice: Voice) -> None:
    """Until the worker has said everything queued (polls the worker's own state)."""
    done = threading.Event()
    for _ in range(WAIT_S * 100):
        status = voice.get_status()
        if not status["queued"] and not status["speaking"]:
            return
        done.wait(0.01)
    raise AssertionError(f"the voice never went idle: {voice!r}")


def test_say_returns_while_the_speaker_is_still_speaking():
    speaker = HeldSpeaker()
    with Voice(speaker) as voice:
        voice.say("North, your turn.")
        assert speaker.started.acquire(timeout=WAIT_S)  # the worker is inside speak() ...
        voice.say("East takes 2 cards.")  # ... and say() came back regardless
        status = voice.get_status()
        assert (status["speaking"], status["queued"], status["spoken"]) == (True, 1, 0)
        assert "speaking queued=1" in repr(voice)
        speaker.release.set()
        wait_idle(voice)
        assert speaker.said == ["North, your turn.", "East takes 2 cards."]
        assert voice.spoken == 2


def test_a_full_queue_drops_the_oldest_sentences_not_the_caller():
    speaker = HeldSpeaker()
    with Voice(speaker, queue_size=3) as voice:
        voice.say("first")
        assert speaker.started.acquire(timeout=WAIT_S)
        voice.say_all(f"line {i}" for i in range(10))
        assert voice.get_status()["queued"] == 3 and voice.dropped == 7
        speaker.release.set()
        wait_idle(voice)
    assert speaker.said == ["first", "line 7", "line 8", "line 9"]


def test_a_missing_espeak_ng_gives_one_warning_and_the_table_plays_on(caplog, tmp_path):
    caplog.set_level(logging.WARNING, logger="firmware.voice")
    voice = Voice(Espeak("de", program=str(tmp_path / "espeak-ng")))
    for _ in range(5):
        voice.say("Nord ist dran.")
    voice.close()
    assert [r.getMessage() for r in caplog.records] == [
        f"voice: {tmp_path / 'espeak-ng'} is not installed (sudo apt-get install espeak-ng); "
        "the table plays on without speaking"]
    assert not voice.active and voice.spoken == 0


def test_a_machine_without_a_sound_card_gives_one_warning(caplog, tmp_path):
    if shutil.which("espeak-ng") is None:
        pytest.fail("espeak-ng is missing: tests/run installs it")
    cards = tmp_path / "cards"
    cards.write_text("--- no soundcards ---\n")
    caplog.set_level(logging.WARNING, logger="firmware.voice")
    with Voice(Espeak("en", cards=cards)) as voice:
        voice.say("North, your turn.")
        assert repr(voice).startswith(f"<Voice silent: no audio device ({cards} lists no sound card)")
    assert len(caplog.records) == 1


def test_an_unknown_espeak_voice_is_named_in_the_warning(caplog):
    if shutil.which("espeak-ng") is None:
        pytest.fail("espeak-ng is missing: tests/run installs it")
    caplog.set_level(logging.WARNING, logger="firmware.voice")
    Voice(Espeak("en", voice="xx-nowhere")).close()
    [record] = caplog.records
    assert "cannot speak with voice 'xx-nowhere'" in record.getMessage()
    assert "voice does not exist" in record.getMessage()


def test_a_speaker_failing_later_warns_once_and_falls_silent(caplog):
    caplog.set_level(logging.WARNING, logger="firmware.voice")
    speaker = HeldSpeaker(fail=True)
    with Voice(speaker) as voice:
        voice.say_all(["one", "two", "three"])
        speaker.release.set()
        voice._thread.join(WAIT_S)  # the worker ends after the failure
        voice.say("four")
        assert voice.get_status()["queued"] == 0 and not voice.active
    assert [r.getMessage() for r in caplog.records] == [
        "voice: cannot speak (aplay exited with 1: audio open error: No such device); "
        "the table plays on without speaking"]


def test_close_stops_the_worker_and_cuts_the_sentence_short():
    speaker = HeldSpeaker()
    voice = Voice(speaker)
    voice.say_all(["a long sentence", "more"])
    assert speaker.started.acquire(timeout=WAIT_S)
    voice.close()
    assert speaker.stopped == 1 and not voice._thread.is_alive()
    voice.close()  # idempotent
    voice.say("after close")
    assert speaker.stopped == 1 and repr(voice) == "<Voice closed spoken=0 dropped=0>"
    assert speaker.said == []


def test_a_disabled_voice_is_silent_without_a_warning(caplog):
    caplog.set_level(logging.WARNING)
    with open_voice(VoiceConfig(enabled=False), "de") as voice:
        voice.say("Nord ist dran.")
        assert voice.get_status() == {"enabled": False, "active": False, "problem": None,
                                      "speaking": False, "queued": 0, "spoken": 0, "dropped": 0}
        assert repr(voice) == "<Voice off spoken=0 dropped=0>"
    assert caplog.records == []


def test_an_enabled_voice_speaks_with_the_configured_options():
    config = VoiceConfig(enabled=True, voice="de+f3", speed=200, volume=80, device="hw:1,0")
    espeak = Espeak.from_config(config, "en")
    assert espeak.command() == ["espeak-ng", "--stdin", "-v", "de+f3", "-s", "200", "-a", "80",
                                "--stdout"]
    assert Espeak.from_config(VoiceConfig(enabled=True), "de").command()[3] == "de"
