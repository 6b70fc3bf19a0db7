"""The shared pieces of the benchmarks: targets decide pass/fail, one table, one JSON
object, a notify socket that hears the daemon's READY=1, /proc readings."""

from __future__ import annotations

import json
import os

from bench.common import (
    Figure,
    NotifySocket,
    Result,
    at_least,
    at_most,
    cpu_seconds,
    dump,
    exactly,
    memory_kb,
    report,
    sim_config,
    table,
)
from firmware.config import load_config
from firmware.notify import Notifier


def test_targets_pass_on_the_limit_and_fail_past_it():
    assert at_most("rss", 60.0, 60, "MB").ok is True
    assert at_most("rss", 60.1, 60, "MB").ok is False
    assert at_least("p", 0.001, 0.001).ok is True
    assert at_least("p", 0.0009, 0.001).ok is False
    assert exactly("lost", 0, 0).ok is True
    assert exactly("lost", 1, 0).ok is False
    assert at_most("cpu", 3, 1).target == "<= 1"


def test_a_result_fails_when_any_target_fails_and_figures_without_target_do_not_count():
    result = Result("x", [Figure("count", 7), at_most("rss", 40, 60)])
    assert result.ok
    result.add(exactly("lost", 2, 0))
    assert not result.ok


def test_the_table_shows_value_target_and_verdict_of_every_figure():
    good = Result("footprint", [at_most("RSS steady", 46.6, 60, "MB"), Figure("threads", 12)])
    bad = Result("crash", [exactly("lost", 3, 0)])
    lines = table([good, bad]).splitlines()
    assert lines[0].split() == ["bench", "figure", "value", "unit", "target", "pass"]
    rss = next(line for line in lines if "RSS steady" in line)
    assert "46.6" in rss and "MB" in rss and "<= 60" in rss and rss.endswith("PASS")
    assert next(line for line in lines if "threads" in line).split()[-1] == "12"
    assert next(line for line in lines if "lost" in line).endswith("FAIL")


def test_json_holds_every_bench_its_figures_and_the_overall_verdict():
    data = json.loads(dump([Result("a", [at_most("x", 1, 2)]), Result("b", [exactly("y", 1, 0)])],
                           quick=True))
    assert data["ok"] is False and data["quick"] is True
    assert data["benches"]["a"]["ok"] is True and data["benches"]["b"]["ok"] is False
    assert data["benches"]["b"]["figures"] == [
        {"name": "y", "value": 1, "unit": "", "target": "= 0", "ok": False}]


def test_a_script_exits_1_when_a_target_fails(capsys):
    assert report(Result("a", [at_most("x", 1, 2)]), as_json=False) == 0
    assert report(Result("a", [at_most("x", 3, 2)]), as_json=True) == 1
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["ok"] is False


def test_the_notify_socket_hears_the_daemons_ready_line(tmp_path):
    sock = NotifySocket(tmp_path)
    try:
        notifier = Notifier({"NOTIFY_SOCKET": sock.path})
        assert sock.wait_for("READY=1", timeout=0.05) is None
        notifier.status("opening the journal")
        notifier.ready("serving")
        notifier.close()
        assert sock.wait_for("READY=1", timeout=5) is not None
        assert [line for _, line in sock.lines] == ["STATUS=opening the journal", "READY=1",
                                                    "STATUS=serving"]
    finally:
        sock.close()


def test_proc_readings_of_a_live_process():
    mem = memory_kb(os.getpid())
    assert mem["VmHWM"] >= mem["VmRSS"] > 1000
    before = cpu_seconds(os.getpid())
    sum(i * i for i in range(200_000))  # some CPU work
    assert cpu_seconds(os.getpid()) >= before


def test_the_bench_config_is_the_default_twin_on_another_port(tmp_path):
    config = load_config(sim_config(tmp_path, port=23456, edition="power", seed=9))
    assert config.api.port == 23456 and config.api.host == "127.0.0.1"
    assert config.sim.enabled and config.sim.seed == 9 and config.table.edition == "power"
