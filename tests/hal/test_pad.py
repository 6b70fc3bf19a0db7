"""The card pad: byte-exact PN532 frames (NXP UM0701-02), taps debounced on virtual time,
the reader failing and coming back, status, and the [pad] section."""

import pytest

from hal.errors import ConfigError, ReaderDisconnected
from hal.pad import Pad, PadDown, PadUp, Tap, open_pad_reader, parse_config
from hal.sim.clock import VirtualClock

A, B, C = "04A1B2C3D4E501", "04A1B2C3D4E502", "04A1B2C3D4E503"


def frame(text):
    return bytes.fromhex(text)


# Host -> chip, and the chip's answers, as the manual writes them (checksums by hand).
ACK = frame("00 00 FF 00 FF 00")
WAKE = frame("55 55") + bytes(14)
SAM = frame("00 00 FF 05 FB D4 14 01 14 01 02 00")
SAM_ANSWER = frame("00 00 FF 02 FE D5 15 16 00")
FIRMWARE = frame("00 00 FF 02 FE D4 02 2A 00")
FIRMWARE_ANSWER = frame("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")
MAX_RETRIES = frame("00 00 FF 06 FA D4 32 05 FF 01 01 F4 00")  # MxRtyPassiveActivation 1
FIELD_ON = frame("00 00 FF 04 FC D4 32 01 01 F8 00")
FIELD_OFF = frame("00 00 FF 04 FC D4 32 01 00 F9 00")
RF_ANSWER = frame("00 00 FF 02 FE D5 33 F8 00")
LIST_TWO = frame("00 00 FF 04 FC D4 4A 02 00 E0 00")  # InListPassiveTarget MaxTg 2, 106 kbps A
DESELECT_ALL = frame("00 00 FF 03 FD D4 44 00 E8 00")
DESELECT_ANSWER = frame("00 00 FF 03 FD D5 45 00 E6 00")
LISTED_NONE = frame("00 00 FF 03 FD D5 4B 00 E0 00")
LISTED_A = frame("00 00 FF 0F F1 D5 4B 01 01 00 44 00 07 04 A1 B2 C3 D4 E5 01 BF 00")
LISTED_A_AND_B = frame(
    "00 00 FF 1B E5 D5 4B 02 01 00 44 00 07 04 A1 B2 C3 D4 E5 01"
    " 02 00 44 00 07 04 A1 B2 C3 D4 E5 02 9C 00"
)


class ManualChip:
    """A pyserial port with the manual's chip behind it: every host frame must be one of
    the frames above, byte for byte, and gets the ACK and the manual's answer. What each
    InListPassiveTarget lists comes from `listings` (an empty field when none are left)."""

    ANSWERS = {SAM: SAM_ANSWER, FIRMWARE: FIRMWARE_ANSWER, MAX_RETRIES: RF_ANSWER,
               FIELD_ON: RF_ANSWER, FIELD_OFF: RF_ANSWER, DESELECT_ALL: DESELECT_ANSWER}

    def __init__(self):
        self.written = []
        self.listings = []
        self.unplugged = False
        self._out = bytearray()

    def __call__(self, url, **kwargs):
        if self.unplugged:
            raise ReaderDisconnected(url, "no such device")
        return self

    # -- the port ------------------------------------------------------------------
    def write(self, data):
        if self.unplugged:
            raise OSError(5, "Input/output error")
        data = bytes(data)
        self.written.append(data)
        if data in (WAKE, ACK):
            return len(data)
        if data == LIST_TWO:
            answer = self.listings.pop(0) if self.listings else LISTED_NONE
        else:
            answer = self.ANSWERS[data]  # any other frame is a test failure here
        self._out += ACK + answer
        return len(data)

    def flush(self):
        pass

    @property
    def in_waiting(self):
        return len(self._out)

    def read(self, n=1):
        if self.unplugged:
            raise OSError(5, "Input/output error")
        chunk, self._out[:n] = bytes(self._out[:n]), b""
        return chunk

    def reset_input_buffer(self):
        self._out.clear()

    def close(self):
        pass


def manual_pad(chip, **options):
    cfg = parse_config({"port": "/dev/unotable-pad", **options}, path="pad")
    clock = VirtualClock()
    return Pad(cfg, open_pad_reader(cfg, open_port=chip), clock=clock), clock


