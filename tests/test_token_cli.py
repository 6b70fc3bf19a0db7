"""`unotable token new`: a generated token, printed or written into the config's [api]."""

from __future__ import annotations

import os
import stat

import tomlkit

from firmware.cli import main
from firmware.config import check_config, token_problem

CONFIG = """\
# the table in the living room
[table]
seats = 4  # four players

[api]
host = "127.0.0.1"  # loopback for now
port = 8080
"""


def test_new_prints_a_fresh_token_that_config_check_accepts(capsys):
    assert main(["token", "new"]) == 0
    first = capsys.readouterr().out.strip()
    assert main(["token", "new"]) == 0
    second = capsys.readouterr().out.strip()
    assert first != second
    assert len(first) == 43 and token_problem(first) is None  # token_urlsafe(32)


def test_write_stores_the_token_and_keeps_the_rest_of_the_file(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    path.chmod(0o640)
    assert main(["token", "new", "--write", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    text = path.read_text()
    token = tomlkit.parse(text)["api"]["token"]
    assert token not in out and f"Wrote a new [api] token to {path}" in out
    assert "systemctl restart unotable" in out
    assert "# the table in the living room" in text and "# loopback for now" in text
    assert text.replace(f'token = "{token}"\n', "") == CONFIG
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert token_problem(token) is None


def test_write_replaces_a_weak_token_so_the_config_passes(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[api]\nhost = "0.0.0.0"\ntoken = "password12345678"\n')
    assert [e.key for e in check_config(path)] == ["api.token", "table", "launcher", "seats"]
    assert main(["token", "new", "--write", "--config", str(path)]) == 0
    assert "api.token" not in [e.key for e in check_config(path)]


def test_write_refuses_the_built_in_default(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("UNOTABLE_CONFIG", raising=False)
    monkeypatch.setattr("firmware.config.SYSTEM_PATH", tmp_path / "absent.toml")
    assert main(["token", "new", "--write"]) == 2
    assert "the built-in default is not edited" in capsys.readouterr().err


def test_write_to_a_file_that_is_not_toml_says_so_and_changes_nothing(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text("[api\n")
    assert main(["token", "new", "--write", "--config", str(path)]) == 1
    assert f"cannot read {path}" in capsys.readouterr().err
    assert path.read_text() == "[api\n"


def test_config_without_write_is_a_usage_error(tmp_path, capsys):
    assert main(["token", "new", "--config", str(tmp_path / "x.toml")]) == 2
    assert "--config only means something with --write" in capsys.readouterr().err
