"""The daemon on MQTT: the demo's table (`unotable demo --mqtt URL`, the real daemon on
the twin) publishes its state, its events and its results to a real mosquitto; the
results reach the collector exactly once, a broker that is down never stops the table,
and a daemon SIGKILLed between a round's end and the broker's acknowledgement sends
the result after its restart."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from pathlib import Path

from firmware.mqtt.outbox import ACKED_KIND, RESULT_KIND
from firmware.mqtt.state import EVENT_TYPES, PHASES
from tests.mqtt.broker import Broker, free_port
from tests.mqtt.collector_process import CollectorProcess, wait_for_count
from tests.mqtt.watch import watching

DEMO_S = 240.0  # a bound on a demo on a busy machine, not a timing being tested


async def demo(journal: Path, url: str, *args: str, env: dict[str, str] | None = None) -> int:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "firmware", "demo", "--fast", "--json", "--journal",
        str(journal), "--mqtt", url, *args, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE, env={**os.environ, **(env or {})})
    async with asyncio.timeout(DEMO_S):
        _, err = await process.communicate()
    assert process.returncode is not None
    if process.returncode not in (0, -signal.SIGKILL):
        raise AssertionError(err.decode()[-3000:])
    return process.returncode


def journaled(journal: Path, kind: str) -> list[dict]:
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        return [json.loads(p) for (p,) in db.execute(
            "SELECT payload FROM entries WHERE kind = ? ORDER BY seq", (kind,))]


def table_id(journal: Path) -> str:
    return (journal.parent / "table-id").read_text().strip()


def test_the_demo_table_publishes_state_events_and_results(broker: Broker, tmp_path: Path,
                                                           collector: CollectorProcess) -> None:
    journal = tmp_path / "table" / "journal.db"
    journal.parent.mkdir()

    async def run() -> list:
        async with watching(broker, "#") as w:
            assert await demo(journal, broker.url, "--rounds", "2") == 0
            table = table_id(journal)
            await w.until(lambda: w.on(f"unotable/{table}/availability")[-1:] == [b"offline"])
            return [table, w.seen]

    table, seen = asyncio.run(run())
    on = lambda topic: [s.payload for s in seen if s.topic == f"unotable/{table}/{topic}"]  # noqa: E731
    assert on("availability")[0] == b"online"
    discovery = [s for s in seen if s.topic == f"homeassistant/device/unotable_{table}/config"]
    assert discovery and json.loads(discovery[0].payload)["dev"]["sn"] == table
    states = [json.loads(p) for p in on("state")]
    assert all(s["phase"] in PHASES for s in states)
    assert {"playing", "round_over"} <= {s["phase"] for s in states}
    last = states[-1]
    assert [s["name"] for s in last["seats"]] == ["North", "East", "South", "West"]
    assert last["round"] >= 2 and max(last["scores"].values()) > 0
    events = [json.loads(p) for p in on("event")]
    assert {e["event_type"] for e in events} <= set(EVENT_TYPES)
    assert {"card_played", "round_won"} <= {e["event_type"] for e in events}
    played = next(e for e in events if e["event_type"] == "card_played")
    assert played["seat"] in last["scores"] and played["card"]
    # each round once at the collector, acknowledged in the journal
    found = wait_for_count(collector.db, 2)["results"]
    assert sorted((r["kind"], r["round"]) for r in found) == [("round", 1), ("round", 2)]
    assert {r["table"] for r in found} == {table}
    assert len(journaled(journal, RESULT_KIND)) == 2
    assert len(journaled(journal, ACKED_KIND)) == 2


def test_a_broker_that_is_not_there_never_stops_the_table(tmp_path: Path) -> None:
    journal = tmp_path / "table" / "journal.db"
    journal.parent.mkdir()
    nobody = f"mqtt://127.0.0.1:{free_port()}"
    assert asyncio.run(demo(journal, nobody, "--rounds", "2")) == 0
    kept = journaled(journal, RESULT_KIND)
    assert [r["round"] for r in kept] == [1, 2]  # in the outbox, for when it comes
    assert journaled(journal, ACKED_KIND) == []


def test_killed_between_a_rounds_end_and_its_ack_sends_it_once(broker: Broker,
                                                               tmp_path: Path) -> None:
    journal = tmp_path / "table" / "journal.db"
    journal.parent.mkdir()
    broker.stop()
    # the bots tap "next round" after round 1's end: the daemon dies right after
    killed = asyncio.run(demo(journal, broker.url, "--rounds", "2",
                              env={"UNOTABLE_DEMO_KILL_AFTER": "next-round:1"}))
    assert killed == -signal.SIGKILL
    assert [r["round"] for r in journaled(journal, RESULT_KIND)] == [1]
    assert journaled(journal, ACKED_KIND) == []
    broker.start()
    collector = CollectorProcess(broker, tmp_path / "results.db", tmp_path / "collector.log")
    try:
        collector.start()

        async def restart() -> list[bytes]:
            async with watching(broker, "unotable/+/results") as w:
                assert await demo(journal, broker.url, "--rounds", "2") == 0
                await w.until(lambda: len(w.seen) >= 2)
                return [s.payload for s in w.seen]

        sent = asyncio.run(restart())
        found = wait_for_count(collector.db, 2)["results"]
    finally:
        collector.kill()
    table = table_id(journal)
    assert sorted(r["id"] for r in found) == sorted(
        {json.loads(p)["id"] for p in sent}) == sorted(
        f"{table}:{r['match']}:{r['round']}" for r in journaled(journal, RESULT_KIND))
    assert [r["round"] for r in found if r["kind"] == "round"] == [1, 2]
    assert len(journaled(journal, ACKED_KIND)) == 2


def test_demo_refuses_a_url_that_is_no_broker(tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run([sys.executable, "-m", "firmware", "demo", "--fast", "--mqtt",
                           "http://user:pw@host"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--mqtt.url" in done.stderr
    assert "pw" not in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "firmware", "demo", "--fast", "--mqtt",
                           "ftp://host"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "mqtt://HOST" in done.stderr
