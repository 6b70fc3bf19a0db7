"""systemd/: the unit's settings and hardening score, the motor safety helper, udev, install."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from firmware.config import DEFAULT_PATH, load_config

ROOT = Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "systemd"
UNIT = SYSTEMD / "unotable.service"
HELPER = SYSTEMD / "unotable-safe-pins"
INSTALL = SYSTEMD / "install.sh"


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def test_unit_runs_a_notify_service_as_an_unprivileged_user():
    s = unit_settings()
    assert s["Type"] == ["notify"] and s["NotifyAccess"] == ["main"]
    assert re.fullmatch(r"\d+s", s["WatchdogSec"][0])
    assert s["User"] == ["unotable"]
    assert set(s["SupplementaryGroups"][0].split()) == {"gpio", "dialout", "audio"}
    assert s["StateDirectory"] == ["unotable"]
    # the only writable place under ProtectSystem=strict; lgpio needs a writable cwd
    assert s["WorkingDirectory"] == ["%S/unotable"] and "LG_WD=%S/unotable" in s["Environment"]
    assert "ProcSubset" not in s  # gpiozero reads /proc/device-tree and /proc/cpuinfo
    assert s["ExecStart"] == ["/opt/unotable/venv/bin/unotable run --config /etc/unotable/config.toml"]
    assert s["Restart"] == ["on-failure"]


def test_unit_reaches_only_gpio_and_serial_devices():
    s = unit_settings()
    assert s["DevicePolicy"] == ["closed"]
    allowed = {entry.split()[0] for entry in s["DeviceAllow"]}
    assert "char-gpiochip" in allowed
    assert {"char-ttyUSB", "char-ttyACM", "char-ttyAMA"} <= allowed
    assert all(entry.endswith(" rw") for entry in s["DeviceAllow"])
    assert "PrivateDevices" not in s  # it would hide /dev/gpiochip* and the serial ports


def test_unit_lets_the_voice_play_through_the_sound_cards():
    s = unit_settings()
    assert "char-alsa rw" in s["DeviceAllow"]  # /dev/snd/* under DevicePolicy=closed
    assert "audio" in s["SupplementaryGroups"][0].split()  # /dev/snd/* is root:audio 0660
    text = INSTALL.read_text()
    assert "usermod -a -G gpio,dialout,audio unotable" in text
    assert "for group in gpio dialout audio" in text


def test_unit_bounds_files_memory_and_tasks():
    from firmware.api.connections import ACCEPT_BURST, RESERVED_FILES
    from firmware.api.server import MAX_CONNECTIONS

    s = unit_settings()
    files = int(s["LimitNOFILE"][0])
    # the API's cap and one burst of accepts fit below it: a flood never meets EMFILE
    assert files >= MAX_CONNECTIONS + ACCEPT_BURST + RESERVED_FILES
    memory = re.fullmatch(r"(\d+)M", s["MemoryMax"][0])
    assert memory and 128 <= int(memory.group(1)) <= 512  # RSS ~60 MB; room for a flood
    assert 32 <= int(s["TasksMax"][0]) <= 256


def test_unit_drives_the_motor_pins_low_after_every_stop():
    [post] = unit_settings()["ExecStopPost"]
    assert post.startswith("+")  # full privileges: works even if device access broke
    helper = post.split()[1]
    assert helper == "/opt/unotable/bin/unotable-safe-pins"
    assert '"$PREFIX/bin/unotable-safe-pins"' in INSTALL.read_text()


HARDENING = {
    "NoNewPrivileges": "yes", "CapabilityBoundingSet": "", "ProtectSystem": "strict",
    "ProtectHome": "yes", "PrivateTmp": "yes", "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes", "ProtectControlGroups": "yes", "RestrictNamespaces": "yes",
    "MemoryDenyWriteExecute": "yes", "SystemCallArchitectures": "native",
    "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6", "IPAddressDeny": "any",
}


def test_hardening_exposure_is_at_most_2():
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        # No systemd on this machine: check the settings the score is made of instead.
        s = unit_settings()
        assert {k: s.get(k, [None])[0] for k in HARDENING} == HARDENING
        return
    proc = subprocess.run(
        [analyze, "security", "--offline=yes", "--no-pager", str(UNIT)],
        capture_output=True, text=True, cwd=SYSTEMD,
    )
    match = re.search(r"Overall exposure level for unotable\.service: (\d+\.\d+)", proc.stdout)
    assert match, proc.stdout + proc.stderr
    assert float(match.group(1)) <= 2.0, proc.stdout


# -- the motor safety helper (ExecStopPost) ------------------------------------------


def fake_tool(bin_dir: Path, name: str, log: Path, output: str = "", status: int = 0) -> None:
    script = bin_dir / name
    script.write_text(
        f'#!/bin/sh\necho "{name} $*" >> "{log}"\nprintf "%s" "{output}"\nexit {status}\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)


def run_helper(tmp_path: Path, config: str, tools: dict[str, tuple[str, int]]):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "calls.log"
    for name, (output, status) in tools.items():
        fake_tool(bin_dir, name, log, output, status)
    cfg = tmp_path / "config.toml"
    cfg.write_text(config)
    env = {**os.environ, "PATH": str(bin_dir)}
    proc = subprocess.run([sys.executable, str(HELPER), str(cfg)], capture_output=True, text=True, env=env)
    calls = log.read_text().splitlines() if log.exists() else []
    return proc, calls


MOTOR_CONFIG = """
[launcher]
motor_pin = 17
exit_sensor = 22
[launcher.motor]
enable = 18
[seats]
buttons = [5, 6]
"""


def test_helper_drives_every_motor_pin_low_with_pinctrl(tmp_path):
    proc, calls = run_helper(tmp_path, MOTOR_CONFIG, {"pinctrl": ("", 0), "gpioset": ("", 0)})
    assert proc.returncode == 0, proc.stderr
    assert calls == ["pinctrl set 17 op dl", "pinctrl set 18 op dl"]  # not the sensor, not buttons
    assert "launcher.motor_pin (GPIO 17): low" in proc.stdout


def test_helper_stops_exactly_the_launcher_motor_of_the_shipped_config(tmp_path):
    text = DEFAULT_PATH.read_text().replace("enabled = true", "enabled = false")
    proc, calls = run_helper(tmp_path, text, {"pinctrl": ("", 0)})
    motor = load_config(DEFAULT_PATH).hardware["launcher"]
    expected = sorted(p for p in (motor.motor_forward, motor.motor_backward, motor.motor_enable) if p is not None)
    assert proc.returncode == 0, proc.stderr
    assert calls == [f"pinctrl set {pin} op dl" for pin in expected]


def test_helper_falls_back_to_gpioset_on_the_chip_gpiofind_names(tmp_path):
    proc, calls = run_helper(
        tmp_path, MOTOR_CONFIG, {"gpioset": ("", 0), "gpiofind": ("gpiochip4 17", 0)}
    )
    assert proc.returncode == 0, proc.stderr
    assert "gpioset gpiochip4 17=0" in calls


def test_helper_fails_loudly_when_it_cannot_stop_the_motor(tmp_path):
    proc, _ = run_helper(tmp_path, MOTOR_CONFIG, {})
    assert proc.returncode == 1
    assert "neither pinctrl nor gpioset" in proc.stderr
    proc, _ = run_helper(tmp_path, MOTOR_CONFIG, {"pinctrl": ("no access", 3)})
    assert proc.returncode == 1 and "FAILED" in proc.stderr and "no access" in proc.stderr


def test_helper_reads_pins_even_from_a_config_the_daemon_rejects(tmp_path):
    proc, calls = run_helper(tmp_path, "[launcher]\nmotor_pin = 17\nbogus = 1\n", {"pinctrl": ("", 0)})
    assert proc.returncode == 0 and calls == ["pinctrl set 17 op dl"]


def test_helper_leaves_a_simulated_table_alone(tmp_path):
    proc, calls = run_helper(tmp_path, "[sim]\nenabled = true\n" + MOTOR_CONFIG, {"pinctrl": ("", 0)})
    assert proc.returncode == 0 and calls == []


def test_helper_reports_an_unreadable_config(tmp_path):
    proc, calls = run_helper(tmp_path, "[launcher\n", {"pinctrl": ("", 0)})
    assert proc.returncode == 1 and "cannot read" in proc.stderr and calls == []


# -- udev rules and install helper ----------------------------------------------------


def test_install_script_is_valid_shell_and_installs_every_file_the_unit_needs():
    assert subprocess.run(["sh", "-n", str(INSTALL)]).returncode == 0
    text = INSTALL.read_text()
    for name in ("unotable.service", "99-unotable.rules", "unotable-safe-pins"):
        assert f"$SRC/systemd/{name}" in text
        assert (SYSTEMD / name).is_file()
    assert os.access(INSTALL, os.X_OK) and os.access(HELPER, os.X_OK)
