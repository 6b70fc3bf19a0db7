"""[gpio] pin_factory: each choice loads gpiozero's factory of that name (the loading
mocked: no Pi here); a missing library is one line that says what to install."""

from __future__ import annotations

import pytest
from gpiozero import Device

from hal.pins import CHOICES, PinLibraryError, load_pin_factory, use_pin_factory
from tests.pin_libraries import GPIOZERO_FACTORIES, installed, missing


@pytest.fixture
def no_factory_yet(mocker):
    """gpiozero as in a fresh `unotable run`: no pin factory chosen; restored after."""
    mocker.patch.object(Device, "pin_factory", None)


def test_the_choices_are_the_briefs_libraries_and_auto():
    assert CHOICES == ("auto", "lgpio", "rpigpio", "pigpio")


@pytest.mark.parametrize("choice", ["lgpio", "rpigpio", "pigpio"])
def test_a_named_choice_becomes_the_factory_of_every_device(
    monkeypatch, mocker, no_factory_yet, choice
):
    factory_class = installed(monkeypatch, mocker, choice)
    for other in set(GPIOZERO_FACTORIES) - {choice}:
        installed(monkeypatch, mocker, other)  # present too, and still not the one chosen
    factory = use_pin_factory(choice)
    factory_class.assert_called_once_with()
    assert factory is factory_class.return_value
    assert Device.pin_factory is factory


def test_auto_leaves_the_search_to_gpiozero(monkeypatch, mocker, no_factory_yet):
    loaded = {choice: installed(monkeypatch, mocker, choice) for choice in GPIOZERO_FACTORIES}
    assert use_pin_factory("auto") is None
    assert Device.pin_factory is None  # gpiozero searches at the first device
    for factory_class in loaded.values():
        factory_class.assert_not_called()


@pytest.mark.parametrize(("choice", "library", "install"), [
    ("lgpio", "lgpio", "pip install 'unotable[pi]'"),
    ("rpigpio", "RPi.GPIO", "rpi-lgpio, RPi.GPIO's API on every Pi, the Pi 5 too"),
    ("pigpio", "pigpio", "sudo apt install pigpiod"),
])
def test_a_missing_library_is_one_line_saying_what_to_install(
    monkeypatch, no_factory_yet, choice, library, install
):
    missing(monkeypatch, choice)
    with pytest.raises(PinLibraryError) as caught:
        use_pin_factory(choice)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{choice}: {library} is not installed")
    assert install in message
    assert Device.pin_factory is None  # nothing half-chosen


def test_a_library_that_cannot_drive_this_machine_says_why(
    monkeypatch, mocker, no_factory_yet
):
    factory_class = installed(monkeypatch, mocker, "rpigpio")
    factory_class.side_effect = RuntimeError("This module can only be run on a Raspberry Pi!")
    with pytest.raises(PinLibraryError, match=r"rpigpio: RPi.GPIO cannot drive the pins of "
                       r"this machine \(RuntimeError: This module can only be run"):
        load_pin_factory("rpigpio")


def test_an_unknown_choice_names_the_known_ones():
    with pytest.raises(PinLibraryError, match="'wiringpi': one of auto, lgpio, rpigpio, pigpio"):
        load_pin_factory("wiringpi")
