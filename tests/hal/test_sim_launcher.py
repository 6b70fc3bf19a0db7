"""The launcher twin and the virtual clock it runs on."""

import random
import threading

import pytest
from gpiozero import Motor

from hal.clock import MonotonicClock
from hal.launcher import Launcher, parse_config
from hal.sim.clock import VirtualClock
from hal.sim.launcher import EXAMPLE_SECTION, SimLauncher


def test_virtual_clock_runs_callbacks_in_time_order_only_while_waiting():
    clock = VirtualClock()
    ran = []
    clock.call_later(0.3, lambda: ran.append(("b", clock.now())))
    clock.call_later(0.1, lambda: ran.append(("a", clock.now())))
    cancelled = clock.call_later(0.2, lambda: ran.append(("never", clock.now())))
    cancelled.cancel()
    assert ran == [] and clock.now() == 0
    clock.advance(0.25)
    assert ran == [("a", 0.1)] and clock.now() == 0.25
    clock.sleep(1)
    assert ran == [("a", 0.1), ("b", 0.3)] and clock.now() == 1.25
    assert clock.pending() == 0
    with pytest.raises(ValueError):
        clock.call_later(-1, lambda: None)


def test_virtual_wait_returns_as_soon_as_a_scheduled_event_is_set():
    clock = VirtualClock()
    event = threading.Event()
    clock.call_later(0.4, event.set)
    assert clock.wait(event, 1.0) is True and clock.now() == pytest.approx(0.4)
    event.clear()
    assert clock.wait(event, 0.5) is False and clock.now() == pytest.approx(0.9)


def test_hopper_sensor_follows_the_stack(mock_factory):
    sim = SimLauncher(parse_config(EXAMPLE_SECTION), factory=mock_factory)
    with sim.launcher() as launcher:
        assert launcher.hopper_empty is True
        sim.load(["a", "b"])
        assert launcher.hopper_empty is False
        assert launcher.deal(2).counted == 2
        assert launcher.hopper_empty is True
        sim.load(["c"])
        assert sim.empty_hopper() == ["c"]
        assert launcher.hopper_empty is True


def test_cards_come_out_at_the_configured_rate(mock_factory):
    clock = VirtualClock()
    sim = SimLauncher(
        parse_config(EXAMPLE_SECTION), factory=mock_factory, clock=clock, cards_per_s=4
    )
    sim.load(range(10))
    launcher = sim.launcher()
    launcher.aim(0)
    start = clock.now()
    times = []
    launcher.on_card(lambda n, seat: times.append(clock.now() - start))
    launcher.deal(4, seat=0)
    assert times == pytest.approx([0.25, 0.5, 0.75, 1.0])
    launcher.close()


def test_a_card_half_way_out_keeps_its_progress_when_the_motor_stops(mock_factory):
    clock = VirtualClock()
    cfg = parse_config(EXAMPLE_SECTION)
    sim = SimLauncher(cfg, factory=mock_factory, clock=clock, cards_per_s=2)
    sim.load(["x", "y"])
    # the twin only sees pins: any gpiozero Motor on them drives it
    with Motor(20, 21, enable=12, pin_factory=mock_factory) as motor:
        motor.forward()
        clock.advance(0.3)
        motor.stop()
        clock.advance(5)
        assert sim.exited == []
        motor.forward()
        clock.advance(0.2 + 1e-9)
        motor.stop()
        assert sim.exited == [("x", None)]


def test_an_unclearable_jam_needs_a_person(mock_factory):
    sim = SimLauncher(parse_config(EXAMPLE_SECTION), factory=mock_factory)
    sim.load(range(5))
    with sim.launcher() as launcher:
        sim.inject_jam(clears_on_reverse=False)
        assert launcher.deal(1).status == "jam"
        assert sim.jammed
        sim.clear_jam()
        launcher.reset_fault()
        assert launcher.deal(1).counted == 1


def test_the_twin_must_claim_its_pins_before_the_launcher(mock_factory):
    cfg = parse_config(EXAMPLE_SECTION)
    launcher = Launcher.from_config(cfg, pin_factory=mock_factory)
    with pytest.raises(RuntimeError, match="before the Launcher"):
        SimLauncher(cfg, factory=mock_factory)
    launcher.close()


@pytest.mark.parametrize(
    "options",
    [{"cards_per_s": 0}, {"pulse_s": 0.5}, {"cards_per_s": 10, "double_feed_gap_s": 0.01}],
)
def test_impossible_physics_is_refused(mock_factory, options):
    with pytest.raises(ValueError):
        SimLauncher(parse_config(EXAMPLE_SECTION), factory=mock_factory, **options)


def test_bad_injections_are_refused(mock_factory):
    sim = SimLauncher(parse_config(EXAMPLE_SECTION), factory=mock_factory)
    with pytest.raises(ValueError, match="after"):
        sim.inject_jam(after=-1)
    assert not sim.jammed


def test_the_twin_runs_in_real_time_too(mock_factory):
    """`unotable demo` runs the same twin on the monotonic clock (timer threads)."""
    clock = MonotonicClock()
    sim = SimLauncher(
        parse_config(EXAMPLE_SECTION), factory=mock_factory, clock=clock, cards_per_s=200
    )
    sim.load(range(10))
    with sim.launcher(rng=random.Random(3)) as launcher:
        result = launcher.deal(4, seat=3)
        assert (result.status, result.counted) == ("ok", 4)
    assert sim.cards_at(3) == [0, 1, 2, 3]


def test_status_and_repr(mock_factory):
    sim = SimLauncher(parse_config(EXAMPLE_SECTION), factory=mock_factory)
    sim.load(range(3))
    with sim.launcher() as launcher:
        launcher.deal(1, seat=2)
    assert sim.get_status() == {
        "stack": 2,
        "motor": "stopped",
        "speed": 0.0,
        "jammed": False,
        "delivered": {"2": 1},
    }
    assert "stack=2" in repr(sim) and "exited=1" in repr(sim)


def test_a_card_and_its_exit_callback_are_one_step_under_the_twins_lock(mock_factory):
    """A record kept beside the twin (the demo's world) holds `lock`: nobody sees the card
    gone from the hopper before the exit callbacks have recorded it."""
    sim = SimLauncher(parse_config(EXAMPLE_SECTION), factory=mock_factory)
    sim.load(["a", "b"])
    others_could_take_it = []

    def on_card(counted, seat):
        other = threading.Thread(
            target=lambda: others_could_take_it.append(sim.lock.acquire(blocking=False)))
        other.start()
        other.join()

    with sim.launcher() as launcher:
        launcher.on_card(on_card)
        assert launcher.deal(2).counted == 2
    assert others_could_take_it == [False, False]
    with sim.lock, sim.lock:  # reentrant: the world's own calls nest
        assert list(sim.stack) == []
