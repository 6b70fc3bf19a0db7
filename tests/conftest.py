"""Fixtures shared by every test package."""

from __future__ import annotations

import contextlib
import socket
import weakref

import aiohttp
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture(scope="session", autouse=True)
def default_port_taken():
    """The API's default port (8080) is held while the suite runs, so a test that needs it
    free fails here as it would on a machine where another program has it."""
    with socket.socket() as holder:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            holder.bind(("127.0.0.1", 8080))
            holder.listen()
        except OSError:
            pass  # another program holds it already: the same condition
        yield


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


# Every aiohttp client session made while the suite runs, in order, and the ones
# garbage-collected unclosed: aiohttp itself reports those only at exit, after the result.
_sessions: list[weakref.ref[aiohttp.ClientSession]] = []
_leaked: list[tuple[int, str]] = []


@pytest.fixture(scope="session", autouse=True)
def _track_aiohttp_sessions():
    init, delete = aiohttp.ClientSession.__init__, aiohttp.ClientSession.__del__

    def tracked_init(self, *args, **kwargs):
        self._test_index = len(_sessions)
        _sessions.append(weakref.ref(self))
        init(self, *args, **kwargs)

    def tracked_del(self, *args, **kwargs):
        if not self.closed:
            _leaked.append((getattr(self, "_test_index", -1), repr(self)))
        delete(self, *args, **kwargs)

    aiohttp.ClientSession.__init__, aiohttp.ClientSession.__del__ = tracked_init, tracked_del
    try:
        yield
    finally:
        aiohttp.ClientSession.__init__, aiohttp.ClientSession.__del__ = init, delete


@pytest.fixture(autouse=True)
def aiohttp_sessions_closed(_track_aiohttp_sessions):
    """A test fails when it leaves an aiohttp client session it opened unclosed."""
    first = len(_sessions)
    yield
    open_now = [s for ref in _sessions[first:] if (s := ref()) is not None and not s.closed]
    lost = [text for index, text in _leaked if index >= first]
    del _sessions[first:]
    _leaked[:] = [(index, text) for index, text in _leaked if index < first]
    if open_now or lost:
        pytest.fail(f"unclosed aiohttp client sessions: {[repr(s) for s in open_now] + lost}")
