"""On the twin nobody can lift a simulated tower: the owner confirms a captured tower on
the screen (override tower-seen), and the twin carries it there, so a restart of the
daemon (a SIGKILL: the world is saved at every change) finds the tower where the
journal says it is, and raises no false tower alarm."""

from __future__ import annotations

from firmware.api import Admin
from firmware.sim.testbed import SimTable


def captured(st: dict) -> bool:
    w = st["waiting"]
    return w["kind"] == "tower" and w["seat"] is not None


def test_a_tower_the_owner_saw_arrive_stays_there_after_a_restart(tmp_path):
    with SimTable(tmp_path, "power", players=4, seed=1) as table:
        st = table.play_until(captured)
        tower, slot = st["waiting"]["tower"], st["waiting"]["slot"]
        table.submit(Admin("override", {"kind": "tower-seen", "tower": tower, "seat": slot}))
        st = table.settle()
        assert st["waiting"]["kind"] != "alarm", st["waiting"]
        assert table.world.towers[tower] == slot
    with SimTable(tmp_path, "power", players=4, seed=1) as again:  # the daemon back up
        st = again.settle()
        assert st["towers"][tower] == slot and again.world.towers[tower] == slot
        for _ in range(6):  # the table's tower checks after the restart: no alarm among them
            assert st["waiting"]["kind"] != "alarm", st["waiting"]
            if st["waiting"]["kind"] != "tower":
                break
            again.bot_step()
            st = again.settle()
        assert again.world.agree, again.world.mismatches
