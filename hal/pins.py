"""Which library drives the real GPIO pins: the config's ``[gpio] pin_factory``.

``auto`` leaves the choice to gpiozero's own search (lgpio, RPi.GPIO, pigpio, then its
native factory without PWM; ``$GPIOZERO_PIN_FACTORY`` overrides it). A name loads that
one factory the way gpiozero loads the one ``$GPIOZERO_PIN_FACTORY`` names: through its
entry point in the ``gpiozero_pin_factories`` group. Which Pi needs which library:
docs/wiring.md.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from importlib.util import find_spec
from typing import Any

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
    An lgpio that imports but finds no Pi (not a Pi, or a container or chroot that hides
    /proc/device-tree) needs no [pi] extra: it is installed."""
    lgpio = next((t for t in tried if t.startswith("lgpio: ")), None)
    if lgpio is not None and importable("lgpio"):
        others = "; ".join(t for t in tried if t is not lgpio)
        return (f"lgpio cannot drive the pins of this machine: {lgpio.removeprefix('lgpio: ')} "
                "(lgpio is installed: run on a Raspberry Pi, not in a container or chroot "
                f"that hides /proc/device-tree and /dev/gpiochip*){otherwise}"
                + (f"; also tried {others}" if others else ""))
    return f"no GPIO pin library works on this machine ({'; '.join(tried)}): {PI_EXTRA}{otherwise}"


def use_pin_factory(choice: str) -> Any:
    """Make `choice` the pin factory of every gpiozero device built from now on (what
    `unotable run` does before it builds the table's devices); the factory, or None for
    ``auto``, where gpiozero's own search runs at the first device."""
    from gpiozero import Device

    if choice == AUTO:
        return None
    Device.pin_factory = load_pin_factory(choice)
    return Device.pin_factory
