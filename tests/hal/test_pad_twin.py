"""The card pad on its twin (a simulated PN532 on a pty), and its pace on virtual time."""

import threading

import pytest

from hal.pad import Pad, PadDown, PadUp, Tap, open_pad_reader, parse_config
from hal.sim.clock import VirtualClock
from hal.sim.pad import CHIP_COLOURS, SimPad, card_uid, chip_tags, chip_uid, deck_tags
from tests.hal.pad_fakes import CountingReader, VirtualStop

DECK = ["R0", "R1", "R1", "W", "W+4", "W"]
FAST = {"ack_timeout_s": 0.2, "response_timeout_s": 0.2, "reconnect_min_s": 0.0}


@pytest.fixture
def twin():
    with SimPad("classic", DECK) as sim:
        yield sim


def taps(events):
    return [e.uids for e in events if isinstance(e, Tap)]


def test_every_card_copy_and_chip_of_the_twin_has_its_own_tag_the_same_every_time(twin):
    assert list(twin.cards) == [card_uid("classic", i) for i in range(len(DECK))]
    assert list(twin.cards.values()) == DECK
    assert twin.tags_of("R1") == [card_uid("classic", 1), card_uid("classic", 2)]
    assert sorted(twin.chips.values()) == sorted(CHIP_COLOURS)
    every = [*deck_tags("classic", ["R0"] * 112), *deck_tags("power", ["R0"] * 112),
             *chip_tags()]
    assert len(set(every)) == len(every)
    assert all(len(uid) == 14 and uid.startswith("04") for uid in every)
    assert twin.chips[chip_uid("R")] == "R"
    with pytest.raises(ValueError, match="no copy 2"):
        twin.tag_of("R1", 2)


def test_the_pad_reads_a_card_held_on_the_twin_once_and_two_cards_laid_together_as_one_tap(twin):
    with Pad.from_config(twin.config(**FAST)) as pad:
        assert pad.poll() == []
        twin.hold(twin.tag_of("R1"))
        (tap,) = pad.poll()
        assert pad.config.card_of(tap.uids[0]) == "R1"
        assert pad.poll() == [] and pad.poll() == []
        twin.lift()
        pad.poll()
        twin.hold(twin.tag_of("W"), twin.tag_of("W", 1))
        (both,) = taps(pad.poll())
        assert sorted(both) == sorted(twin.tags_of("W"))  # two tags at once are seen as two
        twin.hold(chip_uid("G"))
        (chip,) = taps(pad.poll())
        assert pad.config.colour_of(chip[0]) == "G"


def test_unplugged_mid_use_is_said_once_and_the_pad_comes_back_by_itself(twin):
    clock = VirtualClock()
    cfg = twin.config(**FAST)
    with Pad(cfg, open_pad_reader(cfg), clock=clock) as pad:  # reader timeouts: real time
        twin.hold(twin.tag_of("R0"))
        assert taps(pad.poll()) == [(twin.tag_of("R0"),)]
        twin.unplug()
        events = [e for _ in range(4) for e in pad.poll()]
        assert [type(e) for e in events] == [PadDown]
        assert pad.get_status()["connected"] is False
        twin.replug()
        twin.hold(twin.tag_of("R0"))  # the replugged chip's field holds the card again
        for _ in range(20):
            events += pad.poll()
            if isinstance(events[-1], PadUp):
                break
            threading.Event().wait(0.05)  # the reopen backoff is on real time
        assert [type(e) for e in events] == [PadDown, PadUp]  # R0 was held: not a new tap
        assert pad.get_status()["reconnects"] == 1
        twin.hold(twin.tag_of("R1"))
        assert taps(pad.poll()) == [(twin.tag_of("R1"),)]


def test_a_tap_lies_on_the_pad_for_tap_s_of_the_twins_clock():
    clock = VirtualClock()
    with SimPad("classic", DECK, clock=clock, paced=False, tap_s=0.3) as twin:
        twin.tap(twin.tag_of("R0"), chip_uid("B"))
        assert sorted(twin.on_pad) == sorted([twin.tag_of("R0"), chip_uid("B")])
        clock.advance(0.29)
        assert twin.on_pad
        clock.advance(0.02)
        assert twin.on_pad == []
        twin.tap(twin.tag_of("R0"))
        twin.hold(twin.tag_of("R1"))  # a hold cancels the tap's lift
        clock.advance(1)
        assert twin.on_pad == [twin.tag_of("R1")]


# -- pace ---------------------------------------------------------------------------------
def watched(**options):
    cfg = parse_config({"port": CountingReader.port, "poll_interval_s": 0.05,
                        "idle_poll_interval_s": 1.0, "same_tap_s": 2.0, **options}, path="pad")
    clock = VirtualClock()
    reader = CountingReader(clock)
    return Pad(cfg, reader, clock=clock), reader, clock


def watch_for(pad, clock, seconds):
    events = []
    pad.watch(lambda e: events.append((round(clock.now(), 3), e)),
              VirtualStop(clock, clock.now() + seconds))
    return events


def test_the_pad_polls_at_the_idle_pace_until_a_declaration_is_awaited_then_fast():
    pad, reader, clock = watched()
    watch_for(pad, clock, 10)
    assert 10 <= len(reader.reads) <= 11
    pad.set_pace(fast=True)
    before = len(reader.reads)
    watch_for(pad, clock, 10)
    assert 199 <= len(reader.reads) - before <= 201
    pad.set_pace(fast=False)
    before = len(reader.reads)
    watch_for(pad, clock, 10)
    assert len(reader.reads) - before <= 11


def test_a_pace_switch_applies_within_one_fast_interval():
    pad, reader, clock = watched()
    clock.call_later(3.3, lambda: pad.set_pace(True))
    clock.call_later(3.3, lambda: reader.tags.append("04A1B2C3D4E501"))
    events = watch_for(pad, clock, 5)
    (at, tap), = events
    assert isinstance(tap, Tap) and 3.3 < at <= 3.35 + 1e-9  # not at the idle read of 4.0


def test_after_a_tap_the_pace_stays_fast_while_the_card_lies_there_and_for_the_window():
    pad, reader, clock = watched()
    clock.call_later(2.5, lambda: reader.tags.append("04A1B2C3D4E501"))
    clock.call_later(5.0, reader.tags.clear)
    watch_for(pad, clock, 12)
    gaps = {round(b - a, 3) for a, b in zip(reader.reads, reader.reads[1:], strict=False)
            if a >= 3.0 and b <= 7.0}
    assert gaps == {0.05}
    late = {round(b - a, 3) for a, b in zip(reader.reads, reader.reads[1:], strict=False)
            if a >= 7.1}
    assert late == {1.0}


def test_a_fast_pace_slower_than_the_idle_one_is_refused():
    with pytest.raises(Exception, match="not be less than poll_interval_s"):
        parse_config({"port": "/dev/pad", "poll_interval_s": 2, "idle_poll_interval_s": 1},
                     path="pad")
