"""SerialLink: open by URL, notice a vanished port, reopen with backoff on the injected clock."""

import fcntl
import os
import pty

import pytest
import serial

from hal.errors import PortBusy, ReaderDisconnected
from hal.serialport import SerialLink
from hal.sim.clock import VirtualClock


def flaky_opener(mocker):
    """pyserial's open, spied: fails until `opener.works` is set, then opens loop://."""

    def open_port(url, **kwargs):
        if not opener.works:
            raise serial.SerialException(f"could not open port {url}")
        return serial.serial_for_url("loop://", **kwargs)

    opener = mocker.Mock(side_effect=open_port)
    opener.works = False
    return opener


OPENED = {"baudrate": 9600, "timeout": 0.005, "exclusive": True}


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


def test_reopen_attempts_back_off_exponentially_up_to_the_limit(mocker):
    clock, opener = VirtualClock(100.0), flaky_opener(mocker)
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
        if opener.call_count != last:
            gaps.append(clock.now())
            last = opener.call_count
        clock.advance(0.5)
    spacing = [b - a for a, b in zip(gaps, gaps[1:], strict=False)]
    assert spacing[:4] == [1.0, 2.0, 4.0, 4.0]
    opener.works = True
    clock.advance(4.0)
    assert link.open() is True
    assert link.connected and link.reconnects == 0  # first successful open is no reconnect


def test_a_vanished_port_raises_disconnected_then_reopens(mocker):
    clock, opener = VirtualClock(100.0), flaky_opener(mocker)
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
    # the reopen went to the same device, opened the same way (exclusively)
    assert opener.call_args_list == [mocker.call("/dev/ttyUSB7", **OPENED)] * 2


def test_a_port_another_program_holds_is_busy_until_it_lets_go():
    controller, device = pty.openpty()
    path = os.ttyname(device)
    fcntl.flock(device, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another program's exclusive open
    link = SerialLink(path, baudrate=115200, backoff_min_s=0.0)
    try:
        with pytest.raises(PortBusy, match="busy: another program holds it") as caught:
            link.open()
        assert caught.value.port == path and not link.connected
        fcntl.flock(device, fcntl.LOCK_UN)  # it lets go
        assert link.open() is True
        # and while the link holds the port, the other program is the one refused
        with pytest.raises(BlockingIOError):
            fcntl.flock(device, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        link.close()
        os.close(device)
        os.close(controller)
