"""Latency through the daemon on the twin, this tree against a baseline commit, same run.

    python bench/latency.py [--samples N] [--baseline REV] [--quick] [--json] [--pad]

Two walks, each through the whole daemon (`firmware.sim.testbed.SimTable`: the real
`Daemon`, its loop, the controller, the journal in SQLite on disk in a temporary folder
of this machine's file system, the API server), on the production device classes over
the twin's mock pins:

- **launcher press -> motor on**: the launcher button's pin is driven low (gpiozero's
  edge, in this thread) until the launcher's motor pin goes high (in the ejection's
  worker thread): the press's journal commit, the adoption, the ejection's ``intent``
  commit, the thread hop. Attack, 4 seats, each sample a press for the seat to act when
  a press is legal (its turn, or presses it owes); a press whose model draws no card
  never starts the motor and is left out (counted as ``no_motor``).
- **seat press -> its LED**: a seat's button catches a forgotten UNO (``forgotten_uno =
  "catch"``, the bots always forget) until the caught seat's LED goes on (it owes the
  penalty's presses and is to act): the gate, the ``catch`` commit, the adoption and the
  settle that lights the seats.

The baseline (default 47d74db, `--baseline`) is checked out with ``git worktree add
--detach`` into a temporary folder; each tree is measured in a process of its own with
that tree first on ``sys.path`` (`--tree`), the two taking turns (`ROUNDS` each, the
baseline first in the odd ones, this tree in the even ones), and the samples of a
tree's turns are pooled. Printed: p50 and p99 (µs) per walk and tree,
and after / before. The virtual clock of the twin makes the servo and card travel
instant, so only the code path and the disk are measured.

The card pad (`--pad`: this section alone): from a tag laid on the twin's pad to the
table publishing the play's event, through the whole daemon (`SimTable` with a pad, the
bots tapping their cards, chips and seats), at the table's pace and wire time (the
`[pad]` defaults: a read every 50 ms while a card is awaited; 115200 baud) and, for
comparison, on the test twin (5 ms polls, no wire time). Target: p99 <= 150 ms.

Then what one commit's sync costs on this disk: a bare ``pwrite`` + ``fdatasync`` of 4
KiB, and one `Journal.append` (SQLite WAL, ``synchronous=FULL``, plus the journal's
high-water mark): docs/operations.md, "What a commit's sync costs".
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from bench.common import PYTHON, REPO, Figure, Result, at_most, machine_load, progress, report

BASELINE = "47d74db"
ROUNDS = 2  # turns each tree takes (before, after, after, before)
SAMPLES = 40  # launcher samples per tree and turn; half as many catches
QUICK_SAMPLES = 20
SYNC_SAMPLES = 200
# samples taken on one table before a fresh one (another seed). (A table pressed for every
# sample once seemed to stop answering after ~20 motor starts: the presses had emptied the
# launcher, with nothing on the discard pile to reload it, so no press could start the
# motor again and the sampler waited for one for ever. `_press_setup` now presses only
# while the launcher holds cards; the bots play on until it does.)
PER_TABLE = 12
SETTLE_S = 10.0  # a table still ejecting after this is stuck: noted, a fresh one goes on
LAUNCHER_HANDOFFS = 30  # issue 22, point 6 (counted at the middle: `_Walk`)
SEAT_HANDOFFS = 20
# the tray's watcher thread (`Tray.watch`, in hal/tray.py) polls at its own pace: it is
# left out with all it calls (the readers, the clock, `tower_awaited`), or a poll that fell
# inside a walk added its calls to it (a catch counted 29 or 81 on the same tree)
TRAY_WATCH = ("watch", os.path.join("hal", "tray.py"))
EDITION = "attack"
SEATS = 4


# -- the worker: one tree, imported from --tree --------------------------------------
class _Stamp:
    """Patches one pin instance's `_change_state`: the first change to high while armed
    is stamped (perf_counter_ns)."""

    def __init__(self, pin: Any) -> None:
        self.armed = False
        self.at: int | None = None
        self.mark: int | None = None  # a walk's length when the pin went high
        original = pin._change_state

        def change(value: Any) -> Any:
            changed = original(value)
            if self.armed and changed and value:
                self.at = time.perf_counter_ns()
                self.armed = False
                on = getattr(self, "on", None)
                self.mark = on() if on is not None else None
            return changed

        pin._change_state = change

    def arm(self) -> None:
        self.at = None
        self.armed = True

    def taken(self) -> int | None:
        """The stamp (None: the pin did not go high); call once the table settled."""
        self.armed = False
        return self.at


def _over(table: Any, wanted: Any) -> bool:
    """Play until `wanted` holds; True when the match ended first (a new one begins)."""
    from firmware.api import requests as api

    st = table.play_until(lambda st: st["waiting"]["kind"] == "match-over" or wanted(st))
    if st["waiting"]["kind"] != "match-over":
        return False
    table.submit(api.Admin("new-match", {}))
    table.settle()
    return True


def _tick(walk: str, done: int, samples: int) -> None:
    if done and done % 10 == 0:
        print(f"[bench] latency: {walk} {done}/{samples}", file=sys.stderr, flush=True)


def _stuck(table: Any) -> dict[str, Any]:
    """What a table that did not settle waits for (kept in the figures' detail)."""
    ctl = table.controller
    # a part by name (`lookup`); the baseline's coordinator held them as attributes
    ejections = ctl.lookup("ejections") if hasattr(ctl, "lookup") else ctl.ejections
    return table.call(lambda: {"waiting": ctl.waiting(),  # type: ignore[no-any-return]
                               "launcher": ejections.get_status()})


def _samples(directory: Path, samples: int, seed: int, *, forget_uno: float,
             options: dict[str, Any], setup: Any) -> dict[str, Any]:
    """Time `samples` presses, each from its pin's edge to its output pin going high.
    `setup(table)` patches the output pins once per table and gives `(wanted, press)`:
    `wanted(state)` says when to press, `press()` presses and names the `_Stamp` to
    read. Outputs that did not go high are counted in ``missed``."""
    from firmware.sim.testbed import SimTable

    out: list[float] = []
    missed = 0
    stuck: list[dict[str, Any]] = []
    tables = 0
    while len(out) < samples and len(stuck) < 3:
        tables += 1
        with SimTable(directory / f"t{tables}", EDITION, SEATS, seed + tables - 1,
                      forget_uno=forget_uno, options=options) as table:
            wanted, press = setup(table)
            upto = min(samples, len(out) + PER_TABLE)
            while len(out) < upto:
                if _over(table, wanted):
                    continue
                stamp = press(None)  # which pin to watch, armed
                start = time.perf_counter_ns()
                press(stamp)
                try:  # the output changed, or never will for this press
                    table.settle(timeout=SETTLE_S)
                except TimeoutError:
                    stuck.append(_stuck(table))
                    break
                at = stamp.taken()
                if at is None:
                    missed += 1
                else:
                    out.append((at - start) / 1000)
                _tick(directory.name, len(out), samples)
    return {"us": out, "missed": missed, "stuck": stuck}


def _press_setup(table: Any) -> tuple[Any, Any]:
    """The launcher button for the seat to act, where a press is legal and the launcher
    holds cards; the motor pin."""
    import uno_core as U

    ctl = table.controller
    motor = _Stamp(table.world.factory.pin(
        f"GPIO{table.config.hardware['launcher'].motor_forward}"))

    def wanted(st: Any) -> bool:
        seat = st["waiting"].get("seat")
        if st["waiting"]["kind"] not in ("press", "turn") or seat is None:
            return False
        if not st.get("pile_count"):  # an empty launcher: no press can start the motor
            return False
        return bool(table.call(lambda: U.Press(seat) in U.legal_actions(ctl.state)))

    def press(stamp: Any) -> Any:
        if stamp is None:
            motor.arm()
            return motor
        table.world.seats_sim.press_launcher()
        return stamp

    return wanted, press


def _catch_setup(table: Any) -> tuple[Any, Any]:
    """The next seat's button while a forgotten UNO is open; the caught seat's LED."""
    leds = [_Stamp(table.world.factory.pin(f"GPIO{n}"))
            for n in table.config.hardware["seats"].leds]
    exposed: list[int] = []

    def wanted(st: Any) -> bool:
        return st["uno_exposed"] is not None and st["waiting"]["kind"] == "turn"

    def press(stamp: Any) -> Any:
        if stamp is None:
            exposed[:] = [table.state()["uno_exposed"]]
            leds[exposed[0]].arm()
            return leds[exposed[0]]
        table.world.seats_sim.press_seat((exposed[0] + 1) % SEATS)
        return stamp

    return wanted, press


class Call(NamedTuple):
    """One hand-off: on which thread, from which file into which, which function."""

    thread: int
    caller: str
    callee: str
    function: str


class _Walk:
    """Counts the hand-offs of one walk: every call of a function of the tree
    (firmware/, hal/, uno_core/) from another file, on every thread. The harness is left
    out with all it calls (firmware/sim/: the testbed, the bots, the world's follower,
    the simulated rng), and so are calls into or from the twin's devices (hal/sim/);
    gpiozero, asyncio and the standard library are not followed, but a call from them
    into the tree counts (gpiozero's edge into hal/seats.py)."""

    def __init__(self, tree: Path) -> None:
        self.tree = str(tree.resolve()) + os.sep
        self.roots = tuple(self.tree + name + os.sep for name in ("firmware", "hal", "uno_core"))
        self.harness = self.tree + os.path.join("firmware", "sim") + os.sep
        self.twin = self.tree + os.path.join("hal", "sim") + os.sep
        self.armed = False
        self.calls: list[Call] = []
        self._hidden: dict[int, list[bool]] = {}

    def _ours(self, path: str) -> bool:
        return path.startswith(self.roots) and not path.startswith(self.twin) \
            and not path.startswith(self.harness)

    def profile(self, frame: Any, event: str, _arg: Any) -> None:
        if event not in ("call", "return"):
            return
        stack = self._hidden.setdefault(threading.get_ident(), [])
        if event == "return":
            if stack:
                stack.pop()
            return
        callee = frame.f_code.co_filename
        caller = frame.f_back.f_code.co_filename if frame.f_back is not None else ""
        # the harness hides what it calls, but not the daemon's thread it starts; the
        # tray's watcher hides its polls
        hidden = (bool(stack) and stack[-1]) or (
            callee.startswith(self.harness) and not caller.endswith("threading.py")) or (
            frame.f_code.co_name == TRAY_WATCH[0] and callee.endswith(TRAY_WATCH[1]))
        stack.append(hidden)
        if not self.armed or hidden or not self._ours(callee):
            return
        if caller != callee and not caller.startswith(self.twin):
            self.calls.append(Call(threading.get_ident(), caller, callee, frame.f_code.co_name))

    def to_first_card(self, upto: int) -> list[Call]:
        """The calls up to the first card's entry (`upto`, on the loop), without what
        other threads did after posting that card's event (the first post from another
        thread once the loop took the press): the beam's end and the next cards, each
        card's own walk (`per_card`). Whether those fell before the entry was the
        threads' timing: the same tree counted 44 or 48."""
        calls = self.calls[:upto]
        loop = calls[-1].thread
        began = next((i for i, c in enumerate(calls) if c.thread == loop), len(calls))
        posted = next((i for i, c in enumerate(calls) if i > began and c.thread != loop
                       and c.function == "post" and c.callee.endswith("loop.py")), None)
        if posted is None:
            return calls
        return calls[:posted + 1] + [c for c in calls[posted + 1:] if c.thread == loop]

    def summary(self, upto: int, calls: list[Call] | None = None) -> dict[str, Any]:
        calls = self.calls[:upto] if calls is None else calls
        tree = len(self.tree)
        entered: dict[str, int] = {}
        for c in calls:
            entered[c.callee[tree:]] = entered.get(c.callee[tree:], 0) + 1
        engine = [c for c in calls if c.callee[tree:].startswith("uno_core")
                  and c.caller.startswith(self.tree + "uno_core")]
        hops = sum(1 for a, b in zip(calls, calls[1:], strict=False) if a.thread != b.thread)
        middle = self.tree + os.path.join("firmware", "controller") + os.sep
        at_middle = [c for c in calls if c.caller.startswith(middle)
                     or c.callee.startswith(middle)]
        middle_entered: dict[str, int] = {}
        for c in at_middle:
            if c.callee.startswith(middle):
                middle_entered[c.callee[tree:]] = middle_entered.get(c.callee[tree:], 0) + 1
        return {"middle_handoffs": len(at_middle), "middle_entered": middle_entered,
                "middle_walk": [f"{c.caller[tree:]} -> {c.callee[tree:]}:{c.function}"
                                for c in at_middle],
                "handoffs": len(calls), "inside_uno_core": len(engine),
                "outside_uno_core": len(calls) - len(engine), "thread_changes": hops,
                "files": len(entered), "entered": dict(sorted(entered.items()))}


# the journal's writer on either tree: flat before issue 22, in firmware/journal/ after,
# its appends in format.py since the append passes through two files (issue 33)
JOURNAL_WRITER = ("firmware/journal.py", "firmware/journal/store.py",
                  "firmware/journal/format.py")


def walks(tree: Path, seed: int) -> dict[str, Any]:
    """The hand-offs of one launcher press (to its last card's ``card`` entry) and of
    one seat press (a catch, to the caught seat's LED), on the tree imported."""
    from firmware.sim.testbed import SimTable

    walk = _Walk(tree)
    threading.setprofile(walk.profile)
    sys.setprofile(walk.profile)
    out: dict[str, Any] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="unotable-bench-walk-") as tmp:
            with SimTable(Path(tmp) / "press", EDITION, SEATS, seed, forget_uno=0.0) as table:
                pressable, _press = _press_setup(table)
                for _ in range(20):  # until a press ejects at least one card
                    table.play_until(pressable)
                    walk.calls.clear()
                    walk.armed = True
                    table.world.seats_sim.press_launcher()
                    table.settle()
                    walk.armed = False
                    cards = [i for i, c in enumerate(walk.calls) if c.function == "append"
                             and c.callee.endswith(JOURNAL_WRITER)
                             and c.caller.endswith("ejections.py")]
                    if cards:  # the first card's ``card`` entry; then each card's own
                        out["launcher"] = walk.summary(0, walk.to_first_card(cards[0] + 1))
                        out["launcher"]["cards"] = len(cards)
                        out["launcher"]["per_card"] = round(
                            (cards[-1] - cards[0]) / (len(cards) - 1), 1) if len(cards) > 1 \
                            else None
                        break
            with SimTable(Path(tmp) / "seat", EDITION, SEATS, seed, forget_uno=1.0,
                          options={"forgotten_uno": "catch"}) as table:
                st = table.play_until(lambda st: st["uno_exposed"] is not None
                                      and st["waiting"]["kind"] == "turn")
                exposed = st["uno_exposed"]
                led = _Stamp(table.world.factory.pin(
                    f"GPIO{table.config.hardware['seats'].leds[exposed]}"))
                led.on = lambda: len(walk.calls)  # type: ignore[attr-defined]
                walk.calls.clear()
                led.arm()
                walk.armed = True
                table.world.seats_sim.press_seat((exposed + 1) % SEATS)
                table.settle()
                walk.armed = False
                out["seat"] = walk.summary(led.mark if led.mark is not None else 0)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    return out


