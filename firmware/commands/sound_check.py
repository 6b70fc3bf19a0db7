"""Does the table's voice reach a speaker when it runs as the service? `selftest` asks
(its voice line), and systemd/install.sh's check_sound asks the same of the same files.

On Raspberry Pi OS with the desktop, PipeWire (pipewire-alsa) makes itself ALSA's
default device. It serves the logged-in desktop user only: the service's user
(unotable, no session) gets no sound from the default device, so the voice needs
`[voice] device` to name a card (`plughw:CARD=...`), which it opens directly as a
member of group audio. The fix is said with this machine's own card names.
"""

from __future__ import annotations

import re
from pathlib import Path

ALSA_CARDS = Path("/proc/asound/cards")
ALSA_CONF = Path("/etc/alsa/conf.d")  # where a sound server's plugin makes itself the default
# The files a sound server's ALSA plugin installs to become ALSA's default device.
SERVER_DEFAULTS = {"99-pipewire-default.conf": "PipeWire", "99-pulse.conf": "PulseAudio"}
CARD_LINE = re.compile(r"^\s*\d+\s+\[(\S+)\s*\]:", re.MULTILINE)
PREFERRED_CARD = "Headphones"  # the Pi's 3.5 mm jack (Pi 4 and older); else the first card


def sound_cards(cards: Path | None = None) -> list[str]:
    """The ALSA card ids ("Headphones", "vc4hdmi0") /proc/asound/cards lists."""
    try:
        return CARD_LINE.findall((cards or ALSA_CARDS).read_text())
    except OSError:
        return []


def sound_server(conf: Path | None = None) -> str | None:
    """The sound server that owns ALSA's default device here ("PipeWire"), or None."""
    directory = conf or ALSA_CONF
    return next((name for file, name in SERVER_DEFAULTS.items() if (directory / file).exists()),
                None)


def device_advice(device: str, config_path: Path | str, *, cards: Path | None = None,
                  conf: Path | None = None) -> str | None:
    """What to set so the service's voice reaches a speaker, or None when nothing is needed
    (a device is named, or ALSA's default is the card itself)."""
    server = sound_server(conf)
    if device or server is None:
        return None
    ids = sound_cards(cards)
    if not ids:
        return (f"{server} owns the default sound device, which the service's user cannot "
                f"reach, and {cards or ALSA_CARDS} lists no card: connect a speaker, then set "
                f"[voice] device = \"plughw:CARD=...\" in {config_path} (aplay -L)")
    choice = PREFERRED_CARD if PREFERRED_CARD in ids else ids[0]
    return (f"{server} owns the default sound device, which the service's user (no desktop "
            f"session) cannot reach: set [voice] device = \"plughw:CARD={choice}\" in "
            f"{config_path} (this machine's cards: {', '.join(ids)})")
