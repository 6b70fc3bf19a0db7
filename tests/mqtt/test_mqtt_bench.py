"""bench/mqtt_tables.py in its smallest mode: two tables of bots on one mosquitto, every
result stored once, the figures there. No timing is asserted: the machine decides it."""

from __future__ import annotations

from bench import mqtt_tables


def test_two_tables_store_every_result_once() -> None:
    result = mqtt_tables.run(tables=2, rounds=1)
    got = {f.name: f for f in result.figures}
    assert result.ok, result.to_json()
    assert got["results stored"].value == 2 and got["duplicates stored"].value == 0
    assert got["messages from the tables"].value > 2
    assert {"collector lag p99", "broker CPU", "table CPU, most"} <= set(got)
    assert [t["status"] for t in result.detail["tables"]] == [0, 0]
