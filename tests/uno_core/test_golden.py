"""Golden game records: a seeded bot match per edition, stored with every action's
effects and the result. Replaying must give exactly the same effects, scores and final
state; a difference is a regression (or an intended rule change: then regenerate with
``python -m tests.uno_core.regen_golden`` and review the diff)."""

import json
from pathlib import Path

import pytest

from tests.uno_core.regen_golden import GOLDEN, GOLDEN_DIR
from uno_core import EDITIONS
from uno_core.record import (
    ReplayMismatch,
    every_option,
    read_record,
    replay_record,
    result_of,
)


def _text(name):
    return (GOLDEN_DIR / f"{name}.jsonl").read_text(encoding="utf-8")


def test_there_is_a_golden_record_for_every_edition():
    editions = {GOLDEN[name][0] for name in GOLDEN}
    assert editions == set(EDITIONS)
    assert {p.stem for p in Path(GOLDEN_DIR).glob("*.jsonl")} == set(GOLDEN)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_record_replays_with_the_same_effects_and_result(name):
    record = read_record(_text(name))
    edition, seats, mode, options, seed = GOLDEN[name]
    assert (record.edition, record.seats, record.mode, dict(record.options), record.seed) == (
        edition, seats, mode, every_option(edition, options), seed)
    assert all(fx is not None for fx in record.effects)  # every action's effects are stored
    assert record.result is not None
    state, _ = replay_record(record)  # raises ReplayMismatch on any difference
    assert state.over
    assert result_of(state) == dict(record.result)
    assert record.result["round"] >= 2  # more than one round: scoring carries over


def test_a_golden_replay_notices_a_changed_effect():
    lines = _text("classic").splitlines()
    data = json.loads(lines[5])
    data["effects"].append({"type": "player_skipped", "seat": 0})
    lines[5] = json.dumps(data)
    with pytest.raises(ReplayMismatch) as err:
        replay_record("\n".join(lines) + "\n")
    assert err.value.line == 6