def test_a_read_is_the_manuals_frames_byte_for_byte_and_two_tags_are_one_tap():
    chip = ManualChip()
    pad, clock = manual_pad(chip)
    assert pad.poll() == []
    assert chip.written == [WAKE, SAM, FIRMWARE, MAX_RETRIES, FIELD_OFF,
                            FIELD_ON, LIST_TWO, FIELD_OFF]
    chip.written.clear()
    chip.listings = [LISTED_A_AND_B]
    assert pad.poll() == [Tap((A, B), (A, B), clock.now())]
    # both listed in one InListPassiveTarget (MaxTg 2), halted, then a listing finds no more
    assert chip.written == [FIELD_ON, LIST_TWO, DESELECT_ALL, LIST_TWO, FIELD_OFF]


def test_a_card_held_on_the_pad_is_one_tap():
    chip = ManualChip()
    pad, clock = manual_pad(chip)
    taps = []
    for _ in range(10):
        chip.listings = [LISTED_A]
        taps += pad.poll()
        clock.advance(0.05)
    assert taps == [Tap((A,), (A,), 0.0)]


class FieldReader:
    """A reader whose field holds what the test lays on it (the pad's logic, no port)."""

    port = "/dev/unotable-pad"
    firmware = None

    def __init__(self):
        self.tags = []
        self.failure = None
        self.closed = 0

    def read_tags(self):
        if self.failure:
            raise self.failure
        return list(self.tags)

    def get_status(self):
        return {"port": self.port, "driver": "pn532", "connected": self.failure is None}

    def close(self):
        self.closed += 1


def scripted_pad(**options):
    cfg = parse_config({"port": FieldReader.port, **options}, path="pad")
    reader, clock = FieldReader(), VirtualClock()
    return Pad(cfg, reader, clock=clock), reader, clock


def uids_of(events):
    return [e.uids for e in events if isinstance(e, Tap)]


def test_tapped_again_within_two_seconds_is_the_same_tap_and_after_them_a_new_one():
    pad, reader, clock = scripted_pad(same_tap_s=2.0)
    reader.tags = [A]
    assert uids_of(pad.poll()) == [(A,)]
    reader.tags = []
    clock.advance(1.5)
    pad.poll()
    reader.tags = [A]  # 1.5 s after its last sighting
    assert pad.poll() == []
    reader.tags = []
    pad.poll()
    clock.advance(2.5)
    reader.tags = [A]  # 2.5 s after it was last seen
    assert uids_of(pad.poll()) == [(A,)]


def test_the_window_counts_from_the_last_sighting_so_a_long_hold_and_a_quick_re_tap_is_one():
    pad, reader, clock = scripted_pad(same_tap_s=2.0)
    reader.tags = [A]
    taps = []
    for _ in range(100):  # held for 10 s
        taps += uids_of(pad.poll())
        clock.advance(0.1)
    reader.tags = []
    taps += uids_of(pad.poll())
    clock.advance(1.0)
    reader.tags = [A]
    taps += uids_of(pad.poll())
    assert taps == [(A,)]


def test_a_second_card_laid_beside_a_held_one_is_its_own_tap_with_both_on_the_pad():
    pad, reader, clock = scripted_pad()
    reader.tags = [A]
    pad.poll()
    clock.advance(0.05)
    reader.tags = [A, B]
    (tap,) = pad.poll()
    assert (tap.uids, tap.on_pad) == ((B,), (A, B))


def test_two_cards_laid_together_are_one_tap_with_both():
    pad, reader, _ = scripted_pad()
    reader.tags = [B, A]
    assert uids_of(pad.poll()) == [(B, A)]


def test_a_failing_reader_is_said_once_and_a_card_held_through_it_is_not_tapped_again():
    pad, reader, clock = scripted_pad()
    reader.tags = [A]
    pad.poll()
    lost = ReaderDisconnected(reader.port, "lost: unplugged")
    reader.failure = lost
    events = []
    for _ in range(5):
        clock.advance(1.0)
        events += pad.poll()
    assert events == [PadDown(reader.port, str(lost))]
    assert pad.get_status()["ok"] is False and "unplugged" in pad.get_status()["error"]
    assert "down" in repr(pad)
    reader.failure = None
    clock.advance(1.0)
    assert pad.poll() == [PadUp(reader.port)]  # A lay there all along: no new tap
    reader.tags = [A, C]
    assert uids_of(pad.poll()) == [(C,)]


