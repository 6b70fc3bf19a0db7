"""systemd/install.sh run whole, as root would on a Pi, with stand-ins for what changes
the machine (useradd, chown, systemctl, udevadm, raspi-config, apt, the venv's pip) and
every path it writes under a temporary root: Raspberry Pi OS Lite, the desktop, a
chroot, a Pi 5, and a required step that fails and is run again."""

from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"

# python3 -m venv DIR makes a venv whose pip and unotable are stand-ins too; pip fails
# while $FAIL_PIP names a file that exists.
PYTHON3 = """if [ "$1" = -m ] && [ "$2" = venv ]; then
  mkdir -p "$3/bin"
  printf '#!/bin/sh\\necho "pip $*" >> "%s"\\n[ ! -e "%s" ] || { echo "ERROR: no network" >&2; exit 1; }\\n' \\
    "$CALLS" "$FAIL_PIP" > "$3/bin/pip"
  printf '#!/bin/sh\\necho "unotable $*" >> "%s"\\n' "$CALLS" > "$3/bin/unotable"
  printf '#!/bin/sh\\n' > "$3/bin/python"
  chmod +x "$3/bin/pip" "$3/bin/unotable" "$3/bin/python"
fi"""
ID = """case "$1" in
  -u) echo 0 ;;
  -nG) echo "pi adm" ;;
  -gn) echo pi ;;
  pi|unotable) exit 0 ;;
  *) exit 1 ;;
esac"""
GETENT = 'case "$1" in passwd) echo "pi:x:1000:1000::$PI_HOME:/bin/bash" ;; esac'
RASPI_CONFIG = """case "$2" in
  get_serial_hw) echo 1 ;;
  get_serial_cons) echo 0 ;;
  do_boot_behaviour) [ -n "$AUTOLOGIN_WORKS" ] || { echo 'whiptail: no lightdm' >&2; exit 1; } ;;
esac"""
APT_CACHE = 'echo "$1 $2:"; [ "$2" = "$CHROMIUM" ] && echo "  Candidate: 1.0" || ' \
    'echo "  Candidate: (none)"'
TOOLS = {"id": ID, "getent": GETENT, "groupadd": "", "useradd": "", "usermod": "", "chown": "",
         "python3": PYTHON3, "apt-get": "", "apt-cache": APT_CACHE, "pinctrl": "",
         "systemctl": "", "udevadm": "exit 1", "raspi-config": RASPI_CONFIG,
         "espeak-ng": "", "aplay": ""}
PI4_CARDS = " 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n" \
    "                      bcm2835 Headphones\n 1 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n"
# The system's own tools install.sh uses; nothing else of the host (its Chromium, its
# raspi-config or gpioset) is on the PATH the script sees.
SYSTEM_TOOLS = ("sh", "sed", "tar", "mktemp", "install", "ln", "grep", "tr", "dirname", "cut",
                "cat", "rm", "mv", "chmod", "mkdir", "printf", "env")
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
PI4 = "Raspberry Pi 4 Model B Rev 1.5"


