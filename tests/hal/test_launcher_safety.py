"""Safety on mock pins: bounded runs, jams, faults that stick, motor off on every way out."""


import pytest

from hal.launcher import LauncherClosed, parse_config
from hal.sim.launcher import EXAMPLE_SECTION, SimLauncher

MOTOR_PINS = ("GPIO20", "GPIO21")


@pytest.fixture
def table(mock_factory, closed_after):
    def make(tokens=30, *, cards_per_s=8.0, **overrides):
        sim = SimLauncher(
            parse_config({**EXAMPLE_SECTION, **overrides}),
            factory=mock_factory,
            cards_per_s=cards_per_s,
        )
        sim.load(range(tokens))
        return sim, closed_after(sim.launcher())

    return make


def motor_levels(factory):
    return {name: factory.pin(name).state for name in MOTOR_PINS}


def motor_is_off(factory):
    return all(level == 0 for level in motor_levels(factory).values())


def test_motor_never_runs_longer_than_max_run_s(table):
    sim, launcher = table(tokens=30, cards_per_s=5, max_run_s=1.0)
    result = launcher.deal(12)
    assert result.status == "fault"
    assert "max_run_s" in result.fault
    assert 0 < result.counted < 12 and result.counted == len(sim.exited)
    assert sim.longest_run() <= 1.0 + 1e-9
    assert sim.motor == ("stopped", 0.0)


def test_bound_holds_even_when_jams_keep_being_cleared(table):
    sim, launcher = table(tokens=30, max_run_s=2.0, jam_timeout_s=0.5, reverse_s=0.3)
    sim.inject_jam()
    launcher.on_card(lambda counted, seat: sim.inject_jam())  # every card sticks again
    result = launcher.deal(15)
    assert result.status == "fault" and "max_run_s" in result.fault
    assert result.retries >= 2  # each jam was cleared by reversing, yet the run ended
    first_on = next(t for t, d, _ in sim.motor_log if d != "stopped")
    last_off = [t for t, d, _ in sim.motor_log if d == "stopped"][-1]
    assert last_off - first_on <= 2.0 + 1e-9
    assert sim.motor == ("stopped", 0.0)


def test_jam_stops_within_the_timeout_reverses_retries_once_then_faults(table, mocker):
    sim, launcher = table(tokens=10, jam_timeout_s=0.5, reverse_s=0.2)
    sim.inject_jam(clears_on_reverse=False)
    motor_off = mocker.spy(launcher._drive, "stop")
    result = launcher.deal(3, seat=0)
    # off at the jam, after reversing, at the second jam, and once more as the deal ends
    assert motor_off.call_count == 4
    assert (result.status, result.counted, result.retries) == ("jam", 0, 1)
    assert launcher.fault and "jam" in launcher.fault
    runs = [(d, round(t, 6)) for t, d, _ in sim.motor_log]
    assert [d for d, _ in runs] == [
        "forward",
        "stopped",
        "backward",
        "stopped",
        "forward",
        "stopped",
    ]
    times = [t for _, t in runs]
    assert times[1] - times[0] == pytest.approx(0.5)  # stopped after jam_timeout_s
    assert times[3] - times[2] == pytest.approx(0.2)  # reversed for reverse_s
    assert times[5] - times[4] == pytest.approx(0.5)  # one retry, then off for good
    assert motor_is_off(sim.factory)


def test_a_faulted_launcher_refuses_to_run_until_reset(table):
    sim, launcher = table(tokens=10)
    sim.inject_jam(clears_on_reverse=False)
    assert launcher.deal(2).status == "jam"
    log_length = len(sim.motor_log)
    sim.clear_jam()
    refused = launcher.deal(2)
    assert (refused.status, refused.counted) == ("fault", 0)
    assert launcher.fire(cards=3).status == "fault"
    model_state = launcher.model.get_state()
    assert launcher.fire(seat=1).status == "fault"
    assert launcher.model.get_state() == model_state  # a refused press draws nothing
    assert len(sim.motor_log) == log_length and sim.exited == []
    assert launcher.get_status()["state"] == "faulted"
    launcher.reset_fault()
    assert launcher.deal(2).status == "ok"
    assert len(sim.exited) == 2


