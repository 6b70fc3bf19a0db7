"""Which library drives the real GPIO pins: the config's ``[gpio] pin_factory``.

``auto`` leaves the choice to gpiozero's own search (lgpio, RPi.GPIO, pigpio, then its
native factory without PWM; ``$GPIOZERO_PIN_FACTORY`` overrides it). A name loads that
one factory the way gpiozero loads the one ``$GPIOZERO_PIN_FACTORY`` names: through its
entry point in the ``gpiozero_pin_factories`` group. Which Pi needs which library:
docs/wiring.md.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
from collections.abc import Collection
from importlib.metadata import entry_points
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from hal.board import board_model
from hal.errors import HalError

AUTO = "auto"
ENTRY_POINTS = "gpiozero_pin_factories"
# choice -> (the library it imports, what installs it)
PIN_FACTORIES = {
    "lgpio": ("lgpio", "the [pi] extra (pip install 'unotable[pi]')"),
    "rpigpio": ("RPi.GPIO", "the [pi] extra (pip install 'unotable[pi]': rpi-lgpio, RPi.GPIO's "
                "API on every Pi, the Pi 5 too), or on a Pi 4 or older the [rpigpio] extra "
                "(the original RPi.GPIO)"),
    "pigpio": ("pigpio", "the [pigpio] extra (pip install 'unotable[pigpio]') and the pigpiod "
               "daemon (sudo apt install pigpiod; a Pi 4 or older)"),
}
CHOICES = (AUTO, *PIN_FACTORIES)
PI_EXTRA = "install the [pi] extra (pip install 'unotable[pi]')"
DEV = Path("/dev")  # where the GPIO chips' character devices are


class PinLibraryError(HalError):
    """The chosen pin library is missing or cannot drive pins here; one line that says
    what to install or change."""


def load_pin_factory(choice: str) -> Any:
    """A new gpiozero pin factory of `choice` (not ``auto``). Raises PinLibraryError."""
    if choice not in PIN_FACTORIES:
        raise PinLibraryError(f"unknown pin library {choice!r}: one of {', '.join(CHOICES)}")
    library, install = PIN_FACTORIES[choice]
    [entry] = entry_points(group=ENTRY_POINTS, name=choice)
    try:
        return entry.load()()
    except ImportError as exc:
        raise PinLibraryError(f"{choice}: {library} is not installed ({exc}): install "
                              f"{install}") from exc
    except Exception as exc:  # noqa: BLE001 - not a Pi, no /dev/gpiochip0, no pigpiod...
        raise PinLibraryError(f"{choice}: {library} cannot drive the pins of this machine "
                              f"({type(exc).__name__}: {exc})") from exc


def importable(name: str) -> bool:
    """Is the module `name` installed (or already imported)?"""
    try:
        return find_spec(name) is not None
    except ValueError:  # imported, without a spec
        return True


def no_pin_library(tried: list[str], otherwise: str = "") -> str:
    """Why gpiozero's own search found no pin library, the real cause first, then
    `otherwise` (another way out). `tried`: its fallback warnings, "NAME: reason" each.
    An lgpio that imports but cannot drive the pins needs no [pi] extra: it is installed.
    Then /dev/gpiochip* that this user cannot open is a permissions problem, a Pi that shows
    none hides them (a container), and no Pi at all is said as such."""
    lgpio = next((t for t in tried if t.startswith("lgpio: ")), None)
    if lgpio is not None and importable("lgpio"):
        others = "; ".join(t for t in tried if t is not lgpio)
        cause = gpio_chip_problem() or (
            f"{lgpio.removeprefix('lgpio: ')} (lgpio is installed: run on a Raspberry Pi, not "
            "in a container or chroot that hides /proc/device-tree and /dev/gpiochip*)")
        return (f"lgpio cannot drive the pins of this machine: {cause}{otherwise}"
                + (f"; also tried {others}" if others else ""))
    return f"no GPIO pin library works on this machine ({'; '.join(tried)}): {PI_EXTRA}{otherwise}"


def gpio_chip_problem(dev: Path | None = None, model: Path | None = None,
                      uid: int | None = None, groups: Collection[int] | None = None) -> str | None:
    """Why the GPIO chips cannot be used by this user (`uid` in `groups`, default: this
    process), or None: chips it cannot read and write (a permissions problem), or a
    Raspberry Pi whose model shows but no /dev/gpiochip* (hidden from a container). None
    off a Pi, and when every chip opens."""
    uid = os.geteuid() if uid is None else uid
    groups = set(os.getgroups()) | {os.getegid()} if groups is None else set(groups)
    chips = sorted((dev or DEV).glob("gpiochip*"))
    closed = [c for c in chips if not _can_use(c.stat(), uid, groups)]
    if closed:
        st = closed[0].stat()
        return (f"{', '.join(c.name for c in closed)} under {closed[0].parent} "
                f"({_name(pwd.getpwuid, st.st_uid)}:{_name(grp.getgrgid, st.st_gid)}, mode "
                f"{stat.S_IMODE(st.st_mode):04o}) cannot be opened by user "
                f"{_name(pwd.getpwuid, uid)}: a permissions problem, not a missing Pi. The "
                "daemon's user unotable is in group gpio; systemd/install.sh's udev rule gives "
                "the chips to group gpio where the OS does not (sudo systemd/install.sh, or "
                "reboot after it); for yourself: sudo usermod -a -G gpio $USER, then log in again")
    board = board_model(model)
    if not chips and board.startswith("Raspberry Pi"):
        return (f"this {board} shows no /dev/gpiochip*: a container or chroot hides them "
                "(pass the devices through, e.g. docker --device /dev/gpiochip0), or the "
                "kernel lacks the GPIO character device")
    return None


def _can_use(st: os.stat_result, uid: int, groups: set[int]) -> bool:
    mode = stat.S_IMODE(st.st_mode)
    if uid == 0:
        return True
    if st.st_uid == uid:
        need = stat.S_IRUSR | stat.S_IWUSR
    elif st.st_gid in groups:
        need = stat.S_IRGRP | stat.S_IWGRP
    else:
        need = stat.S_IROTH | stat.S_IWOTH
    return mode & need == need


def _name(lookup: Any, number: int) -> str:
    try:
        return str(lookup(number)[0])
    except KeyError:
        return str(number)


def use_pin_factory(choice: str) -> Any:
    """Make `choice` the pin factory of every gpiozero device built from now on (what
    `unotable run` does before it builds the table's devices); the factory, or None for
    ``auto``, where gpiozero's own search runs at the first device."""
    from gpiozero import Device

    if choice == AUTO:
        return None
    Device.pin_factory = load_pin_factory(choice)
    return Device.pin_factory
