import argparse
import os
import socket
import subprocess
import sys
from importlib.metadata import version

import pytest

from firmware.cli import CLOSED_PIPE_STATUS, build_parser, main


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out


def test_unknown_command_is_rejected():
    proc = subprocess.run(
        [sys.executable, "-m", "firmware", "no-such-command"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "no-such-command" in proc.stderr


# -- a closed pipe, --version, defaults in --help (issue 14)


UNOTABLE = [sys.executable, "-m", "firmware"]


def into_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """Run `unotable ARGS` with stdout a pipe nobody reads any more (`| head` gone)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([*UNOTABLE, *args], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    finally:
        os.close(write_end)


@pytest.fixture(scope="module")
def played_journal(tmp_path_factory):
    path = tmp_path_factory.mktemp("demo") / "journal.db"
    assert main(["demo", "--fast", "--json", "--journal", str(path)]) == 0
    return path


@pytest.mark.parametrize("args", [
    ["demo", "--fast"],
    ["demo", "--fast", "--json"],
    ["simulate", "--variant", "classic", "--players", "2", "--json"],
    ["simulate", "--variant", "classic", "--players", "2"],
    ["--help"],
], ids=" ".join)
def test_a_closed_pipe_ends_the_command_quietly(args):
    done = into_closed_pipe(*args)
    assert done.stderr == ""
    assert done.returncode in (0, CLOSED_PIPE_STATUS)


def test_replay_into_a_closed_pipe_ends_quietly(played_journal):
    for args in (["replay", str(played_journal)], ["replay", "--record", str(played_journal)]):
        done = into_closed_pipe(*args)
        assert (done.stderr, done.returncode) == ("", CLOSED_PIPE_STATUS)


def test_demo_piped_into_head_stops_after_the_lines_read():
    """`unotable demo --fast | head -4`: the live log is written from inside the table's
    loop; the demo stops there, without a traceback, instead of failing a handler."""
    proc = subprocess.Popen([*UNOTABLE, "demo", "--fast"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    lines = [proc.stdout.readline() for _ in range(4)]
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == CLOSED_PIPE_STATUS
    assert err == ""
    assert lines[0].startswith("Card codes:") and "at the simulated table" in lines[2]


def test_version_comes_from_the_installed_package():
    done = subprocess.run([*UNOTABLE, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.strip() == f"unotable {version('unotable')}"


def _options(parser: argparse.ArgumentParser, name: str):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                yield from _options(subparser, f"{name} {sub}")
        elif action.nargs != 0 and action.dest != "help" and not _required(action):
            yield name, subparser_help(parser), action


def _required(action: argparse.Action) -> bool:
    return action.required or (not action.option_strings and action.nargs is None)


def subparser_help(parser: argparse.ArgumentParser) -> str:
    return " ".join(parser.format_help().split())  # one line: wrapping moves words apart


def test_help_shows_every_default():
    missing = []
    for name, text, action in _options(build_parser(), "unotable"):
        flag = "/".join(action.option_strings) or action.metavar or action.dest
        # a value is shown by the formatter; without one the help says in words what
        # happens (or the hand-written help names the default itself)
        shown = f"(default: {action.default})" in text or "default" in (action.help or "")
        if not shown:
            missing.append(f"{name} {flag}")
    assert missing == []


def test_help_of_demo_lists_its_defaults_the_same_way():
    text = subparser_help(build_parser()._subparsers._group_actions[0].choices["demo"])
    for default in ("--players PLAYERS seats (default: 4)", "(default: 8080)",
                    "(default: classic)", "(default: a temporary journal"):
        assert default in text


def test_demo_serve_into_a_closed_pipe_stops_quietly():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = into_closed_pipe("demo", "--serve", "--fast", "--port", str(port))
    assert (done.stderr, done.returncode) == ("", CLOSED_PIPE_STATUS)


# -- the demo's log and bare commands (issue 24)


@pytest.mark.parametrize("variant", ["attack", "extreme"])
def test_the_demo_log_numbers_every_step_of_a_launcher_edition(variant, capsys):
    assert main(["demo", "--fast", "--variant", variant]) == 0
    out = capsys.readouterr().out
    steps = [int(line[1:line.index("]")]) for line in out.splitlines() if line.startswith("[")]
    assert steps == list(range(1, len(steps) + 1))  # no [12] -> [14]: the ejection has its line
    assert "the launcher fires " in out and "(s)" not in out
    assert "the first card comes out at " in out  # one card: no "1 card(s)"


def test_bare_simulate_plays_one_classic_match_of_four(capsys):
    assert main(["simulate"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 match of classic, 4 players, heuristic bots, seed 0\n")
    assert "seat 4:" in out
