"""The table's voice: announcements spoken through espeak-ng, off the event loop.

`Voice` queues sentences and speaks them one after another on its own worker thread:
`say` never blocks the caller (the daemon's asyncio loop). The queue is bounded; when
people talk faster than the table can speak, the oldest sentences go (they are stale by
then). A speaker that cannot work here (no espeak-ng, no such voice, no sound card)
gives one warning when the voice starts, and the voice stays silent: `say` does nothing
and the table plays on. A speaker that fails later does the same, once.

`Espeak` is the real speaker: ``espeak-ng`` plays through the default audio device, or
writes WAV to ``aplay -D DEVICE`` when `[voice] device` names one. gpiozero style:
`close()` is idempotent, the voice is a context manager and its repr shows its state.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from firmware.config import VoiceConfig
from firmware.words.spoken import spoken
from hal.safety import ClosedOnExit

log = logging.getLogger(__name__)

QUEUE_SIZE = 8  # sentences waiting; more drop the oldest
SPEAK_TIMEOUT_S = 30.0  # one sentence never takes longer: a hung player is killed
CLOSE_WAIT_S = 5.0  # close() waits this long for the worker after stopping the speaker
ALSA_CARDS = Path("/proc/asound/cards")
APT_HINT = "sudo apt-get install espeak-ng"


class SpeakError(Exception):
    """The speaker could not say a sentence."""


class Speaker(Protocol):
    def problem(self) -> str | None:
        """Why this speaker cannot work here, or None."""

    def speak(self, text: str) -> None:
        """Say `text`, blocking until it is said; raise SpeakError (or OSError) if not."""

    def stop(self) -> None:
        """Cut the sentence being said short (called from another thread)."""


class Espeak:
    """Speaks through the ``espeak-ng`` program (Debian package espeak-ng)."""

    def __init__(self, language: str = "en", *, voice: str = "", speed: int = 160,
                 volume: int = 100, device: str = "", program: str = "espeak-ng",
                 player: str = "aplay", cards: Path = ALSA_CARDS) -> None:
        self.voice = voice or language
        self.language = language  # whose spellings the card names are said in (`spoken`)
        self.speed = speed
        self.volume = volume
        self.device = device
        self.program = program
        self.player = player
        self.cards = cards
        self._running: list[subprocess.Popen[bytes]] = []
        self._lock = threading.Lock()

    @classmethod
    def from_config(cls, config: VoiceConfig, language: str) -> Espeak:
        return cls(language, voice=config.voice, speed=config.speed, volume=config.volume,
                   device=config.device)

    def __repr__(self) -> str:
        where = f"device {self.device!r}" if self.device else "the default device"
        return f"<Espeak voice={self.voice!r} speed={self.speed} volume={self.volume} to {where}>"

    def command(self, *, wav: Path | None = None, quiet: bool = False) -> list[str]:
        """The espeak-ng command line; the sentence goes to its standard input."""
        argv = [self.program, "--stdin", "-v", self.voice, "-s", str(self.speed),
                "-a", str(self.volume)]
        if wav is not None:
            argv += ["-w", str(wav)]
        elif quiet:
            argv.append("-q")
        elif self.device:
            argv.append("--stdout")
        return argv

    def problem(self) -> str | None:
        if shutil.which(self.program) is None:
            return f"{self.program} is not installed ({APT_HINT})"
        try:
            subprocess.run(self.command(quiet=True), input=b"a", capture_output=True,
                           check=True, timeout=SPEAK_TIMEOUT_S)
        except (OSError, subprocess.SubprocessError) as exc:
            return f"{self.program} cannot speak with voice {self.voice!r}: {_why(exc)}"
        if self.device and shutil.which(self.player) is None:
            return (f"[voice] device = {self.device!r} plays through {self.player}, which is not "
                    "installed (sudo apt-get install alsa-utils)")
        if not _has_sound_card(self.cards):
            return f"no audio device ({self.cards} lists no sound card)"
        return None

    def to_wav(self, text: str, path: Path) -> None:
        """Write `text` as spoken audio to the WAV file `path` (what the tests listen to)."""
        try:
            subprocess.run(self.command(wav=path), input=spoken(text, self.language).encode(),
                           capture_output=True, check=True, timeout=SPEAK_TIMEOUT_S)
        except (OSError, subprocess.SubprocessError) as exc:
            raise SpeakError(_why(exc)) from exc

    def speak(self, text: str) -> None:
        espeak = subprocess.Popen(self.command(), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE if self.device else subprocess.DEVNULL,
                                  stderr=subprocess.PIPE)
        procs = [espeak]
        if self.device:
            procs.append(subprocess.Popen([self.player, "-q", "-D", self.device],
                                          stdin=espeak.stdout, stderr=subprocess.PIPE))
            assert espeak.stdout is not None
            espeak.stdout.close()  # aplay holds it now: espeak sees a closed pipe if aplay dies
            espeak.stdout = None
        with self._lock:
            self._running = procs
        said = spoken(text, self.language).encode()
        try:
            for proc in procs:
                _, err = proc.communicate(said if proc is espeak else None,
                                          timeout=SPEAK_TIMEOUT_S)
                if proc.returncode not in (0, -15):  # -15: stop() cut it short
                    raise SpeakError(f"{proc.args[0]} exited with {proc.returncode}: "
                                     f"{_last_line(err)}")
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SpeakError(_why(exc)) from exc
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            with self._lock:
                self._running = []

    def stop(self) -> None:
        with self._lock:
            for proc in self._running:
                if proc.poll() is None:
                    proc.terminate()


def _has_sound_card(cards: Path) -> bool:
    try:
        listing = cards.read_text()
    except OSError:
        return False
    return bool(listing.strip()) and "no soundcards" not in listing


def _last_line(err: bytes | None) -> str:
    lines = (err or b"").decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else "no message"


def _why(exc: BaseException) -> str:
    if isinstance(exc, subprocess.CalledProcessError):
        return f"exit status {exc.returncode}: {_last_line(exc.stderr)}"
    if isinstance(exc, subprocess.TimeoutExpired):
        return f"no answer within {exc.timeout:g} s"
    return str(exc)


class Voice(ClosedOnExit):
    """Speaks queued sentences on a worker thread. `speaker` None: the voice is off."""

    def __init__(self, speaker: Speaker | None, *, queue_size: int = QUEUE_SIZE) -> None:
        self.speaker = speaker
        self.problem: str | None = None
        self.spoken = 0
        self.dropped = 0
        self.speaking = False
        self._queue: deque[str] = deque(maxlen=queue_size)
        self._wake = threading.Condition()
        self._closed = False
        self._thread: threading.Thread | None = None
        if speaker is None:
            return
        self.problem = speaker.problem()
        if self.problem is not None:
            log.warning("voice: %s; the table plays on without speaking", self.problem)
            return
        self._thread = threading.Thread(target=self._work, name="voice", daemon=True)
        self._thread.start()

    @property
    def active(self) -> bool:
        """Sentences said now would be spoken."""
        return self._thread is not None and self.problem is None and not self._closed

    def say(self, text: str) -> None:
        """Queue `text`; returns at once. Dropped while the voice is off or silent."""
        self.say_all((text,))

    def say_all(self, texts: Iterable[str]) -> None:
        with self._wake:
            if not self.active:
                return
            for text in texts:
                if len(self._queue) == self._queue.maxlen:
                    self.dropped += 1  # the deque drops the oldest
                self._queue.append(text)
            self._wake.notify()

    def _work(self) -> None:
        assert self.speaker is not None
        while True:
            with self._wake:
                while not self._queue and not self._closed:
                    self._wake.wait()
                if self._closed:
                    return
                text = self._queue.popleft()
                self.speaking = True
            try:
                self.speaker.speak(text)
            except Exception as exc:  # noqa: BLE001 - any failure silences the voice, once
                with self._wake:
                    self.speaking = False
                    if self._closed:
                        return
                    self.problem = str(exc) or type(exc).__name__
                    self._queue.clear()
                log.warning("voice: cannot speak (%s); the table plays on without speaking",
                            self.problem)
                return
            with self._wake:
                self.speaking = False
                if self._closed:  # cut short by close()
                    return
                self.spoken += 1

    def close(self) -> None:
        """Stop speaking, forget what is queued and end the worker. Idempotent."""
        with self._wake:
            if self._closed:
                return
            self._closed = True
            self._queue.clear()
            self._wake.notify_all()
        if self._thread is not None:
            assert self.speaker is not None
            self.speaker.stop()
            self._thread.join(CLOSE_WAIT_S)

    @property
    def closed(self) -> bool:
        return self._closed


    def get_status(self) -> dict[str, Any]:
        """Klipper style: what the voice does now (for the health view)."""
        with self._wake:
            return {"enabled": self.speaker is not None, "active": self.active,
                    "problem": self.problem, "speaking": self.speaking,
                    "queued": len(self._queue), "spoken": self.spoken, "dropped": self.dropped}

    def __repr__(self) -> str:
        if self._closed:
            state = "closed"
        elif self.speaker is None:
            state = "off"
        elif self.problem is not None:
            state = f"silent: {self.problem}"
        else:
            state = f"{'speaking' if self.speaking else 'idle'} queued={len(self._queue)}"
        return f"<Voice {state} spoken={self.spoken} dropped={self.dropped}>"


def open_voice(config: VoiceConfig, language: str, *, speaker: Speaker | None = None) -> Voice:
    """The voice `[voice]` asks for: off unless enabled, else espeak-ng in `language`
    (the `[table] language`), or `speaker` when given."""
    if not config.enabled:
        return Voice(None)
    return Voice(speaker if speaker is not None else Espeak.from_config(config, language))
