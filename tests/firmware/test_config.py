"""Config validation: every bad key is named, all problems are reported at once."""

from __future__ import annotations

import sys
import textwrap
import tomllib
import types
from dataclasses import dataclass

import pytest
import tomlkit

from firmware import config as config_mod
from firmware.cli import main
from firmware.config import DEFAULT_PATH, check_config, load_config, serial_port_problem
from firmware.errors import ConfigError
from hal.config import Section

DEFAULT = tomllib.loads(DEFAULT_PATH.read_text())


def write(tmp_path, text: str):
    """The built-in default (a runnable, simulated table) with each top-level key of
    `text` put in place of the default's; text that is not TOML is written as it is."""
    text = textwrap.dedent(text)
    try:
        doc = {**DEFAULT, **tomllib.loads(text)}
    except tomllib.TOMLDecodeError:
        doc = None
    path = tmp_path / "config.toml"
    path.write_text(text if doc is None else tomlkit.dumps(doc))
    return path


def refused(tmp_path, text: str, key: str) -> ConfigError:
    """`write(tmp_path, text)` does not load, and `check_config` lists `key` alone: the
    error `load_config` raised."""
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert [e.key for e in check_config(path)] == [key]
    return info.value


def write_exactly(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(textwrap.dedent(text))
    return path


def test_built_in_default_describes_the_simulated_table():
    cfg = load_config(DEFAULT_PATH)
    assert cfg.sim.enabled
    assert cfg.table.seats == len(cfg.table.names)
    assert cfg.table.tower_confirm == "wait"
    assert (cfg.api.host, cfg.api.loopback, cfg.api.token) == ("127.0.0.1", True, None)
    assert len(cfg.digest) == 64


def test_built_in_default_wires_the_hardware_through_the_hal_parsers():
    from hal.launcher import LauncherConfig
    from hal.seats import SeatsConfig
    from hal.tray import TrayConfig

    cfg = load_config(DEFAULT_PATH)
    assert (type(cfg.hardware["launcher"]), type(cfg.hardware["seats"]), type(cfg.hardware["tray"])) == (
        LauncherConfig, SeatsConfig, TrayConfig,
    )
    pins = cfg.pins()
    assert len(set(pins.values())) == len(pins)  # no pin twice
    assert cfg.hardware["seats"].seats == cfg.table.seats
    assert {r.port for r in cfg.hardware["tray"].readers} >= {"/dev/unotable-reader-1", "/dev/serial0"}


HARDWARE = DEFAULT_PATH.read_text().split("# ---- the daemon ----")[0]


def test_a_pin_shared_between_hal_sections_names_both_keys(tmp_path):
    text = HARDWARE.replace("motor_forward = 20", "motor_forward = 17")  # seats.buttons[1]
    [error] = check_config(write(tmp_path, text))
    assert (error.key, error.message) == ("seats.buttons[1]", "GPIO 17 is already used by launcher.motor_forward")


def test_the_table_cannot_seat_more_players_than_the_hardware_serves(tmp_path):
    text = HARDWARE.replace("seats = 4 ", "seats = 5 ").replace(
        'names = ["North", "East", "South", "West"]', 'names = ["A", "B", "C", "D", "E"]')
    errors = check_config(write(tmp_path, text))
    assert [(e.key, e.message) for e in errors] == [
        ("table.seats", "is 5 but [seats] wires buttons for 4"),
        ("launcher.seat_angles", "has 4 angles for 5 seats"),
    ]


def test_a_bad_reader_port_in_the_real_tray_section_is_named(tmp_path):
    text = HARDWARE.replace('"/dev/unotable-reader-3"', '"COM3"')
    [error] = check_config(write(tmp_path, text))
    assert error.key == "tray.readers[2].port" and "device path" in error.message


def test_hal_errors_come_with_the_daemons_own(tmp_path):
    text = HARDWARE.replace("max_run_s = 4.0", "max_run_s = 400") + "[api]\nport = 1\n"
    assert [e.key for e in check_config(write(tmp_path, text))] == ["api.port", "launcher.max_run_s"]


def test_an_empty_file_names_every_missing_section(tmp_path, capsys):
    path = write_exactly(tmp_path, "")
    assert main(["config", "check", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: table: missing section: add [table] with the edition and seats of the game",
        f"{path}: launcher: missing section: add [launcher] with the card launcher's pins",
        f"{path}: seats: missing section: add [seats] with the seat buttons and lights",
    ]


def test_a_partial_file_names_each_section_it_lacks(tmp_path):
    path = write_exactly(tmp_path, "[table]\nedition = 'power'\n[sim]\nenabled = true\n")
    assert [(e.key, e.message.partition(":")[0]) for e in check_config(path)] == [
        ("launcher", "missing section"), ("seats", "missing section"), ("tray", "missing section"),
    ]
    assert "tower_confirm = 'off'" in check_config(path)[-1].message


def test_a_power_table_may_do_without_the_tray_when_it_does_not_wait_for_towers(tmp_path):
    text = DEFAULT_PATH.read_text().split("[tray]")[0] + "\n[sim]\nenabled = true\n"
    power = text.replace('edition = "classic"', 'edition = "power"')
    assert [e.key for e in check_config(write_exactly(tmp_path, power))] == ["tray"]
    assert load_config(write_exactly(tmp_path, text)).hardware.get("tray") is None
    off = power.replace('tower_confirm = "wait"', 'tower_confirm = "off"')
    assert load_config(write_exactly(tmp_path, off)).table.edition == "power"


def test_the_daemons_own_sections_may_be_left_out(tmp_path, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")  # this machine "has" a pin library
    cfg = load_config(write_exactly(tmp_path, HARDWARE))
    assert (cfg.api.host, cfg.api.port, cfg.journal.path) == ("127.0.0.1", 8080, "journal.db")
    assert (cfg.sim.enabled, cfg.sim.seed) == (False, None)  # real pins


def test_relative_journal_path_lives_in_the_state_directory(tmp_path):
    cfg = load_config(write(tmp_path, '[journal]\npath = "games/j.db"\n'))
    assert cfg.journal.resolve({"STATE_DIRECTORY": "/var/lib/unotable"}).as_posix() == (
        "/var/lib/unotable/games/j.db"
    )
    assert cfg.journal.resolve({"XDG_STATE_HOME": "/home/u/.state"}).as_posix() == (
        "/home/u/.state/unotable/games/j.db"
    )
    absolute = load_config(write(tmp_path, '[journal]\npath = "/srv/j.db"\n'))
    assert absolute.journal.resolve({"STATE_DIRECTORY": "/x"}).as_posix() == "/srv/j.db"


def test_the_config_hash_changes_with_the_file(tmp_path):
    first = load_config(write(tmp_path, "[table]\nseats = 3\n")).digest
    second = load_config(write(tmp_path, "[table]\nseats = 2\n")).digest
    assert first != second


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        ("[tabel]\n", "tabel", "unknown section"),
        ("debug = true\n", "debug", "unknown option"),
        ("table = 5\n", "table", "must be a table"),
        ("[table]\nedition = 'uno'\n", "table.edition", "must be one of"),
        ("[table]\nseats = 11\n", "table.seats", "at most 10"),
        ("[table]\nseats = '4'\n", "table.seats", "whole number"),
        ("[table]\nseats = 2\nnames = ['a', 'b', 'c']\n", "table.names", "3 names for 2 seats"),
        ("[table]\nseats = 2\nnames = ['a', 'a']\n", "table.names[1]", "already the name of seat 1"),
        ("[table]\nseats = 2\nnames = ['a', '']\n", "table.names[1]", "1-32 characters"),
        ("[table]\nnames = 'abc'\n", "table.names", "must be a list"),
        ("[table]\ntower_confirm = 'maybe'\n", "table.tower_confirm", "'wait', 'warn', 'off'"),
        ("[table]\ncolour = 'red'\n", "table.colour", "unknown option"),
        ("[table.options]\nstacking = [1]\n", "table.options.stacking", "true/false, a number"),
        ("[table.options]\nstacking = true\n", "table.options.stacking", "unknown option (known: "),
        ("[table.options]\ntarget_score = 'lots'\n", "table.options.target_score", "expected an integer"),
        ("[table]\nedition = 'classic'\n[table.options]\nwild_restricted = true\n",
         "table.options.wild_restricted", "does not apply to edition 'classic'"),
        ("[table]\nedition = 'power'\nseats = 7\n", "table.seats", "power is for 2-6 players, not 7"),
        ("[api]\nport = 80\n", "api.port", "at least 1024"),
        ("[api]\nport = 70000\n", "api.port", "at most 65535"),
        ("[api]\nport = 8080.5\n", "api.port", "whole number"),
        ("[api]\nhost = 'table.local'\n", "api.host", "IP address"),
        ("[api]\nhost = '0.0.0.0'\n", "api.token", "required when api.host is '0.0.0.0'"),
        ("[api]\nhost = '192.168.1.5'\n", "api.token", "required"),
        ("[api]\ntoken = 'short'\n", "api.token", "at least 16 characters"),
        ("[journal]\npath = ''\n", "journal.path", "file path"),
        ("[journal]\npath = 5\n", "journal.path", "must be a string"),
        ("[sim]\nseed = -1\n", "sim.seed", "at least 0"),
        ("[sim]\nenabled = 'yes'\n", "sim.enabled", "true or false"),
        ("[sim]\nenabled = true\nspeed = 2\n", "sim.speed", "unknown option"),
    ],
)
def test_a_bad_option_is_an_error_naming_its_key(tmp_path, text, key, message):
    error = refused(tmp_path, text, key)
    assert error.key == key
    assert message in error.message


def test_edition_and_house_rules_come_from_the_rules_engine(tmp_path):
    cfg = load_config(write(tmp_path, "[table]\nedition = 'extreme'\n[table.options]\n"
                                      "target_score = 250\nwild_restricted = false\n"))
    assert cfg.table.edition == "extreme"
    assert dict(cfg.table.options) == {"target_score": 250, "wild_restricted": False}


def test_every_bad_house_rule_is_reported(tmp_path):
    path = write(tmp_path, "[table.options]\nfoo = 1\ntarget_score = 'x'\nhand_size = 7\n")
    assert [e.key for e in check_config(path)] == ["table.options.foo", "table.options.target_score"]


def test_public_address_with_a_token_is_accepted(tmp_path):
    cfg = load_config(write(tmp_path, "[api]\nhost = '0.0.0.0'\ntoken = 'x7Gq2mPz9LkW4vNc'\n"))
    assert not cfg.api.loopback and cfg.api.token == "x7Gq2mPz9LkW4vNc"
    assert "x7Gq" not in repr(cfg.api)  # the token never lands in logs


def test_check_reports_every_problem_not_just_the_first(tmp_path):
    path = write(
        tmp_path,
        """
        [table]
        edition = "uno"
        seats = 3
        names = ["a", "a"]
        [api]
        host = "0.0.0.0"
        port = 80
        [journal]
        size = 3
        [bogus]
        """,
    )
    assert [e.key for e in check_config(path)] == [
        "bogus", "table.edition", "table.names[1]", "table.names", "api.port", "api.token",
        "journal.size",
    ]


def test_toml_syntax_error_gives_line_and_column(tmp_path):
    errors = check_config(write(tmp_path, "[table]\nseats = = 4\n"))
    assert len(errors) == 1
    assert errors[0].key == "syntax" and "line 2, column" in errors[0].message


def test_missing_file_is_named(tmp_path):
    [error] = check_config(tmp_path / "nope.toml")
    assert error.key == "file" and "No such file" in error.message


# -- hardware sections: hal parsers, pins used twice, serial ports ------------------


@dataclass(frozen=True)
class FakeGpio:
    pin_map: dict

    def pins(self):
        return dict(self.pin_map)


def parse_fake(mapping, *, path, errors=None):
    sec = Section(mapping, path=path, errors=errors)
    pins = {sec.key(name): sec.pin(name) for name in ("motor", "sensor") if sec.has(name)}
    sec.raw("port", None)
    sec.finish()
    return FakeGpio(pins)


@pytest.fixture
def fake_parsers(monkeypatch, mocker):
    """Fake hal parsers for [launcher] and [tray]; these tests write exactly what they
    check (no section is required) and this machine "has" a pin library (gpiozero's mock)."""
    mocker.patch.dict(config_mod.SECTION_PARSERS,
                      {name: f"{__name__}:parse_fake" for name in ("launcher", "tray")})
    mocker.patch.object(config_mod, "REQUIRED_SECTIONS", {})
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")


def test_hardware_sections_go_to_their_hal_parser(tmp_path, fake_parsers):
    cfg = load_config(write_exactly(tmp_path, "[launcher]\nmotor = 17\n[tray]\nsensor = 27\n"))
    assert cfg.pins() == {"launcher.motor": 17, "tray.sensor": 27}


def test_errors_of_hal_parsers_are_collected_with_the_others(tmp_path, fake_parsers):
    path = write_exactly(tmp_path, "[launcher]\nmotor = 40\n[tray]\nspeed = 1\n[api]\nport = 1\n")
    assert [(e.key, type(e)) for e in check_config(path)] == [
        ("api.port", ConfigError), ("launcher.motor", ConfigError), ("tray.speed", ConfigError),
    ]


def test_config_check_lists_every_bad_value_of_a_hardware_section(tmp_path):
    from firmware.config import DEFAULT_PATH

    text = DEFAULT_PATH.read_text()
    text = text.replace("max_run_s = 4.0", "max_run_s = -1\nspeed = 'fast'\nbogus = 1", 1)
    text = text.replace("[tray]", "[tray]\nmissed_polls = 0\npoll_interval_s = 'fast'", 1)
    path = tmp_path / "config.toml"
    path.write_text(text)
    found = {(e.key, e.message) for e in check_config(path)}
    assert found == {
        ("launcher.max_run_s", "must be at least 0.1, not -1"),
        ("launcher.speed", "must be a number, not 'fast'"),
        ("launcher.bogus", "unknown option"),
        ("tray.missed_polls", "must be at least 1, not 0"),
        ("tray.poll_interval_s", "must be a number, not 'fast'"),
    }
    with pytest.raises(ConfigError):  # the daemon still refuses it, naming the first
        load_config(path)


def test_a_pin_used_twice_names_both_keys(tmp_path, fake_parsers):
    [error] = check_config(write_exactly(tmp_path, "[launcher]\nmotor = 17\n[tray]\nsensor = 17\n"))
    assert error.key == "tray.sensor"
    assert error.message == "GPIO 17 is already used by launcher.motor"


@pytest.mark.parametrize(
    "url", ["/dev/unotable-reader-1", "/dev/ttyUSB0", "loop://", "socket://127.0.0.1:7000",
            "rfc2217://table.local:2217", "spy:///dev/ttyAMA0"],
)
def test_serial_ports_pyserial_can_open_are_accepted(url):
    assert serial_port_problem(url) is None


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("COM3", "device path like /dev/unotable-reader-1"),
        ("ttyUSB0", "device path"),
        ("http://reader", "pyserial URL"),
        ("socket://nohost", "socket:// needs HOST:PORT"),
        ("socket://host:99999", "needs HOST:PORT"),
        ("/dev/", "device path"),
    ],
)
def test_bad_serial_ports_are_named(tmp_path, fake_parsers, url, message):
    [error] = check_config(write_exactly(tmp_path, f"[tray]\nport = {url!r}\n"))
    assert error.key == "tray.port" and message in error.message


