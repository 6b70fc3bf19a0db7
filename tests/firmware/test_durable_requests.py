"""A 200 means it is on disk (issue 10, point 3): every request that changes the table is
committed to the journal before it is answered, and a restart brings it back.

Each test answers one kind of request on the simulated table, then "kills" the daemon:
it copies what is on disk at that moment (the journal's database and WAL, the world
file) into a new directory, as a SIGKILL right after the answer would leave them, and
starts the daemon there. The players' restart check (`TablePlayers.check_answered`, the
same as the crash soak's) compares what the table held when it answered with what the
replay brought back; each test also looks at the change a person would notice.
The last test does the same with a real SIGKILL of `unotable demo`.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys

import pytest

from firmware.api import requests as api
from firmware.sim.testbed import SimTable
from firmware.sim.world import deck_of

# the mark first (never ahead of the journal copied after it), with the table's identity
FILES = ("journal.db.mark", "table-id", "journal.db", "journal.db-wal", "journal.db.world.json")


@pytest.fixture
def tables(tmp_path):
    running: list[SimTable] = []

    def start(name: str, variant: str = "power", **kw) -> SimTable:
        table = SimTable(tmp_path / name, variant, **kw)
        running.append(table)
        return table

    start.running = running  # type: ignore[attr-defined]
    yield start
    for table in running:
        table.stop()


def killed(table: SimTable, start, name: str, request: str) -> SimTable:
    """SIGKILL right after the last answer: what is on disk now, started again as `name`.
    The world file remembers what the table held when it answered (as the demo's kill
    hook writes it), for the restart to check."""
    ctl_ = table.controller
    assert ctl_ is not None

    def remember() -> None:
        with table.world.change():
            table.world.notes["answered"] = {"request": request, "step": ctl_.step,
                                             "table": ctl_.journaled_view()}
    table.call(remember)
    target = table.directory.parent / name
    target.mkdir()
    for file in FILES:
        if (table.directory / file).exists():
            shutil.copy(table.directory / file, target / file)
    start.running.remove(table)  # the killed daemon's copy on disk is taken: let it go
    table.stop()
    return start(name, table.variant, seed=table.seed)


def came_back(table: SimTable, restarts: int = 1) -> None:
    notes = table.world.notes
    assert notes.get("answers_checked") == restarts, notes
    assert not notes.get("answers_lost"), table.world.mismatches


def waiting(kind):
    return lambda st: st["waiting"]["kind"] == kind


def test_dealer_cards_answered_before_the_last_seat_survive_a_kill(tables):
    table = tables("a")
    assert table.wait_for(waiting("dealer-cards"))["waiting"]["missing"] == [0, 1, 2, 3]
    first, second = deck_of("power")[:2]
    assert table.submit(api.Reveal(first, 0)) == {"missing": [1, 2, 3], "step": 0}
    assert table.submit(api.Reveal(second, 1))["missing"] == [2, 3]
    again = killed(table, tables, "b", "reveal-dealer")
    came_back(again)
    st = again.wait_for(waiting("dealer-cards"))
    assert st["waiting"]["missing"] == [2, 3]
    third, fourth = deck_of("power")[2:4]
    again.submit(api.Reveal(third, 2))
    again.submit(api.Reveal(fourth, 3))  # the fourth completes the choice of the dealer
    assert again.state()["step"] == 1


def test_the_restart_check_notices_a_request_the_journal_lost(tables):
    """The check itself: a dealer card kept only in memory (as before this fix) is
    reported as lost by the restart, with what did not come back."""
    table = tables("a")
    table.wait_for(waiting("dealer-cards"))
    journal = table.controller.journal
    append = journal.append
    journal.append = lambda kind, payload, **kw: (None if kind == "dealer_card"
                                                  else append(kind, payload, **kw))
    table.submit(api.Reveal(deck_of("power")[0], 0))
    again = killed(table, tables, "b", "reveal-dealer")
    assert again.world.notes["answers_lost"] == 1
    assert "reveal-dealer was answered before a kill" in again.world.mismatches[-1]
    assert "dealer_cards" in again.world.mismatches[-1]
    assert again.wait_for(waiting("dealer-cards"))["waiting"]["missing"] == [0, 1, 2, 3]


@pytest.mark.parametrize("kind", ["reveal", "hand", "turn", "shuffle"])
def test_a_request_of_the_players_survives_a_kill_right_after_its_answer(tables, kind):
    """The first card turned, a hand entered at the round's end, a play or decision,
    the resume after shuffling: each is in the journal when it is answered."""
    table = tables("a")
    table.play_until(waiting(kind) if kind != "hand" else
                     lambda st: st["waiting"]["kind"] == "hand" and st["round"] == 1)
    before = table.state()
    after = table.bot_step() if kind != "turn" else table.bot_act()
    assert after["step"] > before["step"] or after["waiting"] != before["waiting"]
    again = killed(table, tables, "b", kind)
    came_back(again)
    st = again.settle()
    assert st["step"] == after["step"] and st["discard"] == after["discard"]
    assert st["hand_counts"] == after["hand_counts"]
    st = again.play_until(lambda st: st["step"] >= after["step"] + 10
                          and st["waiting"]["kind"] == "turn")  # towers moved, as people see it
    assert again.world.check(st) == [] and again.world.agree, again.world.mismatches


def test_pause_and_resume_survive_a_kill(tables):
    table = tables("a")
    table.play_until(waiting("turn"))
    table.submit(api.Admin("pause", {"reason": "pizza"}))
    paused = killed(table, tables, "b", "admin-pause")
    came_back(paused)
    assert paused.state()["waiting"] == {"kind": "paused", "reason": "pizza",
                                         "message": "paused (pizza): resume to go on"}
    paused.submit(api.Admin("resume", {}))
    resumed = killed(paused, tables, "c", "admin-resume")
    came_back(resumed, restarts=2)
    assert resumed.wait_for(waiting("turn"))["paused"] is None


def test_a_new_match_survives_a_kill(tables):
    table = tables("a", "classic")
    table.play_until(waiting("turn"))
    match = table.submit(api.Admin("new-match", {"names": ["Ann", "Bo", "Cy", "Di"]}))["match"]
    again = killed(table, tables, "b", "admin-new-match")
    came_back(again)
    st = again.state()
    assert st["match"]["id"] == match == 2 and st["names"] == ["Ann", "Bo", "Cy", "Di"]
    assert st["step"] == 0 and st["waiting"]["kind"] == "dealer-cards"


def test_an_armed_uno_call_survives_a_kill(tables):
    table = tables("a", "classic")
    st = table.play_until(lambda st: st["waiting"]["kind"] == "turn"
                          and st["hand_counts"][st["waiting"]["seat"]] == 2)
    seat = st["waiting"]["seat"]
    assert table.submit(api.CallUno(seat))["armed"] is True
    again = killed(table, tables, "b", "uno")
    came_back(again)
    assert again.state()["uno_armed"] == [seat]


def test_an_undo_survives_a_kill(tables):
    table = tables("a", "classic")
    st = table.play_until(lambda st: st["undoable"] is not None)
    seat, card = st["undoable"]["seat"], st["undoable"]["card"]
    table.submit(api.Undo(seat))
    again = killed(table, tables, "b", "undo")
    came_back(again)
    st2 = again.state()
    assert st2["step"] == st["step"] - 1 and st2["undoable"] is None
    assert st2["discard"][-1:] != [card] or st["discard"][-2:-1] == [card]


def test_a_tower_confirmed_by_hand_stays_confirmed_after_a_kill(tables):
    """A broken reader: the tower went to its captor but no reader sees it; the admin
    confirms it. Before, the restart waited for that tower again, for ever."""
    table = tables("a")
    st = table.play_until(lambda st: st["waiting"]["kind"] == "tower"
                          and st["waiting"]["seat"] is not None)
    tower, seat = st["waiting"]["tower"], st["waiting"]["seat"]

    def carried_past_a_broken_reader() -> None:  # off the tray for every reader
        with table.world.change():
            table.world.tray_sim.lift(tower)
            del table.world.towers[tower]
    table.call(carried_past_a_broken_reader)
    table.submit(api.Admin("override", {"kind": "tower-seen", "tower": tower, "seat": seat}))
    assert table.settle()["waiting"].get("tower") != tower
    again = killed(table, tables, "b", "override-tower-seen")
    came_back(again)
    st = again.wait_for(lambda st: st["waiting"].get("tower") in (None, tower))
    assert st["waiting"].get("tower") != tower, st["waiting"]
    assert st["alarm"] is None


def test_an_alarm_cleared_by_the_admin_stays_cleared_after_a_kill(tables):
    """The admin accepts a tower where the tray sees it (clear-alarm); the restart's first
    scans see it there again and raise no alarm, until the tower changes hands."""
    table = tables("a")
    st = table.play_until(waiting("turn"))
    owners = dict(st["towers"])
    table.world.move_tower("U", 2)
    table.wait_for(waiting("alarm"))
    table.submit(api.Admin("override", {"kind": "clear-alarm"}))
    assert table.settle()["alarm"] is None
    again = killed(table, tables, "b", "override-clear-alarm")
    came_back(again)
    st = again.wait_for(lambda st: st["towers_seen"]["U"] == 2)
    assert st["alarm"] is None and st["waiting"]["kind"] != "alarm"
    assert st["towers"] == owners  # ownership is the engine's: U is still neutral's
    again.world.move_tower("U", 3)  # anywhere else still raises it
    assert again.wait_for(waiting("alarm"))["alarm"]["slot"] == 3


def demo(journal, seed):
    return [sys.executable, "-m", "firmware", "demo", "--fast", "--json", "--variant", "power",
            "--seed", str(seed), "--rounds", "1", "--journal", str(journal)]


@pytest.mark.parametrize("answer", ["reveal-dealer:3", "hands:2", "any:12"])
def test_sigkill_right_after_a_200_loses_nothing(tmp_path, answer):
    """The crash soak's kill hook: the demo SIGKILLs itself right after the answer."""
    journal = tmp_path / "j.db"
    env = {**os.environ, "UNOTABLE_DEMO_KILL_AFTER": answer}
    proc = subprocess.run(demo(journal, 2), capture_output=True, timeout=120, env=env)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()[-800:]
    world = json.loads((tmp_path / "j.db.world.json").read_text())
    assert world["notes"]["answered"]["request"] == answer.split(":")[0] or \
        answer.startswith("any")
    final = subprocess.run(demo(journal, 2), capture_output=True, text=True, timeout=120,
                           check=True)
    got = json.loads(final.stdout)
    assert got["answers_checked"] == 1 and got["answers_lost"] == 0, got["mismatches"]
    assert got["world_agrees"] is True, got["mismatches"]


