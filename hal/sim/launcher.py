"""The launcher's simulated twin: mock pins wired to a physical model of the machine.

Design
------
The twin never calls the `hal.launcher.Launcher`; it only sees what real hardware
would see — the levels of the motor and servo output pins — and answers the way
the hardware would, on the exit-sensor and hopper-sensor input pins. The driver
code under test is therefore the production code, unchanged.

- **Pins.** ``SimLauncher(config)`` claims the launcher's pins in a gpiozero
  `MockFactory` (its own, or one passed in, e.g. the test fixture's) *before* the
  launcher is built, as subclasses of the factory's pin class that report every
  output change. Build the `Launcher` with ``pin_factory=sim.factory,
  clock=sim.clock``, or call ``sim.launcher(...)``.
- **The stack.** ``load(tokens)`` puts opaque card tokens into the hopper (any
  objects: hal knows no rules); the first loaded comes out first. The
  hopper-empty sensor reads "empty" exactly when the stack is empty.
- **Feeding.** While the motor runs forward at speed ``s`` the top card travels
  to the exit; it takes ``1 / (cards_per_s * s)`` seconds of running (progress
  is kept when the motor stops mid-card). When it gets there it leaves the stack,
  lands in the bucket of the seat the servo points at (``None`` without a servo
  or before the first aim) and breaks the exit beam for ``pulse_s``.
- **Faults to inject.** ``inject_jam(after=k, clears_on_reverse=True)``: after k
  more cards the next one sticks and nothing comes out; running the motor
  backwards frees it (unless ``clears_on_reverse=False``: then only
  ``clear_jam()``, a person opening the launcher, does). ``inject_double_feed()``:
  the next card drags the one below it along, which reaches the sensor
  ``double_feed_gap_s`` later even if the motor stops meanwhile.
  ``inject_stuck_cards(cards=2, offset=1.0)``: the next card leaves with
  ``cards - 1`` more stuck to it, each shifted by ``offset`` of a card's length, as one
  dark pulse ``pulse_s * (1 + (cards - 1) * offset)`` long. An empty hopper
  is simply an empty (or too short) stack; ``empty_hopper()`` takes every card out.
- **Pulses.** Every pulse's length is scaled by a factor drawn uniformly from
  ``1 ± pulse_jitter`` (default 0: every card darkens the beam exactly ``pulse_s``)
  with ``rng``; the beam is dark while any card is in it.
- **Time.** Physics is scheduled with ``clock.call_later``. On a
  `hal.sim.clock.VirtualClock` (the default) it advances only while the launcher
  waits, so a whole deal is deterministic and takes no real time; on a
  `hal.clock.MonotonicClock` the same twin runs in real time (``unotable demo``),
  its events firing on timer threads.

``motor_log`` records every change of the motor as ``(time, direction, speed)``
on the twin's clock, so tests can check how long the motor ran. ``motor_log``,
``exited`` and each seat's ``delivered`` keep their last `LOG_ENTRIES` entries
(`hal.sim.records.RecentLog`: ``len()`` still counts all), and the twin's pins their
last `PIN_HISTORY` states, so a twin under a daemon playing for days stays small.
"""

from __future__ import annotations

import random
import threading
from collections import deque
from collections.abc import Iterable
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from hal.clock import Cancellable, Clock
from hal.launcher import Launcher, LauncherConfig
from hal.sim.clock import VirtualClock
from hal.sim.records import LOG_ENTRIES, RecentLog, bounded_pin_class

SERVO_FRAME_S = 0.02  # gpiozero's default servo frame width
# The example wiring of docs/wiring.md (and of firmware/default_config.toml), four seats.
EXAMPLE_SECTION: dict[str, Any] = {
    "driver": "h_bridge",
    "motor_forward": 20,
    "motor_backward": 21,
    "motor_enable": 12,
    "exit_sensor": 5,
    "hopper_sensor": 6,
    "servo": 13,
    "seat_angles": [-60, -20, 20, 60],
}


