"""`unotable mqtt forget` leaves no ghost in Home Assistant; `unotable mqtt check` says
whether the broker takes the table, never showing its password."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path

from firmware.config import DEFAULT_PATH
from firmware.mqtt.discovery import discovery_message
from firmware.mqtt.topics import Topics
from tests.mqtt.broker import Broker
from tests.mqtt.conftest import PASSWORD
from tests.mqtt.watch import broker_client, watching

TABLE = "c0ffee00" * 4


def unotable(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware", *args], capture_output=True,
                          text=True, timeout=60)


def table_config(tmp_path: Path, broker: Broker, password: str | None = None) -> Path:
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    (state / "table-id").write_text(TABLE + "\n")
    lines = [f'url = "{broker.url}"']
    if broker.username:
        lines += [f'username = "{broker.username}"', f'password = "{password or broker.password}"']
    text = DEFAULT_PATH.read_text().replace('path = "journal.db"', f'path = "{state}/journal.db"')
    path = tmp_path / "config.toml"
    path.write_text(text + "\n[mqtt]\n" + "\n".join(lines) + "\n")
    return path


def retained(broker: Broker, topics: list[str]) -> dict[str, bytes]:
    """What a client subscribing now gets, retained, on `topics`."""
    async def look() -> dict[str, bytes]:
        async with watching(broker, "#") as w:
            await asyncio.sleep(0.3)  # retained messages come right after the subscription
            return {s.topic: s.payload for s in w.seen if s.retain and s.topic in topics}

    return asyncio.run(look())


def test_forget_removes_the_retained_device(broker: Broker, tmp_path: Path) -> None:
    topics = Topics("homeassistant", "unotable", TABLE)
    other = Topics("homeassistant", "unotable", "d" * 32)
    mine = [topics.discovery, topics.state, topics.availability]

    async def announce() -> None:
        async with broker_client(broker) as client:
            for t in (topics, other):
                topic, payload = discovery_message(t, name="", edition="classic",
                                                   seat_names=["A", "B"], towers=False,
                                                   commands=False, version="1")
                await client.publish(topic, payload, qos=1, retain=True)
                await client.publish(t.state, b"{}", qos=1, retain=True)
                await client.publish(t.availability, b"offline", qos=1, retain=True)

    asyncio.run(announce())
    assert set(retained(broker, mine)) == set(mine)
    done = unotable("mqtt", "forget", "--config", str(table_config(tmp_path, broker)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"removed {t}" for t in mine]
    assert retained(broker, [*mine, other.discovery]) == {other.discovery: retained(
        broker, [other.discovery])[other.discovery]}


def test_forget_another_table_and_refusals(broker: Broker, tmp_path: Path) -> None:
    config = str(table_config(tmp_path, broker))
    assert unotable("mqtt", "forget", "--config", config, "--table", "d" * 32).returncode == 0
    bad = unotable("mqtt", "forget", "--config", config, "--table", "nope")
    assert bad.returncode == 2 and "32 hex digits" in bad.stderr
    none = unotable("mqtt", "forget", "--config", str(DEFAULT_PATH))
    assert none.returncode == 2 and "no [mqtt] section" in none.stderr


def test_check_connects_or_says_why(password_broker: Broker, tmp_path: Path) -> None:
    good = unotable("mqtt", "check", "--config", str(table_config(tmp_path, password_broker)))
    assert good.returncode == 0, good.stderr
    assert good.stdout.strip() == f"mqtt: connected to {password_broker.url} as table1"
    wrong = "wrong-Password-123"
    bad = unotable("mqtt", "check", "--config",
                   str(table_config(tmp_path, password_broker, password=wrong)))
    assert bad.returncode == 1 and "not authorized" in bad.stderr.lower()
    assert wrong not in bad.stdout + bad.stderr and PASSWORD not in bad.stdout + bad.stderr
    password_broker.kill()
    gone = unotable("mqtt", "check", "--config", str(table_config(tmp_path, password_broker)))
    assert gone.returncode == 1 and "refused" in gone.stderr.lower()


def test_results_refuses_a_busy_port_and_an_unwritable_file(broker: Broker, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = unotable("results", "--mqtt", broker.url, "--db", str(tmp_path / "r.db"),
                        "--port", str(taken.getsockname()[1]))
    assert busy.returncode == 2 and "cannot listen on 127.0.0.1:" in busy.stderr
    assert "Traceback" not in busy.stderr
    nowhere = unotable("results", "--mqtt", broker.url, "--db", str(tmp_path / "no" / "r.db"))
    assert nowhere.returncode == 2 and "cannot keep results there" in nowhere.stderr
