"""`[mqtt]` in the config: read when present, every problem named, the password never
shown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from firmware.config import DEFAULT_PATH, check_config, load_config

SECRET = "hunter2-broker-Secret"


def config_with(tmp_path: Path, section: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(DEFAULT_PATH.read_text() + "\n[mqtt]\n" + section)
    return path


def test_no_section_no_mqtt() -> None:
    assert load_config(DEFAULT_PATH).mqtt is None


def test_the_defaults(tmp_path: Path) -> None:
    mqtt = load_config(config_with(tmp_path, 'url = "mqtt://broker.local"\n')).mqtt
    assert mqtt is not None
    assert (mqtt.host, mqtt.port, mqtt.tls) == ("broker.local", 1883, False)
    assert (mqtt.discovery_prefix, mqtt.topic_root, mqtt.commands) == (
        "homeassistant", "unotable", False)
    assert (mqtt.username, mqtt.password, mqtt.ca_file) == (None, None, None)


def test_tls_credentials_and_names(tmp_path: Path) -> None:
    ca = tmp_path / "ca.crt"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    mqtt = load_config(config_with(tmp_path, f'''url = "mqtts://10.0.0.5"
ca_file = "{ca}"
username = "table1"
password = "{SECRET}"
discovery_prefix = "ha"
topic_root = "cafe/unotable"
commands = true
name = "Bar 1"
''')).mqtt
    assert mqtt is not None
    assert (mqtt.port, mqtt.tls, mqtt.ca_file, mqtt.username) == (8883, True, str(ca), "table1")
    assert (mqtt.topic_root, mqtt.commands, mqtt.name) == ("cafe/unotable", True, "Bar 1")
    assert SECRET not in repr(mqtt)


def test_every_problem_is_named_and_nothing_is_echoed(tmp_path: Path) -> None:
    path = config_with(tmp_path, f'''url = "http://{SECRET}@broker"
ca_file = "/nowhere/ca.crt"
password = "{SECRET}"
discovery_prefix = "home/#"
topic_root = ""
commands = "yes"
colour = "red"
''')
    errors = {e.key: e.message for e in check_config(path)}
    assert set(errors) == {"mqtt.url", "mqtt.password", "mqtt.discovery_prefix",
                           "mqtt.topic_root", "mqtt.commands", "mqtt.colour"}
    assert "username" in errors["mqtt.url"] and "mqtt.username" in errors["mqtt.password"]
    assert all(SECRET not in message for message in errors.values())


def test_a_url_that_is_no_broker(tmp_path: Path) -> None:
    for url, says in [("mqtt://", "mqtt://HOST"), ("ws://broker", "mqtt://HOST"),
                      ("mqtt://broker:99999", "not a broker URL"), ("mqtt://b/x", "only"),
                      ("mqtt://broker:0", "1-65535")]:
        errors = {e.key: e.message for e in check_config(config_with(tmp_path, f'url = "{url}"\n'))}
        assert says in errors["mqtt.url"], (url, errors)
    for url in (f"mqtt://u:{SECRET}@b:99999", f"ws://{SECRET}@b", f"mqtt://u:{SECRET}@[b"):
        errors = check_config(config_with(tmp_path, f'url = "{url}"\n'))
        assert [e.key for e in errors] == ["mqtt.url"] and SECRET not in errors[0].message
    errors = check_config(config_with(tmp_path, 'url = "mqtt://b"\nca_file = "/etc/hosts"\n'))
    assert [e.key for e in errors] == ["mqtt.ca_file"]
    errors = check_config(config_with(tmp_path, "password = 12345\n"))
    assert {e.key for e in errors} == {"mqtt.url", "mqtt.password"}
    assert all("12345" not in e.message for e in errors)


def test_config_check_lists_them_without_the_password(tmp_path: Path) -> None:
    path = config_with(tmp_path, f'url = "mqtts://b"\nca_file = "/none"\npassword = "{SECRET}"\n')
    done = subprocess.run([sys.executable, "-m", "firmware", "config", "check", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert "mqtt.ca_file" in done.stdout and "mqtt.password" in done.stdout
    assert SECRET not in done.stdout + done.stderr
