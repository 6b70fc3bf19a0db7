"""A SIGKILL between a card's tap and its journal entry, on the card pad: the daemon (a
real `unotable demo --pad` process, the bots tapping on the twin's pad) kills itself at a
named moment of a tapped play (`UNOTABLE_DEMO_KILL_AFTER`, `firmware.sim.kill_hook`):
``pad-tap`` just before its commit, ``pad-journaled`` right after it (the play's entry
carries its tags). Restarted on the
same journal, the card is played once or not at all, a second tap of it declares it
once, and the referee agrees with the twin's world."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.controller.undo import standing
from firmware.journal.store import Journal
from firmware.sim.testbed import SimTable

TAPPED = 5  # the tapped play the daemon dies at (the fifth of the match)


def demo(journal: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "firmware", "demo", "--pad", "--fast", "--json",
            "--variant", "classic", "--seed", "1", "--rounds", "1", "--journal",
            str(journal), *extra]


def killed_at(journal: Path, moment: str) -> dict:
    """Run the demo until it SIGKILLs itself at the `TAPPED`-th `moment`; the world file
    it left (the cards where the bots laid them, what the table held)."""
    env = {**os.environ, "UNOTABLE_DEMO_KILL_AFTER": f"{moment}:{TAPPED}"}
    proc = subprocess.run(demo(journal), capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-800:]
    world = json.loads(journal.with_name(journal.name + ".world.json").read_text())
    assert world["notes"]["answered"]["request"] == moment
    return dict(world)


def pad_plays(journal: Path) -> list[tuple[int, str, str]]:
    """(step, card, tag) of every standing play the pad declared, from the journal: the
    step the play made (the match's actions counted up to it) and the first tag its
    entry carries (``"by": {"via": "pad", "tags"}``)."""
    j = Journal.open(journal, readonly=True)  # (beside the daemon that writes it)
    try:
        entries = standing(j.entries(match_id=j.match.id))
    finally:
        j.close()
    out, step = [], 0
    for entry in entries:
        if entry.kind != "action":
            continue
        step += 1
        by = entry.payload.get("by", {})
        if by.get("via") == "pad" and entry.payload.get("type") == "play":
            out.append((step, entry.payload["card"], by["tags"][0]))
    return out


def test_a_kill_just_before_a_taps_commit_loses_the_play_and_the_next_tap_declares_it_once(
        tmp_path):
    journal = tmp_path / "journal.db"
    world = killed_at(journal, "pad-tap")
    before = pad_plays(journal)
    assert len(before) == TAPPED - 1  # the fifth tap never reached the journal
    seat, card = world["pending"]["undo"][-1]  # the card the bot had laid and tapped
    step = world["notes"]["answered"]["step"]
    with SimTable(tmp_path, "classic", pad=True) as table:  # the daemon back up
        notes = table.world.notes
        assert notes["answers_checked"] == 1 and not notes.get("answers_lost"), notes
        assert card in table.world.hands[seat]  # the card went back into the hand
        st = table.settle()
        assert st["step"] == step and st["waiting"]["seat"] == seat
        table.bot_act()  # the same bot taps the same card again (its rng is the step's)
        after = pad_plays(journal)
        assert after[:-1] == before and after[-1][:2] == (step + 1, card)
        assert table.world.agree, table.world.mismatches


def test_a_kill_right_after_a_taps_commit_keeps_the_play_and_a_second_tap_is_refused(
        tmp_path):
    journal = tmp_path / "journal.db"
    world = killed_at(journal, "pad-journaled")
    plays = pad_plays(journal)
    assert len(plays) == TAPPED
    step, card, uid = plays[-1]
    assert world["notes"]["answered"]["step"] == step
    with SimTable(tmp_path, "classic", pad=True) as table:  # the daemon back up
        notes = table.world.notes
        assert notes["answers_checked"] == 1 and not notes.get("answers_lost"), notes
        st = table.settle()
        assert st["top"] == card
        seq = table.journal_seq
        since = len(table.events)
        pad = table.world.pad_sim
        pad.hold(uid)  # the player, unsure the card went through, taps it again
        said = table.wait_for_event(lambda e: e.get("kind") in ("action", "refused"),
                                    since=since)
        pad.lift()
        assert said["kind"] == "refused" and said["key"] == "pad.on_pile"
        assert table.journal_seq == seq and pad_plays(journal) == plays
        table.play_until(lambda s: s["step"] >= step + 8)  # the match goes on by the pad
        assert [p[:2] for p in pad_plays(journal)].count((step, card)) == 1
        assert table.world.agree, table.world.mismatches


@pytest.mark.parametrize("moment", ["pad-tap", "pad-journaled"])
def test_the_demo_restarted_after_a_kill_at_a_tap_finishes_through_the_pad(tmp_path, moment):
    """The whole round after the restart: nothing lost, nothing doubled, no play by the
    API, the world agreeing."""
    journal = tmp_path / "journal.db"
    killed_at(journal, moment)
    final = subprocess.run(demo(journal), capture_output=True, text=True, timeout=120)
    assert final.returncode == 0, final.stderr[-800:]
    got = json.loads(final.stdout)
    assert got["answers_checked"] == 1 and got["answers_lost"] == 0, got["mismatches"]
    assert got["world_agrees"] is True, got["mismatches"]
    assert got["declared"]["api"] == 0
    plays = pad_plays(journal)
    assert len({step for step, _c, _u in plays}) == len(plays)  # each step played once
