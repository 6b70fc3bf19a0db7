"""The seat panel's simulated twin: buttons a test or a demo can press, lights it can read.

``SimSeats(config, factory=...)`` works on the same gpiozero `MockFactory` as the
`hal.seats.SeatPanel` built from that config (build the panel with
``pin_factory=sim.factory`` or call ``sim.panel()``). A button press drives the
button's pin to its active level and back, in the calling thread, so the panel's
callbacks have run when ``press_*`` returns.

Long presses are timed by gpiozero's own hold thread, which runs on real time:
``hold_seat`` keeps the button down until ``until`` (an event the test's hold
callback sets) or ``seconds`` of real time pass, whichever comes first.
"""

from __future__ import annotations

import threading
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from hal.seats import SeatPanel, SeatsConfig
from hal.sim.records import bounded_pin_class

# The example wiring of docs/wiring.md (and of firmware/default_config.toml), four seats.
EXAMPLE_SECTION: dict[str, Any] = {
    "launcher_button": 16,
    "buttons": [4, 17, 27, 22],
    "leds": [23, 24, 25, 26],
    "status_led": 19,
    "buzzer": 18,
}


class SimSeats:
    def __init__(self, config: SeatsConfig, *, factory: MockFactory | None = None) -> None:
        self.config = config
        self.factory = factory if factory is not None else MockFactory(pin_class=MockPWMPin)
        # Claim the panel's pins first, with a state history of bounded length: the LEDs
        # blink for as long as the table runs. (A pin already claimed is left as it is.)
        bounded = bounded_pin_class(self.factory.pin_class)
        for number in self._numbers():
            self.factory.pin(f"GPIO{number}", pin_class=bounded)

    def _numbers(self) -> list[int]:
        c = self.config
        extra = [n for n in (c.status_led, c.buzzer) if n is not None]
        return [c.launcher_button, *c.buttons, *c.leds, *extra]

    def panel(self) -> SeatPanel:
        return SeatPanel.from_config(self.config, pin_factory=self.factory)

    def _pin(self, number: int) -> Any:
        return self.factory.pin(f"GPIO{number}")

    def _seat_pin(self, seat: int) -> Any:
        if not 0 <= seat < self.config.seats:
            raise ValueError(f"seat must be 0..{self.config.seats - 1}, not {seat!r}")
        return self._pin(self.config.buttons[seat])

    def _down(self, pin: Any) -> None:
        pin.drive_low() if self.config.pull_up else pin.drive_high()

    def _up(self, pin: Any) -> None:
        pin.drive_high() if self.config.pull_up else pin.drive_low()

    def _click(self, pin: Any) -> None:
        self._down(pin)
        self._up(pin)

    def press_launcher(self) -> None:
        self._click(self._pin(self.config.launcher_button))

    def press_seat(self, seat: int) -> None:
        self._click(self._seat_pin(seat))

    def hold_seat(
        self, seat: int, seconds: float | None = None, *, until: threading.Event | None = None
    ) -> bool:
        """Hold a seat button down (real time). Returns whether ``until`` was set."""
        pin = self._seat_pin(seat)
        limit = seconds if seconds is not None else self.config.hold_time + 2.0
        self._down(pin)
        try:
            if until is not None:
                return until.wait(limit)
            threading.Event().wait(limit)
            return False
        finally:
            self._up(pin)

    def led(self, seat: int) -> bool:
        """Whether the seat's LED is lit right now."""
        if not 0 <= seat < self.config.seats:
            raise ValueError(f"seat must be 0..{self.config.seats - 1}, not {seat!r}")
        return bool(self._pin(self.config.leds[seat]).state)

    def led_history(self, seat: int) -> list[bool]:
        """The seat LED's states, oldest first (its last `PIN_HISTORY` changes)."""
        return [bool(s.state) for s in self._pin(self.config.leds[seat]).states]

    @property
    def status_led(self) -> bool | None:
        if self.config.status_led is None:
            return None
        return bool(self._pin(self.config.status_led).state)

    @property
    def buzzer(self) -> bool | None:
        if self.config.buzzer is None:
            return None
        return bool(self._pin(self.config.buzzer).state)

    def __repr__(self) -> str:
        return f"<SimSeats seats={self.config.seats}>"
