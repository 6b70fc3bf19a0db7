"""The mosquitto ACL docs/homeassistant.md gives a café, in a real mosquitto: a table
publishes its own results and discovery, and cannot publish another table's."""

from __future__ import annotations

import asyncio
import re
import subprocess
from pathlib import Path

import aiomqtt

from firmware.mqtt.topics import Topics
from tests.mqtt.broker import Broker
from tests.mqtt.results_samples import TABLE_A, TABLE_B, a_round

DOC = Path(__file__).resolve().parents[2] / "docs" / "homeassistant.md"


def documented_acl() -> str:
    section = DOC.read_text().split("### One broker, many tables: the ACL", 1)[1]
    return re.search(r"```\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]


def test_each_table_writes_only_its_own_topics(tmp_path: Path) -> None:
    directory = tmp_path / "broker"
    directory.mkdir()
    (directory / "acl").write_text(documented_acl())
    passwords = directory / "passwords"
    for user in (TABLE_A, TABLE_B, "results", "homeassistant"):
        subprocess.run(["mosquitto_passwd", "-b", *(["-c"] if user == TABLE_A else []),
                        passwords, user, f"pw-{user[:4]}"], check=True, capture_output=True)
    broker = Broker(directory, lines=["allow_anonymous false", f"password_file {passwords}",
                                      f"acl_file {directory / 'acl'}"]).start()
    a, b = Topics("homeassistant", "unotable", TABLE_A), Topics("homeassistant", "unotable", TABLE_B)

    def client(user: str) -> aiomqtt.Client:
        return aiomqtt.Client("127.0.0.1", broker.port, username=user, password=f"pw-{user[:4]}")

    async def scenario() -> tuple[list[str], set[str]]:
        got: list[str] = []
        async with client(TABLE_B) as table_b:
            await table_b.publish(b.discovery, b"{}", qos=1, retain=True)
        async with client("results") as collector, client(TABLE_A) as table_a:
            await collector.subscribe("unotable/+/results", qos=1)
            await table_a.publish(b.results, a_round(TABLE_B, 1).payload(), qos=1)  # refused
            await table_a.publish(b.discovery, b"", qos=1, retain=True)  # refused
            await table_a.publish(a.discovery, b"{}", qos=1, retain=True)
            await table_a.publish(a.results, a_round(TABLE_A, 1).payload(), qos=1)
            async with asyncio.timeout(10):
                async for message in collector.messages:
                    got.append(str(message.topic))
                    if message.topic.matches(a.results):
                        break
        async with client("homeassistant") as home:
            await home.subscribe("homeassistant/device/#")
            devices: set[str] = set()
            async with asyncio.timeout(10):
                async for message in home.messages:
                    devices.add(str(message.topic))
                    if len(devices) == 2:
                        break
        return got, devices

    try:
        results, devices = asyncio.run(scenario())
        assert results == [a.results]  # B's came first, had it got through
        assert devices == {a.discovery, b.discovery}  # B's device is still there
        assert "denied publish" in broker.log.read_text().lower()
    finally:
        broker.kill()
