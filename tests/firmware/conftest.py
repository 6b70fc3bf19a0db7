"""Fixtures of the firmware tests."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest

from firmware.sim.demo import sim_config
from firmware.sim.world import World


def request(url: str, method: str, path: str, body: dict | None = None,
            token: str | None = None, lang: str | None = None) -> tuple[int, dict]:
    """A blocking request to the table's API at `url` (`body` as JSON, the bearer `token`,
    an Accept-Language): (status, the answer's JSON), an error status included."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if lang:
        headers["Accept-Language"] = lang
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def post(url: str, path: str, body: dict) -> tuple[int, dict]:
    """POST `body` as JSON (`request`)."""
    return request(url, "POST", path, body)


def dealing_through(hook: Callable[..., Any]) -> Callable[[Any], Any]:
    """A `SimTable(wrap_hardware=...)` whose launcher deals through `hook(deal, n, seat)`,
    `deal` being the real one: a test stops or holds a deal where a crash would."""

    def wrap(hw: Any) -> Any:
        real = hw.launcher.deal
        hw.launcher.deal = lambda n, seat=None: hook(real, n, seat)
        return hw

    return wrap


@pytest.fixture
def world(tmp_path, mock_factory):
    """The simulated table's world for a classic match of two, saved beside its journal
    (no daemon: the test plays the table's part)."""
    config = sim_config("classic", 2, 1, tmp_path / "journal.db")
    w = World("classic", 2, 1, launcher=config.hardware["launcher"],
              panel=config.hardware["seats"], factory=mock_factory,
              path=tmp_path / "journal.db.world.json")
    yield w
    w.close()
