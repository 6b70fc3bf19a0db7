"""`unotable results` against a real mosquitto: each result kept once however often it
comes, nothing lost when the collector or the broker stops, and `results show`."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.mqtt.collector import Collector, collector_id
from firmware.mqtt.results import Result
from firmware.mqtt.settings import parse_config
from firmware.mqtt.store import ResultsStore
from tests.mqtt.broker import Broker, free_port
from tests.mqtt.collector_process import CollectorProcess, stored, unotable, wait_for_count
from tests.mqtt.conftest import PASSWORD, USER
from tests.mqtt.results_samples import TABLE_A, TABLE_B, a_match, a_round, publish


def test_restarts_of_collector_and_broker_lose_nothing_and_double_nothing(
        broker: Broker, collector: CollectorProcess) -> None:
    publish(broker, [a_round(TABLE_A, n) for n in range(1, 6)])
    assert len(wait_for_count(collector.db, 5)["results"]) == 5

    collector.kill()  # SIGKILL: the broker keeps its session's messages meanwhile
    publish(broker, [a_round(TABLE_A, n) for n in range(6, 11)]
            + [a_round(TABLE_B, n, "Ben") for n in range(1, 4)]
            + [a_round(TABLE_A, 3)])  # a table re-sending one its outbox still held
    collector.start()
    assert len(wait_for_count(collector.db, 13)["results"]) == 13

    collector.kill()
    broker.stop()  # the broker saves its sessions and stops
    broker.start()
    publish(broker, [a_round(TABLE_A, 11), a_match(TABLE_A, 11, "Anna"), a_round(TABLE_B, 2, "Ben")])
    collector.start()
    wait_for_count(collector.db, 15)
    time.sleep(0.5)  # anything doubled would have arrived with the rest
    found = stored(collector.db)
    ids = [r["id"] for r in found["results"]]
    assert len(ids) == len(set(ids)) == 15
    assert set(ids) == ({f"{TABLE_A}:m1:{n}" for n in range(1, 12)} | {f"{TABLE_A}:m1:end"}
                        | {f"{TABLE_B}:m1:{n}" for n in range(1, 4)})
    assert collector.stop() == 0


def test_two_tables_standings_and_what_is_not_a_result(
        broker: Broker, collector: CollectorProcess) -> None:
    publish(broker, [a_round(TABLE_A, 1, "Anna"), a_round(TABLE_A, 2, "Ben"),
                     a_match(TABLE_A, 2, "Anna"), a_round(TABLE_B, 1, "Ben"),
                     a_round(TABLE_B, 2, "Ben"), a_match(TABLE_B, 2, "Ben"),
                     a_round(TABLE_B, 3, "Cleo", match="m2")],
            raw=[(f"unotable/{TABLE_A}/results", b"not json"),
                 (f"unotable/{TABLE_A}/results", json.dumps({"id": "x"}).encode())])
    found = wait_for_count(collector.db, 7)
    assert [r["id"] for r in found["results"]][:3] == [
        f"{TABLE_A}:m1:1", f"{TABLE_A}:m1:2", f"{TABLE_A}:m1:end"]
    first = found["results"][0]
    assert (first["table"], first["match"], first["round"], first["scores"]) == (
        TABLE_A, "m1", 1, {"Anna": 10, "Ben": 0, "Cleo": 0})
    players = {p["name"]: p for p in found["standings"]["players"]}
    assert [p["name"] for p in found["standings"]["players"]] == ["Ben", "Anna", "Cleo"]
    assert (players["Ben"]["matches_won"], players["Ben"]["rounds_won"],
            players["Ben"]["points"]) == (1, 3, 20 + 10 + 20)
    tables = {t["name"]: t for t in found["standings"]["tables"]}
    assert (tables["Bar 1"]["matches"], tables["Bar 1"]["rounds"]) == (1, 2)
    assert tables["Window"]["last_winner"] == "Ben" and tables["Window"]["rounds"] == 3
    collector.wait_for_log("not kept")  # and nothing stored: 7 results, no more

    text = unotable("results", "show", "--db", str(collector.db))
    assert text.returncode == 0
    lines = text.stdout.splitlines()
    assert lines[1].split() == ["1.", "Ben", "1", "3", "50"]
    assert any(line.strip().startswith("Window: 1 matches, 3 rounds, last winner Ben")
               for line in lines)


def test_the_store_keeps_an_id_once(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path / "r.db")
    assert store.add(a_round(TABLE_A, 1)) is True
    assert store.add(a_round(TABLE_A, 1)) is False
    store.close()
    again = ResultsStore.read_only(tmp_path / "r.db")
    assert [r["id"] for r in again.results()] == [f"{TABLE_A}:m1:1"]
    again.close()


def test_a_collector_that_dies_before_committing_gets_the_result_again(
        broker: Broker, tmp_path: Path) -> None:
    """The broker's acknowledgement waits for the commit: a collector that received a
    result and died before keeping it is sent it again by the broker."""
    config = parse_config({"url": broker.url})
    assert config is not None

    class DiesOnFirstAdd(ResultsStore):
        def add(self, result: Result, stored_at: float = 0.0) -> bool:
            raise RuntimeError("power cut")

    async def scenario() -> list[str]:
        doomed = Collector(config, DiesOnFirstAdd(tmp_path / "r.db"), client_id="collector-1")
        task = asyncio.create_task(doomed.run())
        while not doomed.connected:
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)  # its subscription is in place
        await asyncio.to_thread(publish, broker, [a_round(TABLE_A, 1)])
        with pytest.raises(RuntimeError, match="power cut"):
            async with asyncio.timeout(10):
                await task
        store = ResultsStore(tmp_path / "r.db")
        stored_ids: list[str] = []
        again = Collector(config, store, client_id="collector-1", wall=lambda: 1_765_000_030.5,
                          on_stored=lambda rid, new: stored_ids.append(rid))
        task = asyncio.create_task(again.run())
        async with asyncio.timeout(10):
            while not stored_ids:
                await asyncio.sleep(0.02)
        task.cancel()
        return [(r["id"], r["stored_at"] - r["at"]) for r in store.results()]

    assert asyncio.run(scenario()) == [(f"{TABLE_A}:m1:1", 29.5)]  # kept 29.5 s after its end


def test_the_collector_logs_in_with_a_password_it_never_shows(
        password_broker: Broker, tmp_path: Path) -> None:
    log = tmp_path / "collector.log"
    env = {**os.environ, "UNOTABLE_MQTT_PASSWORD": PASSWORD}
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware", "results", "--mqtt", password_broker.url,
         "--username", USER, "--db", str(tmp_path / "r.db"), "--port", str(free_port())],
        stdout=subprocess.DEVNULL, stderr=log.open("w"), env=env)
    try:
        deadline = time.monotonic() + 20
        while "results: subscribed" not in log.read_text():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        publish(password_broker, [a_round(TABLE_A, 1)])
        assert [r["id"] for r in wait_for_count(tmp_path / "r.db", 1)["results"]] == [
            f"{TABLE_A}:m1:1"]
    finally:
        process.kill()
        process.wait()
    assert PASSWORD not in log.read_text()
    assert collector_id(tmp_path / "r.db") == collector_id(tmp_path / "." / "r.db")
    assert collector_id(tmp_path / "r.db") != collector_id(tmp_path / "other.db")
