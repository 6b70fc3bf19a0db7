"""RDM6300: 14-byte frames with XOR checksum, removal by timeout on an injected clock."""

import threading
import time

import pytest

from hal.errors import ReaderDisconnected
from hal.rdm6300 import RDM6300, RDM6300Decoder, encode_frame
from hal.sim.clock import VirtualClock
from hal.sim.rdm6300 import SimRDM6300

# 02, "0A00112233", checksum 0A^00^11^22^33 = 0A, 03
FRAME = b"\x020A001122330A\x03"


def test_frame_bytes():
    assert encode_frame("0A00112233") == FRAME
    assert len(FRAME) == 14


def test_decoder_reads_frames_in_any_chunking():
    decoder = RDM6300Decoder()
    uids = []
    for b in FRAME * 2:
        uids += decoder.feed(bytes([b]))
    assert uids == ["0A00112233", "0A00112233"]


def test_bad_checksum_and_garbage_are_dropped_and_the_next_frame_read():
    decoder = RDM6300Decoder()
    bad = FRAME[:11] + b"1" + FRAME[12:]
    uids = decoder.feed(b"\xa5\x17" + bad + b"\x02\x03junk" + encode_frame("1122334455"))
    assert uids == ["1122334455"]
    assert decoder.frames_bad == 2
    assert decoder.frames_ok == 1


def test_non_hex_digits_are_a_bad_frame():
    decoder = RDM6300Decoder()
    assert decoder.feed(b"\x02ZZ00112233" + b"0A\x03") == []
    assert decoder.frames_bad == 1


def test_encode_refuses_wrong_length():
    with pytest.raises(ValueError, match="5 bytes"):
        encode_frame("0A0011")


def wait_for_tags(reader, want, tries=100):
    for _ in range(tries):
        tags = reader.read_tags()
        if tags == want:
            return tags
        time.sleep(0.01)  # wait for the module's next frame
    return tags


def test_tag_is_removed_only_after_the_timeout():
    clock = VirtualClock()
    with SimRDM6300(["0A00112233"], repeat_s=0.01) as sim:
        reader = RDM6300(sim.port, removal_s=0.5, listen_s=0.0, clock=clock)
        assert wait_for_tags(reader, ["0A00112233"]) == ["0A00112233"]
        sim.lift("0A00112233")
        time.sleep(0.05)
        reader.read_tags()  # drain what was on the line
        clock.advance(0.4)
        assert reader.read_tags() == ["0A00112233"]
        clock.advance(0.2)
        assert reader.read_tags() == []
        reader.close()


def test_unplug_and_replug():
    with SimRDM6300(["0A00112233"], repeat_s=0.01) as sim:
        reader = RDM6300(sim.port, listen_s=0.05, backoff_min_s=0.0)
        assert wait_for_tags(reader, ["0A00112233"]) == ["0A00112233"]
        sim.unplug()
        with pytest.raises(ReaderDisconnected):
            for _ in range(5):
                reader.read_tags()
        sim.replug()
        assert wait_for_tags(reader, ["0A00112233"]) == ["0A00112233"]
        assert reader.get_status()["reconnects"] == 1
        reader.close()


def test_two_tags_in_the_field_read_as_none():
    with SimRDM6300(["0A00112233", "1122334455"], repeat_s=0.01) as sim:
        reader = RDM6300(sim.port, listen_s=0.1)
        assert reader.read_tags() == []
        reader.close()


def test_a_silent_module_does_no_work_until_a_single_tag_is_in_its_field():
    with SimRDM6300(["0A00112233", "0A00112244"], repeat_s=0.01) as sim:
        threading.Event().wait(0.05)  # let it handle the wake-ups of placing its tags
        ticks, tick = [], sim.tick
        sim.tick = lambda now: (ticks.append(now), tick(now))[1]
        threading.Event().wait(0.2)
        assert ticks == []  # two tags: it reads neither and sends nothing, so it sleeps
        reader = RDM6300(sim.port, removal_s=0.5, listen_s=0.0)
        sim.lift("0A00112244")
        assert wait_for_tags(reader, ["0A00112233"]) == ["0A00112233"]
        assert len(ticks) >= 2  # woken by lift(), then every repeat_s
        reader.close()
