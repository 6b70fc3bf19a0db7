"""`unotable launcher-stats`: the distribution a player can check, as text or JSON."""

import json
import subprocess
import sys

import pytest

from firmware.cli import main


def stats(capsys, *args):
    code = main(["launcher-stats", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_report_counts_every_press_of_the_measured_launcher(capsys):
    code, out, _ = stats(
        capsys, "--model", "measured", "--presses", "5000", "--seed", "3", "--json"
    )
    assert code == 0
    report = json.loads(out)
    per_press = {int(k): v for k, v in report["cards_per_press"]["observed"].items()}
    gaps = {int(k): v for k, v in report["presses_between"]["observed"].items()}
    assert sum(per_press.values()) == report["presses"] == 5000
    assert sum(k * v for k, v in per_press.items()) == report["cards"]
    assert sum(gaps.values()) == report["ejections"] == 5000 - per_press[0]
    assert max(gaps) == report["max_presses_between"] <= 5
    assert max(per_press) <= 13
    assert report["presses_between"]["expected"] == {
        "1": 0.18,
        "2": 0.41,
        "3": 0.24,
        "4": 0.09,
        "5": 0.08,
    }
    assert report["presses_between"]["fit"]["p_value"] > 0.001
    assert report["model"] == {"name": "measured"} and report["seed"] == 3


def test_same_seed_same_report_other_seed_other_report(capsys):
    runs = [stats(capsys, "--presses", "300", "--seed", s, "--json")[1] for s in ("8", "8", "9")]
    assert runs[0] == runs[1] != runs[2]


def test_text_report_draws_histograms_for_both_distributions(capsys):
    code, out, _ = stats(
        capsys, "--model", "table", "--table", "0.5,0.25,0.25", "--presses", "2000", "--seed", "1"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("model table, 2000 presses, seed 1:")
    assert any(line.startswith("cards per press") for line in lines)
    assert any(line.startswith("presses between ejections") for line in lines)
    zero_row = next(line for line in lines if line.startswith("  0 |"))
    assert "#" in zero_row and "50.0%" in zero_row  # expected share printed beside the bar
    assert "fit of cards per press: chi-square" in out


def test_fixed_model_with_its_parameter(capsys):
    code, out, _ = stats(capsys, "--model", "fixed", "--cards", "2", "--presses", "40", "--json")
    report = json.loads(out)
    assert report["cards"] == 80 and report["cards_per_press"]["observed"] == {"2": 40}
    assert report["seed"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--presses", "0"], "--presses must be 1..10000000, not 0"),
        (["--model", "table"], "--model table needs --table"),
        (["--model", "table", "--table", "0.5,x"], "--table must be numbers"),
        (["--model", "table", "--table", "0.5,0.6"], "--table: must sum to 1"),
        (["--model", "measured", "--cards", "3"], "--cards does not apply to --model measured"),
        (["--model", "geometric", "--p-eject", "1.5"], "--p-eject: must be at most 1"),
        (["--model", "fixed", "--cards", "20"], "--cards: must be at most 13"),
    ],
)
def test_bad_arguments_exit_2_naming_the_argument(capsys, args, message):
    code, out, err = stats(capsys, *args)
    assert code == 2 and out == ""
    assert message in err


def test_unknown_model_is_refused_by_argparse():
    proc = subprocess.run(
        [sys.executable, "-m", "firmware", "launcher-stats", "--model", "lucky"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "lucky" in proc.stderr and proc.stdout == ""
