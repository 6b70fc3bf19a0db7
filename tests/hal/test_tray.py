"""The tower tray: debounce, tower events, unknown tags, failing readers, and the twin."""

import pytest

from hal.errors import HalError, ReaderDisconnected
from hal.sim.tray import DEMO_UIDS, SimTray
from hal.tray import (
    ReaderDown,
    ReaderUp,
    TowerPlaced,
    TowerRemoved,
    Tray,
    UnknownTag,
    parse_config,
)

U, N = DEMO_UIDS["pn532"]["U"], DEMO_UIDS["pn532"]["N"]


class ScriptedReader:
    """A reader whose field holds whatever the test puts there (tray logic without ports)."""

    def __init__(self, port):
        self.port = port
        self.firmware = None
        self.tags = []
        self.failure = None
        self.closed = False

    def read_tags(self):
        if self.failure:
            raise self.failure
        return list(self.tags)

    def get_status(self):
        return {"port": self.port}

    def close(self):
        self.closed = True


def make_tray(seen=2, missed=3, slots=("neutral", 0, 1)):
    cfg = parse_config(
        {"towers": {"U": U, "N": N}, "seen_polls": seen, "missed_polls": missed}, path="tray"
    )
    readers = {slot: ScriptedReader(f"/dev/r{slot}") for slot in slots}
    return Tray(cfg, readers), readers


def scans(tray, n):
    events = []
    for _ in range(n):
        events += tray.scan()
    return events


def test_a_tower_counts_only_after_seen_polls_sightings():
    tray, readers = make_tray(seen=3)
    readers[0].tags = [U]
    assert scans(tray, 2) == []
    assert tray.scan() == [TowerPlaced("U", 0)]
    assert tray.positions() == {"U": 0, "N": None}
    assert scans(tray, 3) == []  # no repeats while it stays


def test_a_tower_is_off_the_tray_only_after_missed_polls_misses():
    tray, readers = make_tray(seen=1, missed=3)
    readers["neutral"].tags = [U]
    tray.scan()
    readers["neutral"].tags = []
    assert scans(tray, 2) == []
    assert tray.scan() == [TowerRemoved("U", "neutral")]
    assert tray.positions()["U"] is None


def test_a_flicker_shorter_than_the_debounce_changes_nothing():
    tray, readers = make_tray(seen=2, missed=2)
    readers[1].tags = [U]
    assert scans(tray, 2) == [TowerPlaced("U", 1)]
    for present in ([], [U], [], [U]):
        readers[1].tags = present
        assert tray.scan() == []


def test_moving_a_tower_reports_only_its_new_slot():
    tray, readers = make_tray(seen=1, missed=2)
    readers[0].tags = [U]
    tray.scan()
    readers[0].tags, readers[1].tags = [], [U]
    assert scans(tray, 3) == [TowerPlaced("U", 1)]
    assert tray.positions()["U"] == 1


def test_an_unknown_tag_is_reported_once_and_is_no_tower():
    tray, readers = make_tray(seen=1, missed=1)
    readers[0].tags = ["DEADBEEF"]
    assert tray.scan() == [UnknownTag("DEADBEEF", 0)]
    readers[0].tags, readers[1].tags = [], ["DEADBEEF"]
    readers["neutral"].tags = [N]
    assert scans(tray, 3) == [TowerPlaced("N", "neutral")]
    assert tray.get_status()["unknown_tags"] == ["DEADBEEF"]
    assert "DEADBEEF" not in tray.positions()


def test_a_failing_reader_is_reported_once_and_does_not_lift_its_towers():
    tray, readers = make_tray(seen=1, missed=1)
    readers[0].tags = [U]
    tray.scan()
    readers[0].failure = ReaderDisconnected("/dev/r0", "lost: unplugged")
    events = scans(tray, 4)
    assert events == [ReaderDown(0, "/dev/r0", "/dev/r0: lost: unplugged")]
    assert tray.positions()["U"] == 0
    assert tray.get_status()["readers"]["0"]["ok"] is False
    readers[0].failure = None
    assert tray.scan() == [ReaderUp(0, "/dev/r0")]


def test_close_is_idempotent_and_closes_readers():
    tray, readers = make_tray()
    tray.close()
    tray.close()
    assert all(r.closed for r in readers.values())
    with pytest.raises(HalError, match="closed"):
        tray.scan()
    assert "closed" in repr(tray)


# -- the real Tray on the simulated tray -------------------------------------------------
FAST = {"ack_timeout_s": 0.15, "response_timeout_s": 0.15, "reconnect_min_s": 0.0}


@pytest.fixture
def sim():
    with SimTray() as s:
        yield s


def settle(tray, n=3):
    return scans(tray, n)


def test_the_tray_follows_towers_moved_around_the_simulated_slots(sim):
    with Tray.from_config(sim.config(seen_polls=1, missed_polls=1, **FAST)) as tray:
        for tower in "UNO!":
            sim.place(tower, "neutral")
        assert set(settle(tray)) == {TowerPlaced(t, "neutral") for t in "UNO!"}
        sim.place("U", 3)
        sim.place("!", 5)
        assert set(settle(tray)) == {TowerPlaced("U", 3), TowerPlaced("!", 5)}
        sim.lift("N")
        assert settle(tray) == [TowerRemoved("N", "neutral")]
        assert tray.positions() == {"U": 3, "N": None, "O": "neutral", "!": 5}
        assert "U@3" in repr(tray)


