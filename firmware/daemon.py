"""The daemon's start-up and stop sequence, independent of what the game is.

    config -> journal -> the table's other files checked -> loop -> table (the
    controller, built by `make_table`)
    -> API server -> READY=1 + watchdog -> ... -> events stop -> safe state (motor off)
    -> STOPPING=1 -> API closed (within ~2 s) -> voice closed -> journal closed

The voice (`[voice]`, docs/voice.md) opens with the journal; the controller hooks it to
its events. A voice that cannot speak warns once and the table plays on silently.

`make_table(services)` builds the controller from the opened services; it registers
its own loop handlers and safe-state callbacks and returns the `Table` the API serves.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware.api import ApiServer, Table
from firmware.config import Config
from firmware.errors import FileRefused, JournalError, StartRefused
from firmware.journal.store import Journal, refusal
from firmware.loop import TableLoop
from firmware.notify import Notifier
from firmware.safe_files import UnsafeFile, refuse_unless_regular
from firmware.seat_keys import SeatKeys
from firmware.voice import Speaker, Voice, open_voice
from hal.clock import Clock

log = logging.getLogger(__name__)


@dataclass
class Services:
    """What the controller gets to work with; everything here lives on the loop."""

    config: Config
    journal: Journal
    loop: TableLoop
    notifier: Notifier
    voice: Voice = field(default_factory=lambda: Voice(None))  # speaks announcements
    # the event stream's ends (the API server's `publish`); the controller calls them
    # itself, with its own listeners, so an event takes no extra hop through here
    stream: list[Callable[[Mapping[str, Any]], None]] = field(default_factory=list)

    def publish(self, event: Mapping[str, Any]) -> None:
        """Send a public event to every event-stream client (call on the loop)."""
        for listener in self.stream:
            listener(event)


TableFactory = Callable[[Services], Table]


class Daemon:
    def __init__(
        self,
        config: Config,
        make_table: TableFactory,
        *,
        env: Mapping[str, str] | None = None,
        clock: Clock | None = None,
        speaker: Speaker | None = None,
        check_files: Callable[[Path], None] | None = None,
    ) -> None:
        """`speaker`: what the voice speaks through when `[voice] enabled` (espeak-ng
        unless given; the tests give a recorder). `check_files(journal)`: the table's
        own read-only checks of its files beside the journal (the twin's world), run
        before anything starts; raises `FileRefused`."""
        self.config = config
        self._speaker = speaker
        self._check_files = check_files
        self._make_table = make_table
        self._env = os.environ if env is None else env
        self.loop = TableLoop(clock=clock)
        self.notifier = Notifier(self._env)
        self.services: Services | None = None
        self.server: ApiServer | None = None

    def run(self, *, signals: bool = True) -> int:
        """Run until SIGTERM/SIGINT or `stop()`; the exit status (0 after an orderly stop).

        Raises `JournalError` (nothing started, nothing written) when the journal is
        refused: it lost committed entries, is damaged, is another table's or of another
        edition, another daemon holds it, or it cannot be written; `FileRefused` when
        another file of the table's is (`_checked_files`). The journal's lock is held
        until the journal is closed at the stop."""
        try:
            self._journal = self._open_journal()
            try:
                self._seat_keys = self._checked_files()
            except FileRefused as exc:
                self._journal.close()
                self.notifier.status(f"cannot start: {exc}")
                raise
            return self.loop.run(self._start, signals=signals)
        finally:
            self.notifier.close()

    def stop(self, reason: str = "stop requested") -> None:
        """Ask for an orderly stop (from any thread)."""
        self.loop.stop(reason)

    def _open_journal(self) -> Journal:
        self.notifier.status("opening the journal")
        try:
            return Journal.open(self.config.journal.resolve(self._env), clock=self.loop.clock,
                                edition=self.config.table.edition)
        except JournalError as exc:
            self.notifier.status(f"cannot start: {refusal(exc)}")
            raise

    def _checked_files(self) -> SeatKeys:
        """The seats' keys, read, and the table's other files checked: a link or another
        non-regular file in their place, or a damaged one, refuses the start before
        anything is written (a full disk does not: the table opens paused)."""
        path = seats_file(self.config, self._env)
        try:
            for name in (path.with_name(path.name + ".tmp"),
                         path.with_name(path.name + ".lock")):
                refuse_unless_regular(name)
            keys = SeatKeys(path)
        except (OSError, ValueError) as exc:  # a link in its place, damaged, unreadable
            raise FileRefused(f"cannot read the seats' keys: {exc}") from None
        if self._check_files is not None:
            self._check_files(Path(self._journal.path))
        return keys

    async def _start(self) -> None:
        journal = self._journal
        path = journal.path
        self.loop.on_shutdown(_closer(journal))
        voice = open_voice(self.config.voice, self.config.table.language, speaker=self._speaker)
        self.loop.on_shutdown(_closer(voice))  # registered after the journal: closed before it
        services = Services(self.config, journal, self.loop, self.notifier, voice)
        self.services = services
        table = self._make_table(services)
        server = ApiServer.from_config(self.config.api, table, self.loop,
                                       seat_keys=self._seat_keys)
        self.server = server
        services.stream.append(server.publish)
        self.loop.on_shutdown(self._stopping)  # registered last: runs first at a stop
        self.notifier.status("starting the API")
        try:
            await server.start()
        except UnsafeFile as exc:  # a link put at the seats' file since the check
            raise FileRefused(f"cannot write the seats' keys: {exc}") from None
        except OSError as exc:  # EADDRINUSE, EADDRNOTAVAIL, EACCES: the config must change
            reason = os.strerror(exc.errno) if exc.errno else str(exc)
            raise StartRefused(f"cannot serve the API on {server.host}:{server.port}: "
                               f"{reason} (another program on that port? "
                               f"[api] port in {self.config.path})") from exc
        self.loop.spawn(self.notifier.keep_alive())
        self.notifier.ready(f"serving {server.url}, journal {path}")
        log.info("ready: API %s, journal %s (last entry %d)", server.url, path, journal.last_seq)

    async def _stopping(self) -> None:
        self.notifier.stopping(f"stopping: {self.loop.stop_reason}")


def seats_file(config: Config, env: Mapping[str, str]) -> Path:
    """Where the seats' keys are (`firmware.seat_keys`): ``seats.json`` beside the journal,
    i.e. in the state directory (where a relative ``[journal] path`` lives), as
    ``unotable seats`` finds it."""
    return config.journal.resolve(env).parent / "seats.json"


def _closer(thing: Journal | Voice) -> Callable[[], Any]:
    async def close() -> None:
        thing.close()

    return close

