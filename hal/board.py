"""The board this runs on, as its device tree names it, and which serial device is the
UART on GPIO 14/15 (where the tower tray's neutral reader sits; docs/wiring.md).

Every Pi before the 5 routes /dev/serial0 to GPIO 14/15. On a Pi 5 (its Compute Module,
the Pi 500) /dev/serial0 is the three-pin debug connector (ttyAMA10) and GPIO 14/15 is
/dev/ttyAMA0. systemd/install-steps.sh's gpio_uart decides the same way.
"""

from __future__ import annotations

from pathlib import Path

MODEL = Path("/proc/device-tree/model")
SERIAL0 = "/dev/serial0"
PI5_GPIO_UART = "/dev/ttyAMA0"
PI5_MODELS = ("Raspberry Pi 5", "Raspberry Pi Compute Module 5", "Raspberry Pi 500")


def board_model(path: Path | None = None) -> str:
    """The board's name ("Raspberry Pi 5 Model B Rev 1.0"), or "" where there is none."""
    try:
        raw = (path or MODEL).read_bytes()
    except OSError:
        return ""
    return raw.rstrip(b"\0").decode(errors="replace").strip()


def gpio_uart(path: Path | None = None) -> str:
    """The serial device on GPIO 14/15 of this board (/dev/serial0 off a Pi)."""
    return PI5_GPIO_UART if board_model(path).startswith(PI5_MODELS) else SERIAL0
