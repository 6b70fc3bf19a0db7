"""One short connection to the broker, for the commands (`unotable mqtt check`,
`unotable mqtt forget`): connect, do what is asked, say what went wrong in one line."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Awaitable, Callable, Sequence

import aiomqtt

from firmware.mqtt.link import client_options, where
from firmware.mqtt.settings import MqttConfig

PROBE_TIMEOUT_S = 10.0


async def _connected(config: MqttConfig, client_id: str,
                     then: Callable[[aiomqtt.Client], Awaitable[None]]) -> None:
    async with aiomqtt.Client(identifier=client_id, timeout=PROBE_TIMEOUT_S,
                              **client_options(config)) as client:
        await then(client)


def probe(config: MqttConfig, client_id: str,
          then: Callable[[aiomqtt.Client], Awaitable[None]] | None = None) -> str | None:
    """Connect to `config`'s broker and run `then(client)`; None when all went well, else
    why not (the broker named without credentials)."""
    async def nothing(_client: aiomqtt.Client) -> None:
        return None

    async def attempt() -> None:
        async with asyncio.timeout(PROBE_TIMEOUT_S * 2):
            await _connected(config, client_id, then or nothing)

    try:
        asyncio.run(attempt())
    except aiomqtt.MqttError as exc:
        return f"{where(config)}: {exc}"
    except ssl.SSLError as exc:
        return f"{where(config)}: TLS: {exc}"
    except TimeoutError:
        return f"{where(config)}: no answer within {PROBE_TIMEOUT_S * 2:g} s"
    return None


def clear_retained(topics: Sequence[str]) -> Callable[[aiomqtt.Client], Awaitable[None]]:
    """What `probe` should do to remove retained messages: an empty retained payload on
    each topic, acknowledged by the broker."""
    async def clear(client: aiomqtt.Client) -> None:
        for topic in topics:
            await client.publish(topic, b"", qos=1, retain=True)

    return clear
