"""On the daemon's path the launcher device only deals. How many cards a press ejects
is a chance outcome of the game: the table draws it, journals it in the press's intent
before the motor starts, and asks the launcher to deal exactly that; it never presses
the launcher on the device's own rng (`Launcher.fire`; docs/architecture.md)."""

from __future__ import annotations

import shutil

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


def test_a_press_and_its_ejection_are_journaled_in_one_commit_before_the_motor_starts(
        tmp_path):
    """An SD card's sync is paid once per press: the press and the ejection's intent
    are one commit, and the motor starts right after it."""
    commits: list[list[tuple[str, dict]]] = []  # each commit's entries, in order
    started_after: list[int] = []  # how many commits were made when the motor started

    def wrap(hw):
        deal = hw.launcher.deal

        def counting_deal(n, seat=None):
            started_after.append(len(commits))
            return deal(n, seat)

        hw.launcher.deal = counting_deal
        return hw

    with SimTable(tmp_path, "attack", wrap_hardware=wrap) as table:
        journal = table.controller.journal
        append_all = journal.append_all

        def counting(items, **kwargs):
            commits.append([(kind, dict(payload)) for kind, payload in items])
            return append_all(items, **kwargs)

        table.call(lambda: setattr(journal, "append_all", counting))
        table.play_until(lambda st: st["stats"]["launcher_presses"] >= 8)
        table.settle()
    fires = [i for i, c in enumerate(commits)
             if any(kind == "intent" and p["job"] == "fire" for kind, p in c)]
    assert len(fires) >= 5
    for i in fires:
        (kind, press), (_, intent) = commits[i]
        assert kind == "action" and press["type"] == "press" and press["seat"] == intent["seat"]
        assert i + 1 in started_after  # no other commit before the motor started


def test_a_journal_with_each_press_and_its_intent_in_two_commits_replays_the_same(tmp_path):
    """Journals written before a press and its ejection's intent shared one commit hold
    the same entries, each in its own commit: they rebuild the same table."""
    first, again = tmp_path / "one", tmp_path / "two"
    with SimTable(first, "attack") as table:
        table.play_until(lambda st: st["stats"]["launcher_presses"] >= 6)
        table.settle()
        view = table.call(table.controller.journaled_view)
    with Journal.open(first / "journal.db", readonly=True) as old:
        match = old.match
        entries = list(old.entries(match_id=match.id))
    assert entries[0].seq == 1 and any(e.kind == "intent" for e in entries)
    again.mkdir()
    with Journal.open(again / "journal.db") as journal:
        journal.copy_match(match, [])
        for entry in entries:  # one commit each, as the table wrote them before
            journal.append(entry.kind, entry.payload, ref=entry.ref)
    shutil.copy(first / "journal.db.world.json", again / "journal.db.world.json")
    with SimTable(again, "attack") as table:
        assert table.call(table.controller.journaled_view) == view
