"""`systemd/install.sh --lan`: the step runs `unotable lan` on the installed config with
the unit's drop-in directory, and a failure is said and summed up, not fatal."""

from __future__ import annotations

import subprocess

from tests.systemd.test_install_steps import INSTALL, steps


def stand_in_unotable(tmp_path, script: str) -> None:
    """$PREFIX/venv/bin/unotable that logs its arguments, then runs `script`."""
    venv = tmp_path / "opt" / "venv" / "bin"
    venv.mkdir(parents=True)
    path = venv / "unotable"
    path.write_text(f'#!/bin/sh\necho "unotable $*" >> "{tmp_path}/unotable.log"\n{script}\n')
    path.chmod(0o755)


def test_lan_runs_unotable_lan_on_the_config_and_the_units_drop_in_dir(tmp_path):
    stand_in_unotable(tmp_path, "echo 'unotable lan: phones on 192.168.1.0/24 reach the table'")
    status, out, _ = steps(tmp_path, "open_to_lan; summary", {},
                           CONFIG=str(tmp_path / "config.toml"),
                           DROPIN_DIR=str(tmp_path / "unotable.service.d"))
    assert status == 0
    assert (tmp_path / "unotable.log").read_text().splitlines() == [
        f"unotable lan --config {tmp_path}/config.toml --dropin-dir {tmp_path}/unotable.service.d"]
    assert "phones on 192.168.1.0/24 reach the table" in out and "skipped" not in out


def test_the_drop_in_dir_defaults_to_the_units(tmp_path):
    stand_in_unotable(tmp_path, "exit 0")
    status, _, _ = steps(tmp_path, "open_to_lan", {})
    assert status == 0
    assert (tmp_path / "unotable.log").read_text().split()[-1] == \
        "/etc/systemd/system/unotable.service.d"


def test_a_lan_step_that_fails_is_said_and_the_install_goes_on(tmp_path):
    stand_in_unotable(tmp_path, "echo 'unotable lan: error: found no private subnet' >&2; exit 1")
    status, out, _ = steps(tmp_path, "open_to_lan; echo went-on; summary", {})
    assert status == 0 and "went-on" in out
    assert "found no private subnet" in out
    assert "== skipped here:\n  - --lan: unotable lan did not finish" in out


def test_install_sh_knows_the_lan_option():
    done = subprocess.run(["sh", str(INSTALL), "--help"], capture_output=True, text=True)
    assert done.returncode == 2 and "[--lan]" in done.stderr
    text = INSTALL.read_text()
    assert "--lan) LAN=yes ;;" in text and 'if [ "$LAN" = yes ]; then' in text
    # after the unit is installed, before it is enabled and (re)started
    assert text.index("open_to_lan") > text.index('"$UNIT_DIR/unotable.service"')
    assert text.index("open_to_lan") < text.index('if [ "$FRESH_CONFIG" = yes ]; then\n    # Not')
