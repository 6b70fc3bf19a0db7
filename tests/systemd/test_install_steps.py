"""systemd/install-steps.sh, the machine-dependent steps of install.sh, run by sh with
stand-ins for udevadm, systemctl, raspi-config and usermod on PATH: what a chroot, an
image build and a Pi each get, what is skipped and said, and when a reboot is needed."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STEPS = ROOT / "systemd" / "install-steps.sh"
INSTALL = ROOT / "systemd" / "install.sh"


def tool(bin_dir: Path, name: str, script: str) -> None:
    """A stand-in `name` that logs its arguments to calls.log, then runs `script`."""
    path = bin_dir / name
    path.write_text(f'#!/bin/sh\necho "{name} $*" >> "{bin_dir}/calls.log"\n{script}\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def steps(tmp_path: Path, commands: str, tools: dict[str, str], **env: str):
    """Source the steps and run `commands`; (exit status, output, calls of the tools)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, script in tools.items():
        tool(bin_dir, name, script)
    environ = {"PATH": f"{bin_dir}:/usr/bin:/bin", "SYSTEMD_RUNTIME": str(tmp_path / "no-systemd"),
               "PREFIX": str(tmp_path / "opt"), "BIN_DIR": str(tmp_path / "usr-local-bin"),
               **env}
    done = subprocess.run(["sh", "-euc", f'. "{STEPS}"\n{commands}'], capture_output=True,
                          text=True, env=environ)
    log = bin_dir / "calls.log"
    calls = log.read_text().splitlines() if log.exists() else []
    return done.returncode, done.stdout + done.stderr, calls


def test_without_udevd_the_reload_is_skipped_and_said_and_the_script_goes_on(tmp_path):
    status, out, calls = steps(tmp_path, "reload_udev; echo went-on; summary",
                               {"udevadm": "echo 'Failed to send reload request' >&2; exit 1"})
    assert status == 0 and "went-on" in out
    assert calls == ["udevadm control --reload"]  # no trigger without udevd
    assert "skipped: udev reload (udevd is not running here)" in out
    assert "== skipped here:\n  - udev reload" in out


def test_with_udevd_the_rules_are_reloaded_and_triggered(tmp_path):
    status, out, calls = steps(tmp_path, "reload_udev; summary", {"udevadm": "exit 0"})
    assert status == 0 and calls == ["udevadm control --reload",
                                     "udevadm trigger --subsystem-match=tty --subsystem-match=gpio"]
    assert "skipped" not in out and "== no reboot needed" in out


def test_in_a_chroot_the_service_is_enabled_but_not_started(tmp_path):
    status, out, calls = steps(tmp_path, "enable_service; start_service; summary",
                               {"systemctl": "exit 0"})
    assert status == 0 and calls == ["systemctl enable unotable.service"]
    assert "skipped: starting unotable (systemd is not running here)" in out


def test_where_systemd_runs_the_unit_is_reloaded_enabled_and_started(tmp_path):
    (tmp_path / "systemd").mkdir()
    status, _, calls = steps(tmp_path, "enable_service; start_service", {"systemctl": "exit 0"},
                             SYSTEMD_RUNTIME=str(tmp_path / "systemd"))
    assert status == 0 and calls == ["systemctl daemon-reload", "systemctl enable unotable.service",
                                     "systemctl restart unotable.service"]


RASPI_CONFIG = """case "$2" in
  get_serial_hw) echo {hw} ;;
  get_serial_cons) echo {cons} ;;
esac"""


def test_the_uart_goes_on_and_the_serial_console_off_and_a_reboot_is_asked(tmp_path):
    status, out, calls = steps(tmp_path, "enable_uart; summary",
                               {"raspi-config": RASPI_CONFIG.format(hw=1, cons=0)})
    assert status == 0
    assert calls == ["raspi-config nonint get_serial_hw", "raspi-config nonint get_serial_cons",
                     "raspi-config nonint do_serial_hw 0", "raspi-config nonint do_serial_cons 1"]
    assert "== reboot needed (sudo reboot):" in out
    assert "the UART on GPIO 14/15 (/dev/serial0) is switched on" in out
    assert "the serial console on GPIO 14/15 is switched off" in out


def test_a_raspi_config_that_fails_skips_the_uart_in_one_line(tmp_path):
    failing = RASPI_CONFIG.format(hw=1, cons=0) + '\n[ "$2" != do_serial_hw ] || exit 1'
    status, out, _ = steps(tmp_path, "enable_uart; echo went-on; summary",
                           {"raspi-config": failing})
    assert status == 0 and "went-on" in out
    assert [line.strip() for line in out.splitlines() if "skipped: " in line] == [
        "skipped: the UART (raspi-config could not switch it on): sudo raspi-config, "
        "Interface Options, Serial Port"]


def test_a_uart_already_set_up_changes_nothing_and_needs_no_reboot(tmp_path):
    status, out, calls = steps(tmp_path, "enable_uart; summary",
                               {"raspi-config": RASPI_CONFIG.format(hw=0, cons=1)})
    assert status == 0 and not any(" do_" in c for c in calls)
    assert "== no reboot needed" in out


