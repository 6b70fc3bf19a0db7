"""bench/engine.py's ratio_own_policy: the policy written in the bench over the public
legal_actions alone plays the same games as the engine's choose_random, so the two
ratios time the same work with and without the engine's helper."""

from __future__ import annotations

import random


def test_the_bench_policy_over_legal_actions_plays_choose_randoms_games():
    from bench import engine
    from uno_core import CHANCE, EDITIONS, apply, new_match, sample_outcome

    own = engine.own_policy(engine.uno_core)
    assert own is not engine.choose
    for edition in sorted(EDITIONS):
        games = []
        for pick in (engine.choose, own):
            rng, chance = random.Random(3), random.Random(4)
            state = new_match(edition, 4, engine.NEVER_ENDS)
            actions = []
            while state.round_no < 5:
                action = (sample_outcome(state, chance) if state.to_act == CHANCE
                          else pick(state, rng))
                actions.append(action)
                state, _ = apply(state, action, effects=False)
            games.append(actions)
        assert len(games[0]) > 150 and games[0] == games[1]


def test_the_bench_times_by_cpu_time_unless_told_otherwise(monkeypatch, capsys):
    from bench import engine

    monkeypatch.setattr(engine, "measure", lambda rounds, seed, repeat: {"rounds": rounds})
    engine.main(["--json", "--rounds", "3"])
    assert '"clock": "cpu"' in capsys.readouterr().out
    assert engine.clock is engine.CLOCKS["cpu"]
    engine.main(["--json", "--rounds", "3", "--clock", "wall"])
    assert '"clock": "wall"' in capsys.readouterr().out
    assert engine.clock is engine.CLOCKS["wall"]
    monkeypatch.setattr(engine, "clock", engine.CLOCKS["cpu"])
