"""`unotable selftest`: exercise the configured hardware and report what works.

Checks, in order: the launcher's sensors (exit beam clear, hopper), a motor pulse that
must eject exactly one card counted by the exit sensor, how long one card darkens the
exit beam (measured on five cards: the value to set as ``[launcher] card_dark_s``, which
tells cards stuck together from one), the aiming servo at every
seat, every tray reader (answers, firmware, towers seen), the card pad with a ``[pad]``
(its firmware answers, one read of what lies on it), the seat LEDs and buzzer,
the buttons (press each when asked), and whether the motor safety helper systemd runs
after every stop (unotable-safe-pins) finds a tool to drive the motor pins low, and
whether the voice reaches a sound device as the service (with the desktop's PipeWire,
the `[voice] device` to set). With ``[sim] enabled`` (the built-in default)
it runs on the simulated twin, which also presses the buttons itself; a reader whose
port names a device on this machine is then tested for real (docs/pad.md). ``--yes`` never
prompts: on real hardware the steps that need a person (buttons, loading a card) are
reported as skipped. Last, what phones on the LAN would lack (a loopback host, no
token, a unit whose IPAddressAllow has no LAN; the firewall), each a "note", not a
failure. Exit status 0 when nothing failed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware.counting import count_of

OK, FAIL, SKIP = "ok", "FAIL", "skipped"
NOTE = "note"  # not a failure: what phones on the LAN would lack (a loopback table is fine)
CALIBRATION_CARDS = 5  # cards dealt one by one to time the exit beam
CALIBRATION_TOLERANCE = 0.25  # a configured card_dark_s this far off the measured one fails
# Where install.sh puts the helper the unit's ExecStopPost= runs; else the checkout's copy.
SAFE_PINS = Path("/opt/unotable/bin/unotable-safe-pins")
CHECKOUT_SAFE_PINS = Path(__file__).resolve().parents[2] / "systemd" / "unotable-safe-pins"


@dataclass
class Check:
    name: str
    outcome: str
    detail: str


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "selftest", help="exercise the configured hardware and report what works",
        description=__doc__.split("\n\n")[1].replace("\n", " ") if __doc__ else None)
    parser.add_argument("--config", metavar="PATH",
                        help="config file (default: $UNOTABLE_CONFIG, "
                        "/etc/unotable/config.toml, else the built-in default)")
    parser.add_argument("--yes", action="store_true",
                        help="non-interactive: never prompt, skip what needs a person")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds to wait for each button press")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


class Selftest:
    def __init__(self, hardware: Any, *, twin: Any = None, interactive: bool = True,
                 timeout: float = 10.0, ask: Callable[[str], object] = input,
                 say: Callable[[str], object] = print) -> None:
        self.hw = hardware
        self.twin = twin
        self.interactive = interactive
        self.timeout = timeout
        self.ask = ask
        self.say = say
        self.checks: list[Check] = []

    def add(self, name: str, outcome: str, detail: str) -> None:
        self.checks.append(Check(name, outcome, detail))
        self.say(f"{outcome:>7}  {name}: {detail}")

    def run(self) -> list[Check]:
        for step in (self.sensors, self.motor, self.servo, self.readers, self.pad,
                     self.outputs, self.buttons):
            try:
                step()
            except Exception as exc:  # noqa: BLE001 - a broken device is a finding, not a crash
                self.add(step.__name__, FAIL, f"{type(exc).__name__}: {exc}")
        return self.checks

    def sensors(self) -> None:
        launcher = self.hw.launcher
        status = launcher.get_status()
        self.add("launcher", OK if status["fault"] is None else FAIL,
                 f"state {status['state']}, fault {status['fault']}")
        empty = launcher.hopper_empty
        self.add("hopper sensor", SKIP if empty is None else OK,
                 "not fitted" if empty is None else ("hopper empty" if empty else "cards present"))

    def motor(self) -> None:
        launcher = self.hw.launcher
        if self.twin is None:
            if not self.interactive:
                self.add("motor pulse", SKIP, "needs a card in the hopper and a person (no --yes)")
                return
            self.ask(f"put {CALIBRATION_CARDS} cards in the launcher's hopper, not stuck "
                     "together, then press Enter: ")
        before = launcher.cards_counted
        result = launcher.deal(1)
        counted = launcher.cards_counted - before
        good = result.ok and result.counted == 1 == counted
        self.add("motor pulse", OK if good else FAIL,
                 f"ejected {count_of(result.counted, 'card')}, exit sensor counted {counted}, "
                 f"status {result.status}" + (f" ({result.fault})" if result.fault else ""))
        if result.fault:
            launcher.reset_fault()
        dark = list(result.dark_s)
        while result.ok and len(result.dark_s) == 1 and len(dark) < CALIBRATION_CARDS:
            result = launcher.deal(1)
            dark += result.dark_s if len(result.dark_s) == 1 else ()
        if result.fault:
            launcher.reset_fault()
        self.add("exit beam timing", *beam_timing(dark, launcher.config))

    def servo(self) -> None:
        launcher = self.hw.launcher
        angles = launcher.config.seat_angles
        if launcher.config.servo is None:
            self.add("aiming servo", SKIP, "not fitted")
            return
        wrong = []
        for seat in range(len(angles)):
            launcher.aim(seat)
            if self.twin is not None and self.twin.launcher_sim.aimed_seat() != seat:
                wrong.append(seat + 1)  # seats as the screen counts them, from 1
        self.add("aiming servo", FAIL if wrong else OK,
                 f"aimed at seats 1-{len(angles)}" +
                 (f"; points elsewhere for {wrong}" if wrong else
                  "" if self.twin is not None else " (watch it turn)"))

    def readers(self) -> None:
        tray = self.hw.tray
        if tray is None:
            self.add("tray", SKIP, "no [tray] section")
            return
        for _ in range(max(2, tray.config.seen_polls)):
            tray.scan()
        status = tray.get_status()
        for slot, reader in status["readers"].items():
            self.add(f"reader at {slot_label(slot)}", OK if reader["ok"] else FAIL,
                     f"firmware {reader.get('firmware')}" if reader["ok"] else str(reader["error"]))
        seen = {t: s for t, s in status["towers"].items() if s is not None}
        self.add("towers", OK if len(seen) == len(status["towers"]) else SKIP,
                 ", ".join(f"{t} at {slot_label(s)}" for t, s in seen.items())
                 or "none on the tray")

    def pad(self) -> None:
        pad = getattr(self.hw, "pad", None)
        if pad is None:
            self.add("card pad", SKIP, "no [pad] section")
            return
        pad.poll()  # opens the port, wakes the chip, asks its firmware, reads once
        status = pad.get_status()
        twin_pad = self.twin is not None and self.twin.pad_sim is not None
        where = "the twin's pad" if twin_pad else f"[pad] port = {pad.config.port!r}"
        if not status["ok"]:
            self.add("card pad", FAIL, f"{where}: {status['error']}")
            return
        on_pad = status["on_pad"]
        self.add("card pad", OK, f"{where}: firmware {status['firmware']}, "
                 f"{count_of(len(on_pad), 'tag')} on the pad; "
                 f"{count_of(status['cards'], 'card')} and "
                 f"{count_of(status['chips'], 'colour chip')} enrolled")

    def outputs(self) -> None:
        panel = self.hw.panel
        bad = []
        for seat in range(panel.config.seats):
            panel.light(seat, True)
            if self.twin is not None and not self.twin.seats_sim.led(seat):
                bad.append(seat + 1)
            panel.light(seat, False)
        panel.buzz("ok")
        self.add("seat LEDs", FAIL if bad else OK,
                 "lit one by one" + (f"; dark: {bad}" if bad else ""))
        self.add("buzzer", OK if panel.config.buzzer is not None else SKIP,
                 "beeped" if panel.config.buzzer is not None else "not fitted")

    def buttons(self) -> None:
        panel = self.hw.panel
        if self.twin is None and not self.interactive:
            self.add("buttons", SKIP, "need a person (no --yes)")
            return
        targets: list[tuple[str, Callable[[], object] | None, Any]] = [
            ("launcher button", self.twin.seats_sim.press_launcher if self.twin else None,
             lambda cb: panel.on_launcher_press(cb)),
        ]
        for seat in range(panel.config.seats):
            press = (lambda s=seat: self.twin.seats_sim.press_seat(s)) if self.twin else None
            targets.append((f"seat {seat + 1} button", press,
                            lambda cb, s=seat: panel.on_seat_press(
                                lambda pressed: cb() if pressed == s else None)))
        for name, press, subscribe in targets:
            pressed = threading.Event()
            unsubscribe = subscribe(pressed.set)
            try:
                if press is not None:
                    press()
                else:
                    self.say(f"press the {name} ({self.timeout:g} s)")
                got = pressed.wait(self.timeout)
            finally:
                unsubscribe()
            self.add(name, OK if got else FAIL, "pressed" if got else "no press seen")


def beam_timing(dark: list[float], config: Any) -> tuple[str, str]:
    """The exit beam's calibration from the dark times of single cards: what one card's
    pulse lasts, and whether `config.card_dark_s` says so."""
    if not dark:
        return FAIL, "no card darkened the exit beam: check the sensor and the hopper"
    card = statistics.median(dark)
    ms = f"{card * 1000:.1f} ms (median of {count_of(len(dark), 'card')}, " \
         f"{min(dark) * 1000:.1f}-{max(dark) * 1000:.1f})"
    setting = f"set [launcher] card_dark_s = {card:.4f}"
    if max(dark) > config.stuck_ratio * min(dark):
        return FAIL, (f"one card darkens the exit beam for {ms}: too uneven to tell stuck cards "
                      "from one; check the sensor's alignment and run selftest again")
    configured = config.card_dark_s
    if configured is None:
        return NOTE, (f"one card darkens the exit beam for {ms}: {setting} (unset, the "
                      "launcher learns it from its first cards)")
    if abs(card - configured) > CALIBRATION_TOLERANCE * configured:
        return FAIL, (f"one card darkens the exit beam for {ms}, but card_dark_s is "
                      f"{configured:g}: {setting}")
    return OK, f"one card darkens the exit beam for {ms}; card_dark_s is {configured:g}"


def slot_label(slot: object) -> str:
    """A tray slot as the screen counts it: config ``slot = 0`` is "seat 1"."""
    from hal.tray import NEUTRAL

    if slot == NEUTRAL:
        return "the neutral slot"
    return f"seat {int(slot) + 1}"  # type: ignore[call-overload]


def run(args: argparse.Namespace) -> int:
    from firmware.commands.config_cmd import load_or_refuse, use_configured_pins
    from firmware.controller.hardware import Hardware

    config = load_or_refuse(args.config)
    out = sys.stderr if args.json else sys.stdout
    twin = None
    test = Selftest(None, interactive=not args.yes, timeout=args.timeout,
                    say=lambda line: print(line, file=out))
    try:
        if config.sim.enabled:
            from firmware.sim.world import World
            from hal.tray import NEUTRAL

            table = config.table
            # virtual time: the exit beam's pulses are timed exactly, however busy the host
            twin = test.twin = World(table.edition, table.seats, config.sim.seed or 0,
                                     launcher=config.hardware["launcher"],
                                     panel=config.hardware["seats"], fast=True,
                                     tray=config.hardware.get("tray"),
                                     pad=config.hardware.get("pad"))
            for tower in twin.tray_sim.towers:  # the twin's towers stand on the neutral slot
                twin.tray_sim.place(tower, NEUTRAL)
            test.hw = twin.hardware()
            print("selftest on the simulated table ([sim] enabled)", file=out)
        else:
            use_configured_pins(config)
            test.hw = Hardware.from_config(config)
    except Exception as exc:  # noqa: BLE001 - a device that cannot be opened is a finding
        test.add("hardware", FAIL, f"cannot open the devices: {type(exc).__name__}: {exc}")
    if test.hw is not None:
        try:
            test.run()
        finally:
            test.hw.close()
    if twin is not None:
        twin.close()
    test.add("motor safety helper", *safe_pins_check(config.path, simulated=twin is not None))
    test.add(*voice_check(config))
    for name, outcome, detail in phones_check(config):
        test.add(name, outcome, detail)
    if config.mqtt is not None:
        test.add(*mqtt_check(config.mqtt))
    checks = test.checks
    failed = [c for c in checks if c.outcome == FAIL]
    if args.json:
        print(json.dumps({"ok": not failed, "simulated": twin is not None,
                          "checks": [c.__dict__ for c in checks]}))
    else:
        print(f"{len(checks) - len(failed)} of {len(checks)} checks passed or skipped; "
              f"{len(failed)} failed", file=out)
    return 1 if failed else 0


def phones_check(config: Any) -> list[tuple[str, str, str]]:
    """Can phones on the LAN reach the table? One "phones" line for each thing missing
    (a loopback host, no token, a unit whose IPAddressAllow has no LAN), else one ok;
    then what is known of the firewall (firmware.commands.lan.phone_problems)."""
    from firmware.commands.lan import phone_problems

    api = config.api
    *missing, firewall = phone_problems(api.host, api.port, api.token)
    found = [("phones", NOTE, line) for line in missing] or [
        ("phones", OK, f"the API listens on {api.host}:{api.port} with a token, and the "
                       "unit (if installed) lets the LAN in")]
    return [*found, ("firewall", NOTE, firewall)]


def safe_pins_check(config_path: Path, *, simulated: bool) -> tuple[str, str]:
    """Can unotable-safe-pins drive the motor pins low after a crash? Runs its --check
    (which tool, which commands; nothing is driven). Not needed on the simulated table."""
    helper = next((p for p in (SAFE_PINS, CHECKOUT_SAFE_PINS) if p.is_file()), None)
    if helper is None:
        outcome, detail = FAIL, f"{SAFE_PINS} is missing: run systemd/install.sh"
    else:
        try:
            done = subprocess.run([sys.executable, str(helper), "--check", str(config_path)],
                                  capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as exc:
            outcome, detail = FAIL, f"{helper} did not run: {exc}"
        else:
            lines = (done.stdout + done.stderr).splitlines()
            outcome = OK if done.returncode == 0 else FAIL
            detail = "; ".join(line.removeprefix("unotable-safe-pins: ") for line in lines)
    if simulated and outcome == FAIL:
        return SKIP, f"not needed on the simulated table, but on the Pi: {detail}"
    return outcome, detail


def voice_check(config: Any, *, speaker: Any = None, cards: Path | None = None,
                conf: Path | None = None) -> tuple[str, str, str]:
    """The voice line: (name, outcome, detail). With the desktop's sound server owning
    ALSA's default device, the `[voice] device` to set (firmware.commands.sound_check)."""
    from firmware.commands.sound_check import device_advice
    from firmware.voice import Espeak

    voice = config.voice
    if not voice.enabled:
        return "voice", SKIP, f"[voice] enabled = false in {config.path}"
    speaker = speaker or Espeak.from_config(voice, config.table.language)
    problem = speaker.problem()
    if problem:
        return "voice", FAIL, problem
    advice = device_advice(voice.device, config.path, cards=cards, conf=conf)
    if advice:
        return "voice", FAIL, advice
    where = f"[voice] device = {voice.device!r}" if voice.device else "the default sound device"
    return "voice", OK, f"espeak-ng speaks through {where}"


def mqtt_check(settings: Any) -> tuple[str, str, str]:
    """The broker of `[mqtt]`: one short connection (firmware.mqtt.probe), what went
    wrong in one line without the password."""
    import os

    from firmware.mqtt.link import where
    from firmware.mqtt.probe import probe

    problem = probe(settings, f"unotable-selftest-{os.getpid()}")
    if problem:
        return "mqtt", FAIL, f"cannot connect: {problem} (docs/homeassistant.md)"
    return "mqtt", OK, f"connected to {where(settings)}" + (
        f" as {settings.username}" if settings.username else "")
