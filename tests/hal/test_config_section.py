import pytest

from hal.config import Section
from hal.errors import ConfigError, HalError


def test_reads_typed_options_and_defaults():
    sec = Section({"pin": 17, "rate": 2.5, "mode": "fast"}, path="launcher")
    assert sec.pin("pin") == 17
    assert sec.number("rate", minimum=0) == 2.5
    assert sec.string("mode", choices=["fast", "slow"]) == "fast"
    assert sec.integer("count", 3) == 3
    assert sec.pin("servo", None) is None
    sec.finish()


@pytest.mark.parametrize(
    ("mapping", "read", "key"),
    [
        ({"pin": 40}, lambda s: s.pin("pin"), "launcher.pin"),
        ({"pin": True}, lambda s: s.pin("pin"), "launcher.pin"),
        ({"rate": "fast"}, lambda s: s.number("rate"), "launcher.rate"),
        ({"rate": -1}, lambda s: s.number("rate", minimum=0), "launcher.rate"),
        ({"n": 1.5}, lambda s: s.integer("n"), "launcher.n"),
        ({"mode": "x"}, lambda s: s.string("mode", choices=["a"]), "launcher.mode"),
        ({}, lambda s: s.pin("pin"), "launcher.pin"),
        ({"pins": [1, 99]}, lambda s: s.pin_list("pins"), "launcher.pins[1]"),
    ],
)
def test_bad_values_name_the_key(mapping, read, key):
    with pytest.raises(ConfigError) as info:
        read(Section(mapping, path="launcher"))
    assert info.value.key == key
    assert isinstance(info.value, HalError)


def test_unknown_key_is_rejected_by_name():
    sec = Section({"pin": 3, "pni": 4}, path="seats")
    sec.pin("pin")
    with pytest.raises(ConfigError, match=r"seats\.pni: unknown option"):
        sec.finish()


def test_non_table_section_is_rejected():
    with pytest.raises(ConfigError, match="must be a table"):
        Section([1, 2], path="tray")  # type: ignore[arg-type]


def test_a_collecting_section_records_every_bad_value_and_reads_the_default():
    errors = []
    sec = Section({"speed": "fast", "servo": 99, "flag": 3, "mode": "x", "extra": 1, "more": 2},
                  path="launcher", errors=errors)
    assert sec.number("speed", 1.0, minimum=0.1) == 1.0
    assert sec.pin("servo", None) is None
    assert sec.boolean("flag", True) is True
    assert sec.string("mode", "a", choices=("a", "b")) == "a"
    assert sec.section("nested").errors is errors
    sec.finish()
    assert [(e.key, e.message) for e in errors] == [
        ("launcher.speed", "must be a number, not 'fast'"),
        ("launcher.servo", "must be a BCM GPIO number 0-27, not 99"),
        ("launcher.flag", "must be true or false, not 3"),
        ("launcher.mode", "must be one of 'a', 'b', not 'x'"),
        ("launcher.extra", "unknown option"),
        ("launcher.more", "unknown option"),
    ]


def test_a_collecting_section_still_stops_at_a_bad_required_value():
    errors = []
    sec = Section({"exit_sensor": "x"}, path="launcher", errors=errors)
    with pytest.raises(ConfigError, match="launcher.exit_sensor: must be a BCM GPIO"):
        sec.pin("exit_sensor")
    with pytest.raises(ConfigError, match="launcher.motor: is required"):
        sec.pin("motor")
    assert errors == []
