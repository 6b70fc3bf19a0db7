"""The PN532 driver against the simulated chip on a pty: bring-up, inventory, faults."""

import pytest
import serial

from hal.errors import FrameError, ReaderDisconnected, SerialTimeout
from hal.pn532 import PN532
from hal.pn532.frames import encode_frame
from hal.sim.clock import VirtualClock
from hal.sim.pn532 import SimPN532

UIDS = ["04A1B2C3D4E501", "04A1B2C3D4E502", "04A1B2C3D4E503", "04A1B2C3D4E504"]
FAST = {"ack_timeout_s": 0.15, "response_timeout_s": 0.15, "backoff_min_s": 0.0}


class Recorder:
    """open_port that keeps every byte the driver writes (to check frames byte for byte)."""

    def __init__(self):
        self.written = bytearray()

    def __call__(self, url, **kwargs):
        port = serial.serial_for_url(url, **kwargs)
        write = port.write

        def recording_write(data):
            self.written += data
            return write(data)

        port.write = recording_write
        return port


@pytest.fixture
def chip():
    with SimPN532(UIDS) as sim:
        yield sim


def test_bring_up_wakes_the_chip_and_sends_sam_configuration_first(chip):
    rec = Recorder()
    with PN532(chip.port, open_port=rec, **FAST) as reader:
        reader.open()
        assert reader.firmware == "PN532 v1.6"
    sent = bytes(rec.written)
    sam = bytes.fromhex("00 00 FF 05 FB D4 14 01 14 01 02 00")
    assert sent.startswith(b"\x55\x55" + bytes(14) + sam)
    assert bytes.fromhex("00 00 FF 02 FE D4 02 2A 00") in sent  # GetFirmwareVersion
    # finite passive-activation retries: RFConfiguration item 05 = FF 01 01
    assert encode_frame(bytes.fromhex("32 05 FF 01 01")) in sent
    assert chip.commands[0] == 0x14


def test_four_tags_on_one_reader_are_all_found(chip):
    with PN532(chip.port, **FAST) as reader:
        assert sorted(reader.read_tags()) == UIDS
        # a second turn finds them again: the field cycle woke the halted tags
        assert sorted(reader.read_tags()) == UIDS


def test_one_listing_never_returns_more_than_two_so_the_driver_lists_again(chip):
    with PN532(chip.port, **FAST) as reader:
        reader.read_tags()
    listings = [c for c in chip.commands if c == 0x4A]
    assert len(listings) == 3  # 2 + 2 + the empty listing that ends the inventory


def test_tags_come_and_go(chip):
    with PN532(chip.port, **FAST) as reader:
        chip.lift(UIDS[0])
        chip.lift(UIDS[1])
        assert sorted(reader.read_tags()) == UIDS[2:]
        for uid in UIDS[2:]:
            chip.lift(uid)
        assert reader.read_tags() == []
        chip.place("DEADBEEF")
        assert reader.read_tags() == ["DEADBEEF"]


def test_field_is_off_between_turns(chip):
    with PN532(chip.port, **FAST) as reader:
        reader.read_tags()
        assert chip.field_on is False


@pytest.mark.parametrize("fault", ["garbage", "bitflip", "bad_checksum", "drop", "nack", "silence"])
def test_line_faults_end_in_recovery(chip, fault):
    with PN532(chip.port, **FAST) as reader:
        reader.read_tags()
        chip.inject(fault)
        results = []
        for _ in range(3):
            try:
                results.append(sorted(reader.read_tags()))
            except (SerialTimeout, ReaderDisconnected) as exc:
                results.append(type(exc).__name__)
        assert results[-1] == UIDS
        assert results.count(UIDS) >= 2  # at most one turn lost to the fault
        status = reader.get_status()
        assert status["ready"] and status["connected"]


