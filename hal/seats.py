"""The seat panel: the launcher button, a button and an LED per seat, a status LED, a buzzer.

Built from the ``[seats]`` config section. Debounce (``bounce_time``) and long
press (``hold_time``) are gpiozero's own (`gpiozero.Button`); this class only
turns pin events into seat-numbered callbacks:

- ``on_launcher_press(callback)``: ``callback()`` when the launcher button goes down;
- ``on_seat_press(callback)``: ``callback(seat)`` when a seat button goes down
  (a UNO call, or a catch);
- ``on_seat_hold(callback)``: ``callback(seat)`` once a seat button has been held
  for ``hold_time`` (a press that becomes a hold reports both, press first).

Callbacks run in the thread that saw the edge (a gpiozero thread on a Pi; the
thread driving the mock pin in the twin): the daemon only posts events from them.
Each ``on_*`` returns a function that unsubscribes.

Outputs: ``light(seat, state)`` with state ``True``/``False``/``"blink"``,
``status_light(state)`` likewise, ``buzz(pattern)`` with a pattern name from
`BUZZ_PATTERNS` or an ``(on_s, off_s, repeats)`` triple, ``buzz(None)`` for silence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpiozero import LED, Button, Buzzer

from hal.config import Section
from hal.errors import ConfigError, HalError
from hal.safety import ClosedOnExit

BUZZ_PATTERNS: dict[str, tuple[float, float, int]] = {
    "click": (0.03, 0.0, 1),
    "ok": (0.1, 0.0, 1),
    "uno": (0.1, 0.1, 2),
    "error": (0.4, 0.2, 2),
    "alarm": (0.2, 0.2, 10),
}
LIGHT_STATES = (True, False, "blink")


class SeatPanelError(HalError):
    pass


@dataclass(frozen=True)
class SeatsConfig:
    launcher_button: int
    buttons: tuple[int, ...]
    leds: tuple[int, ...]
    status_led: int | None
    buzzer: int | None
    pull_up: bool
    bounce_time: float | None
    hold_time: float
    blink_s: float
    path: str = "seats"

    @property
    def seats(self) -> int:
        return len(self.buttons)

    def pins(self) -> dict[str, int]:
        pins = {f"{self.path}.launcher_button": self.launcher_button}
        pins.update({f"{self.path}.buttons[{i}]": p for i, p in enumerate(self.buttons)})
        pins.update({f"{self.path}.leds[{i}]": p for i, p in enumerate(self.leds)})
        for name in ("status_led", "buzzer"):
            if getattr(self, name) is not None:
                pins[f"{self.path}.{name}"] = getattr(self, name)
        return pins


def parse_config(mapping: Mapping[str, Any] | None, path: str = "seats", *,
                 errors: list[ConfigError] | None = None) -> SeatsConfig:
    """Validate a ``[seats]`` table. Errors are `ConfigError`s naming the key."""
    sec = Section(mapping, path=path, errors=errors)
    buttons = sec.pin_list("buttons")
    if not 2 <= len(buttons) <= 10:
        sec.problem(sec.key("buttons"), f"must list 2-10 seat buttons, not {len(buttons)}")
    leds = sec.pin_list("leds")
    if len(leds) != len(buttons):
        # the shorter list is the one missing a seat's pin
        lists = {"buttons": len(buttons), "leds": len(leds)}
        short, other = sorted(lists, key=lists.__getitem__)
        sec.problem(sec.key(short), f"lists {lists[short]} pins but {sec.key(other)} lists "
                    f"{lists[other]}: one button and one LED per seat")
    bounce = sec.number("bounce_time", 0.05, minimum=0, maximum=1)
    cfg = SeatsConfig(
        launcher_button=sec.pin("launcher_button"),
        buttons=tuple(buttons),
        leds=tuple(leds),
        status_led=sec.pin("status_led", None),
        buzzer=sec.pin("buzzer", None),
        pull_up=sec.boolean("pull_up", True),
        bounce_time=bounce or None,
        hold_time=sec.number("hold_time", 1.0, minimum=0.01, maximum=10),
        blink_s=sec.number("blink_s", 0.4, minimum=0.05, maximum=5),
        path=path,
    )
    sec.finish()
    seen: dict[int, str] = {}
    for key, pin in cfg.pins().items():
        if pin in seen:
            sec.problem(key, f"GPIO {pin} is already used by {seen[pin]}")
        seen.setdefault(pin, key)
    return cfg


class SeatPanel(ClosedOnExit):
    def __init__(self, config: SeatsConfig, *, pin_factory: Any = None) -> None:
        self.config = config
        self._press: list[Callable[[], object]] = []
        self._seat_press: list[Callable[[int], object]] = []
        self._seat_hold: list[Callable[[int], object]] = []
        self._lights: list[bool | str] = [False] * config.seats
        self._status_light: bool | str = False
        self._buzzing: str | tuple[float, float, int] | None = None
        self._closed = False
        self._devices: list[Any] = []
        button = {
            "pull_up": config.pull_up,
            "bounce_time": config.bounce_time,
            "hold_time": config.hold_time,
            "pin_factory": pin_factory,
        }
        try:
            self._launcher = self._add(Button(config.launcher_button, **button))
            self._buttons = [self._add(Button(p, **button)) for p in config.buttons]
            self._leds = [self._add(LED(p, pin_factory=pin_factory)) for p in config.leds]
            self._status = (
                self._add(LED(config.status_led, pin_factory=pin_factory))
                if config.status_led is not None
                else None
            )
            self._buzzer = (
                self._add(Buzzer(config.buzzer, pin_factory=pin_factory))
                if config.buzzer is not None
                else None
            )
        except Exception:
            self.close()
            raise
        self._launcher.when_pressed = self._launcher_pressed
        for seat, btn in enumerate(self._buttons):
            btn.when_pressed = self._seat_event(self._seat_press, seat)
            btn.when_held = self._seat_event(self._seat_hold, seat)

    @classmethod
    def from_config(cls, config: SeatsConfig, *, pin_factory: Any = None) -> SeatPanel:
        return cls(config, pin_factory=pin_factory)

    def _add(self, device: Any) -> Any:
        self._devices.append(device)
        return device

    # --- inputs --------------------------------------------------------------

    def _launcher_pressed(self) -> None:
        for callback in list(self._press):
            callback()

    @staticmethod
    def _seat_event(callbacks: list[Callable[[int], object]], seat: int) -> Callable[[], None]:
        def fire() -> None:
            for callback in list(callbacks):
                callback(seat)

        return fire

    @staticmethod
    def _subscribe(callbacks: list[Any], callback: Any) -> Callable[[], None]:
        callbacks.append(callback)

        def unsubscribe() -> None:
            if callback in callbacks:
                callbacks.remove(callback)

        return unsubscribe

    def on_launcher_press(self, callback: Callable[[], object]) -> Callable[[], None]:
        return self._subscribe(self._press, callback)

    def on_seat_press(self, callback: Callable[[int], object]) -> Callable[[], None]:
        return self._subscribe(self._seat_press, callback)

    def on_seat_hold(self, callback: Callable[[int], object]) -> Callable[[], None]:
        return self._subscribe(self._seat_hold, callback)

    # --- outputs -------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise SeatPanelError("the seat panel is closed")

    def _set(self, led: LED, state: bool | str) -> None:
        if state is True:
            led.on()
        elif state is False:
            led.off()
        else:
            led.blink(on_time=self.config.blink_s, off_time=self.config.blink_s)

    @staticmethod
    def _check_state(state: object) -> None:
        if not any(state is s or (isinstance(s, str) and state == s) for s in LIGHT_STATES):
            raise SeatPanelError(f"light state must be True, False or 'blink', not {state!r}")

    def light(self, seat: int, state: bool | str) -> None:
        self._check_open()
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.config.seats:
            raise SeatPanelError(f"seat must be 0..{self.config.seats - 1}, not {seat!r}")
        self._check_state(state)
        self._set(self._leds[seat], state)
        self._lights[seat] = state

    def show(self, states: Sequence[bool | str]) -> None:
        """Set the lights of seats 0 .. len(states) - 1 at once (True, False or "blink"
        each; the other seats' lights stay as they are). A light already in its state is
        left alone (a blinking one keeps its rhythm). A closed panel shows nothing."""
        if self._closed:
            return
        if len(states) > self.config.seats:
            raise SeatPanelError(f"{len(states)} lights given for {self.config.seats} seats")
        for state in states:
            self._check_state(state)
        lights = self._lights
        for seat, state in enumerate(states):
            if lights[seat] != state:
                self._set(self._leds[seat], state)
                lights[seat] = state

    def status_light(self, state: bool | str) -> None:
        self._check_open()
        self._check_state(state)
        if self._status is None:
            raise SeatPanelError(f"no {self.config.path}.status_led is configured")
        self._set(self._status, state)
        self._status_light = state

    def buzz(self, pattern: str | tuple[float, float, int] | None) -> None:
        """Sound a pattern in the background (None: silence). No buzzer fitted: no-op."""
        self._check_open()
        if pattern is None:
            rhythm = None
        elif isinstance(pattern, str):
            if pattern not in BUZZ_PATTERNS:
                raise SeatPanelError(
                    f"unknown buzz pattern {pattern!r}; known: {', '.join(BUZZ_PATTERNS)}"
                )
            rhythm = BUZZ_PATTERNS[pattern]
        else:
            rhythm = _check_rhythm(pattern)
        self._buzzing = pattern
        if self._buzzer is None:
            return
        if rhythm is None:
            self._buzzer.off()
        else:
            on, off, repeats = rhythm
            self._buzzer.blink(on_time=on, off_time=off, n=repeats, background=True)

    # --- status, lifetime ----------------------------------------------------

    def get_status(self) -> dict[str, Any]:
        if self._closed:
            return {"closed": True}
        return {
            "closed": False,
            "launcher_pressed": bool(self._launcher.is_pressed),
            "seats": [
                {"pressed": bool(b.is_pressed), "held": bool(b.is_held), "light": light}
                for b, light in zip(self._buttons, self._lights, strict=True)
            ],
            "status_light": self._status_light if self._status is not None else None,
            "buzzer": None if self._buzzer is None else _jsonable(self._buzzing),
        }

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()

    @property
    def closed(self) -> bool:
        return self._closed


    def __repr__(self) -> str:
        if self._closed:
            return "<SeatPanel closed>"
        lit = [s for s, light in enumerate(self._lights) if light]
        return f"<SeatPanel seats={self.config.seats} lit={lit} buzzer={self._buzzing!r}>"


def _check_rhythm(pattern: object) -> tuple[float, float, int]:
    ok = (
        isinstance(pattern, tuple | list)
        and len(pattern) == 3
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in pattern)
        and isinstance(pattern[2], int)
        and 0 < pattern[0] <= 10
        and 0 <= pattern[1] <= 10
        and 1 <= pattern[2] <= 100
    )
    if not ok:
        raise SeatPanelError(
            f"buzz pattern must be a name or (on_s 0-10, off_s 0-10, repeats 1-100), not {pattern!r}"
        )
    on, off, repeats = pattern  # type: ignore[misc]
    return float(on), float(off), int(repeats)


def _jsonable(pattern: object) -> object:
    return list(pattern) if isinstance(pattern, tuple) else pattern
