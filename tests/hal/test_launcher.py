"""The launcher on its simulated twin: what the exit sensor counts is what left the stack."""

import json
import random

import pytest

from hal.launcher import EjectionResult, LauncherBusy, LauncherError, parse_config
from hal.sim.launcher import EXAMPLE_SECTION, SimLauncher


@pytest.fixture
def table(mock_factory, closed_after):
    """make(tokens, **config overrides) -> (sim, launcher) on the test's mock pins."""

    def make(tokens=30, *, sim_options=None, **overrides):
        section = {**EXAMPLE_SECTION, **overrides}
        section = {k: v for k, v in section.items() if v is not None}
        sim = SimLauncher(parse_config(section), factory=mock_factory, **(sim_options or {}))
        sim.load(f"card{i}" for i in range(tokens))
        return sim, closed_after(sim.launcher(rng=random.Random(7)))

    return make


def exited_tokens(sim):
    return [token for token, _ in sim.exited]


@pytest.mark.parametrize("n", [1, 7, 13])
def test_deal_ejects_exactly_n_cards_from_the_top_of_the_stack(table, n):
    sim, launcher = table(tokens=20)
    result = launcher.deal(n, seat=1)
    assert result == EjectionResult(requested=n, counted=n, status="ok", seat=1)
    assert sim.cards_at(1) == [f"card{i}" for i in range(n)]
    assert sim.stack == [f"card{i}" for i in range(n, 20)]
    assert sim.motor == ("stopped", 0.0)


def test_launcher_aims_at_each_seat_before_ejecting(table):
    sim, launcher = table(tokens=8)
    for seat in (3, 0, 2, 1):
        assert launcher.deal(2, seat=seat).counted == 2
    assert sim.cards_at(3) == ["card0", "card1"]
    assert sim.cards_at(0) == ["card2", "card3"]
    assert sim.cards_at(2) == ["card4", "card5"]
    assert sim.cards_at(1) == ["card6", "card7"]
    assert launcher.get_status()["aimed_seat"] == 1


def test_without_a_servo_cards_land_in_the_one_tray(table):
    sim, launcher = table(tokens=5, servo=None, seat_angles=None)
    assert launcher.deal(3, seat=2).status == "ok"
    assert sim.cards_at(None) == ["card0", "card1", "card2"]


def test_double_feed_is_counted_as_the_cards_that_came_out(table):
    sim, launcher = table(tokens=10)
    sim.inject_double_feed()
    result = launcher.deal(1, seat=0)
    assert result.counted == 2 == len(sim.exited)
    assert result.status == "ok"
    assert sim.cards_at(0) == ["card0", "card1"]
    # the next deal is exact again and continues with the next card
    assert launcher.deal(3, seat=0).counted == 3
    assert sim.cards_at(0) == [f"card{i}" for i in range(5)]


def test_double_feed_within_a_deal_stops_at_the_requested_count(table):
    sim, launcher = table(tokens=10)
    sim.inject_double_feed()
    result = launcher.deal(4, seat=2)
    assert result.counted == 4 == len(sim.cards_at(2))
    assert len(sim.stack) == 6


def test_jam_cleared_by_reversing_still_delivers_every_card(table):
    sim, launcher = table(tokens=10)
    sim.inject_jam(after=2)
    result = launcher.deal(5, seat=0)
    assert (result.status, result.counted, result.retries) == ("ok", 5, 1)
    assert sim.cards_at(0) == [f"card{i}" for i in range(5)]
    directions = [d for _, d, _ in sim.motor_log]
    assert "backward" in directions
    assert launcher.fault is None


def test_hopper_running_dry_stops_and_reports_what_came_out(table):
    sim, launcher = table(tokens=3)
    result = launcher.deal(5, seat=1)
    assert (result.status, result.counted) == ("hopper_empty", 3)
    assert sim.cards_at(1) == ["card0", "card1", "card2"]
    assert sim.stack == []
    assert launcher.hopper_empty is True
    assert launcher.fault is None  # an empty hopper is not a fault
    sim.load(["late0", "late1"])
    assert launcher.deal(2, seat=1).status == "ok"
    assert sim.cards_at(1)[-2:] == ["late0", "late1"]


def test_empty_hopper_does_not_start_the_motor(table):
    sim, launcher = table(tokens=0)
    result = launcher.deal(2)
    assert (result.status, result.counted) == ("hopper_empty", 0)
    assert sim.motor_log == []


def test_hopper_without_sensor_running_dry_is_a_jam(table):
    sim, launcher = table(tokens=2, hopper_sensor=None)
    result = launcher.deal(4)
    assert (result.status, result.counted) == ("jam", 2)
    assert launcher.hopper_empty is None


def test_counts_match_the_stack_over_a_long_mixed_session(table):
    sim, launcher = table(tokens=60)
    rng = random.Random(11)
    total = 0
    for round_ in range(25):
        if round_ % 4 == 1:
            sim.inject_double_feed()
        if round_ % 5 == 2:
            sim.inject_jam(after=rng.randrange(3))
        result = launcher.deal(rng.randrange(0, 5), seat=rng.randrange(4))
        assert result.status in ("ok", "hopper_empty")
        total += result.counted
        assert total == len(sim.exited) == 60 - len(sim.stack)
        assert launcher.cards_counted == total
    assert launcher.get_status()["stray_cards"] == 0


