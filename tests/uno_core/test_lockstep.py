"""The live engine plays in lockstep with the frozen oracle (issue 11, point 2): every
edition, both modes, many seeds, seat counts and option sets (tests/uno_core/lockstep.py
says what is compared at every step). ``UNOTABLE_LOCKSTEP_SEEDS=N`` plays N matches per
edition and mode (a soak; ``python -m tests.uno_core.lockstep --seeds N`` prints the steps
agreed). The last tests break the oracle on purpose and show the lockstep notices."""

from __future__ import annotations

import os

import pytest

import tests.oracle.uno_core_oracle as OLD
from tests.oracle.uno_core_oracle import cardrules as old_rules
from tests.oracle.uno_core_oracle import engine as old_engine
from tests.oracle.uno_core_oracle.cards import SKIP
from tests.uno_core.lockstep import MODES, Case, Lockstep, Mismatch, Stats, cases

SOAK = int(os.environ.get("UNOTABLE_LOCKSTEP_SEEDS", "0"))
SEEDS = {"simulation": SOAK or 4, "table": SOAK or 8}
MAX_STEPS = 3000 if SOAK else 1200

pytestmark = [pytest.mark.timeout(0)] if SOAK else []


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("edition", sorted(OLD.EDITIONS))
def test_live_engine_agrees_with_the_oracle_step_by_step(edition, mode):
    total = Stats()
    for case in cases(edition, mode, SEEDS[mode], MAX_STEPS):
        total.add(Lockstep(case).run())
    # the run went through whole rounds and judged both legal and illegal probes
    assert total.rounds >= SEEDS[mode] // 2 and total.over >= 1
    assert total.verdicts["ok"] > 0 and total.refused > 10 * total.steps // 4
    print(f"{edition} {mode}: {total.steps} steps, {total.probes} probes agreed")


# -- the lockstep must notice a difference ---------------------------------------------
CASE = Case("classic", "simulation", 3, {"target_score": 150}, seed=7, max_steps=3000)


def _fails(case: Case = CASE) -> str:
    with pytest.raises(Mismatch) as caught:
        Lockstep(case).run()
    return str(caught.value)


def test_a_rule_broken_in_the_oracle_is_caught(monkeypatch):
    monkeypatch.setitem(old_rules.BEHAVIOUR, SKIP, old_rules.BEHAVIOUR["W"])  # Skip skips no one
    assert "differ" in _fails()


def test_a_missing_effect_is_caught(monkeypatch):
    real = OLD.apply

    def apply(state, action):
        after, fx = real(state, action)
        return after, [e for e in fx if e.name != "player_skipped"]

    monkeypatch.setattr(OLD, "apply", apply)
    assert "effects differ" in _fails()


def test_a_missing_legal_action_is_caught(monkeypatch):
    real = OLD.legal_actions
    monkeypatch.setattr(OLD, "legal_actions",
                        lambda s: [a for a in real(s) if a.name != "draw"])
    assert "legal actions differ" in _fails()


def test_another_rule_text_is_caught(monkeypatch):
    real = old_engine._check_seat

    def check_seat(s, action, phases, what):
        try:
            real(s, action, phases, what)
        except OLD.IllegalAction as exc:
            raise OLD.IllegalAction(action, exc.rule.replace("not possible", "impossible")) \
                from None

    monkeypatch.setattr(old_engine, "_check_seat", check_seat)
    assert "refused differently" in _fails()


def test_an_illegal_action_accepted_is_caught(monkeypatch):
    real = OLD.apply

    def apply(state, action):
        if action.name == "pass" and state.phase == "play":
            return state, []
        return real(state, action)

    monkeypatch.setattr(OLD, "apply", apply)
    assert "live says" in _fails()
