"""A running table (the daemon on the twin, its `[mqtt]` on a real mosquitto).

Home Assistant's buttons: with ``commands = true`` pause, resume and a new match act as
the owner, journaled as come by MQTT; with commands off, or a payload that is no
command, nothing changes (and the link says so in its log). The broker stopped
mid-match: the table plays to the match's end, and once the broker is back the round's
and the match's results reach the collector and the retained state is the last one. A
tray reader that stops answering is named in the state (Home Assistant's Reader down)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path

import pytest

from firmware.mqtt.settings import parse_config
from firmware.sim.testbed import SimTable
from tests.mqtt.broker import Broker
from tests.mqtt.watch import WAIT_S, broker_client

LINK_LOG = "firmware.mqtt.link"


def settings(broker: Broker, commands: bool):  # noqa: ANN201 - MqttConfig
    config = parse_config({"url": broker.url, "commands": commands})
    assert config is not None
    return config


def press(broker: Broker, table: SimTable, payload: str) -> None:
    topic = f"unotable/{(table.journal_path.parent / 'table-id').read_text().strip()}/command"

    async def send() -> None:
        async with broker_client(broker) as client:
            await client.publish(topic, payload, qos=1)

    asyncio.run(send())


def connected(table: SimTable) -> None:
    table.wait_for(lambda _s: table.controller.lookup("mqtt").link.connected, timeout=WAIT_S)


def admin_entries(table: SimTable) -> list[dict]:
    return table.call(lambda: [e.payload for e in table.controller.journal.entries()
                               if e.kind == "admin"])


def logged(caplog: pytest.LogCaptureFixture, text: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not any(text in r.getMessage() for r in caplog.records):
        assert time.monotonic() < deadline, f"no {text!r} logged"
        time.sleep(0.02)


def test_buttons_pause_resume_and_start_a_match_as_the_owner(broker: Broker,
                                                              tmp_path: Path) -> None:
    with SimTable(tmp_path, mqtt=settings(broker, True)) as table:
        connected(table)
        first = table.state()["match"]["id"]
        press(broker, table, "pause")
        assert table.wait_for(lambda s: s["paused"] is not None)["paused"] == "paused"
        assert admin_entries(table)[-1] == {
            "action": "pause", "reason": "paused",
            "by": {"role": "owner", "seat": None, "via": "mqtt"}}
        press(broker, table, "resume")
        table.wait_for(lambda s: s["paused"] is None)
        assert admin_entries(table)[-1]["by"]["via"] == "mqtt"
        press(broker, table, "new_match")
        state = table.wait_for(lambda s: s["match"]["id"] != first)
        assert state["step"] <= 1  # a fresh match: nobody played for a seat
        meta = table.call(lambda: [e.payload for e in table.controller.journal.entries()
                                   if e.kind == "meta"])[-1]
        assert meta["by"] == {"role": "owner", "seat": None, "via": "mqtt"}


def test_commands_off_or_malformed_change_nothing(broker: Broker, tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger=LINK_LOG)
    with SimTable(tmp_path / "off", mqtt=settings(broker, False)) as table:
        connected(table)
        before = table.journal_seq
        press(broker, table, "pause")
        logged(caplog, "commands is off")
        assert table.state()["paused"] is None and admin_entries(table) == []
        assert table.journal_seq == before
    with SimTable(tmp_path / "on", mqtt=settings(broker, True)) as table:
        connected(table)
        before = table.journal_seq
        press(broker, table, '{"pause": true}')
        logged(caplog, "is no command")
        assert table.state()["paused"] is None and admin_entries(table) == []
        assert table.journal_seq == before


def test_the_broker_stopped_and_started_mid_match(broker: Broker, tmp_path: Path) -> None:
    from tests.mqtt.collector_process import CollectorProcess, wait_for_count
    from tests.mqtt.test_mqtt_commands import retained

    with SimTable(tmp_path / "table", mqtt=settings(broker, False),
                  options={"target_score": 1}) as table:
        connected(table)
        # The bar's collector has subscribed once, so the broker keeps its session: what
        # the table sends while the collector is away waits for it there.
        collector = CollectorProcess(broker, tmp_path / "results.db", tmp_path / "c.log")
        collector.start()
        collector.kill()
        broker.stop()
        state = table.play_until(lambda s: s["phase"] == "match_over")  # plays on meanwhile
        assert state["winners"]
        link = table.controller.lookup("mqtt").link
        assert len(link.unacknowledged) == 2  # the round's and the match's, in the outbox
        broker.start()
        try:
            collector.start()
            found = wait_for_count(collector.db, 2)["results"]
        finally:
            collector.kill()
        assert sorted(r["kind"] for r in found) == ["match", "round"]
        table.wait_for(lambda _s: not link.unacknowledged, timeout=WAIT_S)
        topic = f"unotable/{link.topics.table_id}/state"
        assert json.loads(retained(broker, [topic])[topic])["phase"] == "match_over"


def test_a_tray_reader_that_stops_answering_shows_in_the_state(broker: Broker,
                                                               tmp_path: Path) -> None:
    from tests.mqtt.test_mqtt_commands import retained

    with SimTable(tmp_path, "power", mqtt=settings(broker, False)) as table:
        connected(table)
        link = table.controller.lookup("mqtt").link
        topic = f"unotable/{link.topics.table_id}/state"
        table.world.tray_sim.reader(2).close()
        deadline = time.monotonic() + WAIT_S
        while not (down := json.loads(retained(broker, [topic]).get(topic, b"{}")).get(
                "readers_down")):
            assert time.monotonic() < deadline, "no reader down in the state"
            table.pass_time(1.0)
        assert down == [table.config.table.names[2]]
