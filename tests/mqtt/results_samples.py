"""Results as tables publish them, and a test publisher that sends them with QoS 1."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from firmware.mqtt.results import Result, match_result, round_result
from firmware.mqtt.topics import Topics
from tests.mqtt.broker import Broker
from tests.mqtt.watch import broker_client

TABLE_A, TABLE_B = "a1" * 16, "b2" * 16
NAMES = {TABLE_A: "Bar 1", TABLE_B: "Window"}


def a_round(table: str, n: int, winner: str = "Anna", match: str = "m1") -> Result:
    others = {"Anna": 0, "Ben": 0, "Cleo": 0}
    return round_result(table=table, table_name=NAMES[table], match=match, round=n,
                        edition="classic", winner=winner, points=10 * n,
                        scores={**others, winner: 10 * n}, at=1_765_000_000.0 + n)


def a_match(table: str, rounds: int, winner: str, match: str = "m1") -> Result:
    return match_result(table=table, table_name=NAMES[table], match=match, rounds=rounds,
                        edition="classic", winner=winner, scores={"Anna": 500, "Ben": 80,
                                                                  "Cleo": 20, winner: 510},
                        at=1_765_000_999.0)


def publish(broker: Broker, results: Sequence[Result], raw: Sequence[tuple[str, bytes]] = ()) -> None:
    """Send each result as its table does (QoS 1, to its results topic), each acknowledged
    by the broker before this returns; `raw` adds (topic, payload) messages as they are."""
    async def send() -> None:
        async with broker_client(broker) as client:
            for result in results:
                topic = Topics("homeassistant", "unotable", result.table).results
                await client.publish(topic, result.payload(), qos=1)
            for topic, payload in raw:
                await client.publish(topic, payload, qos=1)

    asyncio.run(send())