def worker(tree: Path, samples: int, seed: int) -> dict[str, Any]:
    """Measure `tree` (its firmware, hal and uno_core first on sys.path)."""
    sys.path.insert(0, str(tree))
    import firmware

    where = Path(firmware.__file__).resolve()
    if tree.resolve() not in where.parents:
        raise RuntimeError(f"firmware came from {where}, not from {tree}")
    with tempfile.TemporaryDirectory(prefix="unotable-bench-latency-") as tmp:
        launcher = _samples(Path(tmp) / "launcher", samples, seed, forget_uno=0.0,
                            options={}, setup=_press_setup)
        seat = _samples(Path(tmp) / "seat", max(2, samples // 2), seed, forget_uno=1.0,
                        options={"forgotten_uno": "catch"}, setup=_catch_setup)
    return {"tree": str(tree), "launcher": launcher, "seat": seat}


# -- the sync a commit costs -----------------------------------------------------------
def _quantiles(values: list[float]) -> dict[str, float]:
    if len(values) < 2:
        return {"p50": round(values[0], 1), "p99": round(values[0], 1), "n": len(values)}
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return {"p50": round(statistics.median(values), 1), "p99": round(cuts[98], 1),
            "n": len(values)}


def sync_costs(samples: int) -> dict[str, Any]:
    """µs of one 4 KiB pwrite + fdatasync, and of one Journal.append, on this disk."""
    from firmware.journal.store import Journal

    with tempfile.TemporaryDirectory(prefix="unotable-bench-sync-") as tmp:
        fd = os.open(Path(tmp) / "probe", os.O_RDWR | os.O_CREAT, 0o600)
        block = os.urandom(4096)
        raw = []
        try:
            for i in range(samples):
                t0 = time.perf_counter_ns()
                os.pwrite(fd, block, (i % 64) * 4096)
                os.fdatasync(fd)
                raw.append((time.perf_counter_ns() - t0) / 1000)
        finally:
            os.close(fd)
        journal = Journal.open(Path(tmp) / "journal.db")
        journal.start_match(edition=EDITION, options={}, seats=SEATS, seed=1, config_hash="h")
        commits = []
        try:
            for _ in range(samples):
                t0 = time.perf_counter_ns()
                journal.append("action", {"type": "press", "seat": 0})
                commits.append((time.perf_counter_ns() - t0) / 1000)
        finally:
            journal.close()
    return {"fdatasync_4k_us": _quantiles(raw), "journal_append_us": _quantiles(commits),
            "path": tempfile.gettempdir()}


# -- the run: both trees, taking turns --------------------------------------------------
def _baseline_tree(rev: str, into: Path) -> Path:
    tree = into / "baseline"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--quiet",
                    str(tree), rev], check=True, capture_output=True, text=True)
    return tree


