"""Enrolling a whole deck on the card pad: 112 cards tapped at a 2-second pace.

    python bench/pad_enroll.py [--edition power] [--pace 2.0] [--real-time] [--json]

`unotable cards enroll` runs as its own process, as a person runs it, on the twin's pad
(`hal.sim.pad.SimPad`: a simulated PN532 on a pty, read through the real driver at the
real baud rate). A scripted tapper reads each prompt and lays the very card it names on
the pad (the twin's tag of that copy) until the next prompt, then the four colour chips. The config file is written
after every tag, as it is at the table.

Two clocks, said in the output (`"clock"`):

- default, ``virtual person``: the tapper taps as soon as the prompt appears and the
  person's `--pace` seconds per card are counted, not waited. The total is the person's
  time (112 x pace) plus the table's own time measured in real time: from each tap to
  the next prompt (the pad's fast poll seeing the tag, the refusal checks, the atomic
  write of the config, the next prompt);
- ``--real-time``: the tapper waits `--pace` seconds of real time after each prompt
  before it taps, and the total is the wall time of the whole run (about 4 minutes).

Target (issue 29): the 112 cards in under 5 minutes.
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import PYTHON, REPO, Figure, Result, at_most, exactly, median, progress, report

TARGET_S = 300.0  # 5 minutes for the deck
PROMPT = re.compile(r"^(Card|Chip) (\d+) of (\d+): .*\((\S+?)(?:, copy (\d+) of \d+)?\)\. Tap it")
LINE_WAIT_S = 30.0


def enrol(edition: str, pace: float, real_time: bool) -> dict[str, Any]:
    import uno_core
    from hal.sim.pad import SimPad, chip_uid
    from uno_core.cards import format_card

    deck = [format_card(c) for c in uno_core.get_edition(edition).deck]
    with tempfile.TemporaryDirectory(prefix="pad-enroll-") as tmp, \
            SimPad(edition, deck) as twin:
        config = Path(tmp) / "unotable.toml"
        config.write_text(f'[table]\nedition = "{edition}"\nseats = 4\n', encoding="utf-8")
        started = time.monotonic()
        proc = subprocess.Popen(
            [PYTHON, "-m", "firmware", "cards", "enroll", "--config", str(config),
             "--port", twin.port], cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        lines: queue.Queue[str | None] = queue.Queue()

        def pump() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line.rstrip("\n"))
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        table_s: list[float] = []  # per tap: from the tap to the next prompt (or the end)
        tapped_at: float | None = None
        cards = chips = 0
        cards_done_at = None
        while (line := lines.get(timeout=LINE_WAIT_S)) is not None:
            m = PROMPT.match(line)
            if m is None:
                continue
            now = time.monotonic()
            if tapped_at is not None:
                table_s.append(now - tapped_at)
            kind, _, _, value, copy = m.groups()
            if kind == "Chip" and cards_done_at is None:
                cards_done_at = now
            if real_time:
                time.sleep(pace)
            uid = chip_uid(value) if kind == "Chip" else twin.tag_of(value, int(copy) - 1)
            tapped_at = time.monotonic()
            twin.hold(uid)  # lies there until the next card: a busy machine cannot miss it
            cards, chips = (cards + 1, chips) if kind == "Card" else (cards, chips + 1)
        status = proc.wait(timeout=LINE_WAIT_S)
        ended = time.monotonic()
        if tapped_at is not None:
            table_s.append(ended - tapped_at)
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.stdout and proc.stdout.close()
        proc.stderr.close()
        saved = config.read_text(encoding="utf-8").count(" = ")
    cards_table_s = sum(table_s[:cards])
    if real_time:
        deck_s = (cards_done_at or ended) - started
        total_s = ended - started
    else:
        deck_s = cards * pace + cards_table_s
        total_s = (cards + chips) * pace + sum(table_s)
    return {"edition": edition, "cards": cards, "chips": chips, "exit_status": status,
            "stderr": err[-400:], "pace_s": pace, "saved_entries": saved - 2,  # [table] lines
            "clock": "real time" if real_time else "virtual person, real table",
            "deck_s": round(deck_s, 2), "total_s": round(total_s, 2),
            "table_per_tap_median_ms": round(1000 * median(table_s), 1) if table_s else None,
            "table_per_tap_max_ms": round(1000 * max(table_s), 1) if table_s else None,
            "wall_s": round(ended - started, 2)}


def run(edition: str = "power", pace: float = 2.0, real_time: bool = False) -> Result:
    progress(f"pad_enroll: {edition} deck at {pace:g} s a card "
             f"({'real time' if real_time else 'person virtual'}) ...")
    r = enrol(edition, pace, real_time)
    result = Result("pad_enroll")
    result.add(Figure("clock", r["clock"]))
    result.add(exactly("cards tapped", r["cards"], 112 if edition != "classic" else 108))
    result.add(at_most(f"{r['cards']} cards at {pace:g} s a card, total", r["deck_s"],
                       TARGET_S, "s"))
    result.add(Figure("with the 4 colour chips", r["total_s"], "s"))
    result.add(Figure("the table's time per tap, median", r["table_per_tap_median_ms"], "ms"))
    result.add(Figure("the table's time per tap, max", r["table_per_tap_max_ms"], "ms"))
    result.add(exactly("enroll's exit status", r["exit_status"], 0))
    result.add(exactly("tags saved", r["saved_entries"], r["cards"] + r["chips"]))
    result.detail = r
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", default="power", help="the deck to enrol (112 cards)")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds a person takes a card")
    parser.add_argument("--real-time", action="store_true",
                        help="wait the person's pace in real time (about 4 minutes)")
    parser.add_argument("--quick", action="store_true", help="the default run (no change)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.pace < 0:
        parser.error("--pace must not be negative")
    return report(run(args.edition, args.pace, args.real_time), args.json)


if __name__ == "__main__":
    sys.exit(main())