def test_status_reports_the_reader_and_the_pad():
    pad, reader, clock = scripted_pad()
    reader.tags = [A]
    pad.poll()
    pad.set_pace(True)
    status = pad.get_status()
    assert status["port"] == reader.port and status["driver"] == "pn532"
    assert status["ok"] is True and status["error"] is None
    assert (status["pace"], status["polls"], status["taps"]) == ("fast", 1, 1)
    assert status["on_pad"] == [A]
    assert status["last_tap"] == {"uids": [A], "at": 0.0}
    assert repr(pad) == f"<Pad {reader.port} ok fast on_pad=['{A}']>"


def test_close_is_idempotent_closes_the_reader_and_a_closed_pad_refuses_to_poll():
    pad, reader, _ = scripted_pad()
    with pad:
        pass
    pad.close()
    assert reader.closed == 1
    assert repr(pad) == f"<Pad {reader.port} closed>"
    with pytest.raises(Exception, match="closed"):
        pad.poll()


# -- the [pad] section ---------------------------------------------------------------------
def test_the_section_maps_tags_to_cards_and_chips_with_uids_spelt_any_way():
    cfg = parse_config({"port": "socket://localhost:7000",
                        "cards": {"04:a1:b2:c3:d4:e5:01": "R7", B: "W+4"},
                        "chips": {C: "Y"}}, path="pad")
    assert cfg.card_of(A) == "R7" and cfg.card_of(B) == "W+4" and cfg.card_of(C) is None
    assert cfg.colour_of(C) == "Y" and cfg.colour_of(A) is None
    assert (cfg.poll_interval_s, cfg.idle_poll_interval_s, cfg.same_tap_s) == (0.05, 1.0, 2.0)


def test_every_problem_of_the_section_is_listed_at_once():
    errors = []
    parse_config({
        "port": "/dev/pad", "driver": "rdm6300", "poll_interval_s": 2, "idle_poll_interval_s": 1,
        "cards": {A: "R7", "04-A1-B2-C3-D4-E5-01": "G5", "XYZ": "R1", B: 7},
        "chips": {A: "R", C: "purple"}, "speed": 3,
    }, path="pad", errors=errors)
    found = {(e.key, e.message) for e in errors}
    assert ("pad.driver", "must be one of 'pn532', not 'rdm6300'") in found
    assert ("pad.cards.04-A1-B2-C3-D4-E5-01", f"tag {A} is already pad.cards.{A} = 'R7'") in found
    assert ("pad.chips." + A, f"tag {A} is already pad.cards.{A} = 'R7'") in found
    assert any(key == "pad.cards.XYZ" and "4-10 bytes of hex" in m for key, m in found)
    assert ("pad.cards." + B, "must be a card code like 'R7' or 'W+4', not 7") in found
    assert ("pad.chips." + C, "must be a colour, one of R, G, B, Y, not 'purple'") in found
    assert any(key == "pad.idle_poll_interval_s" for key, _ in found)
    assert ("pad.speed", "unknown option") in found


def test_a_pad_needs_a_port():
    with pytest.raises(ConfigError) as err:
        parse_config({"cards": {}}, path="pad")
    assert err.value.key == "pad.port"


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -0.1, "fast"])
def test_a_pace_that_is_no_finite_number_in_range_is_refused(value):
    with pytest.raises(ConfigError) as err:
        parse_config({"port": "/dev/pad", "poll_interval_s": value}, path="pad")
    assert err.value.key == "pad.poll_interval_s"


def test_a_watcher_ends_when_the_pad_is_closed_from_another_thread():
    import threading

    pad, reader, _ = scripted_pad()
    stop = threading.Event()
    polled = threading.Event()
    reader.read_tags = lambda: polled.set() or []
    watcher = threading.Thread(target=pad.watch, args=(lambda e: None, stop))
    watcher.start()
    assert polled.wait(5)
    pad.close()
    watcher.join(5)
    assert not watcher.is_alive() and not stop.is_set()