def _measure(tree: Path, samples: int, seed: int) -> dict[str, Any]:
    done = subprocess.run([PYTHON, str(Path(__file__).resolve()), "--tree", str(tree),
                           "--samples", str(samples), "--seed", str(seed)],
                          stdout=subprocess.PIPE, text=True, cwd=REPO, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"measuring {tree} exited {done.returncode}")
    return dict(json.loads(done.stdout.splitlines()[-1]))


def _walks(tree: Path, seed: int) -> dict[str, Any]:
    done = subprocess.run([PYTHON, str(Path(__file__).resolve()), "--tree", str(tree),
                           "--walks", "--seed", str(seed)],
                          stdout=subprocess.PIPE, text=True, cwd=REPO, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"walking {tree} exited {done.returncode}")
    return dict(json.loads(done.stdout.splitlines()[-1]))


def run(quick: bool = False, *, samples: int | None = None, baseline: str = BASELINE,
        rounds: int = ROUNDS, seed: int = 1) -> Result:
    samples = samples if samples is not None else (QUICK_SAMPLES if quick else SAMPLES)
    pooled: dict[str, dict[str, list[float]]] = {
        side: {"launcher": [], "seat": []} for side in ("before", "after")}
    left_out: dict[str, Any] = {"no_motor": 0, "unlit": 0, "stuck": []}
    with tempfile.TemporaryDirectory(prefix="unotable-bench-baseline-") as tmp:
        before = _baseline_tree(baseline, Path(tmp))
        try:
            for turn in range(rounds):
                # the trees go first in turn: a disk that grows busier or quieter during a
                # run (others' work on a shared machine) favours neither
                trees = (("before", before), ("after", REPO))
                for side, tree in trees if turn % 2 == 0 else trees[::-1]:
                    progress(f"latency: {side} ({tree}), turn {turn + 1}/{rounds}, "
                             f"{samples} presses")
                    got = _measure(tree, samples, seed + turn)
                    pooled[side]["launcher"] += got["launcher"]["us"]
                    pooled[side]["seat"] += got["seat"]["us"]
                    left_out["no_motor"] += got["launcher"]["missed"]
                    left_out["unlit"] += got["seat"]["missed"]
                    left_out["stuck"] += [{"tree": side, **x} for x in
                                          got["launcher"]["stuck"] + got["seat"]["stuck"]]
            progress("latency: the hand-offs of each walk, before and after")
            walked = {"before": _walks(before, seed), "after": _walks(REPO, seed)}
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force",
                            str(before)], capture_output=True)
    result = Result("latency")
    stats = {side: {walk: _quantiles(v) for walk, v in walks.items()}
             for side, walks in pooled.items()}
    for walk, label in (("launcher", "launcher press -> motor on"),
                        ("seat", "seat press (catch) -> its LED")):
        b, a = stats["before"][walk], stats["after"][walk]
        for q in ("p50", "p99"):
            result.add(Figure(f"{label}, {q}, before ({baseline})", b[q], "us"))
            result.add(Figure(f"{label}, {q}, after", a[q], "us"))
            result.add(at_most(f"{label}, {q}, after / before", round(a[q] / b[q], 3), 1.0,
                               "x"))
    for walk, label, target in (("launcher", "launcher press to its first card's entry",
                                  LAUNCHER_HANDOFFS),
                                 ("seat", "seat press (catch) to its LED", SEAT_HANDOFFS)):
        result.add(Figure(f"{label}: hand-offs at the middle, before",
                          walked["before"][walk]["middle_handoffs"]))
        result.add(at_most(f"{label}: hand-offs at the middle, after",
                           walked["after"][walk]["middle_handoffs"], target))
        result.add(Figure(f"{label}: every cross-file call, before / after",
                          f"{walked['before'][walk]['handoffs']} / "
                          f"{walked['after'][walk]['handoffs']}"))
    result.add(Figure("launcher press: hand-offs per card after the first, before / after",
                      f"{walked['before']['launcher']['per_card']} / "
                      f"{walked['after']['launcher']['per_card']}"))
    sync = sync_costs(SYNC_SAMPLES // 4 if quick else SYNC_SAMPLES)
    for key, label in (("fdatasync_4k_us", "one 4 KiB pwrite + fdatasync"),
                       ("journal_append_us", "one Journal.append (a commit)")):
        result.add(Figure(f"{label}, p50", sync[key]["p50"], "us"))
        result.add(Figure(f"{label}, p99", sync[key]["p99"], "us"))
    result.detail = {"baseline": baseline, "samples_per_turn": samples, "rounds": rounds,
                     "stats": stats, "left_out": left_out, "sync": sync, "walks": walked,
                     "load": machine_load()}
    pad_figures(result, samples, seed)  # as many taps as presses per turn
    return result


# -- the card pad: a tag entering the field -> the play's event --------------------------
PAD_SAMPLES = 60  # taps per pace with --pad (--quick: PAD_QUICK_SAMPLES)
PAD_QUICK_SAMPLES = 20
PAD_P99_MS = 150.0
PAD_REFUSAL_RATIO = 1.2  # a card that does not fit is refused within an accepted one's time
PAD_EDITION = "classic"
PAD_ANSWERS = ("action", "refused", "pad_waits")  # what the table publishes after a tap


@contextlib.contextmanager
def _pad_as_on_the_table(paced: bool) -> Iterator[None]:
    """`SimTable`s built meanwhile get the pad a table has when `paced`: every byte at
    115200 baud's wire time and `[pad]`'s default pace (a test's twin is unpaced and
    polls every 5 ms). `same_tap_s` stays the twin's 0: the bots lay a colour chip
    again sooner than the 2 s a person's tap is held to."""
    import firmware.sim.testbed as testbed
    from firmware.sim.world import pad_deck
    from hal.pad import PadConfig
    from hal.sim.pad import SimPad

    made = testbed.World
    defaults = PadConfig(port="")

    def world(*args: Any, **kwargs: Any) -> Any:
        built = made(*args, **kwargs)
        if paced and built.pad_sim is not None:
            built.pad_sim.close()
            built.pad_sim = SimPad(built.edition, pad_deck(built.edition), paced=True)
            built.pad_timing = {"poll_interval_s": defaults.poll_interval_s,
                                "idle_poll_interval_s": defaults.idle_poll_interval_s,
                                "same_tap_s": 0.0}
        return built

    testbed.World = world  # type: ignore[misc]
    try:
        yield
    finally:
        testbed.World = made  # type: ignore[misc]


def _pad_taps(table: Any, samples: int, out: dict[str, list[float]]) -> None:
    """Let the bots play on `table`, tapping their cards, until `samples` taps were
    answered: each from the tag laid on the pad (`SimPad.hold`, the bots' thread) to
    the table's answer published (the controller's listeners, the loop's thread), split
    at the read that saw it (the pad's watcher thread)."""
    pad_sim, reader = table.world.pad_sim, table.controller.hw.pad
    laid: list[float] = []
    read: list[float] = []
    hold, poll = pad_sim.hold, reader.poll

    def holding(*uids: str) -> None:
        if uids:
            laid[:], read[:] = [time.monotonic()], []
        hold(*uids)

    def polled() -> list[Any]:
        events = poll()
        if laid and not read and events:
            read.append(time.monotonic())
        return events

    def heard(event: Any) -> None:
        if laid and event.get("kind") in PAD_ANSWERS:
            now = time.monotonic()
            kind = "play" if event["kind"] == "action" else "other"
            out[kind].append((now - laid[0]) * 1000)
            if read:
                out["to_read"].append((read[0] - laid[0]) * 1000)
                out["read_to_event"].append((now - read[0]) * 1000)
            laid.clear()

    pad_sim.hold, reader.poll = holding, polled
    table.controller.listeners.append(heard)
    try:
        while len(out["play"]) < samples:
            if _over(table, lambda st: st["waiting"]["kind"] == "turn"):
                continue
            table.bot_step()
            _tick("pad", len(out["play"]), samples)
    finally:
        table.controller.listeners.remove(heard)
        pad_sim.hold, reader.poll = hold, poll


def _misfit(table: Any, seat: int, recent: list[str]) -> str | None:
    """The tag of a card of the deck that `seat` may not play now and that does not lie
    on the pile: the pad must refuse it because it does not fit. Not one of the `recent`
    tags: a tag seen again within `same_tap_s` is the same tap (the pad's debounce)."""
    import uno_core as U
    from firmware.sim.world import pad_deck

    pad_sim, controller = table.world.pad_sim, table.controller

    def pick() -> str | None:
        on_pile = controller.lookup("pad").on_pile
        for code in pad_deck(table.world.edition):
            try:
                U.apply(controller.state.clone(), U.Play(seat, U.parse_card(code)))
            except U.IllegalAction:
                free = [uid for uid in pad_sim.tags_of(code)
                        if uid not in on_pile and uid not in recent]
                if free:
                    return str(free[0])
        return None

    return table.call(pick)


def pad_refusals(samples: int, seed: int) -> list[float]:
    """Ms from a tag that does not fit laid on the pad to the table's ``refused`` event,
    at the table's pace and wire time: the seat to act taps a card it may not play,
    lifts it, and its bot then plays on."""
    from firmware.sim.testbed import SimTable

    out: list[float] = []
    laid: list[float] = []
    unanswered: list[str] = []
    tapped: list[str] = []

    def heard(event: Any) -> None:
        if laid and event.get("kind") == "refused":
            out.append((time.monotonic() - laid.pop()) * 1000)

    with tempfile.TemporaryDirectory(prefix="unotable-bench-refused-") as tmp, \
            _pad_as_on_the_table(True):
        tables = 0
        while len(out) < samples:
            tables += 1
            with SimTable(Path(tmp) / f"t{tables}", PAD_EDITION, SEATS, seed + tables - 1,
                          pad=True) as table:
                table.controller.listeners.append(heard)
                try:
                    for _ in range(PER_TABLE * 4):
                        if len(out) >= samples:
                            break
                        if _over(table, lambda st: st["waiting"]["kind"] == "turn"):
                            continue
                        uid = _misfit(table, table.state()["waiting"]["seat"], tapped[-2:])
                        if uid is not None:
                            tapped.append(uid)
                            laid[:] = [time.monotonic()]
                            table.world.pad_sim.hold(uid)
                            deadline = time.monotonic() + 5
                            while laid and time.monotonic() < deadline:
                                time.sleep(0.002)
                            if laid:  # no refusal came: say which tap went unanswered
                                unanswered.append(uid)
                            table.world.pad_sim.lift()
                            laid.clear()
                        table.bot_step()
                        _tick("pad refusals", len(out), samples)
                finally:
                    table.controller.listeners.remove(heard)
    if unanswered:
        print(f"[bench] latency: {len(unanswered)} taps of a card that does not fit "
              f"went unanswered: {unanswered[:3]}", file=sys.stderr)
    return out


def pad_latency(samples: int, seed: int, *, paced: bool = True) -> dict[str, Any]:
    """Taps through the whole daemon on the twin (`SimTable` with a pad, the bots
    tapping), at the table's pace and wire time (`paced`) or the test twin's."""
    from firmware.sim.testbed import SimTable

    out: dict[str, list[float]] = {"play": [], "other": [], "to_read": [], "read_to_event": []}
    with tempfile.TemporaryDirectory(prefix="unotable-bench-pad-") as tmp, \
            _pad_as_on_the_table(paced):
        tables = 0
        while len(out["play"]) < samples:
            tables += 1
            with SimTable(Path(tmp) / f"t{tables}", PAD_EDITION, SEATS, seed + tables - 1,
                          pad=True) as table:
                _pad_taps(table, min(samples, len(out["play"]) + PER_TABLE * 4), out)
    return {"ms": out, "tables": tables}


def pad_figures(result: Result, samples: int, seed: int = 1) -> None:
    """The card pad's section: tag in the field -> the play's event, p50/p99/max, at the
    table's pace (judged) and at the test twin's (the same walk without the poll wait
    and the wire time), and where the time goes."""
    progress(f"latency: the card pad, {samples} taps at the table's pace and wire time")
    table_pace = pad_latency(samples, seed)
    progress(f"latency: the card pad, {samples} taps on the test twin (5 ms polls, no wire time)")
    twin_pace = pad_latency(samples, seed, paced=False)
    ms = table_pace["ms"]
    play, twin = _quantiles(ms["play"]), _quantiles(twin_pace["ms"]["play"])
    label = "pad: tag in the field -> the play's event"
    result.add(Figure(f"{label}, p50", play["p50"], "ms"))
    result.add(at_most(f"{label}, p99", play["p99"], PAD_P99_MS, "ms"))
    result.add(Figure(f"{label}, max", round(max(ms["play"]), 1), "ms"))
    for key, name in (("to_read", "tag in the field -> the read that saw it"),
                      ("read_to_event", "that read -> the event (loop, checks, commit)")):
        q = _quantiles(ms[key])
        result.add(Figure(f"pad: {name}, p50 / p99", f"{q['p50']} / {q['p99']}", "ms"))
    result.add(Figure("pad on the test twin (5 ms polls, no wire time), p50 / p99",
                      f"{twin['p50']} / {twin['p99']}", "ms"))
    result.add(Figure("pad: table's pace / test twin's, p50",
                      round(play["p50"] / twin["p50"], 2), "x"))
    progress(f"latency: the card pad, {samples} cards that do not fit, at the table's pace")
    refused = _quantiles(pad_refusals(samples, seed))
    result.add(Figure("pad: a card that does not fit -> its refusal, p50 / p99",
                      f"{refused['p50']} / {refused['p99']}", "ms"))
    result.add(at_most("pad: refusal / play, p99", round(refused["p99"] / play["p99"], 2),
                       PAD_REFUSAL_RATIO, "x"))
    result.detail["pad"] = {
        "samples": samples, "table_pace": {k: _quantiles(v) for k, v in ms.items() if v},
        "test_twin": {k: _quantiles(v) for k, v in twin_pace["ms"].items() if v},
        "load": machine_load()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int,
                        help=f"launcher presses per tree and turn ({SAMPLES}; --quick "
                             f"{QUICK_SAMPLES}); half as many catches")
    parser.add_argument("--baseline", default=BASELINE,
                        help=f"the commit to compare with (default {BASELINE})")
    parser.add_argument("--rounds", type=int, default=ROUNDS,
                        help=f"turns each tree takes (default {ROUNDS})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)  # the worker
    parser.add_argument("--walks", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--pad", action="store_true", help="only the card pad's section")
    args = parser.parse_args(argv)
    if (args.samples is not None and args.samples < 1) or args.rounds < 1:
        parser.error("--samples and --rounds must be at least 1")
    if args.tree is not None and args.walks:
        sys.path.insert(0, str(args.tree))
        print(json.dumps(walks(args.tree, args.seed)))
        return 0
    if args.tree is not None:
        print(json.dumps(worker(args.tree, args.samples or SAMPLES, args.seed)))
        return 0
    if args.pad:
        result = Result("latency")
        pad_figures(result, args.samples or (PAD_QUICK_SAMPLES if args.quick else PAD_SAMPLES),
                    args.seed)
        return report(result, args.json)
    return report(run(args.quick, samples=args.samples, baseline=args.baseline,
                      rounds=args.rounds, seed=args.seed), args.json)


if __name__ == "__main__":
    sys.exit(main())
