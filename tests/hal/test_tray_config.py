"""[tray] config: defaults, validation, unknown keys rejected with the dotted key."""

import pytest

from hal.errors import ConfigError
from hal.tray import TrayConfig, parse_config

READER = {"slot": "neutral", "driver": "pn532", "port": "/dev/unotable-reader-0"}


def test_empty_section_gives_the_defaults():
    cfg = parse_config({}, path="tray")
    assert cfg == TrayConfig()
    assert (cfg.seen_polls, cfg.missed_polls, cfg.poll_interval_s) == (2, 3, 0.2)


def test_full_section():
    cfg = parse_config(
        {
            "readers": [READER, {"slot": 2, "driver": "rdm6300", "port": "socket://10.0.0.2:7000"}],
            "towers": {"U": "04:a1:b2:c3:d4:e5:01", "!": "0A00C0FF04"},
            "seen_polls": 1,
            "missed_polls": 5,
        },
        path="tray",
    )
    assert [(r.slot, r.driver, r.baudrate) for r in cfg.readers] == [
        ("neutral", "pn532", 115200),
        (2, "rdm6300", 9600),
    ]
    assert cfg.towers == {"U": "04A1B2C3D4E501", "!": "0A00C0FF04"}
    assert cfg.tower_of["0A00C0FF04"] == "!"


@pytest.mark.parametrize(
    ("mapping", "key", "message"),
    [
        ({"colour": 1}, "tray.colour", "unknown option"),
        ({"readers": {"slot": 1}}, "tray.readers", "list of tables"),
        ({"readers": [{**READER, "slot": "kitchen"}]}, "tray.readers[0].slot", "neutral"),
        ({"readers": [{**READER, "slot": 9}]}, "tray.readers[0].slot", "seat number"),
        ({"readers": [{**READER, "driver": "acr122"}]}, "tray.readers[0].driver", "one of"),
        ({"readers": [{**READER, "port": " "}]}, "tray.readers[0].port", "empty"),
        ({"readers": [{**READER, "speed": 1}]}, "tray.readers[0].speed", "unknown option"),
        ({"readers": [READER, {**READER, "port": "/dev/x"}]}, "tray.readers[1].slot", "already"),
        ({"readers": [READER, {**READER, "slot": 1}]}, "tray.readers[1].port", "two readers"),
        ({"towers": {"X": "04A1B2C3"}}, "tray.towers.X", "unknown option"),
        ({"towers": {"U": "hello"}}, "tray.towers.U", "hex"),
        ({"towers": {"U": 1234}}, "tray.towers.U", "hex string"),
        ({"towers": {"U": "04A1B2C3", "N": "04a1b2c3"}}, "tray.towers.N", "already tower 'U'"),
        ({"seen_polls": 0}, "tray.seen_polls", "at least 1"),
        ({"max_retries": 255}, "tray.max_retries", "at most 254"),
        ({"reconnect_min_s": 5, "reconnect_max_s": 1}, "tray.reconnect_max_s", "less than"),
    ],
)
def test_bad_config_names_the_key(mapping, key, message):
    with pytest.raises(ConfigError) as err:
        parse_config(mapping, path="tray")
    assert err.value.key == key
    assert message in err.value.message
