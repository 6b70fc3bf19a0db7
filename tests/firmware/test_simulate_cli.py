"""`unotable simulate`: full bot matches, a deterministic summary, records, bad arguments."""

import io
import json

import pytest

from firmware.cli import main
from uno_core.record import ReplayMismatch, read_record, replay_record


def simulate(capsys, *args):
    code = main(["simulate", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_summary_counts_matches_rounds_and_wins(capsys):
    code, out, err = simulate(capsys, "--variant", "classic", "--players", "3", "--games", "4",
                              "--seed", "7", "--json")
    assert code == 0
    summary = json.loads(out)
    assert {"variant": "classic", "players": 3, "games": 4, "seed": 7, "errors": 0}.items() \
        <= summary.items()
    assert sum(summary["wins"].values()) >= 4  # one winner per match (ties count twice)
    assert set(summary["wins"]) == {"0", "1", "2"}
    assert summary["rounds"] >= 4 and summary["turns"] > summary["rounds"] * 5
    assert summary["actions"] > summary["turns"]
    assert err == ""  # no progress bar when stderr is not a terminal


def test_same_arguments_same_output(capsys):
    args = ("--variant", "attack", "--players", "4", "--games", "3", "--seed", "11")
    first = simulate(capsys, *args)
    second = simulate(capsys, *args)
    other = simulate(capsys, *args[:-1], "12")
    assert first == second
    assert other[1] != first[1]


def test_text_summary_names_the_figures(capsys):
    code, out, _ = simulate(capsys, "--variant", "extreme", "--players", "2", "--seed", "1",
                            "--bot", "random")
    assert code == 0
    assert "1 match of extreme, 2 players, random bots, seed 1" in out
    assert "errors 0" in out and "seat 1:" in out and "seat 2:" in out and "seat 0" not in out


def test_record_dir_gets_one_replayable_record_per_match(capsys, tmp_path):
    code, out, _ = simulate(capsys, "--variant", "power", "--players", "3", "--games", "2",
                            "--seed", "5", "--json", "--record", str(tmp_path / "recs"))
    assert code == 0
    files = sorted((tmp_path / "recs").iterdir())
    assert [f.name for f in files] == ["power-p3-s5-0000.jsonl", "power-p3-s5-0001.jsonl"]
    wins = [0, 0, 0]
    for f in files:
        record = read_record(f.read_text())
        assert (record.edition, record.seats, record.seed) == ("power", 3, 5)
        state, _ = replay_record(record)
        assert state.over
        for w in state.winners:
            wins[w] += 1
    assert {str(i): w for i, w in enumerate(wins)} == json.loads(out)["wins"]


def test_progress_bar_on_a_terminal(capsys, mocker):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    mocker.patch("sys.stderr", tty)
    code = main(["simulate", "--variant", "classic", "--players", "2", "--games", "3"])
    assert code == 0
    assert tty.getvalue().endswith("[" + "#" * 30 + "] 3/3 matches\n")
    assert "1/3 matches" in tty.getvalue()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--variant", "flip", "--players", "3"), "unknown variant 'flip'"),
        (("--variant", "power", "--players", "7"), "power is for 2-6 players, not 7"),
        (("--variant", "classic", "--players", "1"), "classic is for 2-10 players, not 1"),
        (("--variant", "classic", "--players", "3", "--games", "0"), "at least 1"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_error(capsys, args, words):
    code, out, err = simulate(capsys, *args)
    assert code == 2
    assert out == ""
    assert words in err


def test_a_record_dir_that_cannot_be_made_exits_2(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, out, err = simulate(capsys, "--variant", "classic", "--players", "2",
                              "--record", str(blocker / "sub"))
    assert code == 2 and "--record" in err and out == ""


def test_non_numeric_players_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--variant", "classic", "--players", "three"])
    assert exc.value.code == 2
    assert "--players" in capsys.readouterr().err


def test_a_match_that_fails_is_counted_and_its_record_kept(capsys, tmp_path, mocker):
    from uno_core import Draw, bots

    class Cheater(bots.RandomBot):
        decisions = 0

        def act(self, state, legal):
            self.decisions += 1
            if self.decisions == 20:  # plays properly for a while, then draws out of turn
                return Draw((state.to_act + 1) % state.n)
            return super().act(state, legal)

    mocker.patch.dict(bots.BOTS, {"random": Cheater})
    code, out, _ = simulate(capsys, "--variant", "classic", "--players", "2", "--games", "2",
                            "--bot", "random", "--json", "--record", str(tmp_path))
    summary = json.loads(out)
    assert code == 1
    assert summary["errors"] == 2
    assert summary["error_messages"][0].startswith("match 0: after ")
    assert "IllegalAction" in summary["error_messages"][0]
    record = read_record((tmp_path / "classic-p2-s0-0000.jsonl").read_text())
    assert record.result is None and "IllegalAction" in record.meta["error"]
    state, _ = replay_record(record)  # replays to the moment before the failure
    assert len(record.actions) > 20 and not state.over


def test_same_output_across_processes_and_hash_seeds():
    import os
    import subprocess
    import sys

    def run(hash_seed):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        return subprocess.run(
            [sys.executable, "-m", "firmware.cli", "simulate", "--variant", "power",
             "--players", "3", "--games", "2", "--seed", "9", "--json"],
            capture_output=True, text=True, env=env, check=True).stdout

    first = run("1")
    assert first == run("2")
    assert json.loads(first)["games"] == 2


def test_effects_flag_stores_every_actions_effects_and_the_same_games(capsys, tmp_path):
    args = ("--variant", "attack-1999", "--players", "3", "--games", "2", "--seed", "4")
    plain = simulate(capsys, *args, "--record", str(tmp_path / "plain"))
    with_fx = simulate(capsys, *args, "--record", str(tmp_path / "fx"), "--effects")
    assert with_fx == plain  # same summary: storing effects changes no game
    for name in ("attack-1999-p3-s4-0000.jsonl", "attack-1999-p3-s4-0001.jsonl"):
        bare = (tmp_path / "plain" / name).read_text().splitlines()
        full = (tmp_path / "fx" / name).read_text().splitlines()
        assert all("effects" not in json.loads(line) for line in bare)
        body = [json.loads(line) for line in full[1:-1]]
        assert all(isinstance(d["effects"], list) for d in body)
        assert any(e["type"] == "ejected" for d in body for e in d["effects"])
        # without the effects the lines are the plain record's
        assert [{k: v for k, v in d.items() if k != "effects"} for d in body] == \
            [json.loads(line) for line in bare[1:-1]]
        state, _ = replay_record("\n".join(full) + "\n")  # checks them line by line
        assert state.over


def test_stored_effects_are_checked_on_replay(capsys, tmp_path):
    simulate(capsys, "--variant", "classic", "--players", "2", "--record", str(tmp_path),
             "--effects")
    lines = (tmp_path / "classic-p2-s0-0000.jsonl").read_text().splitlines()
    data = json.loads(lines[3])
    data["effects"] = data["effects"][:-1] + [{"type": "player_skipped", "seat": 1}]
    lines[3] = json.dumps(data)
    with pytest.raises(ReplayMismatch) as err:
        replay_record("\n".join(lines) + "\n")
    assert err.value.line == 4


def test_effects_without_a_record_dir_is_a_usage_error(capsys):
    code, out, err = simulate(capsys, "--variant", "classic", "--players", "2", "--effects")
    assert code == 2 and out == ""
    assert "--effects" in err and "--record" in err


def test_option_plays_house_rules_and_records_them(capsys, tmp_path):
    args = ("--variant", "classic", "--players", "4", "--games", "2", "--seed", "3",
            "--option", "stack_draws=cross", "--option", "no_action_finish=true",
            "--record", str(tmp_path))
    code, out, _ = simulate(capsys, *args, "--json")
    summary = json.loads(out)
    assert code == 0 and summary["errors"] == 0
    assert summary["options"] == {"stack_draws": "cross", "no_action_finish": True}
    plain = json.loads(simulate(capsys, *args[:4], "--games", "2", "--seed", "3", "--json")[1])
    assert plain["turns"] != summary["turns"]  # the rules change the games
    records = sorted(tmp_path.glob("*.jsonl"))
    assert len(records) == 2
    for path in records:
        record = read_record(path.read_text(encoding="utf-8"))
        assert record.options["stack_draws"] == "cross" and record.options["no_action_finish"]
        replay_record(record)  # the matches replay under the same rules
    assert "stack_draws=cross" in simulate(capsys, *args[:-2])[1].splitlines()[0]


@pytest.mark.parametrize(("option", "says"), [
    ("stack_draws=sometimes", "'sometimes' is not one of off, same, cross"),
    ("forced_play=maybe", "expected true or false"),
    ("no_bluff=true", "does not apply to edition 'extreme'"),
    ("bogus", "expected NAME=VALUE"),
    ("colour=R", "unknown option"),
])
def test_bad_option_is_a_usage_error_naming_it(capsys, option, says):
    code, out, err = simulate(capsys, "--variant", "extreme", "--players", "3",
                              "--option", option)
    assert code == 2 and out == "" and says in err and "--option" in err
