"""The table's devices as one bundle, and the threads that turn their callbacks into
loop events.

`Hardware.from_config(config)` builds the real devices from the config sections
(gpiozero's default pin factory, serial ports by URL). The simulated twin builds the
same production classes on mock pins and pty readers (`firmware.sim.world`) and hands
them over as a `Hardware` too, so the controller never knows which one it drives.

`start(post)` subscribes to the launcher button, the seat buttons, the exit sensor,
the tray and the card pad (a watcher thread each): each callback only calls
`post(event)`. Every device
subscription of the daemon is made there, and nowhere else; the parts handle the
events on the loop (`Context.on`).
`close()` stops the motor first, then releases everything; it is idempotent.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from firmware.controller.events import (
    CardCounted,
    LauncherPressed,
    PadChanged,
    SeatPressed,
    TrayChanged,
)
from hal.launcher import Launcher
from hal.pad import Pad, PadDown, PadEvent
from hal.seats import SeatPanel
from hal.tray import Tray

log = logging.getLogger(__name__)

Post = Callable[[object], object]


class Hardware:
    def __init__(self, launcher: Launcher, panel: SeatPanel, tray: Tray | None,
                 pad: Pad | None = None) -> None:
        self.launcher = launcher
        self.panel = panel
        self.tray = tray
        self.pad = pad  # the card pad, with a [pad] section only
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._pad_watcher: threading.Thread | None = None
        self._unsubscribe: list[Callable[[], None]] = []
        self.closed = False

    @classmethod
    def from_config(cls, config: Any) -> Hardware:
        """Real devices from a loaded `firmware.config.Config`."""
        hw = config.hardware
        launcher = Launcher.from_config(hw["launcher"])
        try:
            panel = SeatPanel.from_config(hw["seats"])
            try:
                tray = Tray.from_config(hw["tray"]) if hw.get("tray") is not None else None
                # (the pad's port opens at its first read: a missing pad is said, not fatal)
                pad = Pad.from_config(hw["pad"]) if hw.get("pad") is not None else None
            except Exception:
                panel.close()
                raise
        except Exception:
            launcher.close()
            raise
        return cls(launcher, panel, tray, pad)

    def start(self, post: Post, *, tower_awaited: Callable[[], bool] = lambda: False) -> None:
        """Route every device callback to `post` (thread-safe `TableLoop.post`).
        `tower_awaited()` (asked from the tray's watcher thread) is true while the table
        waits for a tower to move: the tray then polls at its fast pace."""
        # (a press is one frozen value: the panel hands it straight to `post`)
        self._unsubscribe.append(self.panel.on_launcher_press(partial(post, LauncherPressed())))
        self._unsubscribe.append(self.panel.on_seat_press(lambda seat: post(SeatPressed(seat))))
        self._unsubscribe.append(self.launcher.on_card(
            lambda counted, seat: post(CardCounted(counted, seat))))
        if self.tray is not None:
            tray = self.tray

            def watch() -> None:
                try:
                    tray.watch(lambda event: post(TrayChanged(event)), self._stop,
                               awaited=tower_awaited)
                except Exception:  # a closed tray at shutdown, or a driver bug: log, stop watching
                    if not self._stop.is_set():
                        log.exception("tray watcher stopped")

            self._watcher = threading.Thread(target=watch, name="tray-watch", daemon=True)
            self._watcher.start()
        if self.pad is not None:
            self._pad_watcher = threading.Thread(target=self._watch_pad, args=(self.pad, post),
                                                 name="pad-watch", daemon=True)
            self._pad_watcher.start()

    def _watch_pad(self, pad: Pad, post: Post) -> None:
        def changed(event: PadEvent) -> None:
            post(PadChanged(event))

        try:
            pad.watch(changed, self._stop)
        except Exception as exc:  # a driver bug: the pad is down for good, play goes on
            if not self._stop.is_set():
                log.exception("pad watcher stopped")
                post(PadChanged(PadDown(pad.config.port, f"the pad's watcher stopped: {exc}")))

    def get_status(self) -> dict[str, Any]:
        out: dict[str, Any] = {"launcher": self.launcher.get_status(),
                               "seats": self.panel.get_status()}
        if self.tray is not None:
            out["tray"] = self.tray.get_status()
        if self.pad is not None:
            out["pad"] = self.pad.get_status()
        return out

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._stop.set()
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self.launcher.close()  # the motor first
        self.panel.close()
        if self._watcher is not None:
            self._watcher.join(timeout=2.0)
        if self.tray is not None:
            self.tray.close()
        if self._pad_watcher is not None:
            self._pad_watcher.join(timeout=2.0)
        if self.pad is not None:
            self.pad.close()

    def __repr__(self) -> str:
        return f"<Hardware launcher={self.launcher!r} tray={'yes' if self.tray else 'no'}>"