def install(tmp_path: Path, *args: str, tools: dict[str, str] | None = None,
            model: str = PI4, **env: str) -> tuple[int, str, list[str]]:
    """Run install.sh with `args`; (exit status, everything it said, calls of the tools)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    system = tmp_path / "system-bin"
    if not system.exists():
        system.mkdir()
        for name in SYSTEM_TOOLS:
            (system / name).symlink_to(shutil.which(name))
    calls = tmp_path / "calls.log"
    for name, script in (TOOLS if tools is None else tools).items():
        path = bin_dir / name
        path.write_text(f'#!/bin/sh\necho "{name} $*" >> "{calls}"\n{script}\n')
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "home" / "pi").mkdir(parents=True, exist_ok=True)
    (tmp_path / "model").write_bytes(model.encode() + b"\0")
    if not (tmp_path / "cards").exists():
        (tmp_path / "cards").write_text(PI4_CARDS)
    (tmp_path / "alsa-conf.d").mkdir(exist_ok=True)
    root = tmp_path / "root"
    environ = {"PATH": f"{bin_dir}:{system}", "CALLS": str(calls),
               "FAIL_PIP": str(tmp_path / "pip-fails"), "PI_HOME": str(tmp_path / "home" / "pi"),
               "CHROMIUM": "chromium", "DT_MODEL": str(tmp_path / "model"),
               "PREFIX": f"{root}/opt/unotable", "CONFIG": f"{root}/etc/unotable/config.toml",
               "BIN_DIR": f"{root}/usr/local/bin", "UNIT_DIR": f"{root}/etc/systemd/system",
               "RULES_DIR": f"{root}/etc/udev/rules.d", "ALSA_CARDS": str(tmp_path / "cards"),
               "ALSA_CONF": str(tmp_path / "alsa-conf.d"),
               "DROPIN_DIR": f"{root}/etc/systemd/system/unotable.service.d",
               "SYSTEMD_RUNTIME": str(tmp_path / "no-systemd"), **env}
    done = subprocess.run(["sh", str(INSTALL), *args], capture_output=True, text=True,
                          env=environ, timeout=120)
    said = calls.read_text().splitlines() if calls.exists() else []
    return done.returncode, done.stdout + done.stderr, said


def installed(tmp_path: Path) -> list[str]:
    root = tmp_path / "root"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir())


EVERYTHING = ["etc/systemd/system/unotable.service", "etc/udev/rules.d/99-unotable.rules",
              "etc/unotable/config.toml", "opt/unotable/bin/unotable-kiosk",
              "opt/unotable/bin/unotable-safe-pins", "opt/unotable/venv/bin/pip",
              "opt/unotable/venv/bin/python", "opt/unotable/venv/bin/unotable",
              "usr/local/bin/unotable"]


def skipped_lines(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if line.strip().startswith("skipped: ")]


def test_on_lite_without_a_desktop_the_kiosk_is_skipped_in_one_line_and_the_rest_installs(
        tmp_path):
    status, out, calls = install(tmp_path, "--kiosk", "--user", "pi")
    assert status == 0, out
    assert [line for line in skipped_lines(out) if "kiosk" in line] == [
        "skipped: --kiosk: no desktop here (no lightdm, gdm3 or sddm: Raspberry Pi OS Lite?): "
        "install one, then run install.sh --kiosk again"]
    assert not any("do_boot_behaviour" in c for c in calls)  # never opens raspi-config's box
    assert [f for f in installed(tmp_path) if "kiosk" not in f] == \
        [f for f in EVERYTHING if "kiosk" not in f]
    assert "== skipped here:" in out and "== reboot needed (sudo reboot):" in out  # the UART


def test_when_raspi_config_cannot_set_autologin_that_alone_is_skipped(tmp_path):
    tools = {**TOOLS, "lightdm": ""}
    status, out, _ = install(tmp_path, "--kiosk", "--user", "pi", tools=tools)
    assert status == 0, out
    assert [line for line in skipped_lines(out) if "kiosk" in line] == [
        "skipped: --kiosk autologin (raspi-config could not set it): sudo raspi-config, "
        "System Options, Boot / Auto Login, Desktop Autologin"]
    assert "whiptail" not in out
    assert installed(tmp_path) == EVERYTHING


def test_on_the_desktop_the_kiosk_is_set_up_and_a_reboot_asked(tmp_path):
    tools = {**TOOLS, "lightdm": "", "chromium-browser": ""}
    status, out, calls = install(tmp_path, "--kiosk", "--user", "pi", tools=tools,
                                 AUTOLOGIN_WORKS="yes")
    assert status == 0, out
    assert "raspi-config nonint do_boot_behaviour B4" in calls
    assert not [line for line in skipped_lines(out) if "kiosk" in line or "Chromium" in line]
    assert "the desktop logs pi in at boot and opens the table's page full screen" in out
    entry = tmp_path / "home" / "pi" / ".config" / "autostart" / "unotable-kiosk.desktop"
    assert f"Exec={tmp_path}/root/opt/unotable/bin/unotable-kiosk" in entry.read_text()
    assert installed(tmp_path) == EVERYTHING


@pytest.mark.parametrize("package", ["chromium", "chromium-browser"])
def test_the_kiosk_names_the_chromium_package_this_system_has(tmp_path, package):
    tools = {**TOOLS, "lightdm": ""}
    status, out, _ = install(tmp_path, "--kiosk", "--user", "pi", tools=tools,
                             AUTOLOGIN_WORKS="yes", CHROMIUM=package)
    assert status == 0, out
    assert f"skipped: Chromium is not installed: sudo apt-get install {package}" in out


def test_in_a_chroot_without_raspi_config_every_optional_step_is_one_skipped_line(tmp_path):
    tools = {k: v for k, v in TOOLS.items() if k != "raspi-config"}
    status, out, calls = install(tmp_path, "--kiosk", "--user", "pi", "--lan", tools=tools)
    assert status == 0, out
    steps = [line.split(":")[1].strip() for line in skipped_lines(out)]
    assert steps == ["the UART (no raspi-config", "--kiosk", "udev reload (udevd is not running here)"]
    assert "systemctl enable unotable.service" not in calls  # a fresh config: off until set
    assert out.rstrip().splitlines()[-2:] == [
        "== reboot needed (sudo reboot):", f"  - pi joined group unotable and reads {tmp_path}"
        "/root/etc/unotable/config.toml without sudo from the next login"]


def test_a_failed_required_step_is_named_and_a_second_run_finishes(tmp_path):
    (tmp_path / "pip-fails").touch()
    status, out, _ = install(tmp_path, "--user", "pi")
    assert status == 1
    assert out.rstrip().splitlines()[-1] == (
        f'install.sh: stopped at the step "package into {tmp_path}/root/opt/unotable/venv" '
        "(exit status 1; the reason is above). Fix that and run install.sh again: a second run "
        "is safe, it keeps what is done.")
    assert "ERROR: no network" in out
    (tmp_path / "pip-fails").unlink()
    status, out, _ = install(tmp_path, "--user", "pi")
    assert status == 0, out
    assert "stopped at" not in out
    assert out.rstrip().splitlines()[-2:] == ["  - the UART on GPIO 14/15 (/dev/serial0) is "
                                              "switched on", "  - the serial console on GPIO "
                                              "14/15 is switched off"]


def test_on_a_pi_5_the_uart_on_gpio_14_15_is_ttyama0_and_the_config_names_it(tmp_path):
    status, out, _ = install(tmp_path, "--user", "pi", model=PI5)
    assert status == 0, out
    assert f"the reader's UART on GPIO 14/15 is /dev/ttyAMA0 ({PI5})" in out
    assert "the UART on GPIO 14/15 (/dev/ttyAMA0) is switched on" in out
    config = (tmp_path / "root" / "etc" / "unotable" / "config.toml").read_text()
    assert 'port = "/dev/ttyAMA0"' in config and "/dev/serial0" not in config
    assert "enabled = false" in config  # the simulation is off in the config it writes


def test_on_a_pi_4_the_uart_stays_serial0(tmp_path):
    status, out, _ = install(tmp_path, "--user", "pi", model=PI4)
    assert status == 0, out
    assert f"the reader's UART on GPIO 14/15 is /dev/serial0 ({PI4})" in out
    config = (tmp_path / "root" / "etc" / "unotable" / "config.toml").read_text()
    assert 'port = "/dev/serial0"' in config


def test_an_existing_config_on_serial0_is_told_the_pi_5s_port(tmp_path):
    config = tmp_path / "root" / "etc" / "unotable" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[[tray.readers]]\nslot = "neutral"\nport = "/dev/serial0"\n')
    status, out, _ = install(tmp_path, "--user", "pi", model=PI5)
    assert status == 0, out
    assert (f"note: {config} names /dev/serial0, which on this {PI5} is the debug connector: "
            'set the neutral reader\'s port = "/dev/ttyAMA0"') in out
    assert 'port = "/dev/serial0"' in config.read_text()  # the owner's file is left as it is


def test_with_the_desktops_pipewire_the_voice_device_to_set_is_one_line(tmp_path):
    (tmp_path / "alsa-conf.d").mkdir()
    (tmp_path / "alsa-conf.d" / "99-pipewire-default.conf").write_text("pcm.!default pipewire\n")
    status, out, _ = install(tmp_path, "--user", "pi", tools={**TOOLS, "lightdm": ""})
    assert status == 0, out
    assert [line for line in skipped_lines(out) if "voice" in line] == [
        "skipped: the voice's sound device: PipeWire serves the desktop user only; set [voice] "
        f'device = "plughw:CARD=..." in {tmp_path}/root/etc/unotable/config.toml (cards here: '
        "Headphones vc4hdmi0; unotable selftest names one)"]
    assert installed(tmp_path) == [f for f in EVERYTHING if "kiosk" not in f]


def test_without_a_sound_card_or_espeak_the_voice_is_one_skipped_line(tmp_path):
    (tmp_path / "cards").write_text("--- no soundcards ---\n")
    status, out, _ = install(tmp_path, "--user", "pi")
    assert status == 0, out
    assert [line for line in skipped_lines(out) if "voice" in line] == [
        "skipped: the voice's sound device: " f"{tmp_path}/cards lists no sound card"]
    tools = {k: v for k, v in TOOLS.items() if k != "espeak-ng"} | {"apt-get": "exit 100"}
    (tmp_path / "no-espeak").mkdir()
    status, out, _ = install(tmp_path / "no-espeak", "--user", "pi", tools=tools)
    assert status == 0, out
    assert [line for line in skipped_lines(out) if "voice" in line] == [
        "skipped: the voice (espeak-ng or aplay missing, apt-get could not install them): "
        "sudo apt-get install espeak-ng alsa-utils"]


def test_a_voice_that_reaches_a_card_is_said_and_not_skipped(tmp_path):
    status, out, _ = install(tmp_path, "--user", "pi")
    assert status == 0, out
    assert "   the voice can reach a sound card (Headphones vc4hdmi0)" in out.splitlines()
    assert not [line for line in skipped_lines(out) if "voice" in line]


def test_install_and_selftest_know_the_same_sound_servers():
    from firmware.commands.sound_check import SERVER_DEFAULTS

    steps = (ROOT / "systemd" / "install-steps.sh").read_text()
    for file, server in SERVER_DEFAULTS.items():
        assert f'"$ALSA_CONF/{file}" ] || server={server}' in steps
