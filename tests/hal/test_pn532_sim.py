"""The simulated PN532 is no kinder than the chip: checked with raw bytes on its port."""

import threading
import time

import pytest
import serial

from hal.pn532.frames import ACK, ERROR_FRAME, FrameDecoder, FrameKind, encode_frame
from hal.sim.pn532 import SimPN532

WAKE = b"\x55\x55" + bytes(14)
SAM = encode_frame(bytes.fromhex("14 01 14 01"))


class Host:
    def __init__(self, url):
        self.port = serial.serial_for_url(url, baudrate=115200, timeout=0.01)
        self.decoder = FrameDecoder()

    def send(self, data):
        self.port.write(data)

    def frames(self, wait=None, until=None):
        """Frames that arrive within `wait` s (or as soon as `until` of them have).

        Waiting for a count returns as soon as the frames are there, so its default
        deadline is generous: a loaded machine must not turn a late frame into a failure.
        """
        if wait is None:
            wait = 0.15 if until is None else 2.0
        out = []
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and (until is None or len(out) < until):
            out += self.decoder.feed(self.port.read(64))
        return out

    def raw(self, length, wait=0.3):
        """The bytes that arrive within `wait` s, as soon as `length` of them have."""
        out = b""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and len(out) < length:
            out += self.port.read(64)
        return out

    def command(self, hex_data, until=2, wait=2.0):
        self.send(encode_frame(bytes.fromhex(hex_data)))
        return self.frames(wait, until)

    def close(self):
        self.port.close()


@pytest.fixture
def chip():
    with SimPN532(["04A1B2C3D4E501", "04A1B2C3D4E502", "04A1B2C3D4E503"]) as sim:
        yield sim


@pytest.fixture
def host(chip):
    h = Host(chip.port)
    yield h
    h.close()


def woken(host):
    host.send(WAKE + SAM)
    frames = host.frames(until=2)
    assert [f.kind for f in frames] == [FrameKind.ACK, FrameKind.INFO]
    assert frames[1].data == b"\x15"


def test_asleep_chip_ignores_commands_until_woken(host):
    host.send(encode_frame(b"\x02"))
    assert host.frames(0.1) == []


def test_sam_configuration_must_come_first(host):
    host.send(WAKE + encode_frame(b"\x02"))
    assert host.frames(0.1) == []
    host.send(SAM)
    assert [f.kind for f in host.frames(until=2)] == [FrameKind.ACK, FrameKind.INFO]


def test_firmware_version_answer_is_byte_exact(chip, host):
    woken(host)
    host.send(encode_frame(b"\x02"))
    raw = host.raw(19)
    assert raw == ACK + bytes.fromhex("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")


def test_unknown_command_gets_the_error_frame(host):
    woken(host)
    host.send(encode_frame(b"\x99"))
    raw = host.raw(14)
    assert raw == ACK + ERROR_FRAME


def test_default_infinite_retries_never_answer_an_empty_field(chip, host):
    for uid in chip.tags:
        chip.lift(uid)
    woken(host)
    host.command("32 01 01")  # field on
    frames = host.command("4A 02 00", until=2, wait=0.5)
    assert [f.kind for f in frames] == [FrameKind.ACK]  # ACKed, never answered
    chip.place("DEADBEEF")
    (answer,) = host.frames(until=1)
    assert answer.data[:2] == b"\x4b\x01"


def count_ticks(device):
    """The times at which the device's serving thread works from now on."""
    ticks, tick = [], device.tick
    device.tick = lambda now: (ticks.append(now), tick(now))[1]
    return ticks


def test_an_idle_chip_does_no_work_until_the_host_sends(chip, host):
    woken(host)
    ticks = count_ticks(chip)
    threading.Event().wait(0.2)
    assert ticks == []  # no polling while nothing happens
    assert [f.kind for f in host.command("02")] == [FrameKind.ACK, FrameKind.INFO]
    assert ticks


def test_a_chip_waiting_for_a_tag_sleeps_until_one_is_placed(chip, host):
    for uid in chip.tags:
        chip.lift(uid)
    woken(host)
    host.command("32 01 01")
    assert [f.kind for f in host.command("4A 02 00", wait=0.5)] == [FrameKind.ACK]
    ticks = count_ticks(chip)
    threading.Event().wait(0.2)
    assert ticks == []  # an empty field answers no attempt: nothing to do until the world changes
    chip.place("DEADBEEF")
    (answer,) = host.frames(until=1)
    assert answer.data[:2] == b"\x4b\x01" and ticks


def test_finite_retries_answer_no_target(chip, host):
    for uid in chip.tags:
        chip.lift(uid)
    woken(host)
    host.command("32 05 FF 01 00")
    host.command("32 01 01")
    frames = host.command("4A 02 00")
    assert frames[-1].data == b"\x4b\x00"


def test_at_most_two_targets_and_halted_tags_stay_silent_until_the_field_cycles(chip, host):
    woken(host)
    host.command("32 05 FF 01 00")
    host.command("32 01 01")
    first = host.command("4A 02 00")[-1].data
    assert first[1] == 2  # three tags in the field, two listed
    host.command("52 00")  # release: both halted
    second = host.command("4A 02 00")[-1].data
    assert second[1] == 1
    host.command("44 00")  # deselect halts them as well
    assert host.command("4A 02 00")[-1].data == b"\x4b\x00"  # all halted: silence
    host.command("32 01 00")
    host.command("32 01 01")  # field cycled: all answer again
    assert host.command("4A 02 00")[-1].data[1] == 2


def test_field_off_means_no_tag_answers(host):
    woken(host)
    host.command("32 05 FF 01 00")
    assert host.command("4A 02 00")[-1].data == b"\x4b\x00"


def test_unknown_fault_is_refused(chip):
    with pytest.raises(ValueError, match="unknown fault"):
        chip.inject("gremlins")
