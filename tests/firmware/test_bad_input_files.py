"""Every command that reads a config or scenario file answers a bad one with one line
naming the file and what is wrong, never a traceback, and never waits: a FIFO, a
directory, a device, nesting 100,000 deep, a 5,000-digit integer. Exit 2 (`config
check`: its list of problems, exit 1; `enroll`: its own 1)."""

import os

import pytest

from firmware.cli import main

DEFAULT = "firmware/default_config.toml"


def deep_toml():
    return "[table]\nnames = " + "[" * 100_000 + "]" * 100_000 + "\n"


def deep_json():
    return '{"edition": "classic", "hands": ' + "[" * 100_000 + "]" * 100_000 + "}"


def long_int():
    return "[table]\nseats = " + "7" * 5000 + "\n"


def hex_int():  # TOML parses it; str() of the value refuses
    return "[table]\nseats = 0x" + "f" * 5000 + "\n"


def special(tmp_path, kind):
    if kind == "fifo":
        path = tmp_path / "config.toml"
        os.mkfifo(path)
        return str(path), "a FIFO (named pipe), not a regular file"
    if kind == "directory":
        path = tmp_path / "config.toml"
        path.mkdir()
        return str(path), "a directory, not a regular file"
    return "/dev/null", "a character device, not a regular file"


def one_line(capsys):
    out = capsys.readouterr()
    lines = [line for line in (out.out + out.err).splitlines() if line.strip()]
    assert "Traceback" not in out.out + out.err
    return lines


CONFIG_COMMANDS = [
    (["config", "check"], 1),
    (["run", "--config"], 2),
    (["selftest", "--yes", "--config"], 2),
]


@pytest.mark.timeout(30)  # a FIFO opened for reading would wait for a writer forever
@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
@pytest.mark.parametrize(("command", "code"), CONFIG_COMMANDS)
def test_a_config_path_that_is_no_regular_file(tmp_path, capsys, command, code, kind):
    path, said = special(tmp_path, kind)
    assert main([*command, path]) == code
    lines = one_line(capsys)
    assert lines[0].endswith(f"{path}: file: cannot read: it is {said}") or \
        f"{path}: file: cannot read: it is {said} (" in lines[0]


@pytest.mark.parametrize(("text", "said"), [
    (deep_toml(), "syntax: nested too deeply (more than 100 tables or lists"),
    (long_int(), "syntax: a number with more than 4300 digits"),
    (hex_int(), "table.seats: is an integer of about 6021 digits"),
])
@pytest.mark.parametrize(("command", "code"), CONFIG_COMMANDS)
def test_a_config_nested_too_deep_or_with_a_huge_integer(tmp_path, capsys, command, code,
                                                         text, said):
    path = tmp_path / "config.toml"
    path.write_text(text)
    assert main([*command, str(path)]) == code
    lines = one_line(capsys)
    assert f"{path}: {said}" in lines[0]
    assert len(lines) == (2 if code == 1 else 1)  # config check adds "1 problem in ..."


@pytest.mark.timeout(30)
@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
def test_a_scenario_path_that_is_no_regular_file(tmp_path, capsys, kind):
    path, said = special(tmp_path, kind)
    assert main(["scenario", path]) == 2
    assert one_line(capsys) == [f"unotable scenario: error: {path}: cannot read: it is {said}"]


@pytest.mark.parametrize(("name", "text", "said"), [
    ("deep.toml", "hands = " + "[" * 100_000 + "]" * 100_000, "TOML: nested too deeply"),
    ("deep.json", deep_json(), "JSON: nested too deeply"),
    ("nested.json", '{"options": ' + '{"a": ' * 150 + "1" + "}" * 151, "options: nested too deeply"),
    ("long.toml", "seats = " + "9" * 5000, "TOML: a number with more than 4300 digits"),
    ("long.json", '{"seats": ' + "9" * 5000 + "}", "JSON: a number with more than 4300 digits"),
    ("hex.toml", 'edition = "classic"\nturn = 0x' + "f" * 5000, "turn: is an integer of about"),
])
def test_a_scenario_nested_too_deep_or_with_a_huge_integer(tmp_path, capsys, name, text, said):
    path = tmp_path / name
    path.write_text(text)
    assert main(["scenario", str(path)]) == 2
    [line] = one_line(capsys)
    assert line.startswith(f"unotable scenario: error: {path}: {said}")


@pytest.mark.timeout(30)
@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_enroll_does_not_wait_on_a_config_that_is_a_fifo(tmp_path, capsys, kind):
    path, said = special(tmp_path, kind)
    assert main(["enroll", "--config", path, "--port", "sim"]) == 1
    assert one_line(capsys) == [f"unotable enroll: error: {path}: cannot read: it is {said}"]