def test_a_bad_kill_hook_is_refused_with_its_name(tmp_path):
    proc = subprocess.run(demo(tmp_path / "j.db", 1), capture_output=True, text=True,
                          timeout=60, env={**os.environ, "UNOTABLE_DEMO_KILL_AFTER": "play"})
    assert proc.returncode != 0 and "UNOTABLE_DEMO_KILL_AFTER='play'" in proc.stderr
    assert not (tmp_path / "j.db").exists()


def test_cards_counted_after_a_cut_ejection_survive_a_kill(tables, tmp_path):
    """`override cards-out`: the ejection a crash cut off is counted; a kill right after
    that answer must not ask for the count again."""
    from tests.firmware.test_recovery import cut_after, stop_while_hanging

    wrap, hang, seen = cut_after(3, which=2)
    cut = SimTable(tmp_path / "a", "classic", wrap_hardware=wrap)
    cut.play_until(waiting("shuffle"))
    cut.bot_step(settle=False)  # shuffle and load: the deal starts, the second one is cut
    seen["cut"].wait()  # (the test runner's timeout ends a deal that never starts)
    stop_while_hanging(cut, hang)
    table = tables("a", "classic")
    assert table.settle()["waiting"]["kind"] == "cards-out"
    table.submit(api.Admin("override", {"kind": "cards-out", "count": 3}))
    again = killed(table, tables, "b", "override-cards-out")
    came_back(again)
    st = again.settle()
    recovered = [e for e in again.controller.journal.entries()
                 if e.kind == "result" and e.payload["status"] == "recovered"]
    assert [e.payload["counted"] for e in recovered] == [3]
    # The hopper is full, so the rest of that deal (4 cards) starts at once and the kill
    # may cut it off too: then its own count is asked, never the counted one's again.
    cut = again.controller.lookup("ejections").recover
    assert st["waiting"]["kind"] != "cards-out" or (
        cut is not None and cut.intent != recovered[0].ref and cut.want == 4)
