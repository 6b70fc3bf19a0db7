"""Fixtures shared by every test package."""

from __future__ import annotations

import contextlib

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def mock_factory():
    """A fresh gpiozero MockFactory (PWM-capable pins), reset after the test."""
    factory = MockFactory(pin_class=MockPWMPin)
    previous = Device.pin_factory
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


@pytest.fixture
def closed_after():
    """`closed_after(device)` returns `device` and closes it when the test ends (the last
    one made first)."""
    with contextlib.ExitStack() as stack:
        yield lambda device: stack.enter_context(contextlib.closing(device))
