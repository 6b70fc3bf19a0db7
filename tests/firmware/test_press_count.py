"""On the daemon's path the launcher device only deals. How many cards a press ejects
is a chance outcome of the game: the table draws it, journals it in the press's intent
before the motor starts, and asks the launcher to deal exactly that; it never presses
the launcher on the device's own rng (`Launcher.fire`; docs/architecture.md)."""

from __future__ import annotations

from firmware.journal.store import Journal
from firmware.sim.testbed import SimTable


def test_the_table_draws_each_press_journals_it_and_the_device_only_deals(tmp_path):
    dealt: list[int] = []

    def wrap(hw):
        launcher, deal = hw.launcher, hw.launcher.deal

        def refuse(*_args, **_kwargs):
            raise AssertionError("the daemon pressed the launcher on the device's own rng")

        def counting_deal(n, seat=None):
            dealt.append(n)
            return deal(n, seat)

        launcher.fire, launcher.deal = refuse, counting_deal
        return hw

    with SimTable(tmp_path, "attack", wrap_hardware=wrap) as table:
        table.play_until(lambda st: st["stats"]["launcher_presses"] >= 5)
        table.settle()
    with Journal.open(tmp_path / "journal.db", readonly=True) as journal:
        intents = [e.payload for e in journal.entries() if e.kind == "intent"]
    presses = [i for i in intents if i["job"] == "fire"]
    assert len(presses) >= 5 and all("model" in i for i in presses)
    assert dealt == [i["want"] for i in intents]  # one deal per intent, of the journaled count