def test_four_towers_on_one_simulated_slot_are_all_seen(sim):
    with Tray.from_config(sim.config(seen_polls=2, **FAST)) as tray:
        for tower in "UNO!":
            sim.place(tower, 4)
        settle(tray)
        assert tray.positions() == {t: 4 for t in "UNO!"}


def test_readers_take_turns_every_field_is_off_after_a_scan(sim):
    with Tray.from_config(sim.config(**FAST)) as tray:
        sim.place("U", 0)
        tray.scan()
        assert not any(dev.field_on for dev in sim.readers.values())


def test_a_reader_unplugged_and_replugged_mid_game(sim):
    with Tray.from_config(sim.config(seen_polls=1, missed_polls=1, **FAST)) as tray:
        sim.place("O", 2)
        settle(tray)
        sim.reader(2).unplug()
        events = settle(tray)
        assert [type(e) for e in events] == [ReaderDown]
        assert tray.positions()["O"] == 2
        sim.reader(2).replug()
        sim.place("O", 2)  # the replugged reader's field holds the tower again
        assert settle(tray) == [ReaderUp(2, sim.reader(2).port)]
        status = tray.get_status()["readers"]["2"]
        assert status["reconnects"] == 1 and status["ok"]


def test_unknown_tag_on_the_simulated_tray_is_reported_once(sim):
    with Tray.from_config(sim.config(seen_polls=1, missed_polls=1, **FAST)) as tray:
        sim.place("04DEADBEEF0001", 1)
        sim.place("U", 1)
        assert set(settle(tray)) == {UnknownTag("04DEADBEEF0001", 1), TowerPlaced("U", 1)}
        sim.place("04DEADBEEF0001", "neutral")
        assert settle(tray) == []


def test_rdm6300_slots():
    with SimTray(slots=("neutral", 0), driver="rdm6300") as sim:
        for dev in sim.readers.values():
            dev.repeat_s = 0.01
        cfg = sim.config(seen_polls=1, missed_polls=2, rdm6300_listen_s=0.05, rdm6300_removal_s=0.1)
        with Tray.from_config(cfg) as tray:
            sim.place("N", 0)
            assert TowerPlaced("N", 0) in settle(tray)
            sim.lift("N")
            assert TowerRemoved("N", 0) in settle(tray, 6)


def test_simtray_refuses_unknown_slots_and_drivers(sim):
    with pytest.raises(ValueError, match="no reader at slot 9"):
        sim.place("U", 9)
    with pytest.raises(ValueError, match="driver"):
        SimTray(driver="acr122")


def test_watch_hands_each_event_to_the_callback_until_stopped():
    import threading

    cfg = parse_config({"towers": {"U": U}, "seen_polls": 1, "poll_interval_s": 0}, path="tray")
    reader = ScriptedReader("/dev/r0")
    reader.tags = [U, "DEADBEEF"]
    tray = Tray(cfg, {0: reader})
    stop = threading.Event()
    got = []

    def on_event(event):
        got.append(event)
        stop.set()

    tray.watch(on_event, stop)
    assert set(got) == {TowerPlaced("U", 0), UnknownTag("DEADBEEF", 0)}
    assert tray.get_status()["scans"] == 1


class StuckReader(ScriptedReader):
    """A reader whose serial read hangs (a PN532 waiting out its timeouts) until released."""

    def __init__(self, port):
        super().__init__(port)
        import threading

        self.inside = threading.Event()
        self.release = threading.Event()

    def read_tags(self):
        self.inside.set()
        self.release.wait(30)
        return super().read_tags()


def _in_thread(fn):
    """Run fn in a thread; (finished within 10 s, its result). A deadlock guard, not a speed test."""
    import threading

    out = []
    worker = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    worker.start()
    worker.join(10)
    return bool(out), (out[0] if out else None)


def test_status_and_positions_answer_while_a_reader_hangs_in_its_turn():
    import threading

    cfg = parse_config({"towers": {"U": U}, "seen_polls": 1}, path="tray")
    fine, stuck = ScriptedReader("/dev/r0"), StuckReader("/dev/r1")
    fine.tags = [U]
    tray = Tray(cfg, {0: fine, 1: stuck})
    scanner = threading.Thread(target=tray.scan, daemon=True)
    scanner.start()
    try:
        assert stuck.inside.wait(10)
        answered, status = _in_thread(tray.get_status)
        assert answered, "get_status waited for the hanging reader"
        assert status["reading"] == "1"  # the health view names the reader that hangs
        assert status["readers"]["0"]["ok"] is True and status["scans"] == 0
        answered, positions = _in_thread(tray.positions)
        assert answered and positions == {"U": None}  # the round is not complete yet
    finally:
        stuck.release.set()
        scanner.join(10)
    status = tray.get_status()
    assert status["reading"] is None and status["scans"] == 1
    assert tray.positions() == {"U": 0}
