"""A config this user may not read (install.sh's is root:unotable 0640): `config check`,
`selftest` and `run` say who may read it and how to become one of them, and when the file
was only the default (/etc/unotable/config.toml exists), how to name another. The
permission is refused by a stand-in read: the tests may run as root, who reads anything."""

from __future__ import annotations

import grp
import pwd
from pathlib import Path

import pytest

from firmware import config as config_mod
from firmware.cli import main
from firmware.input_file import InputFileError


@pytest.fixture
def unreadable(tmp_path, monkeypatch):
    """/etc/unotable/config.toml as the `pi` user meets it before joining group unotable."""
    path = tmp_path / "etc" / "config.toml"
    path.parent.mkdir()
    path.write_text(config_mod.DEFAULT_PATH.read_text())
    path.chmod(0o640)
    real = config_mod.read_input_bytes

    def read_input_bytes(named: str | Path) -> bytes:
        if Path(named).parent == path.parent:  # as os.open refuses it to a non-member
            cause = PermissionError(13, "Permission denied", str(named))
            raise InputFileError("cannot read: Permission denied", cause)
        return real(named)

    monkeypatch.setattr(config_mod, "read_input_bytes", read_input_bytes)
    monkeypatch.setattr(config_mod, "SYSTEM_PATH", path)
    monkeypatch.delenv("UNOTABLE_CONFIG", raising=False)
    monkeypatch.setenv("USER", "pi")
    st = path.stat()
    return path, pwd.getpwuid(st.st_uid)[0], grp.getgrgid(st.st_gid)[0]


def test_config_check_says_who_may_read_it_and_how_to_join(unreadable, capsys):
    path, owner, group = unreadable
    assert main(["config", "check", str(path)]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line == (f"{path}: file: cannot read: Permission denied (it is {owner}:{group} 0640): "
                    f"run the command with sudo, or join group {group} "
                    f"(sudo usermod -a -G {group} pi, then log in again); {path} is the default "
                    "config because it exists: --config PATH or $UNOTABLE_CONFIG names another")


def test_selftest_from_the_checkout_names_the_default_it_picked(unreadable, capsys):
    path, _, group = unreadable
    assert main(["selftest", "--yes"]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"unotable selftest: error: {path}: file: cannot read: Permission denied")
    assert f"join group {group}" in line and "--config PATH" in line


def test_a_file_named_on_the_command_line_is_not_called_the_default(unreadable):
    path, _, group = unreadable
    mine = path.with_name("mine.toml")
    mine.write_text("")
    [error] = config_mod.check_config(mine)
    assert error.message.startswith("cannot read: Permission denied (it is ")
    assert f"join group {group}" in error.message and "default" not in error.message
    [error] = config_mod.check_config(path.parent.parent / "missing.toml")
    assert error.message == "cannot read: No such file or directory"  # no hint: not a permission
