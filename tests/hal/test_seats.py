"""The seat panel on its twin: buttons pressed, held, lights and buzzer driven."""

import json
import threading

import pytest

from hal.errors import ConfigError
from hal.seats import SeatPanelError, parse_config
from hal.sim.seats import EXAMPLE_SECTION, SimSeats

WAIT = 5.0  # an upper bound for gpiozero's real-time threads, never an expectation


@pytest.fixture
def seats(mock_factory, closed_after):
    def make(**overrides):
        sim = SimSeats(parse_config({**EXAMPLE_SECTION, **overrides}), factory=mock_factory)
        return sim, closed_after(sim.panel())

    return make


def eventually(predicate):
    done = threading.Event()
    for _ in range(500):
        if predicate():
            return True
        done.wait(WAIT / 500)
    return predicate()


def test_button_presses_reach_the_callbacks_with_the_seat(seats):
    sim, panel = seats()
    events = []
    panel.on_launcher_press(lambda: events.append("launcher"))
    panel.on_seat_press(lambda seat: events.append(("seat", seat)))
    sim.press_launcher()
    sim.press_seat(2)
    sim.press_seat(0)
    assert events == ["launcher", ("seat", 2), ("seat", 0)]


def test_unsubscribed_callbacks_are_not_called(seats):
    sim, panel = seats()
    events = []
    unsubscribe = panel.on_seat_press(events.append)
    sim.press_seat(1)
    unsubscribe()
    sim.press_seat(1)
    assert events == [1]


def test_a_long_press_is_reported_as_a_hold_of_that_seat(seats):
    sim, panel = seats(hold_time=0.05)
    held = threading.Event()
    holds, presses = [], []
    panel.on_seat_press(presses.append)

    def on_hold(seat):
        holds.append(seat)
        held.set()

    panel.on_seat_hold(on_hold)
    assert sim.hold_seat(3, WAIT, until=held) is True
    assert holds == [3] and presses == [3]
    assert panel.get_status()["seats"][3]["pressed"] is False


def test_debounce_time_is_handed_to_the_pins(seats, mock_factory):
    seats(bounce_time=0.08)
    assert mock_factory.pin("GPIO16").bounce == 0.08  # launcher button
    assert mock_factory.pin("GPIO27").bounce == 0.08  # seat 2


def test_lights_switch_on_off_and_blink(seats):
    sim, panel = seats(blink_s=0.05)
    panel.light(1, True)
    assert sim.led(1) and not sim.led(0)
    panel.light(1, False)
    assert not sim.led(1)
    panel.light(2, "blink")
    assert eventually(lambda: sim.led_history(2).count(True) >= 2)  # it went on, off, on
    panel.light(2, False)
    assert not sim.led(2)
    panel.status_light(True)
    assert sim.status_led is True
    assert panel.get_status()["seats"][2]["light"] is False
    assert panel.get_status()["status_light"] is True


def test_show_sets_several_lights_at_once_and_leaves_a_blink_in_its_rhythm(seats):
    sim, panel = seats(blink_s=0.05)
    panel.show([False, True, "blink"])
    assert sim.led(1) and not sim.led(0)
    assert eventually(lambda: sim.led_history(2).count(True) >= 2)
    panel.light(3, True)
    went_on = sim.led_history(2).count(True)
    panel.show([True, False, "blink"])  # seat 3 not given: stays lit
    assert sim.led(0) and not sim.led(1) and sim.led(3)
    assert eventually(lambda: sim.led_history(2).count(True) > went_on)  # still blinking
    assert [s["light"] for s in panel.get_status()["seats"]] == [True, False, "blink", True]
    panel.close()
    panel.show([False, False, False, False])  # a closed panel shows nothing, raises nothing


