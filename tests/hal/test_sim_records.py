"""The twins' records stay bounded over long runs, and still answer what tests ask of them."""

import random
import threading

import pytest
import serial

from hal.launcher import parse_config
from hal.pn532.frames import FrameDecoder, FrameKind, encode_frame
from hal.seats import parse_config as parse_seats
from hal.sim.launcher import EXAMPLE_SECTION, SimLauncher
from hal.sim.pn532 import SimPN532
from hal.sim.records import LOG_ENTRIES, PIN_HISTORY, RecentLog, bounded_pin_class
from hal.sim.seats import EXAMPLE_SECTION as SEATS_SECTION
from hal.sim.seats import SimSeats


def test_recent_log_keeps_the_last_entries_and_counts_every_one():
    log = RecentLog(range(10), maxlen=4)
    assert list(log) == [6, 7, 8, 9]
    assert len(log) == 10 and log.dropped == 6
    assert log[9] == 9 and log[-1] == 9 and log[6] == 6
    assert log[7:] == [7, 8, 9]
    with pytest.raises(IndexError, match="dropped"):
        log[5:]
    with pytest.raises(IndexError):
        log[5]
    assert log != list(range(10)) and log != [6, 7, 8, 9]  # it lost entries: not equal to any list
    assert RecentLog([1, 2], maxlen=4) == [1, 2]
    assert RecentLog(maxlen=4) == []


def test_a_reader_with_a_cursor_keeps_reading_while_old_entries_are_dropped():
    log, cursor, seen = RecentLog(maxlen=8), 0, []
    for batch in range(100):
        log.extend(range(batch * 5, batch * 5 + 5))
        seen += log[cursor:]
        cursor = len(log)
    assert seen == list(range(500))
    assert list(log) == list(range(492, 500))


def test_recent_log_refuses_a_size_below_one():
    with pytest.raises(ValueError, match="maxlen"):
        RecentLog(maxlen=0)


def test_launcher_twin_records_stay_bounded_over_thousands_of_cards(mock_factory):
    sim = SimLauncher(parse_config(EXAMPLE_SECTION), factory=mock_factory)
    cards = LOG_ENTRIES + 304  # a multiple of 8: every seat gets the same number of deals
    sim.load(range(cards))
    launcher = sim.launcher(rng=random.Random(3))
    try:
        for i in range(cards // 2):  # two cards per deal: the motor starts and stops each time
            assert launcher.deal(2, seat=i % 4).counted == 2
    finally:
        launcher.close()
    assert len(sim.exited) == cards  # every card counted...
    assert sum(1 for _ in sim.exited) == LOG_ENTRIES  # ...the last LOG_ENTRIES kept
    assert list(sim.exited)[-1] == (cards - 1, (cards // 2 - 1) % 4)
    assert len(sim.motor_log) >= cards // 2 and sum(1 for _ in sim.motor_log) <= LOG_ENTRIES
    assert sim.longest_run() > 0
    assert sim.get_status()["delivered"] == {str(seat): cards // 4 for seat in range(4)}
    assert all(len(pin.states) <= PIN_HISTORY for pin in mock_factory.pins.values())
    assert max(len(pin.states) for pin in mock_factory.pins.values()) == PIN_HISTORY


def test_seat_twin_led_history_stays_bounded_and_keeps_the_latest(mock_factory):
    sim = SimSeats(parse_seats(SEATS_SECTION), factory=mock_factory)
    with sim.panel() as panel:
        for i in range(PIN_HISTORY + 500):
            panel.light(1, i % 2 == 0)
        history = sim.led_history(1)
    assert len(history) == PIN_HISTORY
    assert history[-2:] == [True, False]  # the last two calls: on, then off


def test_bounded_pin_history_still_serves_assert_states(mock_factory):
    pin = mock_factory.pin("GPIO9", pin_class=bounded_pin_class(mock_factory.pin_class, 5))
    pin.function = "output"
    for i in range(20):
        pin.state = i % 2
    assert len(pin.states) == 5
    pin.clear_states()
    pin.state = 0
    pin.state = 1
    pin.assert_states([1, 0, 1])  # gpiozero's own check, on the bounded history
    with pytest.raises(AssertionError):
        pin.assert_states([1, 1, 1])


def test_reader_twin_command_log_stays_bounded_over_thousands_of_commands():
    with SimPN532(baud=None) as chip:
        port = serial.serial_for_url(chip.port, timeout=0.05)
        answers, stop = [], threading.Event()

        def drain():
            decoder = FrameDecoder()
            while not stop.is_set():
                answers.extend(f for f in decoder.feed(port.read(4096)) if f.kind is FrameKind.INFO)

        reader = threading.Thread(target=drain)
        reader.start()
        try:
            sam = encode_frame(bytes.fromhex("14 01 14 01"))
            version = encode_frame(b"\x02")
            count = LOG_ENTRIES + 200
            port.write(b"\x55\x55" + bytes(14) + sam + version * (count - 1))
            done = threading.Event()
            for _ in range(200):
                if len(chip.commands) >= count:
                    break
                done.wait(0.05)
        finally:
            stop.set()
            reader.join()
            port.close()
        assert len(chip.commands) == count
        assert list(chip.commands) == [0x02] * LOG_ENTRIES
        assert chip.commands.dropped == 200
