"""`unotable selftest` checks the broker of `[mqtt]` when the config has one: ok with the
right password, the reason in one line (never the password) when it cannot connect."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.mqtt.broker import Broker
from tests.mqtt.conftest import PASSWORD
from tests.mqtt.test_mqtt_commands import table_config


def selftest(config: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "firmware", "selftest", "--yes", "--json",
                           "--config", str(config)], capture_output=True, text=True, timeout=120)
    assert PASSWORD not in done.stdout + done.stderr and "wrong-Pass" not in done.stdout
    return {c["name"]: c for c in json.loads(done.stdout)["checks"]}


def test_selftest_reports_the_broker(password_broker: Broker, tmp_path: Path) -> None:
    good = selftest(table_config(tmp_path, password_broker))["mqtt"]
    assert good["outcome"] == "ok"
    assert good["detail"] == f"connected to {password_broker.url} as table1"
    bad = selftest(table_config(tmp_path, password_broker, password="wrong-Pass-1"))["mqtt"]
    assert bad["outcome"] == "FAIL" and "not authorized" in bad["detail"].lower()


def test_selftest_without_mqtt_has_no_broker_line(tmp_path: Path) -> None:
    from firmware.config import DEFAULT_PATH

    assert "mqtt" not in selftest(DEFAULT_PATH)
