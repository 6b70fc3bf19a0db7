"""Whole-table tests (issue 4, point 9): bots play matches through the daemon on the
simulated twin of every edition; the world (real card tokens in hands, pile and
launcher; towers on tray slots) and the referee agree at every step."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.controller.declared import engine_action
from firmware.journal.store import Journal
from firmware.sim.demo import run_demo

# (edition, players, seed, rounds): complete matches (1000 rounds is never reached)
CASES = [
    ("classic", 3, 11, 1000),
    ("power", 3, 12, 1000),
    ("attack", 2, 13, 1000),
    ("attack-1999", 5, 14, 1000),
    ("extreme", 3, 15, 1000),
]


@pytest.mark.parametrize("edition, players, seed, rounds", CASES)
def test_bots_play_through_the_daemon_and_the_world_agrees(tmp_path, edition, players, seed,
                                                           rounds):
    journal = tmp_path / "journal.db"
    result = run_demo(edition, players, seed, rounds, fast=True, journal=journal)
    s = result.summary
    assert result.status == 0
    assert s["world_agrees"] is True, s["mismatches"]
    assert s["match_over"] and s["winners"], s
    assert s["launcher_presses"] > 0 and s["cards_ejected"] >= 7 * players
    if edition == "power":
        assert s["tower_moves"] > 0
    with Journal.open(journal, readonly=True) as j:
        (match,) = j.matches()
        entries = list(j.entries())
    actions = [engine_action(e.payload) for e in entries if e.kind == "action"]
    assert len(actions) == s["actions"]
    final, _ = U.replay(edition, players, actions, match.options, mode=U.TABLE)
    assert list(final.scores) == s["scores"]
    ejected = sum(e.payload["counted"] for e in entries if e.kind == "result")
    assert ejected == s["cards_ejected"]
    intents = {e.seq for e in entries if e.kind == "intent"}
    assert intents == {e.ref for e in entries if e.kind == "result"}
