"""SerialLink: open by URL, notice a vanished port, reopen with backoff on the injected clock."""

import pytest
import serial

from hal.errors import ReaderDisconnected
from hal.serialport import SerialLink
from hal.sim.clock import VirtualClock


class FlakyOpener:
    """Fails to open until `works` is set; counts attempts."""

    def __init__(self):
        self.attempts = 0
        self.works = False

    def __call__(self, url, **kwargs):
        self.attempts += 1
        if not self.works:
            raise serial.SerialException(f"could not open port {url}")
        return serial.serial_for_url("loop://", **kwargs)


def test_loop_url_round_trip_counts_bytes():
    link = SerialLink("loop://", baudrate=115200)
    assert link.open() is True
    assert link.open() is False  # already open
    link.write(b"\x00\x00\xff\x00\xff\x00")
    got = b""
    for _ in range(10):
        got += link.read()
    assert got == b"\x00\x00\xff\x00\xff\x00"
    assert (link.bytes_written, link.bytes_read) == (6, 6)
    link.close()
    assert not link.connected


def test_reopen_attempts_back_off_exponentially_up_to_the_limit():
    clock, opener = VirtualClock(100.0), FlakyOpener()
    link = SerialLink(
        "/dev/ttyUSB7",
        baudrate=9600,
        clock=clock,
        open_port=opener,
        backoff_min_s=1.0,
        backoff_max_s=4.0,
    )
    gaps = []
    last = None
    for _ in range(60):
        try:
            link.open()
        except ReaderDisconnected as exc:
            assert "/dev/ttyUSB7" in str(exc)
        if opener.attempts != last:
            gaps.append(clock.now())
            last = opener.attempts
        clock.advance(0.5)
    spacing = [b - a for a, b in zip(gaps, gaps[1:], strict=False)]
    assert spacing[:4] == [1.0, 2.0, 4.0, 4.0]
    opener.works = True
    clock.advance(4.0)
    assert link.open() is True
    assert link.connected and link.reconnects == 0  # first successful open is no reconnect


def test_a_vanished_port_raises_disconnected_then_reopens():
    clock, opener = VirtualClock(100.0), FlakyOpener()
    opener.works = True
    link = SerialLink("/dev/ttyUSB7", baudrate=9600, clock=clock, open_port=opener)
    link.open()
    link._port.close()  # the device node went away under the open port
    with pytest.raises(ReaderDisconnected, match="lost"):
        link.read()
    assert not link.connected
    with pytest.raises(ReaderDisconnected, match="not connected"):
        link.write(b"x")
    assert link.open() is True  # the first reopen is tried at once
    assert link.reconnects == 1
