"""`unotable results`: one process that keeps every table's results once.

It subscribes to ``<topic_root>/+/results`` with QoS 1 on a persistent session (a fixed
client id, clean session off), so the broker keeps what arrives while the collector is
away. Each message is acknowledged only after its result is committed to SQLite (paho's
manual acknowledgement): a collector killed in between gets the message again, and the
store's primary key keeps it once. A message that is no result is logged (at most once a
second) and acknowledged, so it is not delivered for ever.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import time
from collections.abc import Callable
from pathlib import Path

import aiomqtt

from firmware.mqtt.link import DEFAULT_BACKOFF, Backoff, Sleep, Throttle, client_options, where
from firmware.mqtt.results import BadResult, parse
from firmware.mqtt.settings import MqttConfig
from firmware.mqtt.store import ResultsStore
from firmware.mqtt.topics import all_results

log = logging.getLogger(__name__)


def collector_id(db: str | Path) -> str:
    """The collector's client id: fixed for one results file, so a restart finds its
    session, and different for two collectors with two files."""
    digest = hashlib.sha256(str(Path(db).resolve()).encode()).hexdigest()[:16]
    return f"unotable-results-{digest}"


class Collector:
    def __init__(self, config: MqttConfig, store: ResultsStore, *, client_id: str,
                 backoff: Backoff = DEFAULT_BACKOFF, rng: random.Random | None = None,
                 sleep: Sleep = asyncio.sleep, now: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time,
                 on_stored: Callable[[str, bool], object] = lambda _id, _new: None) -> None:
        self.config, self.store, self.client_id = config, store, client_id
        self.backoff, self.rng, self.sleep = backoff, rng or random.Random(), sleep
        self.throttle = Throttle(now=now)
        self.on_stored = on_stored
        self.wall = wall  # stamps each result kept: a date, not an interval
        self.connected = False
        self.stored = self.duplicates = self.refused = 0
        self.last_error: str | None = None

    async def run(self) -> None:
        failures = 0
        while True:
            try:
                async with aiomqtt.Client(identifier=self.client_id, clean_session=False,
                                          **client_options(self.config)) as client:
                    failures = 0
                    await self._serve(client)
            except (aiomqtt.MqttError, OSError) as exc:  # OSError: the CA file, TLS
                if self.connected or str(exc) != self.last_error:
                    log.warning("results: broker %s: %s; trying again", where(self.config), exc)
                self.connected, self.last_error = False, str(exc)
            failures += 1
            await self.sleep(self.backoff.delay(failures, self.rng))

    async def _serve(self, client: aiomqtt.Client) -> None:
        # aiomqtt has no acknowledgement of its own: paho's, on the client it wraps.
        paho = client._client  # noqa: SLF001
        paho.manual_ack_set(True)
        self.connected, self.last_error = True, None
        log.info("results: connected to %s as %s", where(self.config), self.client_id)
        await client.subscribe(all_results(self.config.topic_root), qos=1)
        log.info("results: subscribed to %s", all_results(self.config.topic_root))
        async for message in client.messages:
            payload = message.payload if isinstance(message.payload, bytes) else b""
            try:
                result = parse(payload)
            except BadResult as exc:
                self.refused += 1
                if self.throttle("bad result"):
                    log.warning("results: %s: not kept: %s", message.topic, exc)
            else:
                new = self.store.add(result, stored_at=self.wall())
                self.stored += new
                self.duplicates += not new
                self.on_stored(result.id, new)
            if message.qos > 0:
                paho.ack(message.mid, message.qos)
