"""Hardware in the loop: which readers of a config the twin stands in for, and which are
opened for real, with `[sim] enabled = true`.

The pins (launcher, buttons, lights, buzzer) are always the twin's. A reader's port says
which reader is read:

- the twin stands in for the names a table gives its own readers: `/dev/unotable-...`
  (the udev rules' names, systemd/99-unotable.rules), the Pi's UART (`/dev/serial0`,
  `/dev/ttyAMA0`, `/dev/ttyS0`) and `sim`. The built-in config and a table's own config
  name these, so they run on the twin unchanged;
- any other port (a USB-serial adapter's `/dev/ttyUSB0` or `/dev/serial/by-id/...`, a
  pty, `socket://`, `rfc2217://`) names a reader on this machine, opened with the real
  driver: one real PN532 tried on a PC before the table is built (docs/pad.md).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from firmware.config import UART_PORTS
from hal.pad import PadConfig
from hal.sim.tray import DEMO_UIDS
from hal.tray import ReaderConfig, Slot, TrayConfig

TWIN_PORT = "sim"  # as `--port sim` of the command-line tools
TABLE_NAMES = "/dev/unotable-"


def is_twin_port(port: str) -> bool:
    """Whether the twin stands in for the reader at `port` (with [sim] enabled)."""
    return port == TWIN_PORT or port.startswith(TABLE_NAMES) or port in UART_PORTS


@dataclass(frozen=True)
class RealReader:
    """A reader opened for real with [sim] enabled: its config key and port."""

    key: str  # "pad.port", "tray.readers[0].port"
    port: str

    def said(self) -> str:
        """How the log and selftest name it: the config line."""
        return f"{self.key} = {self.port!r}"

    def missing(self) -> bool:
        """A device path with nothing there now (a pyserial URL cannot be told without
        connecting to it)."""
        return self.port.startswith("/") and not os.path.exists(self.port)


def real_pad(pad: PadConfig | None) -> PadConfig | None:
    """The `[pad]` to open for real, or None when there is none or the twin stands in."""
    return pad if pad is not None and not is_twin_port(pad.port) else None


def real_tray_readers(tray: TrayConfig | None) -> dict[Slot, ReaderConfig]:
    """Slot -> the `[[tray.readers]]` entry to open for real."""
    if tray is None:
        return {}
    return {r.slot: r for r in tray.readers if not is_twin_port(r.port)}


def real_readers(hardware: Mapping[str, Any]) -> list[RealReader]:
    """Every reader of the config's hardware sections that is opened for real, in the
    order the file names them."""
    found: list[RealReader] = []
    pad = real_pad(hardware.get("pad"))
    if pad is not None:
        found.append(RealReader("pad.port", pad.port))
    tray = hardware.get("tray")
    if isinstance(tray, TrayConfig):
        found += [RealReader(f"tray.readers[{i}].port", r.port)
                  for i, r in enumerate(tray.readers) if not is_twin_port(r.port)]
    return found


def say_real_readers(hardware: Mapping[str, Any], log: logging.Logger) -> None:
    """Log each reader opened for real by its config line, and warn of a device path with
    nothing there (the reader is then said down until it answers, as on the table)."""
    for reader in real_readers(hardware):
        log.info("%s: a real reader on this machine; the pins stay simulated", reader.said())
        if reader.missing():
            log.warning("%s: no such device now: it is said down until it answers",
                        reader.said())


def twin_towers(tray: TrayConfig | None) -> dict[str, str] | None:
    """The tags the twin's towers carry: the user's `[tray.towers]` when a tray reader is
    real, so a real reader and the twin's agree on which tag is which tower; else None
    (the twin's own)."""
    if tray is None or not real_tray_readers(tray):
        return None
    return {**DEMO_UIDS["pn532"], **tray.towers}


def with_real_readers(twin: TrayConfig, real: Mapping[Slot, ReaderConfig]) -> TrayConfig:
    """The twin's `[tray]` with the real readers at their slots."""
    if not real:
        return twin
    slots = {r.slot for r in twin.readers}
    return replace(twin, readers=tuple(real.get(r.slot, r) for r in twin.readers)
                   + tuple(r for slot, r in real.items() if slot not in slots))
