"""The table's link to a real mosquitto: online and its last will, discovery on every
connect and after Home Assistant's birth message, a broker that is down or restarts,
results until acknowledged, commands off and on, credentials and TLS."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.mqtt.discovery import discovery_message
from firmware.mqtt.link import Backoff, TableLink
from firmware.mqtt.results import round_result
from firmware.mqtt.settings import MqttConfig
from firmware.mqtt.state import event_document, state_document
from firmware.mqtt.topics import Topics
from tests.mqtt.broker import Broker
from tests.mqtt.conftest import PASSWORD, USER
from tests.mqtt.watch import running, watching

TABLE = "5eed" * 8
TOPICS = Topics("homeassistant", "unotable", TABLE)


def settings(broker: Broker, **changes: object) -> MqttConfig:
    values: dict[str, object] = dict(
        url=broker.url, host="127.0.0.1", port=broker.port, tls=broker.tls,
        ca_file=str(broker.ca_file) if broker.ca_file else None,
        username=broker.username, password=broker.password)
    values.update(changes)
    return MqttConfig(**values)  # type: ignore[arg-type]


class Sleeps:
    """The link's sleep: records what it was asked and lets the loop run on at once."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        await asyncio.sleep(0.02)


def link(broker: Broker, *, commands: bool = False, **kwargs: object) -> TableLink:
    discovery = discovery_message(TOPICS, name="Bar 1", edition="classic",
                                  seat_names=["Anna", "Ben"], towers=False,
                                  commands=commands, version="test")
    kwargs.setdefault("sleep", Sleeps())
    kwargs.setdefault("rng", random.Random(1))
    return TableLink(settings(broker, commands=commands), TOPICS, discovery, **kwargs)  # type: ignore[arg-type]


def state(turn: str) -> dict:
    return state_document(edition="classic", phase="playing", turn=turn, match_running=True,
                          seats=[{"name": "Anna"}, {"name": "Ben"}])


def result(round_no: int) -> object:
    return round_result(table=TABLE, table_name="Bar 1", match="m1", round=round_no,
                        edition="classic", winner="Anna", points=10 * round_no,
                        scores={"Anna": 10 * round_no, "Ben": 0}, at=1.0)


def test_online_discovery_and_state_are_retained(broker: Broker) -> None:
    async def scenario() -> None:
        table = link(broker)
        table.publish_state(state("Anna"))
        async with running(table):
            async with watching(broker, f"unotable/{TABLE}/availability") as w:
                await w.until(lambda: w.on(TOPICS.availability) == [b"online"])
            async with watching(broker) as late:  # a Home Assistant that starts later
                await late.until(lambda: late.on(TOPICS.state) and late.on(TOPICS.discovery))
                assert all(s.retain for s in late.seen)
                assert json.loads(late.on(TOPICS.state)[-1])["turn"] == "Anna"
                assert json.loads(late.on(TOPICS.discovery)[0])["dev"]["ids"] == [TOPICS.device_id]
        async with watching(broker, TOPICS.availability) as after:
            await after.until(lambda: after.on(TOPICS.availability) == [b"offline"])

    asyncio.run(scenario())