def test_motor_is_off_after_close_and_close_is_idempotent(table, mock_factory):
    sim, launcher = table()
    launcher.deal(1)
    launcher.close()
    launcher.close()
    assert motor_is_off(mock_factory)
    with pytest.raises(LauncherClosed):
        launcher.deal(1)
    with pytest.raises(LauncherClosed):
        launcher.fire()


def test_closing_while_the_motor_runs_switches_it_off_first(table, mock_factory):
    sim, launcher = table(tokens=10)
    levels = []

    def close_now(counted, seat):
        levels.append(motor_levels(mock_factory)["GPIO20"])
        launcher.close()
        levels.append(motor_levels(mock_factory)["GPIO20"])

    launcher.on_card(close_now)
    result = launcher.deal(5)
    assert levels == [1.0, 0.0]
    assert result.status == "fault" and result.counted == 1
    assert launcher.closed


def test_context_manager_exit_leaves_the_motor_off_even_on_exception(
    table, mock_factory, mocker
):
    sim, launcher = table(tokens=10)
    motor_off = mocker.spy(launcher._drive, "stop")
    running = []

    def boom(counted, seat):
        running.append(motor_levels(mock_factory)["GPIO20"])
        raise RuntimeError("daemon bug while the motor runs")

    launcher.on_card(boom)
    with pytest.raises(RuntimeError, match="daemon bug"), launcher:
        launcher.deal(5)
    assert running == [1.0]  # the crash came while the motor ran
    motor_off.assert_called_with()
    assert motor_is_off(mock_factory)
    assert sim.motor == ("stopped", 0.0)
    assert launcher.closed


def test_keyboard_interrupt_mid_deal_leaves_the_motor_off(table, mock_factory, mocker):
    sim, launcher = table(tokens=10)
    motor_off = mocker.spy(launcher._drive, "stop")

    def interrupt(counted, seat):
        raise KeyboardInterrupt

    launcher.on_card(interrupt)
    with pytest.raises(KeyboardInterrupt):
        launcher.deal(5)
    motor_off.assert_called_once_with()
    assert motor_is_off(mock_factory)
    assert launcher.get_status()["current"] is None


def test_launcher_never_moves_unless_asked(table, mock_factory):
    sim, launcher = table(tokens=5)
    # sensors changing, cards loaded and taken out, a card pulled by hand
    sim.empty_hopper()
    sim.load(range(3))
    exit_pin = mock_factory.pin("GPIO5")
    exit_pin.drive_low()
    exit_pin.drive_high()
    launcher.get_status()
    launcher.reset_fault()
    for name in MOTOR_PINS:
        states = mock_factory.pin(name).states
        assert len(states) == 1 and states[0].state == 0
    assert mock_factory.pin("GPIO13").state == 0  # servo: no pulses at all
    assert sim.motor_log == []
    assert launcher.get_status()["stray_cards"] == 1


def motor_on_time(sim):
    """Seconds the motor was driven (either way), summed over the motor log."""
    total, started = 0.0, None
    for t, direction, _ in sim.motor_log:
        if started is not None:
            total += t - started
        started = None if direction == "stopped" else t
    return total


def test_the_reverse_that_frees_a_jam_ends_at_the_press_deadline(table):
    # no card for 0.9 s: a jam at 0.9 s; the reverse may use only what is left of 1.0 s
    sim, launcher = table(tokens=10, max_run_s=1.0, jam_timeout_s=0.9, reverse_s=0.5)
    sim.inject_jam(clears_on_reverse=False)
    result = launcher.deal(3)
    assert result.status == "fault" and "max_run_s" in result.fault
    assert [d for _, d, _ in sim.motor_log] == ["forward", "stopped", "backward", "stopped"]
    assert motor_on_time(sim) <= 1.0 + 1e-9
    assert sim.motor_log[-1][0] - sim.motor_log[0][0] <= 1.0 + 1e-9
    assert sim.motor == ("stopped", 0.0)