def accept_all(mapping, *, path, errors=None):
    return mapping


def test_ports_nested_in_lists_of_readers_are_checked(tmp_path, mocker):
    mocker.patch.dict(config_mod.SECTION_PARSERS, {"tray": f"{__name__}:accept_all"})
    path = write(tmp_path, "[[tray.readers]]\nport = '/dev/a'\n[[tray.readers]]\nport = 'COM4'\n")
    assert [e.key for e in check_config(path)] == ["tray.readers[1].port"]


# -- unotable config check ----------------------------------------------------------


def test_cli_says_ok_for_a_good_file(tmp_path, capsys):
    path = write(tmp_path, "[table]\nseats = 3\n")
    assert main(["config", "check", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: ok\n"


def test_cli_lists_every_problem_and_fails(tmp_path, capsys):
    path = write(tmp_path, "[table]\nseats = 1\n[api]\nport = 22\n")
    assert main(["config", "check", str(path)]) == 1
    out = capsys.readouterr()
    assert out.out.splitlines() == [
        f"{path}: table.seats: must be at least 2, not 1",
        f"{path}: api.port: must be at least 1024, not 22",
    ]
    assert "2 problems" in out.err


def test_cli_reports_syntax_errors_with_position(tmp_path, capsys):
    path = write(tmp_path, "[api\n")
    assert main(["config", "check", str(path)]) == 1
    assert "syntax" in capsys.readouterr().out and "line 1, column" in str(check_config(path)[0])


def test_cli_checks_the_default_config_without_a_path(monkeypatch, capsys):
    monkeypatch.setenv("UNOTABLE_CONFIG", str(DEFAULT_PATH))
    assert main(["config", "check"]) == 0
    assert capsys.readouterr().out == f"{DEFAULT_PATH}: ok\n"


# -- what `run` needs: a pin library, a free UART, a strong token --------------------


REAL_PINS = HARDWARE + "[sim]\nenabled = false\n"


@pytest.fixture
def no_pin_library(monkeypatch, mocker):
    """This machine as a Pi without the [pi] extra: every pin library gpiozero's default
    search tries fails to import (and no factory is set yet)."""
    from gpiozero import Device

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    mocker.patch.object(Device, "pin_factory", None)
    for module in ("lgpio", "RPi", "RPi.GPIO", "pigpio", "gpiozero.pins.native"):
        monkeypatch.setitem(sys.modules, module, None)


def test_real_pins_without_a_pin_library_is_one_line_naming_the_pi_extra(
    tmp_path, capsys, no_pin_library
):
    path = write_exactly(tmp_path, REAL_PINS)
    assert main(["config", "check", str(path)]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(f"{path}: sim.enabled: is false (real pins), but no GPIO pin library")
    assert "install the [pi] extra (pip install 'unotable[pi]')" in line and "lgpio" in line
    # run refuses with the same problem: one line, exit 2, no traceback
    assert main(["run", "--config", str(path)]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"unotable run: error: {path}: sim.enabled: is false (real pins)")
    assert "unotable[pi]" in line and f"unotable config check {path}" in line


def test_the_simulated_table_needs_no_pin_library(tmp_path, no_pin_library):
    assert check_config(write(tmp_path, "")) == []


def test_real_pins_pass_where_gpiozero_finds_a_pin_factory(tmp_path, monkeypatch, mocker):
    from gpiozero import Device

    mocker.patch.object(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert check_config(write_exactly(tmp_path, REAL_PINS)) == []
    assert Device.pin_factory is None  # the probe released what it found


@pytest.mark.parametrize("port", ["/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0"])
def test_a_pin_of_the_uart_a_reader_uses_is_a_conflict(tmp_path, port):
    text = (HARDWARE.replace("motor_forward = 20", "motor_forward = 14")
            .replace("status_led = 19", "status_led = 15")
            .replace('"/dev/serial0"', f'"{port}"'))
    assert text.count(f'"{port}"') == 1
    errors = check_config(write(tmp_path, text))
    assert [(e.key, e.message) for e in errors] == [
        ("launcher.motor_forward",
         f"GPIO 14 is the TXD pin of the UART tray.readers[4].port = '{port}' uses"),
        ("seats.status_led",
         f"GPIO 15 is the RXD pin of the UART tray.readers[4].port = '{port}' uses"),
    ]


def test_gpio_14_is_free_when_no_reader_uses_the_uart(tmp_path):
    text = (HARDWARE.replace("motor_forward = 20", "motor_forward = 14")
            .replace('"/dev/serial0"', '"/dev/unotable-reader-5"'))
    assert check_config(write(tmp_path, text)) == []


@pytest.mark.parametrize(
    ("token", "ok"),
    [("aaaaaaaaaaaaaaaa", False), ("abababababababab", False), ("abcdefgabcdefgab", False),
     ("x7Gq2mPz9LkW4vNc", True)],
)
def test_a_token_needs_8_different_characters(tmp_path, token, ok):
    path = write(tmp_path, f"[api]\nhost = '0.0.0.0'\ntoken = '{token}'\n")
    errors = check_config(path)
    if ok:
        assert errors == []
        return
    [error] = errors
    assert error.key == "api.token" and "at least 8 are needed" in error.message
    assert f"has only {len(set(token))} different characters" in error.message
    assert token not in error.message  # a secret is never echoed


@pytest.mark.parametrize("token", [
    "password12345678",       # a common password plus digits
    "unotable2024unotable",   # the table's own name and a year, twice
    "qwertyuiop123456",       # a keyboard walk
    "1qaz2wsx3edc4rfv",       # a keyboard walk, in columns
    "abcdefghabcdefgh",       # a repeat (8 different characters: the old rule let it pass)
    "Summer2024Summer",
])
def test_a_guessable_token_is_refused_pointing_to_token_new(tmp_path, capsys, token):
    path = write(tmp_path, f"[api]\nhost = '0.0.0.0'\ntoken = '{token}'\n")
    assert main(["config", "check", str(path)]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(f"{path}: api.token: is easy to guess")
    said = line.partition(": api.token: ")[2]  # the path holds the test's name
    assert "`unotable token new`" in said
    assert token not in said and token[3:11] not in said  # the secret is never quoted


def test_a_guessable_token_stops_run_at_start_in_one_line(tmp_path, capsys):
    path = write(tmp_path, "[api]\ntoken = 'password12345678'\n")
    assert main(["run", "--config", str(path)]) == 2
    said = capsys.readouterr().err.partition(": api.token: ")[2]
    assert said.startswith("is easy to guess") and "unotable token new" in said
    assert "12345678" not in said


def test_generated_tokens_always_pass():
    import secrets

    from firmware.config import token_problem

    for size in (16, 24, 32):
        for _ in range(50):
            assert token_problem(secrets.token_urlsafe(size)) is None


def test_a_made_up_but_long_passphrase_passes():
    from firmware.config import token_problem

    assert token_problem("correct-horse-battery-staple") is None
    assert token_problem("s3cret-token-for-tests") is None


def test_every_run_blocker_is_listed_one_per_line(tmp_path, capsys, no_pin_library):
    # no [seats], a motor on the UART's TXD pin, a weak token, no pin library
    before_seats, _, rest = REAL_PINS.partition("[seats]")
    text = (before_seats.replace("motor_forward = 20", "motor_forward = 14")
            + "[tray]" + rest.partition("[tray]")[2]
            + "[api]\nhost = '0.0.0.0'\ntoken = 'aaaaaaaabbbbbbbb'\n")
    path = write_exactly(tmp_path, text)
    assert main(["config", "check", str(path)]) == 1
    keys = [line.split(": ")[1] for line in capsys.readouterr().out.splitlines()]
    assert keys == ["api.token", "seats", "launcher.motor_forward", "sim.enabled"]


@pytest.fixture
def only_native_pins(monkeypatch, no_pin_library):
    """A Pi without the [pi] extra: gpiozero falls back to its native factory (played by
    a MockFactory here), which has no PWM."""
    from gpiozero.pins.mock import MockFactory

    native = types.ModuleType("gpiozero.pins.native")
    native.NativeFactory = MockFactory
    monkeypatch.setitem(sys.modules, "gpiozero.pins.native", native)


def test_the_native_pin_factory_is_refused_where_pwm_is_needed(tmp_path, only_native_pins):
    [error] = check_config(write_exactly(tmp_path, REAL_PINS))
    assert error.key == "sim.enabled"
    assert error.message == (
        "is false (real pins), but only gpiozero's native pin factory works on this machine, "
        "and it has no PWM, which launcher.motor_forward, launcher.motor_backward, "
        "launcher.servo need: install the [pi] extra (pip install 'unotable[pi]')")


def test_the_native_pin_factory_will_do_for_a_launcher_without_pwm(tmp_path, only_native_pins):
    text = REAL_PINS.replace("servo = 13 ", "motor_pwm = false\n#").replace(
        "seat_angles = [-60.0, -20.0, 20.0, 60.0]", "")
    assert check_config(write_exactly(tmp_path, text)) == []


def test_a_preset_sets_house_rules_and_table_options_override_it(tmp_path, monkeypatch):
    from uno_core.options import PRESETS
    monkeypatch.setitem(PRESETS, "blitz", {"turn_timer_s": 20, "timeout_action": "pass",
                                           "wild_restricted": True})  # (not classic's)
    cfg = load_config(write(tmp_path, "[table]\npreset = 'blitz'\n"
                                      "[table.options]\ntimeout_action = 'warn'\n"))
    assert cfg.table.preset == "blitz"
    assert dict(cfg.table.options) == {"turn_timer_s": 20, "timeout_action": "warn"}
    assert load_config(write(tmp_path, "[table.options]\n")).table.preset == "seed"


def test_an_unknown_preset_is_named_with_the_known_ones(tmp_path):
    path = write(tmp_path, "[table]\npreset = 'casino'\n")
    (error,) = check_config(path)
    assert error.key == "table.preset"
    assert "'casino'" in error.message and "'seed'" in error.message


def test_a_preset_whose_rule_the_edition_refuses_is_reported_under_the_preset(tmp_path,
                                                                           monkeypatch):
    from uno_core.options import PRESETS
    monkeypatch.setitem(PRESETS, "slow", {"turn_timer_s": 9000})
    (error,) = check_config(write(tmp_path, "[table]\npreset = 'slow'\n"))
    assert error.key == "table.preset"
    assert error.message == "'slow' sets turn_timer_s: 9000 is above the maximum 600"


def test_the_party_and_mattel_presets_set_their_rules_for_the_edition(tmp_path):
    party = load_config(write(tmp_path, "[table]\npreset = 'party'\n")).table
    assert party.preset == "party"
    assert dict(party.options) == {"stack_draws": "cross", "seven_zero": True, "jump_in": True}
    mattel = load_config(write(tmp_path, "[table]\npreset = 'mattel'\n"
                                         "[table.options]\nwild_draw4_points = 70\n")).table
    assert mattel.options["draw_then_play"] is True  # Mattel's classic: play the drawn card
    assert mattel.options["wild_draw4_points"] == 70  # [table.options] wins over the preset
