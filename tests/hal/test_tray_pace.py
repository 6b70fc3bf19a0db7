"""The tray's pace: fast while a tower move is awaited or something just changed, slow
when idle. Time is virtual (`VirtualClock`): the watcher's pauses advance it."""

import pytest

from hal.errors import ConfigError, ReaderDisconnected
from hal.sim.clock import VirtualClock
from hal.sim.tray import DEMO_UIDS, SimTray
from hal.tray import (
    PollPace,
    ReaderDown,
    ReaderUp,
    TowerPlaced,
    TowerRemoved,
    Tray,
    open_reader,
    parse_config,
)

U = DEMO_UIDS["pn532"]["U"]
SLOTS = ("neutral", 0, 1, 2, 3)


class VirtualStop:
    """`Tray.watch`'s stop: set at virtual time `until`; waiting advances the clock."""

    def __init__(self, clock, until):
        self.clock, self.until = clock, until

    def is_set(self):
        return self.clock.now() >= self.until

    def wait(self, timeout=None):
        self.clock.advance(timeout)
        return self.is_set()


class CountingReader:
    def __init__(self, port):
        self.port, self.firmware = port, None
        self.tags, self.reads = [], 0

    def read_tags(self):
        self.reads += 1
        return list(self.tags)

    def get_status(self):
        return {"port": self.port}

    def close(self):
        pass


def scripted_tray(**options):
    cfg = parse_config({"towers": {"U": U}, **options}, path="tray")
    clock = VirtualClock()
    readers = {slot: CountingReader(f"/dev/r{slot}") for slot in SLOTS}
    return Tray(cfg, readers, clock=clock), readers, clock


def watch_for(tray, clock, seconds, *, awaited=lambda: False):
    events = []
    tray.watch(lambda e: events.append((round(clock.now(), 3), e)), VirtualStop(clock, clock.now() + seconds),
               awaited=awaited)
    return events


def test_an_idle_tray_polls_at_the_idle_pace_and_an_awaited_move_at_the_fast_one():
    tray, readers, clock = scripted_tray(poll_interval_s=0.2, idle_poll_interval_s=1.0,
                                         idle_after_s=5.0)
    watch_for(tray, clock, 60)
    idle_rounds = tray.get_status()["scans"]
    assert 59 <= idle_rounds <= 61  # one round per virtual second
    watch_for(tray, clock, 60, awaited=lambda: True)
    awaited_rounds = tray.get_status()["scans"] - idle_rounds
    assert 295 <= awaited_rounds <= 305  # five per virtual second
    assert all(r.reads == idle_rounds + awaited_rounds for r in readers.values())


def test_a_tower_placed_while_idle_is_seen_within_an_idle_interval_then_the_pace_stays_fast():
    tray, readers, clock = scripted_tray(poll_interval_s=0.2, idle_poll_interval_s=1.0,
                                         idle_after_s=5.0, seen_polls=2, missed_polls=3)
    rounds = []
    readers["neutral"].read_tags = lambda: rounds.append(clock.now()) or []
    clock.call_later(10.5, lambda: readers[2].tags.append(U))
    clock.call_later(30.5, lambda: readers[2].tags.clear())
    events = watch_for(tray, clock, 60)
    assert [e for _, e in events] == [TowerPlaced("U", 2), TowerRemoved("U", 2)]
    placed_at, removed_at = events[0][0], events[1][0]
    # the next idle round sees it, the next fast one counts it (seen_polls = 2)
    assert 10.5 < placed_at <= 10.5 + 1.0 + 0.2 + 1e-9
    # lifted while idle again: the next idle round misses it, two fast ones more
    assert 30.5 < removed_at <= 30.5 + 1.0 + 2 * 0.2 + 1e-9

    def gaps(start, end):
        return {round(b - a, 3) for a, b in zip(rounds, rounds[1:], strict=False) if start <= a and b <= end}

    assert gaps(0, 10.5) == {1.0}  # idle
    assert gaps(placed_at - 0.2, placed_at + 5.0) == {0.2}  # fast for idle_after_s after it
    assert gaps(placed_at + 5.2, 30.5) == {1.0}  # idle again
    assert gaps(removed_at + 5.2, 60) == {1.0}
    assert len(rounds) < 60 + 2 * 5.0 / 0.2 + 5  # not 300 fast rounds