def test_buzzer_sounds_patterns_and_silence(seats):
    sim, panel = seats()
    panel.buzz("uno")
    assert eventually(lambda: sim.buzzer is True or panel.get_status()["buzzer"] == "uno")
    panel.buzz(None)
    assert sim.buzzer is False
    panel.buzz((0.2, 0.1, 2))
    assert panel.get_status()["buzzer"] == [0.2, 0.1, 2]
    panel.buzz(None)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda p: p.light(4, True), "seat must be 0..3"),
        (lambda p: p.light(True, True), "seat must be"),
        (lambda p: p.light(0, "on"), "light state"),
        (lambda p: p.light(0, 1), "light state"),
        (lambda p: p.show([True, False, True, False, True]), "5 lights given for 4 seats"),
        (lambda p: p.show([True, "on"]), "light state"),
        (lambda p: p.buzz("fanfare"), "unknown buzz pattern 'fanfare'"),
        (lambda p: p.buzz((0.1, 0.1)), "buzz pattern must be"),
        (lambda p: p.buzz((0.1, 0.1, 0)), "buzz pattern must be"),
    ],
)
def test_bad_output_requests_are_refused_and_change_nothing(seats, call, match):
    sim, panel = seats()
    before = panel.get_status()
    with pytest.raises(SeatPanelError, match=match):
        call(panel)
    assert panel.get_status() == before
    assert not any(sim.led(s) for s in range(4)) and sim.buzzer is False


def test_panel_without_status_led_or_buzzer(seats):
    sim, panel = seats(status_led=None, buzzer=None)
    panel.buzz("ok")  # no buzzer fitted: nothing to sound
    with pytest.raises(SeatPanelError, match="no seats.status_led"):
        panel.status_light(True)
    status = panel.get_status()
    assert status["status_light"] is None and status["buzzer"] is None


def test_status_repr_close(seats):
    sim, panel = seats()
    panel.light(0, True)
    status = panel.get_status()
    assert json.loads(json.dumps(status)) == status
    assert len(status["seats"]) == 4
    assert "lit=[0]" in repr(panel)
    with panel:
        pass
    panel.close()
    assert repr(panel) == "<SeatPanel closed>" and panel.get_status() == {"closed": True}
    with pytest.raises(SeatPanelError, match="closed"):
        panel.light(0, True)


def test_config_defaults_and_pins():
    cfg = parse_config({"launcher_button": 17, "buttons": [22, 23], "leds": [26, 27]})
    assert (cfg.pull_up, cfg.bounce_time, cfg.hold_time, cfg.blink_s) == (True, 0.05, 1.0, 0.4)
    assert cfg.seats == 2 and cfg.status_led is None and cfg.buzzer is None
    assert cfg.pins() == {
        "seats.launcher_button": 17,
        "seats.buttons[0]": 22,
        "seats.buttons[1]": 23,
        "seats.leds[0]": 26,
        "seats.leds[1]": 27,
    }
    assert parse_config({**EXAMPLE_SECTION, "bounce_time": 0}).bounce_time is None


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"buttonz": [1]}, "seats.buttonz"),
        ({"buttons": [22, 23, 24, 99]}, "seats.buttons[3]"),
        ({"buttons": [22]}, "seats.buttons"),
        ({"leds": [26, 27, 4]}, "seats.leds"),
        ({"launcher_button": 40}, "seats.launcher_button"),
        ({"hold_time": 0}, "seats.hold_time"),
        ({"bounce_time": 2}, "seats.bounce_time"),
        ({"pull_up": 1}, "seats.pull_up"),
        ({"buzzer": 22}, "seats.buzzer"),
        ({"leds": [23, 24, 25, 16]}, "seats.leds[3]"),
    ],
)
def test_bad_config_is_refused_by_key(change, key):
    with pytest.raises(ConfigError) as info:
        parse_config({**EXAMPLE_SECTION, **change})
    assert info.value.key == key


def test_inverted_buttons_press_by_driving_high(seats, mock_factory):
    sim, panel = seats(pull_up=False)
    pressed = []
    panel.on_launcher_press(lambda: pressed.append(True))
    sim.press_launcher()
    assert pressed == [True]
    assert mock_factory.pin("GPIO16").state == 0
