"""Fixtures: a real mosquitto per test (plain, with a password, with TLS)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mqtt.broker import Broker
from tests.mqtt.collector_process import CollectorProcess

USER, PASSWORD = "table1", "s3cret-broker-pass"


def _running(broker: Broker) -> Iterator[Broker]:
    try:
        yield broker.start()
    finally:
        broker.kill()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from _running(Broker.plain(tmp_path / "broker"))


@pytest.fixture
def password_broker(tmp_path: Path) -> Iterator[Broker]:
    yield from _running(Broker.with_password(tmp_path / "broker", USER, PASSWORD))


@pytest.fixture
def tls_broker(tmp_path: Path) -> Iterator[Broker]:
    yield from _running(Broker.with_tls(tmp_path / "broker"))


@pytest.fixture
def collector(broker: Broker, tmp_path: Path) -> Iterator[CollectorProcess]:
    process = CollectorProcess(broker, tmp_path / "results.db", tmp_path / "collector.log")
    try:
        yield process.start()
    finally:
        process.kill()