def test_without_raspi_config_the_uart_is_skipped_with_what_to_do(tmp_path):
    status, out, _ = steps(tmp_path, "enable_uart; summary", {}, PATH="/usr/bin:/bin")
    assert status == 0 and "skipped: the UART (no raspi-config: not Raspberry Pi OS)" in out
    assert "enable_uart=1" in out


def test_the_package_is_built_from_a_copy_and_the_checkout_stays_clean(tmp_path):
    src = tmp_path / "checkout"
    (src / "firmware").mkdir(parents=True)
    (src / "pyproject.toml").write_text("[project]\nname = 'unotable'\n")
    (src / ".git").mkdir()
    pip = tmp_path / "opt" / "venv" / "bin" / "pip"
    pip.parent.mkdir(parents=True)
    # a stand-in pip that builds in place, as pip does a local directory: an egg-info
    # appears in the directory it was given
    pip.write_text('#!/bin/sh\nfor a; do :; done\nd=${a%"[pi]"}\n'
                   f'echo "$d" > "{tmp_path}/built-in"\nls "$d" > "{tmp_path}/copied"\n'
                   'mkdir "$d/unotable.egg-info"\n')
    pip.chmod(0o755)
    status, out, _ = steps(tmp_path, f'install_package "{src}"', {})
    assert status == 0, out
    built = (tmp_path / "built-in").read_text().strip()
    assert built != str(src) and not Path(built).exists()  # a temporary copy, removed
    assert (tmp_path / "copied").read_text().split() == ["firmware", "pyproject.toml"]  # no .git
    assert sorted(p.name for p in src.iterdir()) == [".git", "firmware", "pyproject.toml"]


def test_the_command_is_linked_where_sudo_and_every_user_find_it(tmp_path):
    status, out, _ = steps(tmp_path, "link_command; link_command", {})
    link = tmp_path / "usr-local-bin" / "unotable"
    assert status == 0 and os.readlink(link) == str(tmp_path / "opt" / "venv" / "bin" / "unotable")
    # /usr/local/bin is on Debian's sudo secure_path and on every login PATH
    assert "/usr/local/bin" in (ROOT / "systemd" / "install-steps.sh").read_text()


ID = """case "$1" in
  -nG) echo "pi adm dialout gpio" ;;
  pi) exit 0 ;;
  *) exit 1 ;;
esac"""


def test_the_installing_user_joins_group_unotable_from_the_next_login(tmp_path):
    status, out, calls = steps(tmp_path, "add_to_config_group pi; summary",
                               {"id": ID, "usermod": "exit 0"})
    assert status == 0 and "usermod -a -G unotable pi" in calls
    assert "pi joined group unotable and reads /etc/unotable/config.toml without sudo" in out
    assert "== reboot needed" in out


def test_without_a_sudo_user_nobody_joins_and_the_summary_says_to_use_sudo(tmp_path):
    status, out, calls = steps(tmp_path, "add_to_config_group ''; summary", {"usermod": "exit 0"})
    assert status == 0 and calls == []
    assert "run the unotable commands with sudo" in out.split("== skipped here:")[1]


def test_install_sh_sources_the_steps_and_ends_with_the_summary():
    text = INSTALL.read_text()
    assert '. "$SRC/systemd/install-steps.sh"' in text
    assert text.rstrip().endswith("summary")
    assert "udevadm control --reload" not in text  # only through reload_udev
    for name in ("reload_udev", "enable_service", "start_service", "enable_uart",
                 "link_command", "add_to_config_group", "install_kiosk"):
        assert name in text


def test_install_sh_refuses_an_unknown_option_before_touching_anything(tmp_path):
    for args in (["--bogus"], ["--user"]):
        # stand-ins that would say so: nothing of the install may run
        status, out, calls = steps(tmp_path, f'sh "{INSTALL}" {" ".join(args)}',
                                   {name: "exit 0" for name in ("id", "useradd", "apt-get")})
        assert status == 2 and calls == [], out
        done = subprocess.run(["sh", str(INSTALL), *args], capture_output=True, text=True)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.splitlines()[-1].startswith("usage: sudo ")
        assert "[--kiosk] [--user NAME] [--no-uart]" in done.stderr
    done = subprocess.run(["sh", str(INSTALL), "--bogus"], capture_output=True, text=True)
    assert done.stderr.splitlines()[0] == "install.sh: unknown option --bogus"


def test_install_and_the_python_side_find_the_same_uart_on_every_board(tmp_path):
    from hal.board import gpio_uart

    for model in ("Raspberry Pi 5 Model B Rev 1.0", "Raspberry Pi Compute Module 5 Rev 1.0",
                  "Raspberry Pi 500 Rev 1.0", "Raspberry Pi 4 Model B Rev 1.5",
                  "Raspberry Pi 3 Model B Plus Rev 1.3", "Raspberry Pi Zero 2 W Rev 1.0", ""):
        path = tmp_path / "model"
        path.write_bytes(model.encode() + b"\0")
        _, out, _ = steps(tmp_path, "gpio_uart", {}, DT_MODEL=str(path))
        assert out.strip() == gpio_uart(path), model
        assert gpio_uart(path) == ("/dev/ttyAMA0" if "Pi 5" in model or "Pi 500" in model or
                                   "Module 5" in model else "/dev/serial0")
