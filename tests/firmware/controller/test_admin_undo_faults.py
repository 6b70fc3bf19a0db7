"""The admin, undo and journal-fault parts on their own: pause and resume, taking a
declaration back, and a journal that cannot be written for a while."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.api import requests as api
from firmware.controller.faults import JOURNAL_RETRY_S, JournalRetry
from firmware.controller.stops import Jam
from firmware.errors import JournalUnwritable, Rejected
from firmware.waits import Wait
from firmware.words.rejected import Phrase
from uno_core import effects as E


def full_table(make_table, state=None, **kw):
    state = state or U.position("classic", counts=[5, 5, 5], discard="R5", turn=0,
                                mode="table")
    return make_table(state, "journal_watch", "ejections", "towers", "admin", "requests",
                      "undo", "waits", seats=3, **kw)


def admin(table, action, **params):
    return table.admin.submit(api.Admin(action, params))


def test_a_pause_is_journaled_announced_and_refused_twice(make_table):
    table = full_table(make_table)
    assert admin(table, "pause", reason="dinner") == {"paused": "dinner"}
    assert [e.payload for e in table.journal.entries()] == [
        {"action": "pause", "reason": "dinner"}]
    assert table.kinds() == ["paused"] and table.settled == 1  # its timers are held
    with pytest.raises(Rejected) as refused:
        admin(table, "pause")
    assert refused.value.key == "refused.already_paused"
    assert admin(table, "resume") == {"resumed": True}
    assert table.admin.paused is None and table.settled == 2


def test_resuming_after_a_jam_lets_the_launcher_run_again(make_table):
    table = full_table(make_table)
    with pytest.raises(Rejected) as refused:
        admin(table, "resume")
    assert refused.value.key == "refused.nothing_to_resume"
    table.world.launcher_sim.inject_jam(clears_on_reverse=False)
    table.ejections.adopt(U.Draw(1), [E.Dispense(1, 2)], table.state)
    table.ejections.pump()
    table.loop.run_spawned()
    assert isinstance(table.ejections.blocker, Jam)
    assert table.hw.launcher.get_status()["fault"] is not None
    table.world.launcher_sim.clear_jam()  # someone cleared it
    admin(table, "resume")
    assert table.ejections.blocker is None
    assert table.hw.launcher.get_status()["fault"] is None
    assert table.ejections.pump() is True  # the owed cards go out now


def test_cards_out_needs_a_cut_off_ejection_and_a_count(make_table):
    table = full_table(make_table)
    with pytest.raises(Rejected) as refused:
        admin(table, "override", kind="cards-out", count=2)
    assert refused.value.key == "refused.nothing_to_count"
    table.ejections.adopt(U.Draw(1), [E.Dispense(1, 2)], table.state)
    intent = table.journal.intent({"job": "deal", "seat": 1, "want": 2})
    table.ejections.started(intent.seq, intent.payload)
    table.ejections.cut_off(intent.seq)
    with pytest.raises(Rejected) as refused:
        admin(table, "override", kind="cards-out")
    assert (refused.value.key, refused.value.field, refused.value.status) == (
        "refused.count_missing", "count", 400)
    assert admin(table, "override", kind="cards-out", count=2)["recovered"] == 2
    assert table.waits.waiting()["kind"] == Wait.TURN


def test_only_the_last_play_without_physical_effects_can_be_taken_back(make_table):
    table = full_table(make_table)
    play = U.Play(0, U.parse_card("R7"))
    entry = table.journal.append("action", U.action_to_dict(play))
    table.undo.note(entry.seq, play, [E.CardPlayed(0, play.card)])
    assert table.undo.undoable() == {"seat": 0, "card": "R7"}
    refused = table.undo.refusal(1)
    assert refused is not None and (refused.key, refused.values) == (
        "undo.not_yours", {"seat": 1, "other": 0, "card": U.parse_card("R7")})
    assert table.words.rejected(refused) == ("East has no declaration to take back: the last "
                                            "one is North's red 7")  # said with the seats' names
    out = table.undo.take_back(0)
    assert out["undone"] == {"seat": 0, "card": "R7", "laid": []} and table.reloads == 1
    assert [e.kind for e in table.journal.entries()] == ["action", "undo"]
    draw_two = U.Play(0, U.parse_card("R+2"))
    entry = table.journal.append("action", U.action_to_dict(draw_two))
    table.undo.note(entry.seq, draw_two, [E.Dispense(1, 2)])  # matched by class
    refused = table.undo.refusal(0)
    assert refused is not None and refused.key == "undo.fixed"
    assert refused.values["why"] == Phrase("undo.why.dealt")


def test_a_full_disk_pauses_the_table_and_it_goes_on_by_itself(make_table):
    table = full_table(make_table)
    conn = table.journal._conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    for _ in range(2):
        with pytest.raises(JournalUnwritable):
            table.journal.append("meta", {"note": "x" * 20000})
    watch = table.journal_watch
    assert watch.fault is not None and table.kinds() == ["journal"]  # announced once
    assert table.hw.panel.get_status()["buzzer"] == "error"
    assert [(delay, type(e)) for delay, e in table.loop.timers] == [
        (JOURNAL_RETRY_S, JournalRetry)]  # one retry pending, not one per failure
    with pytest.raises(Rejected) as refused:
        watch.gate()
    assert refused.value.status == 507
    conn.execute("PRAGMA max_page_count = 1000000")  # room again
    table.loop.post(table.loop.timers.pop()[1])
    table.loop.deliver()
    assert watch.fault is None and table.kinds()[-1] == "journal_ok" and table.settled == 1
    watch.gate()
