"""systemd/unotable-safe-pins, the motor-off helper systemd runs after every stop: which
tool it picks, the exact commands per tool, its --check mode, the message when it cannot
run, and install.sh's guarantee that a tool exists."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HELPER = ROOT / "systemd" / "unotable-safe-pins"
INSTALL = ROOT / "systemd" / "install.sh"

CONFIG = """
[launcher]
motor_forward = 20
motor_backward = 21
exit_sensor = 5
[seats]
buttons = [4, 17]
[sim]
enabled = false
"""
NO_TOOL = ("neither pinctrl nor gpioset is installed, so the motor pins cannot be driven "
           "low: install Debian's gpiod (sudo apt-get install gpiod)")
GPIOD_V1 = "gpioset (libgpiod) v1.6.3\nCopyright (C) 2017-2018 Bartosz Golaszewski\n"
GPIOD_V2 = "gpioset (libgpiod) v2.1\nCopyright (C) 2017-2023 Bartosz Golaszewski\n"


class FakeTools:
    """A PATH holding only fake executables that log their arguments."""

    def __init__(self, tmp_path: Path) -> None:
        self.bin = tmp_path / "bin"
        self.bin.mkdir()
        self.log = tmp_path / "calls.log"
        self.config = tmp_path / "config.toml"
        self.config.write_text(CONFIG)

    def add(self, name: str, output: str = "", status: int = 0) -> None:
        script = self.bin / name
        script.write_text(f'#!/bin/sh\necho "{name} $*" >> "{self.log}"\n'
                          f'printf "%s" "{output}"\nexit {status}\n')
        script.chmod(0o755)

    def helper(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(HELPER), *args, str(self.config)],
                              capture_output=True, text=True, env={"PATH": str(self.bin)})

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []


@pytest.fixture
def tools(tmp_path):
    return FakeTools(tmp_path)


def test_pinctrl_is_preferred_and_drives_each_motor_pin_low(tools):
    tools.add("pinctrl")
    tools.add("gpioset", GPIOD_V1)
    done = tools.helper()
    assert done.returncode == 0, done.stderr
    assert tools.calls() == ["pinctrl set 20 op dl", "pinctrl set 21 op dl"]
    assert done.stdout.splitlines() == [
        "unotable-safe-pins: launcher.motor_forward (GPIO 20): low: pinctrl set 20 op dl",
        "unotable-safe-pins: launcher.motor_backward (GPIO 21): low: pinctrl set 21 op dl",
    ]


def test_gpioset_of_libgpiod_1_sets_the_line_on_the_chip_gpiofind_names(tools):
    tools.add("gpioset", GPIOD_V1)
    tools.add("gpiofind", "gpiochip4 ${1#GPIO}")  # as on a Pi 5 kernel with the RP1 chip 4
    assert tools.helper().returncode == 0
    assert tools.calls() == ["gpioset --version",
                             "gpiofind GPIO20", "gpioset gpiochip4 20=0",
                             "gpiofind GPIO21", "gpioset gpiochip4 21=0"]


def test_gpioset_of_libgpiod_1_without_gpiofind_uses_gpiochip0(tools):
    tools.add("gpioset", GPIOD_V1)
    assert tools.helper().returncode == 0
    assert tools.calls() == ["gpioset --version", "gpioset gpiochip0 20=0", "gpioset gpiochip0 21=0"]


def test_gpioset_of_libgpiod_2_names_the_line_and_exits_at_once(tools):
    # v2 holds the line until killed unless told "-t0"; lines are found by name on any chip
    tools.add("gpioset", GPIOD_V2)
    tools.add("gpiofind", "gpiochip0 20")  # not part of libgpiod 2; never asked
    done = tools.helper()
    assert done.returncode == 0, done.stderr
    assert tools.calls() == ["gpioset --version", "gpioset -t0 GPIO20=0", "gpioset -t0 GPIO21=0"]
    assert "launcher.motor_forward (GPIO 20): low: gpioset -t0 GPIO20=0" in done.stdout


def test_with_neither_tool_every_motor_pin_is_reported_failed(tools):
    done = tools.helper()
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"unotable-safe-pins: launcher.motor_forward (GPIO 20): FAILED: {NO_TOOL}",
        f"unotable-safe-pins: launcher.motor_backward (GPIO 21): FAILED: {NO_TOOL}",
    ]


def test_check_names_the_tool_and_the_commands_and_drives_nothing(tools):
    tools.add("pinctrl")
    done = tools.helper("--check")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"unotable-safe-pins: can run: uses pinctrl ({tools.bin}/pinctrl)",
        "unotable-safe-pins: launcher.motor_forward (GPIO 20): ok: would run pinctrl set 20 op dl",
        "unotable-safe-pins: launcher.motor_backward (GPIO 21): ok: would run pinctrl set 21 op dl",
    ]
    assert tools.calls() == []


def test_check_names_the_libgpiod_version(tools):
    tools.add("gpioset", GPIOD_V2)
    done = tools.helper("--check")
    assert done.stdout.splitlines()[0] == (
        f"unotable-safe-pins: can run: uses gpioset ({tools.bin}/gpioset, libgpiod 2.x)")
    assert tools.calls() == ["gpioset --version"]


def test_check_without_a_tool_fails_with_one_line_saying_what_to_install(tools):
    done = tools.helper("--check")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [f"unotable-safe-pins: cannot run: {NO_TOOL}"]
    assert done.stdout == ""


# -- install.sh: a tool always exists after installing -----------------------------------


def ensure_pin_tool(tools: FakeTools) -> subprocess.CompletedProcess[str]:
    """Run install.sh's ensure_pin_tool function alone, on the fake PATH."""
    function = re.search(r"^ensure_pin_tool\(\) \{\n.*?^\}\n", INSTALL.read_text(), re.M | re.S)
    assert function, "install.sh defines ensure_pin_tool"
    return subprocess.run(["/bin/sh", "-c", function.group(0) + "ensure_pin_tool"],
                          capture_output=True, text=True, env={"PATH": str(tools.bin)})


