"""Every benchmark in its smallest mode, against the real daemon on the twin: the figures
are there, with the right targets, and the pass/fail logic says what happened. No
timing is asserted: the machine decides those numbers."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tracemalloc

from bench import __main__ as bench_main
from bench import crash, fairness, footprint, fuzz, latency, longrun, serial_soak
from bench.common import REPO, Result
from firmware.journal.store import Journal
from hal.ejection import chi_square, geometric_model, observe, table_model


def figures(result: Result) -> dict[str, object]:
    return {f.name: f for f in result.figures}


def test_footprint_measures_the_real_daemon_and_judges_each_target():
    result = footprint.run(runs=1, idle_s=0.5, match_rounds=1)
    got = figures(result)
    for name, limit in (("RSS steady (daemon idle)", "<= 60"), ("start to READY=1", "<= 1.5"),
                        ("idle CPU, event-loop thread", "<= 1")):
        fig = got[name]
        assert fig.target == limit and fig.ok == (fig.value <= float(limit[3:]))
    daemon = result.detail["daemon"][0]
    assert daemon["rss_peak_mb"] >= daemon["rss_steady_mb"] > 10
    assert daemon["stopping_sent"] is True  # SIGTERM was an orderly stop
    assert result.detail["match"][0]["world_agrees"] is True
    assert result.detail["match"][0]["actions"] > 10


def test_a_killed_run_that_lost_or_doubled_actions_is_counted():
    soak = crash.Soak()
    ref = {"actions": 3, "scores": [0, 5], "world_agrees": True}
    crash.compare("g", ref, {**ref, "actions": 2}, ["a", "b", "c"], ["a", "b"], soak)
    assert (soak.lost, soak.doubled) == (1, 0) and soak.mismatches == ["g: actions 2 instead of 3"]
    soak = crash.Soak()
    crash.compare("g", ref, {**ref, "world_agrees": False, "mismatches": ["hands differ"]},
                  ["a", "b"], ["a", "x", "b"], soak)
    assert soak.doubled == 1
    assert soak.mismatches == ["g: action 1: x instead of b", "g: world: hands differ"]
    soak = crash.Soak()
    crash.compare("g", ref, {**ref, "error": "no card turned up"}, ["a"], ["a"], soak)
    assert soak.mismatches == ["g: the restarted demo stopped: no card turned up"]


def test_after_a_random_press_cut_short_only_the_actions_before_it_must_match():
    ref = {"actions": 4, "scores": [0, 5], "world_agrees": True}
    other = {"actions": 6, "scores": [9, 0], "world_agrees": True}  # the game went on apart
    soak = crash.Soak()
    crash.compare("g", ref, other, ["a", "b", "c", "d"], ["a", "b"], soak, chance_changed=True)
    assert (soak.lost, soak.doubled, soak.mismatches, soak.chance_changed) == (0, 0, [], 1)
    soak = crash.Soak()
    crash.compare("g", ref, {**other, "world_agrees": False}, ["a", "b", "c"], ["a", "x"],
                  soak, chance_changed=True)
    assert soak.mismatches == ["g: action 1: x instead of b",
                               "g: the world and the referee disagreed"]


def _journal_with_an_ejection(path, job, want, counted, status):
    journal = Journal.open(path)
    journal.start_match(edition="attack", options={}, seats=2, seed=1, config_hash="h")
    journal.append("action", {"type": "press", "seat": 0})
    intent = journal.append("intent", {"job": job, "seat": 0, "want": want})
    journal.append("result", {"counted": counted, "status": status}, ref=intent.seq)
    journal.append("action", {"type": "eject", "count": counted})
    journal.close()


def test_only_a_random_press_cut_short_ends_the_comparable_actions(tmp_path):
    cases = {("fire", 3, 2, "recovered"): ([{"type": "press", "seat": 0}], True),
             ("fire", 3, 3, "recovered"): (None, False),  # all came out before the kill
             ("deal", 3, 3, "recovered"): (None, False),  # an exact deal is finished
             ("fire", 3, 3, "ok"): (None, False)}
    for n, ((job, want, counted, status), (kept, changed)) in enumerate(cases.items()):
        path = tmp_path / f"{n}.db"
        _journal_with_an_ejection(path, job, want, counted, status)
        got = crash.comparable_actions(path)
        assert got == (kept if kept is not None else crash.actions_of(path), changed), job


def test_commit_boundaries_are_found_in_a_real_wal(tmp_path):
    journal = Journal.open(tmp_path / "j.db")
    journal.start_match(edition="classic", options={}, seats=2, seed=1, config_hash="h")
    wal = tmp_path / "j.db-wal"
    sizes = []
    for n in range(5):
        journal.append("play", {"n": n})
        sizes.append(wal.stat().st_size)
    ends = crash.commit_ends(wal.read_bytes())
    journal.close()
    assert set(sizes) <= set(ends)  # each append ended on a commit frame


def test_crash_soak_kills_restarts_and_finds_nothing_lost():
    result = crash.run(kills=1, cuts=3, variant="classic", rounds=1)
    got = figures(result)
    assert got["kills"].value >= 1 and got["kills"].ok, result.detail
    for name in ("lost", "doubled", "mismatches"):
        assert got[name].value == 0 and got[name].ok, result.detail["mismatch_list"]
    wal = result.detail["power_loss"]
    assert wal["cuts"] >= 3 + 3 * wal["commits"] and wal["recovered"] == wal["cuts"], wal
    assert result.ok, result.to_json()


def test_serial_soak_ends_with_the_tray_true_and_the_daemon_running():
    result = serial_soak.run(seconds=1.0, seed=3)
    got = figures(result)
    assert got["line faults injected"].value > 0
    assert got["tray ends in the true state"].ok and got["daemon still running"].ok
    assert got["daemon's exit status at the end"].value == 0
    assert result.detail["towers_seen"] == result.detail["towers_true"]


def test_fuzzing_counts_requests_and_files_and_finds_no_5xx():
    result = fuzz.run(examples=25, seed=2)
    got = figures(result)
    assert got["API requests tried"].value == 25
    assert got["API 5xx"].value == 0 and got["API refusals that changed the state"].value == 0
    api = result.detail["api"]
    assert api["accepted"] + api["rejected"] == 25 and api["rejected"] > 0
    assert result.detail["config"]["tried"] >= 20 and result.detail["scenario"]["tried"] >= 20
    assert result.ok, result.detail


def test_schema_strategy_draws_bodies_that_fit_the_schema():
    from hypothesis import given, settings

    from firmware.api.schema import BODIES

    schema = BODIES["/api/play"][0]
    seen = []

    @settings(max_examples=30, database=None)
    @given(fuzz.from_schema(schema, fuzz.st.sampled_from(["R7", "W+4"])))
    def each(body):
        seen.append(body)
        assert set(body) >= {"seat", "card"} and 0 <= body["seat"] <= 9

    each()
    assert len(seen) == 30


def test_long_run_plays_matches_in_one_daemon_and_reports_memory():
    result = longrun.run(matches=2, traced=0)
    got = figures(result)
    assert got["matches in one daemon"].value == 2
    assert got["RSS after last match"].value > 10
    assert got["matches where world and referee disagreed"].value == 0
    assert got["daemon's exit status at the end"].value == 0


def test_heap_growth_is_split_into_the_twins_and_the_daemons():
    keep = []
    twin_code = compile("keep.append(bytearray(2_000_000))", "/x/hal/sim/fake.py", "exec")
    tracemalloc.start(10)
    try:
        before = tracemalloc.take_snapshot()
        exec(twin_code, {"keep": keep})
        keep.append(bytearray(1_000_000))
        growth = longrun.heap_growth(before, tracemalloc.take_snapshot())
    finally:
        tracemalloc.stop()
    assert 2_000_000 <= growth["twin"] < 2_100_000
    assert growth["daemon"] >= 1_000_000


def test_fairness_passes_fair_models_and_the_test_catches_an_unfair_one():
    result = fairness.run(presses=5000, twin_presses=100, seed=1)
    got = figures(result)
    assert len([n for n in got if n.startswith("twin ")]) == 8
    for fig in result.figures:
        if "p (chi2" in fig.name:
            assert 0 <= fig.value <= 1 and fig.ok == (fig.value >= fairness.P_MIN)
    # presses of one model judged against another's distribution fail the same target
    obs = observe(geometric_model(), random.Random(1), 5000)
    _, _, p = chi_square(obs.cards_per_press, table_model([0.5, 0.3, 0.2]).cards_per_press(),
                         open_tail=True)
    assert p < fairness.P_MIN


def test_python_m_bench_prints_one_table_or_one_json_object():
    cmd = [sys.executable, "-m", "bench", "--quick", "--only", "fairness"]
    done = subprocess.run([*cmd, "--json"], capture_output=True, text=True, cwd=REPO,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["ok"] is True and list(data["benches"]) == ["fairness"]
    assert "[bench] fairness" in done.stderr  # progress on stderr, not in the JSON
    text = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert text.stdout.splitlines()[0].split()[:3] == ["bench", "figure", "value"]
    assert "load average" in text.stdout


def test_a_broken_benchmark_shows_as_a_failed_figure_not_a_crash(mocker):
    script = mocker.patch.object(bench_main, "_script",
                                 side_effect=RuntimeError("bench/engine.py exited 1: boom"))
    result = bench_main.run_one("engine", quick=True)
    script.assert_called_once()
    assert not result.ok and "boom" in result.figures[0].value


ENGINE_DATA = {"ours_rounds_per_s": 900.0, "rlcard_rounds_per_s": 400.0, "ratio": 2.25,
               "simulate_rounds_per_s": 1700.0, "simulate_ratio": 4.25,
               "simulate_same_games": True, "editions": {}}


def _engine_result(**changes):
    result = Result("engine")
    bench_main.engine_figures({**ENGINE_DATA, **changes}, result)
    return result


def test_the_engine_figures_judge_both_ratios_in_the_same_run():
    assert _engine_result().ok
    assert not _engine_result(ratio=1.5).ok
    assert not _engine_result(simulate_ratio=2.9).ok
    assert not _engine_result(simulate_ratio=3.9).ok  # issue 23: the kernel >= 4x RLCard
    assert not _engine_result(simulate_same_games=False).ok


def test_the_engine_figures_say_when_rlcard_or_the_kernel_is_missing():
    result = _engine_result(rlcard_rounds_per_s=None, ratio=None, simulate_ratio=None,
                            rlcard_error="rlcard is not installed")
    assert result.ok and any("unavailable: rlcard is not installed" in str(f.value)
                             for f in result.figures)
    result = _engine_result(simulate_rounds_per_s=None, simulate_ratio=None,
                            simulate_error="no simulation kernel uno_core:run_random")
    failed = [f for f in result.figures if f.ok is False]
    assert len(failed) == 1 and "no simulation kernel" in failed[0].value


def test_each_edition_must_reach_twice_the_engine_before(mocker):
    same_run = {"actions_per_s": 150_000.0, "before_actions_per_s": 70_000.0}
    assert _engine_result(editions={"power": {**same_run, "speedup": 2.14}}).ok
    assert not _engine_result(editions={"power": {**same_run, "speedup": 1.99}}).ok
    # without the frozen engine: the recorded baseline
    mocker.patch.dict(bench_main.EDITION_BASELINE, {"power": 50_000.0})
    assert _engine_result(editions={"power": {"actions_per_s": 100_001.0}}).ok
    assert not _engine_result(editions={"power": {"actions_per_s": 99_999.0}}).ok


def test_the_engine_workloads_policy_picks_uniformly_among_the_listed_plays():
    import random
    from collections import Counter

    from bench import engine
    from uno_core import CHANCE, Play, apply, legal_actions, new_match, sample_outcome

    rng, chance = random.Random(5), random.Random(6)
    plays_checked = others_checked = 0
    for edition in ("classic", "power", "attack"):
        state = new_match(edition, 4, engine.NEVER_ENDS)
        for step in range(3000):
            if state.to_act == CHANCE:
                state, _ = apply(state, sample_outcome(state, chance))
                continue
            seat = state.to_act
            legal = legal_actions(state)
            left = state.counts[seat] - 1
            plays = [a for a in legal if type(a) is Play and a.seat == seat
                     and a.uno == (left - len(a.laid) == 1)]
            if len(plays) > 1 and step % 40 == 0:  # every listed play comes up, none other
                seen = Counter(engine.choose(state, random.Random(i))
                               for i in range(40 * len(plays)))
                assert set(seen) == set(plays)
                plays_checked += 1
            action = engine.choose(state, rng)
            if plays:
                assert action in plays  # a play, with the UNO call when it leaves one card
            else:
                assert action in legal and action.seat == seat
                others_checked += 1
            state, _ = apply(state, action)
    assert plays_checked > 20 and others_checked > 200


def test_the_edition_speedup_pairs_runs_so_a_busy_spell_cancels_out():
    from bench import engine

    ours = [(1000, 0.5), (1000, 2.0), (1000, 0.6)]  # the second pair ran while busy
    before = [(1000, 1.0), (1000, 4.0), (1000, 1.2)]
    assert engine._paired_speedup(ours, before) == 2.0
    assert engine._paired_speedup([(900, 1.0)], [(1000, 1.0)]) == 0.9  # per action


def test_the_engine_ratio_median_pairs_each_run_with_rlcards_run_beside_it():
    from bench import engine

    ours = [(6000, 0.5), (6000, 1.5), (6000, 0.4)]  # the second repetition ran while busy
    rlcard = [(5000, 1.0), (5000, 3.0), (5000, 1.0)]  # same rounds: a quotient of times
    assert engine._paired_ratio(ours, rlcard) == 2.0
    assert engine._paired_ratio(ours, []) is None  # rlcard not installed: no runs
    assert engine._paired_ratio(["no kernel"], rlcard[:1]) is None


def test_latency_measures_both_trees_through_the_daemon_and_judges_after_against_before():
    result = latency.run(samples=2, rounds=1, baseline="HEAD")
    got = figures(result)
    for walk in ("launcher press -> motor on", "seat press (catch) -> its LED"):
        for q in ("p50", "p99"):
            before = got[f"{walk}, {q}, before (HEAD)"].value
            after = got[f"{walk}, {q}, after"].value
            ratio = got[f"{walk}, {q}, after / before"]
            assert before > 0 and after > 0  # a press reached its output on both trees
            assert ratio.target == "<= 1" and ratio.ok == (ratio.value <= 1)
    assert result.detail["stats"]["before"]["launcher"]["n"] >= 2
    assert result.detail["sync"]["journal_append_us"]["n"] >= 2


def test_the_latency_sampler_presses_only_while_the_launcher_holds_cards(tmp_path,
                                                                       monkeypatch):
    """Pressed for every sample, a launcher empties with nothing on the discard pile to
    reload it: no press could start the motor again. The sampler lets the bots play
    until it holds cards, so many samples on one table all reach the motor."""
    from firmware.sim.testbed import SimTable

    with SimTable(tmp_path / "t", "attack", 4, 1, forget_uno=0.0) as table:
        wanted, _press = latency._press_setup(table)
        st = table.play_until(wanted)
        assert wanted(st) and not wanted({**st, "pile_count": 0})
    monkeypatch.setattr(latency, "PER_TABLE", 1000)  # every sample on one table
    got = latency._samples(tmp_path / "s", 60, 1, forget_uno=0.0, options={},
                           setup=latency._press_setup)
    assert len(got["us"]) == 60 and got["stuck"] == []


def test_the_latency_worker_measures_the_tree_it_is_given_not_this_checkout(tmp_path):
    sim = tmp_path / "tree" / "firmware" / "sim"
    sim.mkdir(parents=True)
    for package in (sim.parent, sim):
        (package / "__init__.py").write_text("")
    (sim / "testbed.py").write_text("class SimTable:\n    def __init__(self, *a, **k):\n"
                                    "        raise SystemExit('the other tree ran')\n")
    done = subprocess.run([sys.executable, str(REPO / "bench" / "latency.py"), "--tree",
                           str(sim.parent.parent), "--samples", "1"], capture_output=True,
                          text=True, cwd=REPO, timeout=120)
    assert done.returncode != 0 and "the other tree ran" in done.stderr
