"""Every numeric option of the config schema is a finite number within its documented
range: NaN passes every comparison, so `max_run_s = nan` used to switch the motor's bound
off. The options come from the parsers themselves (firmware.config_schema), not a list."""

import re
import tomllib
from pathlib import Path

import pytest

from firmware.commands.config_cmd import run_check
from firmware.config import check_config
from firmware.config_schema import schema, with_value
from hal.config import range_text

ROOT = Path(__file__).resolve().parents[2]
VALUES = ("nan", "inf", "-inf", "-1", "0", "1e400")
# What a type or range refusal says (hal.config.number_problem, uno_core.options.check_value);
# an accepted value may still break a rule between two options ("must be above ...").
RANGE_WORDS = re.compile(r"must be (a whole number|a number|a finite|at least|at most)"
                         r"|expected an integer|below the minimum|above the maximum")


@pytest.fixture(scope="module")
def every_option(tmp_path_factory):
    return schema(tmp_path_factory.mktemp("schema"))


def test_the_schema_holds_every_section_and_the_motor_bounds(every_option):
    keys = {option.key for _, option in every_option}
    assert {"launcher.max_run_s", "launcher.jam_timeout_s", "launcher.speed", "table.round_pause_s",
            "launcher.model.p_eject", "tray.readers[0].baudrate", "seats.hold_time",
            "api.port", "voice.speed", "table.options.target_score"} <= keys
    assert len(keys) >= 40
    unbounded = [o.key for _, o in every_option if o.minimum is None or o.maximum is None]
    assert unbounded == []


@pytest.mark.parametrize("literal", VALUES)
def test_every_numeric_option_refuses_what_is_out_of_its_range(every_option, tmp_path, literal):
    value = tomllib.loads(f"v = {literal}")["v"]
    path = tmp_path / "config.toml"
    wrong = []
    for text, option in every_option:
        path.write_text(with_value(text, option.key, literal))
        errors = check_config(path)
        named = [e for e in errors if e.key == option.key]
        if option.allows(value):
            if [e for e in named if RANGE_WORDS.search(e.message)]:
                wrong.append(f"{option.key} = {literal} is in range but refused: {named}")
        elif not [e for e in named if RANGE_WORDS.search(e.message) and "\n" not in e.message]:
            wrong.append(f"{option.key} = {literal} was not refused by name: {errors}")
    assert wrong == []


def test_nan_is_one_line_naming_the_key_and_its_range(tmp_path, capsys):
    text = (ROOT / "firmware" / "default_config.toml").read_text()
    path = tmp_path / "config.toml"
    path.write_text(with_value(text, "launcher.max_run_s", "nan"))
    assert run_check(type("Args", (), {"path": str(path), "config_path": None})()) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: launcher.max_run_s: must be a finite number (0.1 to 30), not nan"]


@pytest.mark.parametrize("literal", ["-1", "-0.5", "-inf", "nan", "3601"])
def test_round_pause_s_is_refused_below_zero_and_above_an_hour(tmp_path, literal):
    text = (ROOT / "firmware" / "default_config.toml").read_text()
    path = tmp_path / "config.toml"
    path.write_text(with_value(text, "table.round_pause_s", literal))
    assert [e.key for e in check_config(path)] == ["table.round_pause_s"]


def test_every_range_is_written_in_the_docs(every_option):
    """docs/operations.md has a row per option with the range the parser applies (a
    bound dropped from the code, `round_pause_s` without its minimum, fails here)."""
    docs = (ROOT / "docs" / "operations.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z_.\[\]0-9]+)` \| ([^|]+?) \|", docs, re.M))
    missing = []
    for _, option in every_option:
        key = re.sub(r"\[\d+\]", "[]", option.key)
        if rows.get(key) != range_text(option.minimum, option.maximum):
            missing.append(f"{key}: docs {rows.get(key)!r}, "
                           f"code {range_text(option.minimum, option.maximum)!r}")
    assert missing == []
