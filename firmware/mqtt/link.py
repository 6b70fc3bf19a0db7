"""The table's connection to its broker, on the daemon's asyncio loop (aiomqtt).

It never holds up the table: `publish_state`, `publish_event` and `send_result` only
put something down and return. A reconnect loop with a jittered exponential back-off
owns the connection; each connection says ``online`` (retained; the last will says
``offline``), sends the discovery document, the latest state and every result not yet
acknowledged, then serves the queue, the results and the incoming messages until it
drops. Discovery is sent again, after a random delay, whenever Home Assistant's birth
message (``<prefix>/status`` = ``online``) comes, so a restarted Home Assistant or
broker finds the table again.

States and events wait in a bounded queue: when it is full the oldest is dropped (a
retained state is superseded by the next anyway). Results are not dropped: each waits
until the broker acknowledges it (QoS 1), then `on_result_acked(id)` is called, and the
caller's outbox (the journal) forgets it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import random
import ssl
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import aiomqtt

from firmware.mqtt.discovery import COMMANDS
from firmware.mqtt.results import Result
from firmware.mqtt.settings import MqttConfig
from firmware.mqtt.topics import OFFLINE, ONLINE, Topics

log = logging.getLogger(__name__)
QUEUE_SIZE = 200
OFFLINE_WITHIN_S = 2.0  # a stopping table waits no longer to say so
BIRTH_JITTER_S = 5.0  # Home Assistant's docs: a random delay, so every device is not at once
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class Backoff:
    """Waits between attempts: `first` seconds, doubled each failure up to `most`; each
    wait is drawn between half and all of it, so tables that lost one broker together
    do not come back together."""

    first: float = 1.0
    most: float = 60.0

    def delay(self, failures: int, rng: random.Random) -> float:
        base = min(self.most, self.first * 2.0 ** max(0, failures - 1))
        return base * (0.5 + rng.random() / 2)


DEFAULT_BACKOFF = Backoff()


def client_options(config: MqttConfig) -> dict[str, Any]:
    """aiomqtt.Client's keywords for `config`'s broker: host, port, credentials, TLS."""
    options: dict[str, Any] = {"hostname": config.host, "port": config.port,
                               "username": config.username, "password": config.password}
    if config.tls:
        options["tls_context"] = ssl.create_default_context(cafile=config.ca_file)
    return options


def where(config: MqttConfig) -> str:
    """The broker as a log line may show it: never the credentials."""
    return f"{'mqtts' if config.tls else 'mqtt'}://{config.host}:{config.port}"


class Throttle:
    """Says yes to one message of a kind per `interval` seconds (`now`: a clock)."""

    def __init__(self, interval: float = 1.0, now: Callable[[], float] = time.monotonic) -> None:
        self.interval, self.now = interval, now
        self._last: dict[str, float] = {}

    def __call__(self, kind: str) -> bool:
        now, last = self.now(), self._last.get(kind)
        if last is not None and now - last < self.interval:
            return False
        self._last[kind] = now
        return True


class TableLink:
    """One table's connection. `discovery` is (topic, payload) from
    firmware.mqtt.discovery; `on_command(name)` is called on the loop for a valid
    command when `config.commands` is true (names: firmware.mqtt.discovery.COMMANDS)."""

    def __init__(self, config: MqttConfig, topics: Topics, discovery: tuple[str, bytes], *,
                 on_result_acked: Callable[[str], object] = lambda _id: None,
                 on_command: Callable[[str], object] = lambda _name: None,
                 queue_size: int = QUEUE_SIZE, backoff: Backoff = DEFAULT_BACKOFF,
                 rng: random.Random | None = None, sleep: Sleep = asyncio.sleep,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.config, self.topics, self.discovery = config, topics, discovery
        self.on_result_acked, self.on_command = on_result_acked, on_command
        self.backoff, self.rng = backoff, rng or random.Random()
        self.sleep = sleep
        self.throttle = Throttle(now=now)
        self._queue: collections.deque[tuple[str, bytes, bool]] = collections.deque(maxlen=queue_size)
        self._state: bytes | None = None
        self._results: dict[str, Result] = {}
        self._wake = asyncio.Event()  # the queue has something
        self._wake_results = asyncio.Event()  # a result came
        self._stop = asyncio.Event()
        self._rediscovering = False  # a re-sent discovery is on its way
        self._session_tasks: set[asyncio.Task[None]] = set()
        self.dropped = 0  # states and events dropped from a full queue
        self.connected = False
        self.connects = 0
        self.last_error: str | None = None

    @property
    def client_id(self) -> str:
        """One per table, never shared: two clients with one id throw each other out."""
        return f"unotable-{self.topics.table_id}"

    # -- what the table calls: none of these waits -----------------------------------

    def publish_state(self, document: Mapping[str, Any]) -> None:
        """The table's state changed: `document` is firmware.mqtt.state.state_document."""
        self._state = json.dumps(document, ensure_ascii=False).encode()
        if self._queue and not self.connected:  # a waiting state is superseded, not sent late
            self._queue = collections.deque((q for q in self._queue if q[0] != self.topics.state),
                                            maxlen=self._queue.maxlen)
        self._put(self.topics.state, self._state, retain=True)

    def publish_event(self, document: Mapping[str, Any]) -> None:
        """Something happened: `document` is firmware.mqtt.state.event_document."""
        self._put(self.topics.event, json.dumps(document, ensure_ascii=False).encode(),
                  retain=False)

    def send_result(self, result: Result) -> None:
        """Publish `result` with QoS 1 until the broker acknowledges it, whatever the
        connection does meanwhile; sending one id twice keeps one."""
        self._results.setdefault(result.id, result)
        self._wake_results.set()

    @property
    def unacknowledged(self) -> list[str]:
        return list(self._results)

    def _put(self, topic: str, payload: bytes, *, retain: bool) -> None:
        if len(self._queue) == self._queue.maxlen:
            self.dropped += 1
        self._queue.append((topic, payload, retain))
        self._wake.set()

    # -- the connection --------------------------------------------------------------

    def stop(self) -> None:
        """End `run` after saying ``offline`` (a clean stop leaves no last will)."""
        self._stop.set()

    async def run(self) -> None:
        """Connect, serve, reconnect after a back-off; until `stop()` or cancelled."""
        failures = 0
        while not self._stop.is_set():
            try:
                async with aiomqtt.Client(
                        identifier=self.client_id, will=aiomqtt.Will(
                            self.topics.availability, OFFLINE, qos=1, retain=True),
                        **client_options(self.config)) as client:
                    failures = 0
                    try:
                        await self._session(client)
                    except asyncio.CancelledError:
                        await self._say_offline(client)
                        raise
            except aiomqtt.MqttError as exc:
                self._lost(str(exc))
            except OSError as exc:  # the CA file gone, a TLS failure outside the connect
                self._lost(f"{type(exc).__name__}: {exc}")
            if self._stop.is_set():
                break
            failures += 1
            await self.sleep(self.backoff.delay(failures, self.rng))

    def _lost(self, reason: str) -> None:
        if self.connected or reason != self.last_error:
            log.warning("mqtt: broker %s: %s; trying again", where(self.config), reason)
        self.connected = False
        self.last_error = reason

    async def _session(self, client: aiomqtt.Client) -> None:
        self.connected, self.last_error = True, None
        self.connects += 1
        log.info("mqtt: connected to %s as %s", where(self.config), self.client_id)
        await client.subscribe(self.topics.ha_status, qos=1)
        await client.subscribe(self.topics.command, qos=1)
        await client.publish(self.topics.availability, ONLINE, qos=1, retain=True)
        await self._publish_discovery(client)
        if self._state is not None:
            await client.publish(self.topics.state, self._state, qos=1, retain=True)
        tasks = [asyncio.create_task(job) for job in
                 (self._serve_queue(client), self._serve_results(client),
                  self._listen(client), self._stop.wait())]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            later = [*tasks, *self._session_tasks]
            self._session_tasks.clear()
            for task in later:
                task.cancel()
            await asyncio.gather(*later, return_exceptions=True)
        for task in done:
            if task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        await self._say_offline(client)

    async def _say_offline(self, client: aiomqtt.Client) -> None:
        """A clean stop sends no last will: say ``offline`` here, or try to."""
        self.connected = False
        with contextlib.suppress(aiomqtt.MqttError, TimeoutError):
            await asyncio.wait_for(client.publish(
                self.topics.availability, OFFLINE, qos=1, retain=True), OFFLINE_WITHIN_S)

    async def _publish_discovery(self, client: aiomqtt.Client) -> None:
        topic, payload = self.discovery
        await client.publish(topic, payload, qos=1, retain=True)

    async def _serve_queue(self, client: aiomqtt.Client) -> None:
        while True:
            while self._queue:
                topic, payload, retain = self._queue.popleft()
                await client.publish(topic, payload, qos=1, retain=retain)
            self._wake.clear()
            if not self._queue:
                await self._wake.wait()

    async def _serve_results(self, client: aiomqtt.Client) -> None:
        while True:
            while self._results:
                result = next(iter(self._results.values()))
                await client.publish(self.topics.results, result.payload(), qos=1)
                del self._results[result.id]  # aiomqtt returned: the broker's PUBACK came
                self._tell(self.on_result_acked, result.id)
            self._wake_results.clear()
            await self._wake_results.wait()

    async def _listen(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            text = message.payload.decode(errors="replace") if isinstance(
                message.payload, bytes) else str(message.payload)
            if message.topic.matches(self.topics.ha_status):
                if text == ONLINE and not self._rediscovering:
                    self._rediscovering = True  # one is coming: more births meanwhile add none
                    self._rediscover_soon(client)
            elif message.topic.matches(self.topics.command):
                self._command(text)

    def _rediscover_soon(self, client: aiomqtt.Client) -> None:
        """Discovery and state again after a random delay, beside the listening (a
        command is not held up by it); it ends with the connection."""
        async def later() -> None:
            try:
                await self.sleep(self.rng.uniform(0, BIRTH_JITTER_S))
                await self._publish_discovery(client)
                if self._state is not None:
                    await client.publish(self.topics.state, self._state, qos=1, retain=True)
            finally:
                self._rediscovering = False

        task = asyncio.create_task(later())
        self._session_tasks.add(task)
        task.add_done_callback(self._session_tasks.discard)

    def _command(self, text: str) -> None:
        if not self.config.commands:
            if self.throttle("commands off"):
                log.warning("mqtt: a command on %s, but [mqtt] commands is off: ignored",
                            self.topics.command)
        elif text not in COMMANDS:
            if self.throttle("bad command"):
                log.warning("mqtt: %r on %s is no command (%s): ignored", text[:40],
                            self.topics.command, ", ".join(COMMANDS))
        else:
            self._tell(self.on_command, text)

    @staticmethod
    def _tell(callback: Callable[[str], object], value: str) -> None:
        """The table's callback; its failure (a journal that cannot be written) is the
        table's to report, and never ends the link: an unjournaled acknowledgement only
        means the result is sent once more after a restart."""
        try:
            callback(value)
        except Exception:
            log.exception("mqtt: the table's %s(%r) failed", getattr(callback, "__name__", "callback"), value)
