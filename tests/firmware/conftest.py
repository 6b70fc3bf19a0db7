"""Fixtures of the firmware tests."""

from __future__ import annotations

import pytest

from firmware.sim.demo import sim_config
from firmware.sim.world import World


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