def test_install_runs_ensure_pin_tool_before_the_unit_is_enabled():
    text = INSTALL.read_text()
    assert text.index("\nensure_pin_tool || exit 1\n") < text.index("    enable_service\n")


def test_install_leaves_apt_alone_when_pinctrl_or_gpioset_exists(tools):
    tools.add("apt-get")
    tools.add("pinctrl")
    assert ensure_pin_tool(tools).returncode == 0
    (tools.bin / "pinctrl").unlink()
    tools.add("gpioset", GPIOD_V1)
    assert ensure_pin_tool(tools).returncode == 0
    assert tools.calls() == []


def test_install_installs_debians_gpiod_when_neither_exists(tools):
    # the fake apt-get "installs" gpioset the way the gpiod package would
    gpioset = tools.bin / "gpioset"
    tools.add("apt-get")
    script = tools.bin / "apt-get"
    script.write_text(script.read_text().replace(
        "exit 0", f"printf '#!/bin/sh\\n' > {gpioset}; /bin/chmod 755 {gpioset}; exit 0"))
    done = ensure_pin_tool(tools)
    assert done.returncode == 0, done.stderr
    assert tools.calls() == ["apt-get install -y -q gpiod"]
    assert os.access(gpioset, os.X_OK)


def test_install_stops_with_a_clear_message_when_gpiod_cannot_be_installed(tools):
    tools.add("apt-get", "E: Unable to locate package gpiod", 100)
    done = ensure_pin_tool(tools)
    assert done.returncode == 1
    assert tools.calls() == ["apt-get install -y -q gpiod", "apt-get update -q"]
    assert "could not install gpiod" in done.stderr and "motor" in done.stderr
