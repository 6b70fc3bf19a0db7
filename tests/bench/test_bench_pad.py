"""The card pad's sections of bench/latency.py and bench/footprint.py, in their smallest
mode: they run through the real daemon and driver on the twin and print their figures.
No timing is asserted: the machine decides those numbers."""

from __future__ import annotations

from bench import footprint, latency


def test_latency_pad_prints_tag_to_event_through_the_daemon(capsys):
    latency.main(["--pad", "--samples", "3"])
    out = capsys.readouterr().out
    for name in ("pad: tag in the field -> the play's event, p50",
                 "pad: tag in the field -> the play's event, p99",
                 "pad: tag in the field -> the read that saw it, p50 / p99",
                 "pad on the test twin (5 ms polls, no wire time), p50 / p99",
                 "pad: table's pace / test twin's, p50"):
        assert name in out
    assert "<= 150" in out  # the p99's target, judged


def test_latency_pad_times_every_tap_answered_by_a_play(tmp_path):
    got = latency.pad_latency(3, 1, paced=False)["ms"]
    assert len(got["play"]) >= 3 and all(ms > 0 for ms in got["play"])
    assert len(got["to_read"]) == len(got["read_to_event"]) >= 3


def test_footprint_pad_prints_the_idle_pads_cpu_against_its_target(capsys):
    footprint.main(["--pad", "--runs", "1", "--idle-s", "0.5"])
    out = capsys.readouterr().out
    for name in ("pad idle: its watcher's CPU (idle pace)", "pad idle: reads",
                 "pad idle: whole process with / without the pad",
                 "pad awaiting a card: its watcher's CPU (fast pace)"):
        assert name in out
    assert "<= 0.3" in out