def test_the_last_will_says_offline_after_a_sigkill(broker: Broker) -> None:
    table = subprocess.Popen([sys.executable, "-m", "tests.mqtt.table_process", broker.url, TABLE],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert table.stdout is not None and table.stdout.readline().strip() == "online"

        async def scenario() -> None:
            async with watching(broker, TOPICS.availability) as w:
                await w.until(lambda: w.on(TOPICS.availability) == [b"online"])
                table.send_signal(signal.SIGKILL)
                await w.until(lambda: w.on(TOPICS.availability) == [b"online", b"offline"])
            async with watching(broker, TOPICS.availability) as late:  # retained
                await late.until(lambda: late.on(TOPICS.availability) == [b"offline"])

        asyncio.run(scenario())
    finally:
        table.kill()
        table.wait()


def test_discovery_again_after_home_assistants_birth_with_jitter(broker: Broker) -> None:
    class Rng(random.Random):
        def uniform(self, a: float, b: float) -> float:
            self.drawn = (a, b)
            return 3.25

    async def scenario() -> None:
        sleeps, rng = Sleeps(), Rng()
        table = link(broker, sleep=sleeps, rng=rng)
        async with watching(broker, TOPICS.discovery) as w, running(table):
            await w.until(lambda: len(w.on(TOPICS.discovery)) == 1)
            await w.client.publish("homeassistant/status", "offline")
            await w.client.publish("homeassistant/status", "online")
            await w.until(lambda: len(w.on(TOPICS.discovery)) == 2)
            assert sleeps.asked == [3.25] and rng.drawn == (0, 5.0)

    asyncio.run(scenario())


def test_a_broker_that_is_down_never_holds_the_table_and_the_queue_keeps_the_newest(
        tmp_path: Path) -> None:
    broker = Broker.plain(tmp_path / "late")  # not started yet

    async def scenario() -> None:
        sleeps = Sleeps()
        table = link(broker, sleep=sleeps, queue_size=5, backoff=Backoff(first=1, most=8))
        async with running(table):
            await asyncio.sleep(0.3)  # a few attempts against a closed port
            for n in range(12):
                table.publish_event(event_document("card_played", card=f"R{n}"))
            table.send_result(result(1))
            assert table.dropped == 7 and not table.connected
            assert "refused" in (table.last_error or "").lower()
            assert len(sleeps.asked) >= 3
            assert all(1 * 0.5 <= s <= 8 for s in sleeps.asked)  # back-off, jittered, capped
            assert sleeps.asked[2] >= 2  # doubled after each failure
            broker.start()
            async with watching(broker) as w:
                await w.until(lambda: w.on(TOPICS.results))
                await w.until(lambda: len(w.on(TOPICS.event)) == 5)
                cards = [json.loads(p)["card"] for p in w.on(TOPICS.event)]
                assert cards == [f"R{n}" for n in range(7, 12)]

    try:
        asyncio.run(scenario())
    finally:
        broker.kill()


def test_results_wait_for_the_broker_and_are_sent_once_acknowledged(broker: Broker) -> None:
    async def scenario() -> None:
        acked: list[str] = []
        table = link(broker, on_result_acked=acked.append)
        async with watching(broker, TOPICS.results) as w, running(table):
            table.send_result(result(1))
            table.send_result(result(1))  # the same id again: kept once
            table.send_result(result(2))
            await w.until(lambda: len(acked) == 2)
            assert acked == [f"{TABLE}:m1:1", f"{TABLE}:m1:2"]
            assert table.unacknowledged == []
            await w.until(lambda: len(w.on(TOPICS.results)) == 2)

    asyncio.run(scenario())


def test_the_broker_restarting_mid_match(broker: Broker) -> None:
    async def scenario() -> None:
        acked: list[str] = []
        table = link(broker, on_result_acked=acked.append)
        async with running(table):
            async with watching(broker, TOPICS.results) as w:
                table.send_result(result(1))
                await w.until(lambda: acked)
            broker.stop()
            table.publish_state(state("Ben"))  # returns at once, the broker being away
            table.send_result(result(2))
            await asyncio.sleep(0.2)
            assert acked == [f"{TABLE}:m1:1"]
            broker.start()
            async with watching(broker) as w:
                await w.until(lambda: len(acked) == 2)
                await w.until(lambda: w.on(TOPICS.state))
                assert json.loads(w.on(TOPICS.state)[-1])["turn"] == "Ben"
                assert w.on(TOPICS.discovery) and w.on(TOPICS.availability)[-1] == b"online"
            assert table.connects == 2

    asyncio.run(scenario())


@pytest.mark.parametrize("commands", [False, True])
def test_commands_act_only_when_on(broker: Broker, commands: bool,
                                   caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> list[str]:
        heard: list[str] = []
        table = link(broker, commands=commands, on_command=heard.append, now=lambda: 0.0)
        async with watching(broker, TOPICS.availability) as w, running(table):
            await w.until(lambda: w.on(TOPICS.availability))
            for payload in ("pause", "launch the cards", "pause", "resume", "new_match"):
                await w.client.publish(TOPICS.command, payload, qos=1)
            await w.client.publish(TOPICS.ha_status, "online", qos=1)  # a marker after them
            async with watching(broker, TOPICS.discovery) as d:
                await d.until(lambda: len(d.on(TOPICS.discovery)) >= 2)
        return heard

    heard = asyncio.run(scenario())
    warnings = [r.getMessage() for r in caplog.records if "command" in r.getMessage()]
    if commands:
        assert heard == ["pause", "pause", "resume", "new_match"]
        assert len(warnings) == 1 and "no command" in warnings[0]
    else:
        assert heard == []
        assert len(warnings) == 1 and "commands is off" in warnings[0]  # once a second at most


def test_credentials(password_broker: Broker) -> None:
    async def scenario() -> None:
        wrong = link(password_broker)
        wrong.config = settings(password_broker, password="not-it")
        async with running(wrong):
            while wrong.last_error is None:
                await asyncio.sleep(0.02)
        assert "not authorized" in wrong.last_error.lower() and not wrong.connects
        assert "not-it" not in wrong.last_error and PASSWORD not in wrong.last_error
        right = link(password_broker)
        assert right.config.username == USER
        async with watching(password_broker, TOPICS.availability) as w, running(right):
            await w.until(lambda: w.on(TOPICS.availability) == [b"online"])

    asyncio.run(scenario())


def test_tls_with_the_tables_ca_and_a_clear_error_without(tls_broker: Broker) -> None:
    async def scenario() -> None:
        trusted = link(tls_broker)
        async with watching(tls_broker, TOPICS.availability) as w, running(trusted):
            await w.until(lambda: w.on(TOPICS.availability) == [b"online"])
        stranger = link(tls_broker)
        stranger.config = settings(tls_broker, ca_file=None)  # the system's CAs only
        async with running(stranger):
            while stranger.last_error is None:
                await asyncio.sleep(0.02)
        assert "certificate verify failed" in stranger.last_error and not stranger.connects

    asyncio.run(scenario())


def test_a_cancelled_link_says_offline_and_a_failing_callback_ends_nothing(
        broker: Broker, caplog: pytest.LogCaptureFixture) -> None:
    def journal_full(result_id: str) -> None:
        raise OSError("No space left on device")

    async def scenario() -> None:
        table = link(broker, on_result_acked=journal_full)
        async with watching(broker, "unotable/#") as w:
            task = asyncio.create_task(table.run())
            table.send_result(result(1))
            table.send_result(result(2))
            await w.until(lambda: len(w.on(TOPICS.results)) == 2)  # the second one too
            assert table.connected
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await w.until(lambda: w.on(TOPICS.availability)[-1:] == [b"offline"])

    asyncio.run(scenario())
    failures = [r for r in caplog.records
                if r.name == "firmware.mqtt.link" and "failed" in r.getMessage()]
    assert len(failures) == 2 and "journal_full" in failures[0].getMessage()


def test_the_link_built_from_a_config_announces_its_seats(broker: Broker, tmp_path: Path) -> None:
    from firmware.config import DEFAULT_PATH, load_config
    from firmware.mqtt.table import build_link

    path = tmp_path / "config.toml"
    path.write_text(DEFAULT_PATH.read_text() + f'\n[mqtt]\nurl = "{broker.url}"\nname = "Den"\n')
    config = load_config(path)

    async def scenario() -> dict:
        assert config.mqtt is not None
        table = build_link(config.mqtt, TABLE, edition=config.table.edition,
                           seat_names=config.table.names, version="9.9", sleep=Sleeps())
        async with watching(broker, TOPICS.discovery) as w, running(table):
            found = await w.until(lambda: w.on(TOPICS.discovery))
        return json.loads(found[0])

    document = asyncio.run(scenario())
    assert document["dev"]["name"] == "Den" and document["dev"]["sw"] == "9.9"
    seats = [c["name"] for k, c in document["cmps"].items() if k.endswith("_score")]
    assert seats == [f"{name} score" for name in config.table.names]


def test_states_that_waited_for_the_broker_are_superseded_not_sent_late(tmp_path: Path) -> None:
    broker = Broker.plain(tmp_path / "late")  # not started yet

    async def scenario() -> None:
        watched = asyncio.Event()

        async def retry_once_watched(_seconds: float) -> None:
            await watched.wait()  # the next attempt comes once the watcher listens

        table = link(broker, sleep=retry_once_watched)
        async with running(table):
            await asyncio.sleep(0.1)
            for n in range(1, 4):
                table.publish_state(state_document(edition="classic", phase="playing",
                                                   seats=[{"name": "A"}], round=n))
                table.publish_event(event_document("card_played", card=f"R{n}"))
            broker.start()
            async with watching(broker) as w:
                watched.set()
                await w.until(lambda: len(w.on(TOPICS.event)) == 3)
                await w.until(lambda: w.on(TOPICS.state))
                assert {json.loads(p)["round"] for p in w.on(TOPICS.state)} == {3}

    try:
        asyncio.run(scenario())
    finally:
        broker.kill()
