"""`unotable config check` lists every problem of a file in one run: fixing what it
listed leaves nothing it had hidden, and each problem is named by the key to change."""

from __future__ import annotations

import tomllib

import tomlkit

from firmware.cli import main
from firmware.config import DEFAULT_PATH, check_config

# one mistake per line, each in a place where an earlier check used to stop the section
MISTAKES = {
    ("table", "seats"): 11,
    ("table", "language"): "fr",
    ("api", "port"): 80,
    ("voice", "enabled"): 3,
    ("launcher", "servo"): 99,
    ("launcher", "max_run_s"): 99,
    ("launcher", "model", "name"): "bogus",
    ("launcher", "servo_max_pulse_ms"): 0.5,
    ("seats", "buttons"): [4, 17, 27],
    ("seats", "blink_s"): 0,
    ("tray", "towers", "U"): "zz",
    ("tray", "towers", "O"): "04A1B2C3D4E502",  # N's tag
    ("tray", "idle_poll_interval_s"): 0.01,
}


ABSENT = object()


def put(doc: dict, path: tuple[str, ...], value: object) -> None:
    for name in path[:-1]:
        doc = doc[name]
    if value is ABSENT:
        doc.pop(path[-1], None)
    else:
        doc[path[-1]] = value


def written(tmp_path, mistakes: dict) -> str:
    doc = tomlkit.parse(DEFAULT_PATH.read_text())
    for path, value in mistakes.items():
        put(doc, path, value)
    file = tmp_path / "config.toml"
    file.write_text(tomlkit.dumps(doc))
    return str(file)


def test_one_run_names_every_mistake_and_nothing_is_left_behind_them(tmp_path):
    path = written(tmp_path, MISTAKES)
    keys = {error.key for error in check_config(path)}
    # every mistake is named by its own key (seats.buttons, not the leds it is compared with)
    assert keys == {".".join(p) for p in MISTAKES}
    # put back the default at every key named: the file is then clean, with no new problem
    default = tomllib.loads(DEFAULT_PATH.read_text())
    fixed = {}
    for key in keys:
        value = default
        for name in key.split("."):
            value = value.get(name, ABSENT) if isinstance(value, dict) else ABSENT
        fixed[tuple(key.split("."))] = value
    assert check_config(written(tmp_path, fixed)) == []


def test_a_servo_out_of_range_is_named_as_itself_not_as_a_missing_servo(tmp_path):
    errors = check_config(written(tmp_path, {("launcher", "servo"): 99}))
    assert [(e.key, e.message) for e in errors] == [
        ("launcher.servo", "must be a BCM GPIO number 0-27, not 99")]


def test_a_short_buttons_list_is_named_by_buttons(tmp_path):
    errors = check_config(written(tmp_path, {("seats", "buttons"): [4, 17, 27]}))
    assert [e.key for e in errors] == ["seats.buttons"]
    assert "seats.leds lists 4" in errors[0].message


def test_config_check_takes_config_like_the_other_commands(tmp_path, capsys):
    path = written(tmp_path, {("api", "port"): 80})
    assert main(["config", "check", "--config", path]) == 1
    by_option = capsys.readouterr().out
    assert main(["config", "check", path]) == 1
    assert capsys.readouterr().out == by_option == f"{path}: api.port: must be at least 1024, not 80\n"
    # two different files is a mistake of the command line, not a choice between them
    assert main(["config", "check", path, "--config", str(DEFAULT_PATH)]) == 2
