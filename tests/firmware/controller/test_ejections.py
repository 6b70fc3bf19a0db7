"""The launcher's part on its own: what the table owes becomes an ejection for the
right seat, the cards land there, and what stops the launcher stops it."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.controller.ejections import Job
from firmware.controller.events import EjectionDone
from firmware.controller.stops import JournalFault
from firmware.errors import Rejected
from firmware.journal.store import INTENT, RESULT
from hal.ejection import fixed_model
from hal.launcher import EjectionResult
from uno_core import effects as E


def launcher_table(make_table, state, *, edition="classic", seats=4):
    return make_table(state, "ejections", edition=edition, seats=seats)


def kinds(table) -> list[str]:
    return [e.kind for e in table.journal.entries() if e.kind != "card"]


def test_cards_owed_to_a_seat_are_dealt_to_that_seat(make_table):
    s = U.position("classic", counts=[5, 5, 5, 5], discard="R5", turn=0, mode="table")
    table = launcher_table(make_table, s)
    ej = table.ejections
    ej.adopt(U.Draw(2), [E.Dispense(2, 3)], s)
    assert list(ej.jobs) == [Job("deal", 2, 3)]
    assert ej.pump() is True and table.kinds() == ["ejecting"]
    assert ej.ejecting.to_json(table.words)["message"] == "the launcher is ejecting for South"
    table.loop.run_spawned()  # the motor runs in a worker thread, then reports back
    assert len(table.world.launcher_sim.cards_at(2)) == 3
    assert kinds(table) == [INTENT, RESULT] and not ej.jobs and ej.running is None
    assert table.stats["cards_ejected"] == 3 and ej.blocker is None
    assert table.events[-1] == {"kind": "ejected", "seat": 2, "job": "deal", "counted": 3,
                                "status": "ok", "step": 0}


def test_a_press_owed_becomes_a_launcher_firing_for_the_pressing_seat(make_table):
    s = U.position("attack", counts=[5, 5, 5], discard="R5", turn=1, mode="table")
    s, fx = U.apply(s, U.Press(1))
    table = launcher_table(make_table, s, edition="attack", seats=3)
    ej = table.ejections
    ej.adopt(U.Press(1), fx, s)
    assert list(ej.jobs) == [Job("fire", 1, 0)]
    assert ej.pump() is True
    table.loop.run_spawned()
    landed = len(table.world.launcher_sim.cards_at(1))
    assert table.adopted == [U.Eject(landed)]  # the count the exit sensor saw decides
    result = [e for e in table.journal.entries() if e.kind == RESULT][0]
    assert result.payload["counted"] == landed
    assert [e.kind for e in table.journal.entries() if e.ref == result.ref] == [RESULT,
                                                                              "action"]


def test_an_empty_hopper_stops_the_launcher_until_resumed(make_table):
    s = U.position("classic", counts=[5, 5, 5, 5], discard="R5", turn=0, mode="table")
    table = launcher_table(make_table, s)
    table.world.launcher_sim.empty_hopper()
    ej = table.ejections
    ej.adopt(U.Draw(1), [E.Dispense(1, 2)], s)
    ej.pump()
    table.loop.run_spawned()
    assert ej.blocker is not None and ej.blocker.to_json(table.words)["kind"] == "reload"
    assert table.hw.panel.get_status()["buzzer"] == "error"
    assert table.events[-1]["kind"] == "reload"  # announced under the stop's own kind
    assert table.events[-1]["message"].startswith("the launcher's hopper is empty")
    assert ej.pump() is False  # nothing starts while it is blocked
    ej.clear_blocker()
    assert ej.pump() is True and list(ej.jobs) == [Job("deal", 1, 2)]


def test_a_held_table_starts_no_motor(make_table):
    s = U.position("classic", counts=[5, 5, 5, 5], discard="R5", turn=0, mode="table")
    table = make_table(s, "journal_watch", "ejections", "admin")
    table.admin.paused = "tea"
    table.ejections.adopt(U.Draw(0), [E.Dispense(0, 1)], s)
    assert table.ejections.pump() is False
    assert kinds(table) == [] and table.loop.spawned == []
    table.admin.paused = None
    table.journal_watch.fault = JournalFault("full", "the disk is full")
    assert table.ejections.pump() is False
    assert kinds(table) == [] and table.loop.spawned == []
    table.journal_watch.fault = None
    assert table.ejections.pump() is True


def test_an_ejection_cut_off_by_a_crash_waits_for_the_count_then_goes_on(make_table):
    s = U.position("classic", counts=[5, 5, 5, 5], discard="R5", turn=0, mode="table")
    table = launcher_table(make_table, s)
    ej = table.ejections
    ej.adopt(U.Draw(3), [E.Dispense(3, 4)], s)
    intent = table.journal.intent({"job": "deal", "seat": 3, "want": 4})
    ej.started(intent.seq, intent.payload, replay=True)  # as the replay after a crash
    ej.cut_off(intent.seq)
    assert ej.recover is not None and ej.recover.to_json(table.words)["kind"] == "cards-out"
    assert ej.pump() is False
    ej.recovered(4)  # people counted the cards that came out
    assert ej.recover is None and not ej.jobs and table.stats["cards_ejected"] == 4
    result = [e for e in table.journal.entries() if e.kind == RESULT][0]
    assert result.ref == intent.seq and result.payload["status"] == "recovered"


def test_a_new_match_is_refused_while_the_launcher_runs(make_table):
    s = U.position("classic", counts=[5, 5, 5, 5], discard="R5", turn=0, mode="table")
    table = launcher_table(make_table, s)
    table.ejections.adopt(U.Draw(0), [E.Dispense(0, 1)], s)
    table.ejections.pump()
    with pytest.raises(Rejected) as refused:
        table.ejections.check_idle()
    assert refused.value.key == "refused.ejecting"
    table.loop.run_spawned()
    table.ejections.check_idle()


def cut_off_deal(make_table, want, seat=3):
    """A deal of `want` cards to `seat` that a crash cut off, as the replay finds it."""
    s = U.position("classic", counts=[5, 5, 5, 5], discard="R5", turn=0, mode="table")
    table = launcher_table(make_table, s)
    ej = table.ejections
    ej.adopt(U.Draw(seat), [E.Dispense(seat, want)], s)
    intent = table.journal.intent({"job": "deal", "seat": seat, "want": want})
    ej.started(intent.seq, intent.payload, replay=True)
    ej.cut_off(intent.seq)
    return table, ej


def test_after_a_cut_off_a_full_hopper_deals_the_rest_without_asking_to_reload(make_table):
    table, ej = cut_off_deal(make_table, 4)
    assert table.world.launcher_sim.stack  # the hopper sensor sees cards
    ej.recovered(2)  # people counted 2 of the 4 cards
    assert ej.blocker is None
    assert not [e for e in table.events if e["kind"] == "reload"]
    assert list(ej.jobs) == [Job("deal", 3, 2)] and ej.pump() is True
    table.loop.run_spawned()
    assert len(table.world.launcher_sim.cards_at(3)) == 2 and not ej.jobs


def test_after_a_cut_off_an_empty_hopper_asks_to_reload(make_table):
    table, ej = cut_off_deal(make_table, 4)
    table.world.launcher_sim.empty_hopper()
    ej.recovered(2)
    assert ej.blocker is not None
    assert table.events[-1]["kind"] == "reload"
    assert table.events[-1]["message"].startswith("the launcher's hopper is empty")


def test_a_launcher_fault_stops_as_a_jam_not_as_a_reload(make_table):
    """A result with status `fault` (the motor ran max_run_s, a stop) is a fault to
    clear, whatever the count: never "the hopper is empty" while it is full."""
    s = U.position("classic", counts=[5, 5, 5, 5], discard="R5", turn=0, mode="table")
    table = launcher_table(make_table, s)
    ej = table.ejections
    ej.adopt(U.Draw(1), [E.Dispense(1, 3)], s)
    assert ej.pump() is True
    table.loop.spawned.pop().close()  # the motor's worker, replaced by its result:
    fault = "motor ran max_run_s=4s without finishing"
    running = ej.running
    table.loop.post(EjectionDone(running.intent, EjectionResult(3, 1, "fault", 1, fault=fault),
                                 running.job.seat))
    table.loop.deliver()
    stop = table.events[-1]
    assert stop["kind"] == "jam" and stop["fault"] == fault
    assert "hopper" not in stop["message"]
    assert ej.blocker is not None and ej.blocker.to_json(table.words)["kind"] == "jam"


def test_a_press_never_asks_the_launcher_for_more_cards_than_the_pile_holds(make_table):
    # 112 cards: 1 on the discard pile, 109 in hands, 2 left in the launcher
    s = U.position("attack", counts=[37, 36, 36], discard="R5", turn=1, mode="table")
    assert s.pile_count == 2
    s, fx = U.apply(s, U.Press(1))
    table = launcher_table(make_table, s, edition="attack", seats=3)
    table.world.launcher_sim.load(range(20))  # the hopper could give more than the pile
    ej = table.ejections
    ej.launcher.model = fixed_model(13)  # this press draws 13 cards
    ej.adopt(U.Press(1), fx, s)
    assert ej.pump() is True
    [intent] = [e for e in table.journal.entries() if e.kind == INTENT]
    assert intent.payload["want"] == 2
    table.loop.run_spawned()
    assert len(table.world.launcher_sim.cards_at(1)) == 2
    assert table.adopted == [U.Eject(2)]