def watched_pin_class(base: type) -> type:
    """A subclass of a mock pin class that tells observers about output changes and
    keeps an input at the level the simulated world imposes (``forced``)."""

    class WatchedPin(bounded_pin_class(base)):  # type: ignore[misc]
        def __init__(self, factory: Any, info: Any) -> None:
            self.observers: list[Any] = []
            self.forced: bool | None = None
            super().__init__(factory, info)

        def _change_state(self, value: Any) -> bool:
            changed = bool(super()._change_state(value))
            if changed and self._function == "output":
                for observer in list(self.observers):
                    observer()
            return changed

        def _set_pull(self, value: str) -> None:
            super()._set_pull(value)
            if self.forced is not None:
                self.set_level(self.forced)

        def set_level(self, high: bool) -> None:
            self.forced = high
            if self._function == "input":
                if high:
                    self.drive_high()
                else:
                    self.drive_low()

    WatchedPin.__name__ = f"Watched{base.__name__}"
    return WatchedPin


class SimLauncher:
    def __init__(
        self,
        config: LauncherConfig,
        *,
        factory: MockFactory | None = None,
        clock: Clock | None = None,
        cards_per_s: float = 8.0,
        pulse_s: float | None = None,
        double_feed_gap_s: float | None = None,
        pulse_jitter: float = 0.0,
        rng: random.Random | None = None,
    ) -> None:
        if cards_per_s <= 0:
            raise ValueError(f"cards_per_s must be positive, not {cards_per_s!r}")
        self.config = config
        self.factory = factory if factory is not None else MockFactory(pin_class=MockPWMPin)
        self.clock: Clock = clock if clock is not None else VirtualClock()
        self.cards_per_s = cards_per_s
        card_time = 1 / cards_per_s
        self.pulse_s = pulse_s if pulse_s is not None else 0.3 * card_time
        self.double_feed_gap_s = (
            double_feed_gap_s if double_feed_gap_s is not None else 0.6 * card_time
        )
        if not 0 < self.pulse_s < min(card_time, self.double_feed_gap_s):
            raise ValueError("pulse_s must be shorter than the gap between two cards")
        if not 0 <= pulse_jitter < 1:
            raise ValueError(f"pulse_jitter must be within 0..1, not {pulse_jitter!r}")
        self.pulse_jitter = pulse_jitter
        self._rng = rng if rng is not None else random.Random(0)
        self._lock = threading.RLock()
        self._stack: deque[Any] = deque()
        self.delivered: dict[int | None, RecentLog[Any]] = {}
        self.exited: RecentLog[tuple[Any, int | None]] = RecentLog(maxlen=LOG_ENTRIES)
        self.motor_log: RecentLog[tuple[float, str, float]] = RecentLog(maxlen=LOG_ENTRIES)
        self._direction, self._speed = "stopped", 0.0
        self._since = self.clock.now()
        self._progress = 0.0
        self._next: Cancellable | None = None
        self._jam_after: int | None = None
        self._jam_clears_on_reverse = True
        self._jammed = False
        self._double_feeds = 0
        self._stuck: deque[tuple[int, float]] = deque()  # (cards, offset) per injection
        self._in_beam = 0  # cards darkening the exit beam now
        self._pins = self._claim_pins()
        self._update_hopper()

    # --- wiring --------------------------------------------------------------

    def _claim_pins(self) -> dict[str, Any]:
        cls = watched_pin_class(self.factory.pin_class)
        pins = {}
        for key, number in self.config.pins().items():
            name = key.rsplit(".", 1)[1]
            pin = self.factory.pin(f"GPIO{number}", pin_class=cls)
            if not isinstance(pin, cls):
                raise RuntimeError(
                    f"GPIO{number} ({key}) was claimed before the twin: build SimLauncher "
                    "before the Launcher"
                )
            pins[name] = pin
        for name in ("motor_forward", "motor_backward", "motor_phase", "motor_enable"):
            if name in pins:
                pins[name].observers.append(self._motor_changed)
        pins["exit_sensor"].set_level(self._beam_level(broken=False))
        return pins

    def launcher(self, **kwargs: Any) -> Launcher:
        """Build the production Launcher on this twin's pins and clock."""
        kwargs.setdefault("rng", random.Random(0))
        return Launcher.from_config(
            self.config, pin_factory=self.factory, clock=self.clock, **kwargs
        )

    def _level(self, name: str) -> float:
        pin = self._pins.get(name)
        if pin is None or pin.function != "output":
            return 0.0
        return float(pin.state)

    def _read_motor(self) -> tuple[str, float]:
        cfg = self.config
        if cfg.driver == "phase_enable":
            enable = self._level("motor_enable")
            if enable <= 0:
                return "stopped", 0.0
            return ("backward" if self._level("motor_phase") else "forward"), enable
        forward, backward = self._level("motor_forward"), self._level("motor_backward")
        enabled = cfg.motor_enable is None or self._level("motor_enable") > 0
        if not enabled or (forward > 0 and backward > 0):
            return "stopped", 0.0
        if forward > 0:
            return "forward", forward
        if backward > 0:
            return "backward", backward
        return "stopped", 0.0

    @property
    def lock(self) -> threading.RLock:
        """The twin's own (reentrant) lock. Code that keeps a record of the twin holds it
        to make its change and the twin's one step: a card leaving the hopper (exit
        callbacks run with it held) and the record of that card, with no lock order to
        invert."""
        return self._lock

    def aimed_seat(self) -> int | None:
        """The seat the servo points at (nearest configured angle), None if never aimed."""
        cfg = self.config
        duty = self._level("servo")
        if not cfg.seat_angles or duty <= 0:
            return None
        width_ms = duty * SERVO_FRAME_S * 1000
        span = cfg.servo_max_pulse_ms - cfg.servo_min_pulse_ms
        fraction = (width_ms - cfg.servo_min_pulse_ms) / span
        angle = cfg.servo_min_angle + fraction * (cfg.servo_max_angle - cfg.servo_min_angle)
        return min(range(len(cfg.seat_angles)), key=lambda s: abs(cfg.seat_angles[s] - angle))

    # --- physics -------------------------------------------------------------

    def _beam_level(self, *, broken: bool) -> bool:
        active_low = self.config.exit_active_low
        return (not broken) if active_low else broken

    def _feeding(self) -> bool:
        return self._direction == "forward" and bool(self._stack) and not self._jammed

    def _accumulate(self) -> None:
        now = self.clock.now()
        if self._feeding():
            self._progress += (now - self._since) * self.cards_per_s * self._speed
        self._since = now

    def _reschedule(self) -> None:
        if self._next is not None:
            self._next.cancel()
            self._next = None
        if self._feeding():
            remaining = max(0.0, 1.0 - self._progress) / (self.cards_per_s * self._speed)
            self._next = self.clock.call_later(remaining, self._top_card_exits)

    def _motor_changed(self) -> None:
        with self._lock:
            direction, speed = self._read_motor()
            if (direction, speed) == (self._direction, self._speed):
                return
            self._accumulate()
            self._direction, self._speed = direction, speed
            self.motor_log.append((self.clock.now(), direction, speed))
            if direction == "backward":
                self._progress = 0.0  # the top card is pulled back
                if self._jammed and self._jam_clears_on_reverse:
                    self._jammed = False
            self._reschedule()

    def _top_card_exits(self) -> None:
        with self._lock:
            self._next = None
            self._since = self.clock.now()
            self._progress = 0.0
            self._release_card()
            if self._double_feeds and self._stack:
                self._double_feeds -= 1
                self.clock.call_later(self.double_feed_gap_s, self._dragged_card_exits)
            self._reschedule()

    def _dragged_card_exits(self) -> None:
        with self._lock:
            if self._stack:
                self._release_card()
            self._reschedule()

    def _release_card(self) -> None:
        """The top card leaves (with the cards stuck to it, as one pulse)."""
        cards, offset = self._stuck.popleft() if self._stuck else (1, 0.0)
        seat = self.aimed_seat()
        for _ in range(min(cards, len(self._stack))):
            token = self._stack.popleft()
            self.delivered.setdefault(seat, RecentLog(maxlen=LOG_ENTRIES)).append(token)
            self.exited.append((token, seat))
            if self._jam_after is not None:
                self._jam_after -= 1
                if self._jam_after <= 0:
                    self._jam_after = None
                    self._jammed = True
        self._update_hopper()
        jitter = self._rng.uniform(1 - self.pulse_jitter, 1 + self.pulse_jitter)
        self._in_beam += 1
        self._pins["exit_sensor"].set_level(self._beam_level(broken=True))
        dark = self.pulse_s * (1 + (cards - 1) * offset) * jitter
        self.clock.call_later(dark, self._beam_clear)

    def _beam_clear(self) -> None:
        with self._lock:
            self._in_beam -= 1
            if self._in_beam == 0:
                self._pins["exit_sensor"].set_level(self._beam_level(broken=False))

    def _update_hopper(self) -> None:
        pin = self._pins.get("hopper_sensor")
        if pin is not None:
            empty = not self._stack
            pin.set_level((not empty) if self.config.hopper_active_low else empty)

    # --- what a test or a demo does to the world ------------------------------

    def load(self, tokens: Iterable[Any]) -> None:
        """Put cards into the hopper, after those already there."""
        with self._lock:
            self._accumulate()
            self._stack.extend(tokens)
            self._update_hopper()
            self._reschedule()

    def empty_hopper(self) -> list[Any]:
        """Take every card out of the hopper; returns them in order."""
        with self._lock:
            self._accumulate()
            taken = list(self._stack)
            self._stack.clear()
            self._progress = 0.0
            self._update_hopper()
            self._reschedule()
            return taken

    def inject_jam(self, *, after: int = 0, clears_on_reverse: bool = True) -> None:
        """After ``after`` more cards, the next card sticks."""
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise ValueError(f"after must be a card count >= 0, not {after!r}")
        with self._lock:
            self._accumulate()
            self._jam_clears_on_reverse = clears_on_reverse
            if after == 0:
                self._jammed = True
            else:
                self._jam_after = after
            self._reschedule()

    def clear_jam(self) -> None:
        with self._lock:
            self._accumulate()
            self._jammed = False
            self._jam_after = None
            self._reschedule()

    def inject_stuck_cards(self, cards: int = 2, *, offset: float = 1.0) -> None:
        """The next card to leave brings ``cards - 1`` more stuck to it, each shifted by
        ``offset`` (0-1) of a card's length: one dark pulse for all of them."""
        if isinstance(cards, bool) or not isinstance(cards, int) or cards < 2:
            raise ValueError(f"cards must be a card count >= 2, not {cards!r}")
        if not 0 <= offset <= 1:
            raise ValueError(f"offset must be within 0..1 of a card, not {offset!r}")
        with self._lock:
            self._stuck.append((cards, float(offset)))

    def inject_double_feed(self, count: int = 1) -> None:
        """The next ``count`` cards each drag one more card out behind them."""
        with self._lock:
            self._double_feeds += count

    @property
    def stack(self) -> list[Any]:
        """The cards still in the hopper, next one first."""
        with self._lock:
            return list(self._stack)

    @property
    def jammed(self) -> bool:
        return self._jammed

    @property
    def motor(self) -> tuple[str, float]:
        """(direction, speed) as the motor pins drive it right now."""
        return self._direction, self._speed

    def cards_at(self, seat: int | None) -> list[Any]:
        return list(self.delivered.get(seat, []))

    def longest_run(self) -> float:
        """The longest uninterrupted time the motor was running, in clock seconds."""
        longest, started = 0.0, None
        for t, direction, _ in self.motor_log:
            if direction != "stopped" and started is None:
                started = t
            elif direction == "stopped" and started is not None:
                longest, started = max(longest, t - started), None
        if started is not None:
            longest = max(longest, self.clock.now() - started)
        return longest

    def get_status(self) -> dict[str, Any]:
        with self._lock:
            return {
                "stack": len(self._stack),
                "motor": self._direction,
                "speed": self._speed,
                "jammed": self._jammed,
                "delivered": {str(k): len(v) for k, v in self.delivered.items()},
            }

    def __repr__(self) -> str:
        return (
            f"<SimLauncher stack={len(self._stack)} motor={self._direction} "
            f"jammed={self._jammed} exited={len(self.exited)}>"
        )