def test_a_broken_answer_is_nacked_and_the_chip_repeats_it(chip):
    with PN532(chip.port, **FAST) as reader:
        reader.read_tags()
        chip.inject("bad_checksum")
        assert sorted(reader.read_tags()) == UIDS
        status = reader.get_status()
        assert status["frames_bad"] == 1
        assert status["nacks_sent"] == 1


def test_a_nack_from_the_chip_gets_the_command_resent(chip):
    with PN532(chip.port, **FAST) as reader:
        reader.read_tags()
        chip.inject("nack")
        assert sorted(reader.read_tags()) == UIDS
        assert reader.get_status()["resends"] == 1


def test_a_chip_that_stays_silent_times_out_and_is_brought_up_again(chip):
    with PN532(chip.port, **FAST) as reader:
        reader.read_tags()
        chip.inject("silence", count=2)  # the command and its one resend
        with pytest.raises(SerialTimeout, match="no ACK"):
            reader.read_tags()
        assert reader.get_status()["ready"] is False
        assert sorted(reader.read_tags()) == UIDS
        assert reader.get_status()["timeouts"] == 1


def test_unplug_and_replug_reconnects_and_wakes_the_chip_again(chip):
    with PN532(chip.port, **FAST) as reader:
        assert sorted(reader.read_tags()) == UIDS
        chip.unplug()
        for _ in range(2):
            with pytest.raises(ReaderDisconnected):
                reader.read_tags()
        assert reader.get_status()["connected"] is False
        chip.replug()
        assert chip.awake is False  # power-cycled: LowVbat again
        assert sorted(reader.read_tags()) == UIDS
        status = reader.get_status()
        assert status["connected"] and status["reconnects"] == 1
        assert chip.awake


def test_status_reports_health(chip):
    with PN532(chip.port, **FAST) as reader:
        reader.read_tags()
        status = reader.get_status()
    assert status["frames_ok"] > 0 and status["frames_bad"] == 0
    assert status["last_seen"] is not None
    assert status["firmware"] == "PN532 v1.6"
    assert "PN532" in repr(reader)


def test_a_port_that_cannot_be_opened_names_the_port():
    reader = PN532("/nonexistent/ttyUSB9", **FAST)
    with pytest.raises(ReaderDisconnected, match="/nonexistent/ttyUSB9"):
        reader.read_tags()


def test_max_retries_must_be_finite():
    with pytest.raises(ValueError, match="max_retries"):
        PN532("loop://", max_retries=255)


def test_an_error_frame_is_a_frame_error_and_the_next_turn_recovers(chip):
    with PN532(chip.port, **FAST) as reader:
        reader.read_tags()
        chip.inject("error")
        with pytest.raises(FrameError, match="reports an error"):
            reader.read_tags()
        assert sorted(reader.read_tags()) == UIDS


def test_a_slow_first_ack_is_waited_for():
    with (
        SimPN532(UIDS[:1], first_ack_delay_s=0.1) as sim,
        PN532(sim.port, ack_timeout_s=0.5, response_timeout_s=0.15) as reader,
    ):
        assert reader.read_tags() == UIDS[:1]
        assert reader.get_status()["resends"] == 0


def test_a_chip_that_never_comes_up_is_retried_with_backoff_not_every_turn():
    clock = _Ticking()
    with SimPN532(UIDS[:1]) as sim:
        sim.inject("silence", count=100)
        rec = Recorder()
        opts = {**FAST, "backoff_min_s": 5.0, "backoff_max_s": 20.0}
        reader = PN532(sim.port, clock=clock, open_port=rec, **opts)
        with pytest.raises(SerialTimeout):
            reader.read_tags()
        sent = len(rec.written)
        with pytest.raises(SerialTimeout, match="not answering"):
            reader.read_tags()
        assert len(rec.written) == sent  # nothing sent while backing off
        clock.advance(5.0)
        sim.clear_faults()
        assert reader.read_tags() == UIDS[:1]
        reader.close()


class _Ticking(VirtualClock):
    """A clock that advances a little on every reading (time passes while reading)."""

    def now(self, step=0.01):
        self.advance(step)
        return super().now()
