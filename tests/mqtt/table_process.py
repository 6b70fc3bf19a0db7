"""A table's MQTT link alone in a process, for the last-will test to SIGKILL:
``python -m tests.mqtt.table_process URL TABLE_ID`` prints ``online`` once connected."""

from __future__ import annotations

import asyncio
import sys

from firmware.mqtt.discovery import discovery_message
from firmware.mqtt.link import TableLink
from firmware.mqtt.settings import parse_config
from firmware.mqtt.topics import Topics


async def main(url: str, table: str) -> None:
    config = parse_config({"url": url})
    assert config is not None
    topics = Topics(config.discovery_prefix, config.topic_root, table)
    link = TableLink(config, topics, discovery_message(
        topics, name="", edition="classic", seat_names=["A", "B"], towers=False,
        commands=False, version="test"))
    task = asyncio.create_task(link.run())
    while not link.connected:
        await asyncio.sleep(0.01)
    print("online", flush=True)
    await task


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
