"""The card pad at rest: between its idle reads the watcher sleeps (a Pi's CPU is for
the table), and still reads at once when a declaration becomes awaited."""

import threading

from hal.pad import STOP_LOOK_S, Pad, Tap, parse_config
from hal.sim.clock import VirtualClock
from tests.hal.pad_fakes import CountingReader, VirtualStop

UID = "04A1B2C3D4E501"


class CountingClock(VirtualClock):
    """Virtual time that counts how often the watcher woke from a wait."""

    def __init__(self) -> None:
        super().__init__()
        self.waits = 0

    def wait(self, event: threading.Event, timeout: float) -> bool:
        self.waits += 1
        return super().wait(event, timeout)


def pad_on(clock):
    cfg = parse_config({"port": CountingReader.port, "poll_interval_s": 0.05,
                        "idle_poll_interval_s": 1.0, "same_tap_s": 2.0}, path="pad")
    reader = CountingReader(clock)
    return Pad(cfg, reader, clock=clock), reader


def test_at_the_idle_pace_the_watcher_wakes_for_its_reads_and_its_stop_only():
    clock = CountingClock()
    pad, reader = pad_on(clock)
    stop = VirtualStop(clock, 10.0)
    pad.watch(lambda _e: None, stop)
    assert 10 <= len(reader.reads) <= 11
    wakes = clock.waits + stop.waits
    assert wakes <= 10 * (1 / STOP_LOOK_S + 1)  # not once per fast interval (200)


def test_a_declaration_awaited_wakes_the_idle_watcher_at_once():
    clock = CountingClock()
    pad, reader = pad_on(clock)
    clock.call_later(3.31, lambda: (reader.tags.append(UID), pad.set_pace(True)))
    events = []
    pad.watch(lambda e: events.append((round(clock.now(), 3), e)), VirtualStop(clock, 5.0))
    (at, tap), = events
    assert isinstance(tap, Tap) and at == 3.31  # read as soon as it is awaited