def test_a_move_that_becomes_awaited_speeds_the_pace_up_within_one_fast_interval():
    tray, readers, clock = scripted_tray(poll_interval_s=0.2, idle_poll_interval_s=2.0,
                                         idle_after_s=0.0, seen_polls=1)
    awaiting = []
    watch_for(tray, clock, 4.1)  # last idle round at 4.0, the next would be at 6.0

    def capture():
        awaiting.append(True)
        readers[0].tags.append(U)

    clock.call_later(0.1, capture)
    events = watch_for(tray, clock, 3, awaited=lambda: bool(awaiting))
    assert [e for _, e in events] == [TowerPlaced("U", 0)]
    assert events[0][0] <= 4.2 + 0.2 + 1e-9  # not at the idle round of 6.0


def test_an_unplugged_reader_is_reported_and_recovered_within_an_idle_interval():
    tray, readers, clock = scripted_tray(poll_interval_s=0.2, idle_poll_interval_s=1.0,
                                         idle_after_s=5.0)
    reader = readers[1]
    lost = ReaderDisconnected(reader.port, "lost: unplugged")

    def fail():
        raise lost

    clock.call_later(10.3, lambda: setattr(reader, "read_tags", fail))
    clock.call_later(20.3, lambda: delattr(reader, "read_tags"))  # replugged
    events = watch_for(tray, clock, 30)
    assert [e for _, e in events] == [ReaderDown(1, reader.port, str(lost)), ReaderUp(1, reader.port)]
    (down_at, _), (up_at, _) = events
    assert 10.3 < down_at <= 11.3 + 1e-9 and 20.3 < up_at <= 21.3 + 1e-9
    assert tray.get_status()["readers"]["1"]["ok"] is True


def test_pace_intervals():
    cfg = parse_config({"poll_interval_s": 0.25, "idle_poll_interval_s": 3, "idle_after_s": 2},
                       path="tray")
    pace = PollPace(cfg)
    assert pace.due(0.0, awaited=False)  # the first round comes at once
    pace.scanned(0.0, changed=False)
    assert pace.interval(0.5, awaited=False) == 3 and not pace.due(2.9, awaited=False)
    assert pace.due(3.0, awaited=False) and pace.due(0.25, awaited=True)
    assert pace.pause(0.5, awaited=False) == 0.25  # looks again within a fast interval
    pace.scanned(10.0, changed=True)
    assert pace.interval(11.9, awaited=False) == 0.25
    assert pace.interval(12.0, awaited=False) == 3


def test_twin_readers_get_far_fewer_commands_per_virtual_second_when_idle():
    with SimTray(SLOTS, paced=False) as sim:
        sim.place("U", 1)
        cfg = sim.config(poll_interval_s=0.2, idle_poll_interval_s=1.0, idle_after_s=2.0)
        clock = VirtualClock()
        readers = {rc.slot: open_reader(rc, cfg) for rc in cfg.readers}  # real timeouts
        with Tray(cfg, readers, clock=clock) as tray:
            watch_for(tray, clock, 5, awaited=lambda: True)  # bring-up, U counted, settle
            assert tray.positions()["U"] == 1

            def commands():
                return sum(len(dev.commands) for dev in sim.readers.values())

            before = commands()
            watch_for(tray, clock, 20)
            idle_rate = (commands() - before) / 20
            before = commands()
            watch_for(tray, clock, 20, awaited=lambda: True)
            awaited_rate = (commands() - before) / 20
    # 5 readers x 3 commands (4 readers with empty fields, and the one holding U: 5)
    assert 14 <= idle_rate <= 19
    assert awaited_rate >= 4.5 * idle_rate


@pytest.mark.parametrize(
    ("mapping", "key", "message"),
    [
        ({"idle_poll_interval_s": 0.1}, "tray.idle_poll_interval_s", "not be less than poll_interval_s"),
        ({"poll_interval_s": 2, "idle_poll_interval_s": 1}, "tray.idle_poll_interval_s",
         "not be less than poll_interval_s"),
        ({"idle_poll_interval_s": 61}, "tray.idle_poll_interval_s", "at most 60"),
        ({"idle_poll_interval_s": "1s"}, "tray.idle_poll_interval_s", "must be a number"),
        ({"idle_after_s": -1}, "tray.idle_after_s", "at least 0"),
        ({"idle_after_s": True}, "tray.idle_after_s", "must be a number"),
    ],
)
def test_bad_pace_options_name_the_key(mapping, key, message):
    with pytest.raises(ConfigError) as err:
        parse_config(mapping, path="tray")
    assert err.value.key == key
    assert message in err.value.message


def test_pace_defaults_and_an_unset_idle_interval_never_below_the_fast_one():
    cfg = parse_config({}, path="tray")
    assert (cfg.poll_interval_s, cfg.idle_poll_interval_s, cfg.idle_after_s) == (0.2, 1.0, 5.0)
    assert parse_config({"poll_interval_s": 2.5}, path="tray").idle_poll_interval_s == 2.5
