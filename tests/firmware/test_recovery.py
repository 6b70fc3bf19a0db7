"""Journal and recovery (issue 4, point 3): the daemon restarts into exactly the same
game; an ejection cut off by a crash is counted on the table, never guessed."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time

import pytest

from bench.crash import actions_of, comparable_actions
from firmware.api import requests as api
from firmware.errors import JournalError, Rejected
from firmware.journal.store import Journal
from firmware.sim.testbed import SimTable
from firmware.sim.world import WorldError
from tests.firmware.conftest import dealing_through


def cut_after(cards: int, which: int):
    """Hardware wrapper: deal number `which` stops after `cards` cards and never returns
    (the power fails with the motor running). ``seen["cut"]`` is set once those cards
    are out."""
    hang = threading.Event()
    seen = {"deals": 0, "cut": threading.Event()}

    def deal(real, n, seat):
        seen["deals"] += 1
        if seen["deals"] != which:
            return real(n, seat)
        real(cards, seat)
        seen["cut"].set()
        hang.wait(30)
        return real(0, seat)

    return dealing_through(deal), hang, seen


def stop_while_hanging(table: SimTable, hang: threading.Event) -> None:
    table.daemon.stop("power cut")
    deadline = time.monotonic() + 10
    while not table.daemon.loop.closed and time.monotonic() < deadline:
        time.sleep(0.01)
    hang.set()  # the worker thread may end now: its result can no longer reach the journal
    table.stop()


def test_cut_off_ejection_is_counted_on_the_table_not_guessed(tmp_path):
    wrap, hang, seen = cut_after(3, which=2)  # the round's second hand: 3 of 7 cards came out
    table = SimTable(tmp_path, "classic", wrap_hardware=wrap)
    table.play_until(lambda st: st["waiting"]["kind"] == "shuffle")
    table.bot_step(settle=False)  # shuffle and load: the deal starts
    seen["cut"].wait()  # (the test runner's timeout ends a deal that never starts)
    seat = table.world.ejection
    stop_while_hanging(table, hang)

    with Journal.open(tmp_path / "journal.db") as journal:
        (intent,) = journal.open_intents()
    assert intent.payload == {"job": "deal", "seat": seat, "want": 7}

    table = SimTable(tmp_path, "classic")
    try:
        st = table.settle()
        assert st["waiting"]["kind"] == "cards-out"
        assert st["waiting"]["seat"] == seat and "count the cards" in st["waiting"]["message"]
        with pytest.raises(Rejected) as err:
            table.submit(api.Challenge(0))
        assert err.value.status == 409
        assert table.world.cards_out() == 3
        table.submit(api.Admin("override", {"kind": "cards-out", "count": 3}))
        st = table.settle()
        assert st["hand_counts"] == [7, 7, 7, 7] or st["waiting"]["kind"] != "cards-out"
        # the crash cut the deal, not the hopper: the rest is dealt, no "reload" is asked
        assert table.world.launcher_sim.stack and st["waiting"]["kind"] != "reload"
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn")
        assert table.world.check(st) == [] and table.world.agree, table.world.mismatches
        assert [len(h) for h in table.world.hands] == st["hand_counts"]
        recovered = [e for e in table.controller.journal.entries() if e.kind == "result"
                     and e.payload["status"] == "recovered"]
        assert [(e.ref, e.payload["counted"]) for e in recovered] == [(intent.seq, 3)]
        with pytest.raises(Rejected) as refused:
            table.submit(api.Admin("override", {"kind": "cards-out", "count": 1}))
        assert refused.value.key == "refused.nothing_to_count"
    finally:
        table.stop()


def cut_first_card(holder):
    """Hardware wrapper: the first card of a round comes out of the launcher, then the
    daemon dies before it hears the ejection end (`holder["ctl"]` is the controller)."""
    hang = threading.Event()
    seen = {"cut": False}

    def deal(real, n, seat):
        running = holder["ctl"].running if "ctl" in holder else None
        if seen["cut"] or running is None or running[1].kind != "turn":
            return real(n, seat)
        seen["cut"] = True
        real(n, seat)
        hang.wait(30)
        return real(0, seat)

    return dealing_through(deal), hang, seen


def world_misses_the_end(table, job):
    """The daemon dies after it journaled the end of a `job` ejection after which the
    table waits for people, before the world heard it: the world file still shows the
    cards lying in front of the seat."""
    real = table.world.ejection_ended
    missed = []

    def ended(seat, kind):
        if kind == job and not missed and not table.controller.jobs:
            missed.append(seat)
            return
        real(seat, kind)

    table.world.ejection_ended = ended
    return missed


def journal_actions(directory):
    return actions_of(directory / "journal.db")


def reference(directory, steps):
    table = SimTable(directory, "power", seed=3)
    try:
        table.play_until(lambda st: st["step"] >= steps)
        table.settle()
    finally:
        table.stop()
    return journal_actions(directory)


STEPS = 30


def plays_on_agreeing(table: SimTable) -> None:
    """A restarted table plays on to STEPS, and the world then agrees with the referee."""
    table.play_until(lambda st: st["step"] >= STEPS)
    assert table.world.check(table.settle()) == [] and table.world.agree, \
        table.world.mismatches


def test_killed_while_the_first_card_comes_out_continues_the_same_match(tmp_path):
    """The crash soak's seed 3: killed while the first card of the round came out,
    restarted, the card counted (1), killed again before the players had it in front of
    the dealer as the turned card: the match goes on as if never interrupted."""
    expected = reference(tmp_path / "whole", STEPS)
    killed = tmp_path / "killed"
    holder = {}
    wrap, hang, seen = cut_first_card(holder)
    table = SimTable(killed, "power", seed=3, wrap_hardware=wrap)
    holder["ctl"] = table.controller
    try:
        table.play_until(lambda st: st["waiting"]["kind"] == "shuffle")
        table.bot_step(settle=False)  # shuffle and load: the hands are dealt, then the first card
        deadline = time.monotonic() + 10
        while not seen["cut"] or table.world.cards_out() < 1:
            assert time.monotonic() < deadline, "the first card did not come out"
            time.sleep(0.005)
    finally:
        stop_while_hanging(table, hang)
    with Journal.open(killed / "journal.db") as journal:
        (intent,) = journal.open_intents()
    assert intent.payload["job"] == "turn"

    table = SimTable(killed, "power", seed=3)
    try:
        st = table.settle()
        assert st["waiting"]["kind"] == "cards-out"
        missed = world_misses_the_end(table, "turn")
        table.bot_step()  # the table counts the card in front of the dealer: 1
        assert missed == [st["waiting"]["seat"]]
        (card, _), = table.world.landed
        assert table.world.ejection == missed[0]
    finally:
        table.stop()
    with Journal.open(killed / "journal.db", readonly=True) as journal:  # not holding its lock
        recovered = [e.payload["counted"] for e in journal.entries()
                     if e.kind == "result" and e.payload["status"] == "recovered"]
    assert recovered == [1]

    table = SimTable(killed, "power", seed=3)
    try:
        assert table.world.turn_up() == card and len(table.world.hands[missed[0]]) == 7
        plays_on_agreeing(table)
    finally:
        table.stop()
    assert journal_actions(killed) == expected


@pytest.mark.parametrize("job", ["turn", "deal"])
def test_killed_after_an_ejection_ended_before_the_world_heard_it(tmp_path, job):
    """Every kind of ejection: its result is journaled, the world file still shows the
    cards where they landed; the restart hands them out as the live event does."""
    expected = reference(tmp_path / "whole", STEPS)
    killed = tmp_path / "killed"
    table = SimTable(killed, "power", seed=3)
    try:
        missed = world_misses_the_end(table, job)
        table.play_until(lambda st: bool(missed))
        assert table.world.landed and table.world.ejection == missed[0]
        landed = [card for card, _ in table.world.landed]
    finally:
        table.stop()
    table = SimTable(killed, "power", seed=3)
    try:
        assert table.world.ejection is None and not table.world.landed
        assert table.world.received[missed[0]] == landed
        if job == "turn":
            assert table.world.aside == landed
        plays_on_agreeing(table)
    finally:
        table.stop()
    assert journal_actions(killed) == expected


def test_a_declaration_reaches_the_world_file_with_its_cards_or_not_at_all(tmp_path):
    """The crash soak's seed 3 again: killed after the world file recorded a play as
    pending but before it recorded the card on the pile, the restart took back a card
    that was never laid (`list.remove`). Now both are one write; a kill after it (the
    referee never heard the play) puts the card back and the match goes on unchanged."""
    expected = reference(tmp_path / "whole", STEPS)
    killed = tmp_path / "killed"
    table = SimTable(killed, "power", seed=3)
    try:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn" and st["step"] > 10)
        world, seat = table.world, st["waiting"]["seat"]
        card = world.hands[seat][-1]
        before = json.loads(world.path.read_text())

        def declare():
            with world.change():
                world.set_pending({"step": st["step"], "undo": [[seat, card]]})
                assert json.loads(world.path.read_text()) == before  # a kill here: nothing
                world.lay(seat, [card])
                assert json.loads(world.path.read_text()) == before
        table.call(declare)
        after = json.loads(world.path.read_text())
        assert after["pending"] == {"step": st["step"], "undo": [[seat, card]]}
        assert after["discard"][-1] == card and len(after["hands"][seat]) == \
            len(before["hands"][seat]) - 1
    finally:
        table.stop()
    table = SimTable(killed, "power", seed=3)
    try:
        assert table.world.pending is None and card in table.world.hands[seat]
        plays_on_agreeing(table)
    finally:
        table.stop()
    assert journal_actions(killed) == expected


def test_restart_continues_exactly_the_same_game(tmp_path):
    table = SimTable(tmp_path, "power", seed=4)
    try:
        st = table.play_until(lambda st: st["step"] >= 40)
        st = table.settle()
    finally:
        table.stop()
    again = SimTable(tmp_path, "power", seed=4)
    try:
        st2 = again.wait_for(lambda s: s["waiting"] == st["waiting"])
        assert {k: v for k, v in st2.items() if k != "towers_seen"} == \
            {k: v for k, v in st.items() if k != "towers_seen"}
        assert again.world.check(st2) == []
    finally:
        again.stop()


def test_a_world_file_of_another_table_is_refused(tmp_path):
    SimTable(tmp_path, "classic", seed=1).stop()
    with pytest.raises(WorldError, match="another table"):
        SimTable(tmp_path, "classic", seed=2)


def demo(journal, variant, seed, rounds):
    return [sys.executable, "-m", "firmware", "demo", "--fast", "--json", "--variant",
            variant, "--seed", str(seed), "--rounds", str(rounds), "--journal", str(journal)]


def journaled(path):
    """Actions in a journal another process is writing (0 before it exists)."""
    try:
        return len(actions_of(path))
    except JournalError:  # not created yet, or its schema not yet written
        return 0


@pytest.mark.parametrize("variant, seed, rounds", [("power", 5, 2), ("extreme", 3, 2)])
def test_sigkill_at_random_points_loses_and_doubles_nothing(tmp_path, variant, seed, rounds):
    whole = subprocess.run(demo(tmp_path / "a.db", variant, seed, rounds), capture_output=True,
                           text=True, timeout=120, check=True)
    expected = json.loads(whole.stdout)
    kills = 0
    moments = random.Random(f"{variant}:{seed}")
    cut = tmp_path / "b.db"
    for _ in range(4):
        # kill once the journal holds a random number of new actions: the moment depends
        # on the match's progress, not on how fast this machine happens to be
        target = journaled(cut) + moments.randint(1, max(2, expected["actions"] // 6))
        proc = subprocess.Popen(demo(cut, variant, seed, rounds), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        while proc.poll() is None and journaled(cut) < target:
            time.sleep(0.005)
        if proc.poll() is None:
            proc.kill()
            kills += 1
        proc.communicate(timeout=60)
    final = subprocess.run(demo(cut, variant, seed, rounds), capture_output=True, text=True,
                           timeout=120, check=True)
    got = json.loads(final.stdout)
    assert got["world_agrees"] is True, got["mismatches"]
    whole_actions = actions_of(tmp_path / "a.db")
    kept, chance_changed = comparable_actions(cut)
    if chance_changed:  # a random press cut short: the player got what had come out,
        assert kept == whole_actions[:len(kept)]  # and the match may end sooner
        assert kills >= 1
        return
    assert kills == 4  # each kill came within the first 4/6 of the same match
    same = ("actions", "launcher_presses", "cards_ejected", "tower_moves", "rounds", "scores")
    assert {k: got[k] for k in same} == {k: expected[k] for k in same}
    assert kept == whole_actions


def test_replay_prints_the_journal_as_a_game_record(tmp_path, capsys):
    from firmware.cli import main
    from uno_core.record import read_record, replay_record

    journal = tmp_path / "j.db"
    assert main(["demo", "--fast", "--json", "--variant", "attack", "--players", "2",
                 "--seed", "13", "--rounds", "1000", "--journal", str(journal)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert main(["replay", "--record", str(journal)]) == 0
    record = read_record(capsys.readouterr().out)
    assert record.edition == "attack" and record.mode == "table" and record.seed == 13
    assert len(record.actions) == summary["actions"]
    final, _ = replay_record(record)  # checks the recorded result line too
    assert final.over and list(final.scores) == summary["scores"]
