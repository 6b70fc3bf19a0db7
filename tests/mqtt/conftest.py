"""Fixtures: a real mosquitto per test (plain, with a password, with TLS)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mqtt.broker import Broker

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
