"""`unotable run` on the twin: the simulated tray readers stand in for the real ones, but
the user's `[tray]` timing options (poll pace, idle pace, debounce) still apply."""

from __future__ import annotations

from dataclasses import replace

from firmware.config import load_config
from firmware.sim.demo import sim_config
from firmware.sim.world import World

TIMING = ("poll_interval_s", "idle_poll_interval_s", "idle_after_s", "seen_polls",
          "missed_polls")


def _world(tmp_path, factory, *, fast, tray):
    config = sim_config("power", 4, 1, tmp_path / "journal.db")
    return World("power", 4, 1, launcher=config.hardware["launcher"],
                 panel=config.hardware["seats"], factory=factory, fast=fast, tray=tray)


def test_the_twin_takes_the_users_tray_timing_and_keeps_its_own_readers(tmp_path,
                                                                        mock_factory):
    default = load_config().hardware["tray"]
    user = replace(default, poll_interval_s=0.5, idle_poll_interval_s=3.0,
                   idle_after_s=9.0, seen_polls=3, missed_polls=4)
    world = _world(tmp_path, mock_factory, fast=False, tray=user)
    hardware = world.hardware()
    try:
        cfg = hardware.tray.config
        assert tuple(getattr(cfg, k) for k in TIMING) == (0.5, 3.0, 9.0, 3, 4)
        assert {r.slot: r.port for r in cfg.readers} == {
            slot: dev.port for slot, dev in world.tray_sim.readers.items()}
        assert all(r.port != d.port for r, d in zip(cfg.readers, default.readers, strict=True))
    finally:
        hardware.close()
        world.close()


def test_a_fast_twin_keeps_its_fast_pace(tmp_path, mock_factory):
    user = replace(load_config().hardware["tray"], poll_interval_s=0.5,
                   idle_poll_interval_s=3.0)
    world = _world(tmp_path, mock_factory, fast=True, tray=user)
    hardware = world.hardware()
    try:
        assert hardware.tray.config.poll_interval_s == world.tray_poll_s < 0.5
    finally:
        hardware.close()
        world.close()
