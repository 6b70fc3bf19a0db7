"""gpiozero's pin-factory loading, mocked: a pin library present or missing."""

from __future__ import annotations

import sys
import types

# what gpiozero registers for each name (its gpiozero_pin_factories entry points)
GPIOZERO_FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory", ("lgpio",)),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory", ("RPi", "RPi.GPIO")),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory", ("pigpio",)),
}


# sys.modules entries go through monkeypatch, which restores exactly those keys:
# mock.patch.dict would also drop every module imported during the test, and the next
# import would make new classes that `except`/`isinstance` no longer recognise.


def installed(monkeypatch, mocker, choice: str):
    """The library of `choice` present: gpiozero's factory module for it is a stand-in
    whose factory class is a mock."""
    module_name, class_name, _ = GPIOZERO_FACTORIES[choice]
    module = types.ModuleType(module_name)
    factory_class = mocker.Mock(name=class_name)
    setattr(module, class_name, factory_class)
    monkeypatch.setitem(sys.modules, module_name, module)
    return factory_class


def missing(monkeypatch, choice: str) -> None:
    """The library of `choice` absent: importing gpiozero's factory module fails."""
    module_name, _, libraries = GPIOZERO_FACTORIES[choice]
    for name in libraries:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, module_name, raising=False)
