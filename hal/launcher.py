"""The card launcher / dispenser: motor, card-exit sensor, hopper-empty sensor, aiming servo.

Built from the ``[launcher]`` config section (``parse_config``), it does two things:

- ``deal(n, seat=None)``: eject exactly ``n`` cards;
- ``fire(seat=None)``: one press of the launcher button on the device alone — the
  number of cards is drawn from the configured ejection model (``hal.ejection``) with
  the injected RNG. The daemon does not use it: the count of a press is a chance
  outcome of the game, drawn and journaled by the controller before it calls ``deal``.

Both return an `EjectionResult`; ``counted`` is what the exit sensor actually
counted, which can differ from ``requested`` (a jam, an empty hopper, a double
feed that pushed out one card more, cards stuck together). Each dark pulse of the
exit beam is timed: one longer than ``stuck_ratio`` card times counts as the cards it
must be (`hal.exit_beam`), and ``stuck`` says how many cards were counted that way. Every counted card is also announced to the
``on_card`` observers while it happens, so the daemon can journal progress and,
after a crash, knows how many cards of a cut-off ejection really came out.

Safety (the launcher is a motor next to people's hands):

- the motor only runs inside ``deal``/``fire`` and never for longer than
  ``max_run_s`` per call (then it stops and the launcher is faulted);
- no card within ``jam_timeout_s`` while running is a jam: stop, reverse for
  ``reverse_s`` when the driver can reverse, retry once; a jam the retry does not
  clear ends with status ``jam`` and a fault: the launcher refuses to run (status
  ``fault``, motor untouched) until ``reset_fault()``;
- the motor is switched off in a ``finally`` on every path out of a run and by
  ``close()`` *before* the pins are released (a released Pi output keeps its
  level); the daemon's loop turns SIGTERM/SIGINT into ``close()``.

Time is an injected `hal.clock.Clock`, so the same code runs on the simulated
twin's virtual time (``hal.sim.launcher``).
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from gpiozero import (
    AngularServo,
    DigitalInputDevice,
    DigitalOutputDevice,
    Motor,
    PhaseEnableMotor,
    PWMOutputDevice,
)
from gpiozero.exc import GPIODeviceClosed

from hal.clock import REAL_TIME, Clock
from hal.config import Section, number_problem, shown
from hal.ejection import EjectionModel, ModelConfig, parse_model_config
from hal.errors import ConfigError, HalError
from hal.exit_beam import CardPulses, ExitBeam
from hal.safety import ClosedOnExit

DRIVERS = ("h_bridge", "phase_enable", "single")
STATUSES = ("ok", "jam", "hopper_empty", "fault")
# Which motor pins each driver uses; any other motor_* pin is a config error.
_DRIVER_PINS = {
    "h_bridge": ("motor_forward", "motor_backward"),
    "phase_enable": ("motor_phase", "motor_enable"),
    "single": ("motor_forward",),
}
_MOTOR_PIN_KEYS = ("motor_forward", "motor_backward", "motor_phase", "motor_enable")
# The range of every numeric option (docs/wiring.md). parse_config reads with them, and a
# LauncherConfig refuses any value outside them (or NaN, inf) when it is built, so the
# motor's bounds hold for a launcher built without the config layer, too.
BOUNDS: dict[str, tuple[float, float]] = {
    "speed": (0.1, 1),
    "reverse_speed": (0.1, 1),
    "reverse_s": (0.01, 2),
    "servo_min_angle": (-360, 360),
    "servo_max_angle": (-360, 360),
    "servo_min_pulse_ms": (0.1, 5),
    "servo_max_pulse_ms": (0.1, 5),
    "aim_settle_s": (0, 5),
    "max_run_s": (0.1, 30),
    "jam_timeout_s": (0.05, 10),
    "settle_s": (0, 2),
    "max_cards": (1, 112),
    "card_dark_s": (0.001, 1),
    "stuck_ratio": (1.2, 4),
}
# Options that may be left out: the launcher then learns the value (`hal.exit_beam`).
_OPTIONAL = ("card_dark_s",)
_WHOLE = ("max_cards",)


class LauncherError(HalError):
    """The launcher cannot do what was asked (bad argument, closed, busy)."""


class LauncherClosed(LauncherError):
    pass


class LauncherBusy(LauncherError):
    """Another deal/fire is still running."""


@dataclass(frozen=True)
class EjectionResult:
    """What one ``deal``/``fire`` did. ``counted`` comes from the exit sensor."""

    requested: int
    counted: int
    status: str  # one of STATUSES
    seat: int | None
    retries: int = 0  # jams cleared by stop / reverse / retry
    fault: str | None = None
    stuck: int = 0  # cards counted from over-long pulses beyond one each (stuck together)
    # each pulse's dark time in seconds, in order (what selftest calibrates with)
    dark_s: tuple[float, ...] = field(default=(), compare=False)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class LauncherConfig:
    driver: str
    motor_forward: int | None
    motor_backward: int | None
    motor_phase: int | None
    motor_enable: int | None
    motor_pwm: bool
    speed: float
    reverse_speed: float
    reverse_s: float
    exit_sensor: int
    exit_active_low: bool
    hopper_sensor: int | None
    hopper_active_low: bool
    servo: int | None
    seat_angles: tuple[float, ...]
    servo_min_angle: float
    servo_max_angle: float
    servo_min_pulse_ms: float
    servo_max_pulse_ms: float
    aim_settle_s: float
    max_run_s: float
    jam_timeout_s: float
    settle_s: float
    max_cards: int
    model: ModelConfig
    path: str = "launcher"
    card_dark_s: float | None = None  # one card's dark time at the exit beam; None: learned
    stuck_ratio: float = 1.5  # a pulse longer than this many card times is stuck cards

    def __post_init__(self) -> None:
        for name, (low, high) in BOUNDS.items():
            if name in _OPTIONAL and getattr(self, name) is None:
                continue
            problem = number_problem(getattr(self, name), low, high, integer=name in _WHOLE)
            if problem:
                raise ConfigError(f"{self.path}.{name}", problem)
        for i, angle in enumerate(self.seat_angles):
            problem = number_problem(angle, self.servo_min_angle, self.servo_max_angle)
            if problem:
                raise ConfigError(f"{self.path}.seat_angles[{i}]", problem)

    @property
    def can_reverse(self) -> bool:
        return driver_can_reverse(self.driver)

    def pins(self) -> dict[str, int]:
        names = (*_MOTOR_PIN_KEYS, "exit_sensor", "hopper_sensor", "servo")
        return {
            f"{self.path}.{name}": getattr(self, name)
            for name in names
            if getattr(self, name) is not None
        }

    def pwm_pins(self) -> dict[str, int]:
        """The pins gpiozero drives with PWM (a pin factory without PWM cannot start
        them): the servo, and with motor_pwm the motor's speed pins (gpiozero's Motor
        pulses forward/backward, PhaseEnableMotor its enable pin)."""
        speed = {"h_bridge": ("motor_forward", "motor_backward"),
                 "phase_enable": ("motor_enable",), "single": ("motor_forward",)}
        names = ("servo", *(speed.get(self.driver, ()) if self.motor_pwm else ()))
        return {key: pin for key, pin in self.pins().items() if key.rpartition(".")[2] in names}


def parse_config(mapping: Mapping[str, Any] | None, path: str = "launcher", *,
                 errors: list[ConfigError] | None = None) -> LauncherConfig:
    """Validate a ``[launcher]`` table. Errors are `ConfigError`s naming the key."""
    sec = Section(mapping, path=path, errors=errors)
    driver = sec.string("driver", "h_bridge", choices=DRIVERS)
    motor: dict[str, int | None] = {}
    for name in _MOTOR_PIN_KEYS:
        if name in _DRIVER_PINS[driver]:
            motor[name] = sec.pin(name)
        elif name == "motor_enable" and driver == "h_bridge":
            motor[name] = sec.pin(name, None)
        else:
            if sec.has(name):
                sec.problem(sec.key(name), f"is not used by driver {driver!r}")
            motor[name] = None
    pwm = sec.boolean("motor_pwm", True)
    speed = _number(sec, "speed", 1.0)
    # without PWM the motor only knows full speed
    reverse_speed = _number(sec, "reverse_speed", 0.6 if pwm else 1.0)
    for name, value in (("speed", speed), ("reverse_speed", reverse_speed)):
        if not pwm and value != 1:
            sec.problem(sec.key(name), "must be 1 when motor_pwm is false")
    if not pwm:
        speed = reverse_speed = 1.0
    reverse_s = _number(sec, "reverse_s", 0.2)
    if not driver_can_reverse(driver) and sec.has("reverse_s"):
        sec.problem(sec.key("reverse_s"), f"driver {driver!r} cannot reverse")

    servo = sec.pin("servo", None)
    min_angle = _number(sec, "servo_min_angle", -90.0)
    max_angle = _number(sec, "servo_max_angle", 90.0)
    if max_angle <= min_angle:
        sec.problem(sec.key("servo_max_angle"), "must be above servo_min_angle")
        min_angle, max_angle = -90.0, 90.0
    min_pulse = _number(sec, "servo_min_pulse_ms", 1.0)
    max_pulse = _number(sec, "servo_max_pulse_ms", 2.0)
    if max_pulse <= min_pulse:
        sec.problem(sec.key("servo_max_pulse_ms"), "must be above servo_min_pulse_ms")
        min_pulse, max_pulse = 1.0, 2.0
    angles = _seat_angles(sec, servo, min_angle, max_angle)

    cfg = LauncherConfig(
        driver=driver,
        motor_forward=motor["motor_forward"],
        motor_backward=motor["motor_backward"],
        motor_phase=motor["motor_phase"],
        motor_enable=motor["motor_enable"],
        motor_pwm=pwm,
        speed=speed,
        reverse_speed=reverse_speed,
        reverse_s=reverse_s,
        exit_sensor=sec.pin("exit_sensor"),
        exit_active_low=sec.boolean("exit_active_low", True),
        hopper_sensor=sec.pin("hopper_sensor", None),
        hopper_active_low=sec.boolean("hopper_active_low", True),
        servo=servo,
        seat_angles=angles,
        servo_min_angle=min_angle,
        servo_max_angle=max_angle,
        servo_min_pulse_ms=min_pulse,
        servo_max_pulse_ms=max_pulse,
        aim_settle_s=_number(sec, "aim_settle_s", 0.3),
        max_run_s=_number(sec, "max_run_s", 4.0),
        jam_timeout_s=_number(sec, "jam_timeout_s", 1.0),
        settle_s=_number(sec, "settle_s", 0.15),
        max_cards=_number(sec, "max_cards", 20),
        model=parse_model_config(sec.raw("model", {}), path=sec.key("model"), errors=sec.errors),
        path=path,
        card_dark_s=_number(sec, "card_dark_s", None),
        stuck_ratio=_number(sec, "stuck_ratio", 1.5),
    )
    sec.finish()
    _check_pins_distinct(sec, cfg.pins())
    return cfg


def _number(sec: Section, name: str, default: float | None) -> Any:
    low, high = BOUNDS[name]
    return sec.number(name, default, minimum=low, maximum=high, integer=name in _WHOLE)


def driver_can_reverse(driver: str) -> bool:
    return driver != "single"


def _seat_angles(sec: Section, servo: int | None, low: float, high: float) -> tuple[float, ...]:
    key = sec.key("seat_angles")
    if servo is None:
        if sec.has("seat_angles") and not sec.failed("servo"):
            sec.problem(key, f"needs {sec.key('servo')} (no servo is configured)")
        sec.raw("seat_angles", None)
        return ()
    value = sec.raw("seat_angles")
    if not isinstance(value, list) or not value:
        sec.problem(key, f"must be a non-empty list of angles, one per seat, not {shown(value)}")
        return ()
    good = True
    for i, angle in enumerate(value):
        if isinstance(angle, bool) or not isinstance(angle, int | float):
            sec.problem(f"{key}[{i}]", f"must be a number, not {shown(angle)}")
            good = False
        elif not low <= angle <= high:
            sec.problem(f"{key}[{i}]", f"must be within {low:g}..{high:g}, not {shown(angle)}")
            good = False
    return tuple(float(a) for a in value) if good else ()


def _check_pins_distinct(sec: Section, pins: Mapping[str, int]) -> None:
    seen: dict[int, str] = {}
    for key, pin in pins.items():
        if pin in seen:
            sec.problem(key, f"GPIO {pin} is already used by {seen[pin]}")
        seen.setdefault(pin, key)


class _Drive:
    """The motor driver behind one interface: forward(speed), backward(speed), stop()."""

    def __init__(self, cfg: LauncherConfig, pin_factory: Any) -> None:
        self.pwm = cfg.motor_pwm
        self.can_reverse = cfg.can_reverse
        self.device: Motor | PhaseEnableMotor | PWMOutputDevice | DigitalOutputDevice
        if cfg.driver == "h_bridge":
            self.device = Motor(
                cfg.motor_forward,
                cfg.motor_backward,
                enable=cfg.motor_enable,
                pwm=cfg.motor_pwm,
                pin_factory=pin_factory,
            )
        elif cfg.driver == "phase_enable":
            self.device = PhaseEnableMotor(
                cfg.motor_phase, cfg.motor_enable, pwm=cfg.motor_pwm, pin_factory=pin_factory
            )
        elif cfg.motor_pwm:
            self.device = PWMOutputDevice(cfg.motor_forward, pin_factory=pin_factory)
        else:
            self.device = DigitalOutputDevice(cfg.motor_forward, pin_factory=pin_factory)

    def forward(self, speed: float) -> None:
        dev = self.device
        if isinstance(dev, Motor | PhaseEnableMotor):
            dev.forward(speed if self.pwm else 1)
        elif isinstance(dev, PWMOutputDevice):
            dev.value = speed
        else:
            dev.on()

    def backward(self, speed: float) -> None:
        assert isinstance(self.device, Motor | PhaseEnableMotor)
        self.device.backward(speed if self.pwm else 1)

    def stop(self) -> None:
        dev = self.device
        if isinstance(dev, Motor | PhaseEnableMotor):
            dev.stop()
        else:
            dev.off()

    @property
    def value(self) -> float:
        return float(self.device.value)

    def close(self) -> None:
        self.device.close()


CardCallback = Callable[[int, "int | None"], object]


class Launcher(ClosedOnExit):
    """Drives the launcher hardware. Build with `from_config`; close it (or use ``with``)."""

    def __init__(
        self,
        config: LauncherConfig,
        *,
        model: EjectionModel | None = None,
        pin_factory: Any = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self.model = model if model is not None else config.model.build()
        self._clock: Clock = clock if clock is not None else REAL_TIME
        self._rng = rng if rng is not None else random.SystemRandom()
        self._lock = threading.RLock()
        self._busy = threading.Lock()
        self._card = threading.Event()
        self._callbacks: list[CardCallback] = []
        self._total = 0
        self._stray = 0
        self._beam = ExitBeam(CardPulses(config.card_dark_s, config.stuck_ratio),
                              self._clock, self._lock)
        self._op: dict[str, Any] | None = None
        self._fault: str | None = None
        self._state = "idle"
        self._aimed: int | None = None
        self._closed = False
        self._devices: list[Any] = []
        try:
            # The motor first: whatever happens next, its pins are driven low.
            self._drive = _Drive(config, pin_factory)
            self._devices.append(self._drive)
            self._exit = DigitalInputDevice(
                config.exit_sensor, pull_up=config.exit_active_low, pin_factory=pin_factory
            )
            self._devices.append(self._exit)
            self._hopper: DigitalInputDevice | None = None
            if config.hopper_sensor is not None:
                self._hopper = DigitalInputDevice(
                    config.hopper_sensor,
                    pull_up=config.hopper_active_low,
                    pin_factory=pin_factory,
                )
                self._devices.append(self._hopper)
            self._servo: AngularServo | None = None
            if config.servo is not None:
                # initial_angle=None: no pulses, the servo stays where it is until asked.
                self._servo = AngularServo(
                    config.servo,
                    initial_angle=None,
                    min_angle=config.servo_min_angle,
                    max_angle=config.servo_max_angle,
                    min_pulse_width=config.servo_min_pulse_ms / 1000,
                    max_pulse_width=config.servo_max_pulse_ms / 1000,
                    pin_factory=pin_factory,
                )
                self._devices.append(self._servo)
        except Exception:
            self._release_devices()
            raise
        self._exit.when_activated = self._card_seen
        self._exit.when_deactivated = self._beam_cleared

    @classmethod
    def from_config(
        cls,
        config: LauncherConfig,
        *,
        pin_factory: Any = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        model: EjectionModel | None = None,
    ) -> Launcher:
        return cls(config, model=model, pin_factory=pin_factory, clock=clock, rng=rng)

    # --- observation -------------------------------------------------------

    def on_card(self, callback: CardCallback) -> Callable[[], None]:
        """Call ``callback(counted_so_far, seat)`` for every card the exit sensor counts
        during a deal/fire (in the thread that saw the edge). Returns an unsubscribe."""
        with self._lock:
            self._callbacks.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return unsubscribe

    def _card_seen(self) -> None:
        """The beam went dark: one card counts now, so the motor stops on time; its
        end (`_beam_cleared`) adds the cards a long pulse must have been."""
        self._count(1, self._beam.dark(self._op))

    def _beam_cleared(self) -> None:
        with self._lock:
            ended = self._beam.light()
            if ended is None:
                return
            op, dark, extra = ended
            if op is self._op and op is not None:
                op["dark_s"].append(dark)
                op["stuck"] += extra
        if extra:
            self._count(extra, op)

    def _count(self, cards: int, op: dict[str, Any] | None) -> None:
        """Count `cards` exit-sensor cards into the ejection `op` when it still runs,
        else as strays."""
        with self._lock:
            self._total += cards
            if op is None or op is not self._op:
                self._stray += cards
                return
            seat = op["seat"]
            counts = range(op["counted"] + 1, op["counted"] + cards + 1)
            op["counted"] += cards
            callbacks = list(self._callbacks)
            self._card.set()
        for counted in counts:
            for callback in callbacks:
                callback(counted, seat)

    @property
    def fault(self) -> str | None:
        return self._fault

    @property
    def hopper_empty(self) -> bool | None:
        """True/False from the hopper sensor; None when none is fitted."""
        return None if self._hopper is None else bool(self._hopper.is_active)

    @property
    def cards_counted(self) -> int:
        """Every card the exit sensor has counted since construction."""
        return self._total

    @property
    def closed(self) -> bool:
        return self._closed

    def get_status(self) -> dict[str, Any]:
        with self._lock:
            op = dict(self._op) if self._op is not None else None
            return {
                "state": "closed" if self._closed else self._state,
                "fault": self._fault,
                "hopper_empty": None if self._closed else self.hopper_empty,
                "cards_counted": self._total,
                "stray_cards": self._stray,
                "stuck_cards": self._beam.stuck,
                "card_dark_s": self._beam.pulses.card_s(),
                "current": op,
                "aimed_seat": self._aimed,
                "model": self.model.describe(),
                "model_state": self.model.get_state(),
            }

    def __repr__(self) -> str:
        if self._closed:
            return "<Launcher closed>"
        return (
            f"<Launcher state={self._state} driver={self.config.driver} "
            f"counted={self._total} fault={self._fault!r}>"
        )

    # --- operations --------------------------------------------------------

    def fire(self, seat: int | None = None, *, cards: int | None = None) -> EjectionResult:
        """One press of the launcher button on the device alone: the count is drawn from
        the ejection model with the launcher's own rng (``cards`` gives it instead).
        For the bench and a check of the mechanism; the daemon never calls it: it draws
        the count itself, journals it, then calls `deal` (docs/architecture.md)."""
        self._check_open()
        if cards is None:
            self._check_seat(seat)
            if self._fault is not None:  # refused: no chance is spent on a press that can't run
                return EjectionResult(0, 0, "fault", seat, fault=self._fault)
            cards = self.model.press(self._rng)
        return self.deal(cards, seat)

    def deal(self, n: int, seat: int | None = None) -> EjectionResult:
        """Eject exactly ``n`` cards (aimed at ``seat`` when a servo is fitted)."""
        self._check_open()
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= self.config.max_cards:
            raise LauncherError(f"card count must be 0..{self.config.max_cards}, not {n!r}")
        self._check_seat(seat)
        if not self._busy.acquire(blocking=False):
            raise LauncherBusy("the launcher is already ejecting")
        try:
            if self._fault is not None:
                return EjectionResult(n, 0, "fault", seat, fault=self._fault)
            if n == 0:
                return EjectionResult(0, 0, "ok", seat)
            self.aim(seat)
            if self.hopper_empty:
                return EjectionResult(n, 0, "hopper_empty", seat)
            return self._eject(n, seat)
        finally:
            self._busy.release()

    def aim(self, seat: int | None) -> None:
        """Turn the servo to face ``seat`` (no-op without a servo or seat)."""
        self._check_open()
        self._check_seat(seat)
        if self._servo is None or seat is None or seat == self._aimed:
            return
        self._servo.angle = self.config.seat_angles[seat]
        self._aimed = seat
        self._clock.sleep(self.config.aim_settle_s)

    def reset_fault(self) -> None:
        """Allow the launcher to run again after a jam or an over-long run was cleared."""
        self._check_open()
        with self._lock:
            self._fault = None
            if self._state == "faulted":
                self._state = "idle"

    def stop(self) -> None:
        """Motor off now (from any thread). A running deal ends with status ``fault`` and
        the launcher stays faulted until `reset_fault`."""
        self._motor_off()
        with self._lock:
            if self._op is not None:
                self._op["aborted"] = "stopped by request"
            self._card.set()

    def close(self) -> None:
        """Motor off, then release every pin. Idempotent; safe from a signal handler."""
        if self._closed:
            return
        self.stop()
        self._closed = True
        self._release_devices()

    # --- internals ---------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise LauncherClosed("the launcher is closed")

    def _check_seat(self, seat: int | None) -> None:
        if seat is None:
            return
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise LauncherError(f"seat must be a seat number >= 0 or None, not {seat!r}")
        if self._servo is not None and seat >= len(self.config.seat_angles):
            raise LauncherError(
                f"seat {seat} has no angle in {self.config.path}.seat_angles "
                f"({len(self.config.seat_angles)} seats)"
            )

    def _release_devices(self) -> None:
        for device in reversed(self._devices):
            if device is getattr(self, "_drive", None):
                self._motor_off()
            device.close()
        self._devices.clear()

    def _motor_off(self) -> None:
        drive = getattr(self, "_drive", None)
        if drive is None:
            return
        # A closed drive was already driven low by close() before its pins were released.
        with contextlib.suppress(GPIODeviceClosed):
            drive.stop()

    def _eject(self, n: int, seat: int | None) -> EjectionResult:
        with self._lock:
            self._op = {"requested": n, "counted": 0, "seat": seat, "aborted": None,
                        "stuck": 0, "dark_s": []}
            self._card.clear()
        try:
            try:
                status, retries, fault = self._run(n)
            finally:
                self._motor_off()
                self._state = "idle"
            # Cards already past the rollers (a double feed, momentum) still count.
            self._clock.sleep(self.config.settle_s)
            self._beam.await_end(self._op)  # stuck cards still in the beam count here
            with self._lock:
                op = self._op
                if fault is not None:
                    self._fault = fault
                    self._state = "faulted"
            return EjectionResult(n, op["counted"], status, seat, retries, fault,
                                  op["stuck"], tuple(op["dark_s"]))
        finally:
            with self._lock:
                self._op = None

    def _run(self, n: int) -> tuple[str, int, str | None]:
        """Run the motor until n cards are counted; returns (status, retries, fault)."""
        cfg = self.config
        clock = self._clock
        deadline = clock.now() + cfg.max_run_s
        last_card = clock.now()
        retried = False
        retries = 0
        self._forward()
        while True:
            with self._lock:
                assert self._op is not None
                counted, aborted = self._op["counted"], self._op["aborted"]
                self._card.clear()
            if aborted is not None:
                return "fault", retries, aborted
            if counted >= n:
                return "ok", retries, None
            if self.hopper_empty:
                return "hopper_empty", retries, None
            now = clock.now()
            if now >= deadline:
                self._motor_off()
                return "fault", retries, f"motor ran max_run_s={cfg.max_run_s:g}s without finishing"
            if clock.wait(self._card, min(last_card + cfg.jam_timeout_s, deadline) - now):
                last_card = clock.now()
                retried = False
                continue
            if clock.now() >= deadline:
                continue  # reported at the top of the loop, after a last look at the count
            # No card within jam_timeout_s: a jam (or the hopper ran dry).
            self._motor_off()
            if self.hopper_empty:
                return "hopper_empty", retries, None
            if retried:
                return (
                    "jam",
                    retries,
                    f"jam: no card within jam_timeout_s={cfg.jam_timeout_s:g}s after a retry",
                )
            retried = True
            retries += 1
            if cfg.can_reverse:
                self._state = "reversing"
                self._drive.backward(cfg.reverse_speed)
                clock.sleep(min(cfg.reverse_s, max(0.0, deadline - clock.now())))
                self._motor_off()
            last_card = clock.now()
            if last_card < deadline:
                self._forward()

    def _forward(self) -> None:
        self._state = "running"
        self._drive.forward(self.config.speed)
