"""Cards stuck together pass the exit beam as one long dark pulse: the launcher times
every pulse and counts a long one as the cards it must be, on the twin (which models
stuck cards) and on bare mock pins with an injected clock."""

import random

import pytest

from hal.errors import ConfigError
from hal.exit_beam import CardPulses
from hal.launcher import Launcher, parse_config
from hal.sim.clock import VirtualClock
from hal.sim.launcher import EXAMPLE_SECTION, SimLauncher

CARD_S = 0.3 / 8  # the twin's pulse at its default 8 cards/s


@pytest.fixture
def table(mock_factory, closed_after):
    """make(**config overrides) -> (sim, launcher) with 30 cards in the hopper."""

    def make(*, sim_options=None, **overrides):
        section = {**EXAMPLE_SECTION, "card_dark_s": CARD_S, **overrides}
        section = {k: v for k, v in section.items() if v is not None}
        sim = SimLauncher(parse_config(section), factory=mock_factory, **(sim_options or {}))
        sim.load(f"card{i}" for i in range(30))
        return sim, closed_after(sim.launcher(rng=random.Random(7)))

    return make


def test_two_stuck_cards_on_one_press_count_as_two_and_are_flagged(table):
    sim, launcher = table()
    announced = []
    launcher.on_card(lambda counted, seat: announced.append(counted))
    sim.inject_stuck_cards(2)
    result = launcher.deal(1, seat=0)
    assert sim.cards_at(0) == ["card0", "card1"]
    assert (result.counted, result.stuck, result.status) == (2, 1, "ok")
    assert announced == [1, 2]  # the daemon journals every count it hears
    assert result.dark_s == pytest.approx((2 * CARD_S,))
    assert launcher.get_status()["stuck_cards"] == 1


def test_stuck_cards_within_a_deal_stop_the_motor_at_the_cards_owed(table):
    sim, launcher = table()
    sim.inject_stuck_cards(3)
    result = launcher.deal(4, seat=2)
    # counted by edges alone, the launcher would have gone on to eject six cards
    assert len(sim.cards_at(2)) == 4 == result.counted
    assert result.stuck == 2 and len(sim.stack) == 26


def test_the_next_deal_after_stuck_cards_is_exact_again(table):
    sim, launcher = table()
    sim.inject_stuck_cards(2)
    launcher.deal(1, seat=1)
    result = launcher.deal(3, seat=1)
    assert (result.counted, result.stuck) == (3, 0)
    assert sim.cards_at(1) == [f"card{i}" for i in range(5)]


@pytest.mark.parametrize(("offset", "counted"), [(0.4, 1), (0.6, 2)])
def test_the_threshold_is_stuck_ratio_card_times(table, offset, counted):
    """1.4 card times is one card at the default stuck_ratio 1.5; 1.6 is two."""
    sim, launcher = table()
    sim.inject_stuck_cards(2, offset=offset)
    assert launcher.deal(1, seat=0).counted == counted
    assert len(sim.cards_at(0)) == 2  # what really came out either way


def test_a_stricter_stuck_ratio_catches_closer_cards(table):
    sim, launcher = table(stuck_ratio=1.25)
    sim.inject_stuck_cards(2, offset=0.4)
    assert launcher.deal(1, seat=0).counted == 2


def test_stuck_cards_still_dark_after_settle_are_waited_for(table):
    sim, launcher = table(settle_s=0)
    sim.inject_stuck_cards(2)
    result = launcher.deal(1, seat=3)
    assert (result.counted, result.stuck) == (2, 1)
    assert launcher.get_status()["stray_cards"] == 0


def test_without_calibration_the_card_time_is_learned_from_the_first_cards(table):
    sim, launcher = table(card_dark_s=None)
    sim.inject_stuck_cards(2)
    assert launcher.deal(1, seat=0).counted == 1  # nothing to compare the first pulse with
    launcher.deal(4, seat=0)
    assert launcher.get_status()["card_dark_s"] == pytest.approx(CARD_S)
    sim.inject_stuck_cards(2)
    assert launcher.deal(1, seat=0).counted == 2


def test_uneven_cards_still_count_one_each(table):
    sim, launcher = table(sim_options={"pulse_jitter": 0.3, "rng": random.Random(3)})
    results = [launcher.deal(3, seat=s % 4) for s in range(8)]
    assert all((r.counted, r.stuck) == (3, 0) for r in results)
    assert len(sim.exited) == 24


# -- on bare mock pins: the exit beam driven by hand, time by an injected clock ------------


@pytest.fixture
def bare(mock_factory, closed_after):
    clock = VirtualClock()
    cfg = parse_config({**EXAMPLE_SECTION, "card_dark_s": 0.04})
    launcher = closed_after(Launcher(cfg, pin_factory=mock_factory, clock=clock))
    return launcher, mock_factory.pin(cfg.exit_sensor), clock


def pulse(pin, clock, seconds):
    pin.drive_low()  # beam broken (active low)
    clock.advance(seconds)
    pin.drive_high()


def test_a_long_pulse_outside_an_ejection_counts_as_stray_cards(bare):
    launcher, pin, clock = bare
    pulse(pin, clock, 0.04)
    pulse(pin, clock, 0.085)
    status = launcher.get_status()
    assert (status["cards_counted"], status["stray_cards"], status["stuck_cards"]) == (3, 3, 1)


def test_a_card_resting_in_the_beam_is_one_card_not_a_stack(bare):
    launcher, pin, clock = bare
    pulse(pin, clock, 2.0)
    assert launcher.cards_counted == 1 and launcher.get_status()["stuck_cards"] == 0


def test_card_pulses_counts_what_a_pulse_must_be():
    pulses = CardPulses(0.04, 1.5)
    assert [pulses.cards(s) for s in (0.03, 0.06, 0.061, 0.1, 0.12, 0.18, 0.19)] == \
        [1, 1, 2, 2, 3, 4, 1]


@pytest.mark.parametrize(("key", "value"), [
    ("card_dark_s", 0), ("card_dark_s", 2), ("card_dark_s", True), ("card_dark_s", "fast"),
    ("stuck_ratio", 1.1), ("stuck_ratio", 5), ("stuck_ratio", False),
])
def test_bad_exit_beam_options_name_their_key(key, value):
    with pytest.raises(ConfigError, match=f"launcher.{key}"):
        parse_config({**EXAMPLE_SECTION, key: value})
