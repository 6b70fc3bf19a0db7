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