def test_fire_draws_the_outcome_from_the_model(table):
    sim, launcher = table(tokens=200, model={"name": "measured"})
    results = [launcher.fire(seat=s % 4) for s in range(40)]
    assert all(r.status == "ok" and r.counted == r.requested for r in results)
    assert sum(r.counted for r in results) == len(sim.exited)
    outcomes = [r.requested for r in results]
    # the measured launcher ejects on some presses only, never 5 blank presses in a row
    assert 0 in outcomes and any(k > 0 for k in outcomes)
    blank_runs = "".join("x" if k else "0" for k in outcomes).split("x")
    assert max(map(len, blank_runs)) <= 4


def test_fire_is_reproducible_from_the_seed(mock_factory):
    def run(seed):
        cfg = parse_config({**EXAMPLE_SECTION, "model": {"name": "geometric"}})
        sim = SimLauncher(cfg, factory=mock_factory)
        sim.load(range(200))
        with sim.launcher(rng=random.Random(seed)) as launcher:
            outcomes = [launcher.fire().counted for _ in range(30)]
        mock_factory.reset()
        return outcomes

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_fire_replays_a_journaled_outcome_without_drawing(table):
    sim, launcher = table(tokens=10, model={"name": "fixed", "cards": 1})
    state = launcher.model.get_state()
    result = launcher.fire(seat=2, cards=4)
    assert (result.requested, result.counted) == (4, 4)
    assert launcher.model.get_state() == state


def test_fire_with_zero_cards_does_not_run_the_motor(table):
    sim, launcher = table(tokens=10, model={"name": "fixed", "cards": 0})
    assert launcher.fire(seat=1) == EjectionResult(0, 0, "ok", 1)
    assert sim.motor_log == []


def test_on_card_reports_each_card_as_it_is_counted(table):
    sim, launcher = table(tokens=10)
    seen = []
    unsubscribe = launcher.on_card(
        lambda counted, seat: seen.append((counted, seat, len(sim.exited)))
    )
    launcher.deal(3, seat=2)
    assert seen == [(1, 2, 1), (2, 2, 2), (3, 2, 3)]
    unsubscribe()
    launcher.deal(1)
    assert len(seen) == 3


def test_a_second_deal_while_one_runs_is_refused(table):
    sim, launcher = table(tokens=10)
    errors = []

    def reenter(counted, seat):
        try:
            launcher.deal(1)
        except LauncherBusy as exc:
            errors.append(exc)

    launcher.on_card(reenter)
    assert launcher.deal(2).counted == 2
    assert len(errors) == 2 and len(sim.exited) == 2


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((-1,), "card count"),
        ((1.5,), "card count"),
        ((True,), "card count"),
        ((21,), "card count must be 0..20"),
        ((1, 4), "seat 4 has no angle"),
        ((1, -1), "seat must be"),
        ((1, "north"), "seat must be"),
    ],
)
def test_bad_arguments_are_refused_and_nothing_moves(table, args, match):
    sim, launcher = table(tokens=30)
    with pytest.raises(LauncherError, match=match):
        launcher.deal(*args)
    assert sim.motor_log == [] and sim.exited == []
    assert sim.aimed_seat() is None


@pytest.mark.parametrize(
    "section",
    [
        {"driver": "phase_enable", "motor_phase": 20, "motor_enable": 21},
        {"driver": "h_bridge", "motor_forward": 20, "motor_backward": 21, "motor_enable": 19},
        {"driver": "h_bridge", "motor_forward": 20, "motor_backward": 21, "motor_pwm": False},
        {"driver": "single", "motor_forward": 20},
        {"driver": "single", "motor_forward": 20, "motor_pwm": False},
    ],
)
def test_every_motor_driver_deals_and_jams_the_same_way(mock_factory, section):
    base = {k: v for k, v in EXAMPLE_SECTION.items() if not k.startswith(("motor_", "driver"))}
    cfg = parse_config({**base, **section})
    sim = SimLauncher(cfg, factory=mock_factory)
    sim.load(range(10))
    with sim.launcher() as launcher:
        assert launcher.deal(3, seat=0).counted == 3
        sim.inject_jam()
        result = launcher.deal(2, seat=0)
        if cfg.can_reverse:
            assert (result.status, result.counted, result.retries) == ("ok", 2, 1)
        else:  # nothing can pull the card back: the retry fails
            assert (result.status, result.counted) == ("jam", 0)
        assert sim.motor == ("stopped", 0.0)


def test_exit_sensor_polarity_is_configurable(mock_factory):
    cfg = parse_config({**EXAMPLE_SECTION, "exit_active_low": False, "hopper_active_low": False})
    sim = SimLauncher(cfg, factory=mock_factory)
    sim.load(range(4))
    with sim.launcher() as launcher:
        assert launcher.hopper_empty is False
        assert launcher.deal(4).counted == 4
        assert launcher.hopper_empty is True


def test_status_is_plain_data_and_repr_shows_state(table):
    sim, launcher = table(tokens=5)
    launcher.deal(2, seat=0)
    status = launcher.get_status()
    assert json.loads(json.dumps(status)) == status
    assert status["state"] == "idle" and status["cards_counted"] == 2
    assert status["model"] == {"name": "measured"}
    assert "state=idle" in repr(launcher) and "counted=2" in repr(launcher)
    launcher.close()
    assert repr(launcher) == "<Launcher closed>"
    assert launcher.get_status()["state"] == "closed"
