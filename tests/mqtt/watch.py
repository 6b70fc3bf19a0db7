"""A second MQTT client that watches what arrives on the test broker, and a helper that
runs a TableLink on the test's own loop."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import aiomqtt

from tests.mqtt.broker import Broker

WAIT_S = 10.0  # a bound on waiting for the broker, not a timing being tested


@dataclass
class Seen:
    topic: str
    payload: bytes
    retain: bool


@dataclass
class Watcher:
    client: aiomqtt.Client
    seen: list[Seen] = field(default_factory=list)
    _new: asyncio.Event = field(default_factory=asyncio.Event)

    def on(self, topic: str) -> list[bytes]:
        return [s.payload for s in self.seen if s.topic == topic]

    async def until(self, test: Callable[[], Any], what: str = "") -> Any:
        async with asyncio.timeout(WAIT_S):
            while not (found := test()):
                self._new.clear()
                await self._new.wait()
        return found

    async def _collect(self) -> None:
        async for message in self.client.messages:
            payload = message.payload if isinstance(message.payload, bytes) else str(
                message.payload).encode()
            self.seen.append(Seen(str(message.topic), payload, message.retain))
            self._new.set()


def broker_client(broker: Broker, **kwargs: Any) -> aiomqtt.Client:
    return aiomqtt.Client("127.0.0.1", broker.port, username=broker.username,
                          password=broker.password, tls_context=broker.client_tls_context(),
                          **kwargs)


@contextlib.asynccontextmanager
async def watching(broker: Broker, topic: str = "#") -> AsyncIterator[Watcher]:
    async with broker_client(broker) as client:
        watcher = Watcher(client)
        await client.subscribe(topic, qos=1)
        task = asyncio.create_task(watcher._collect())
        try:
            yield watcher
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
                await task


@contextlib.asynccontextmanager
async def running(link: Any) -> AsyncIterator[asyncio.Task[None]]:
    """`link.run()` as a task for the block; stopped (``offline``) after it."""
    task = asyncio.create_task(link.run())
    try:
        yield task
    finally:
        link.stop()
        async with asyncio.timeout(WAIT_S):
            await task
