"""`unotable run` and `unotable demo` from the command line."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from firmware.cli import main


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_run_serves_the_table_on_the_twin_and_stops_on_sigterm(tmp_path):
    port = free_port()
    default = (__import__("firmware.config", fromlist=["DEFAULT_PATH"]).DEFAULT_PATH).read_text()
    config = tmp_path / "config.toml"
    config.write_text(default.replace("port = 8080", f"port = {port}"))
    env = {**os.environ, "STATE_DIRECTORY": str(tmp_path / "state")}
    proc = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--config", str(config)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as r:
                    state = json.loads(r.read())
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
                time.sleep(0.1)
        assert state["edition"] == "classic" and state["waiting"]["kind"] == "dealer-cards"
        assert state["names"] == ["North", "East", "South", "West"]
        # the twin holds a classic deck for four: another table is refused, nothing changes
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/admin/new-match", method="POST",
            data=json.dumps({"edition": "power", "seats": 4}).encode(),
            headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(request, timeout=5)
            raise AssertionError("a power match on the classic twin was accepted")
        except urllib.error.HTTPError as exc:
            assert exc.code == 422
            answer = json.loads(exc.read())
            assert answer["key"] == "sim.one_deck"
            assert (answer["values"]["edition"], answer["values"]["seats"]) == ("classic", 4)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as r:
            assert json.loads(r.read())["edition"] == "classic"
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert (tmp_path / "state" / "journal.db").exists()
    assert (tmp_path / "state" / "journal.db.world.json").exists()


def test_run_names_the_bad_key_of_a_config(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[table]\nedition = 'poker'\n")
    assert main(["run", "--config", str(config)]) == 2
    assert "table.edition" in capsys.readouterr().err


def test_demo_json_summary(tmp_path, capsys):
    assert main(["demo", "--fast", "--json", "--variant", "attack", "--players", "3",
                 "--seed", "4", "--journal", str(tmp_path / "j.db")]) == 0
    summary = json.loads(capsys.readouterr().out)
    for key in ("variant", "players", "seed", "rounds", "actions", "launcher_presses",
                "cards_ejected", "tower_moves", "world_agrees"):
        assert key in summary
    assert summary["variant"] == "attack" and summary["players"] == 3
    assert summary["rounds"] == 1 and summary["world_agrees"] is True


def test_demo_prints_a_readable_log_and_the_same_seed_plays_the_same_match(capsys):
    assert main(["demo", "--fast", "--seed", "9"]) == 0
    first = capsys.readouterr().out
    assert main(["demo", "--fast", "--seed", "9"]) == 0
    assert capsys.readouterr().out == first
    assert "North" in first and "plays" in first and "dealt: 7 cards" in first
    assert "world and referee agreed at every step" in first


def test_demo_refuses_bad_arguments_naming_them(capsys):
    assert main(["demo", "--variant", "poker"]) == 2
    assert "--variant 'poker'" in capsys.readouterr().err
    assert main(["demo", "--variant", "power", "--players", "7"]) == 2
    assert "--players 7" in capsys.readouterr().err


def test_demo_continuing_a_journal_of_another_table_says_so(tmp_path, capsys):
    journal = str(tmp_path / "j.db")
    assert main(["demo", "--fast", "--json", "--seed", "2", "--journal", journal]) == 0
    capsys.readouterr()
    assert main(["demo", "--fast", "--seed", "3", "--journal", journal]) == 2
    err = capsys.readouterr().err
    assert "holds another table (classic, 4 seats, seed 2)" in err


def test_demo_explains_its_codes_names_the_scores_and_says_what_next(capsys):
    from uno_core import format_card, get_edition

    assert main(["demo", "--fast", "--variant", "power", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    # the legend comes once, first, and covers every kind of card of the deck
    assert lines[0].startswith("Card codes:") and out.count("Card codes:") == 1
    legend = out[: out.index("at the simulated table")]
    kinds = {card.kind for card in get_edition("power").deck}
    assert all(f" {format_card(next(c for c in get_edition('power').deck if c.kind == k))} "
               in legend for k in kinds)
    assert "W+4 Wild Draw 4" in legend and "tower symbol" in legend
    summary = json.loads(_json_summary(capsys, "power", "3"))
    named = ", ".join(f"{n} {s}" for n, s in zip(summary["names"], summary["scores"],
                                                  strict=True))
    assert f"scores: {named}" in out
    assert "1 round of a match to 500 points (--rounds N plays more)" in out
    assert "journal: a temporary file, deleted now; --journal PATH keeps it" in out
    assert lines[-1] == "next: take a seat yourself, in the browser: unotable demo --serve"


def _json_summary(capsys, variant: str, seed: str) -> str:
    assert main(["demo", "--fast", "--json", "--variant", variant, "--seed", seed]) == 0
    return capsys.readouterr().out


def test_demo_with_a_journal_says_where_it_is_and_how_to_continue(tmp_path, capsys):
    journal = tmp_path / "j.db"
    assert main(["demo", "--fast", "--journal", str(journal)]) == 0
    out = capsys.readouterr().out
    assert f"journal: {journal} (the same --journal again continues the match" in out
    assert journal.exists()


def test_demo_serve_on_a_taken_port_says_so_in_one_line_naming_port(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["demo", "--serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"port {port} on 127.0.0.1 is taken" in err and "--port" in err
