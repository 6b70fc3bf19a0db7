"""Journal faults: damage or take away the journal the way an unlucky owner would, and
check that no game is ever lost silently.

    python bench/journal_faults.py [--trials T] [--seed S] [--quick] [--json] [--only F,...]

Faults at start (``unotable demo --fast --journal J``, restarted after the fault):

- ``zero-bytes``: the journal truncated to 0 bytes after a clean stop;
- ``wal-deleted``: the daemon SIGKILLed while its WAL holds the round under way, then
  the ``-wal`` deleted;
- ``wal-flips``: the same kill, then 8 random bytes of the WAL flipped (T trials);
- ``db-flips``: 16 random bytes of the journal file flipped after a clean stop (T trials);
- ``header-tamper``: the match header's ``seats`` changed 4 -> 5;
- ``entry-flip``: one byte of an entry of the match under way changed, the file
  otherwise sound (bit rot SQLite's own check does not see);
- ``read-only``: the state directory on a read-only mount (a tmpfs remounted ``ro``;
  without mount rights, the file refused by access(2) is injected);
- ``mark-and-wal-lost``: the kill, then the ``-wal`` and the ``.mark`` deleted;
- ``mark-truncated``, ``mark-random``, ``mark-directory``: the mark cut short, filled
  with random bytes (T trials each), or a directory in its place;
- ``another-table``: a Power table's journal and mark copied over a classic table's;
- ``another-edition``: a classic journal started as ``--variant power``;
- ``second-daemon``: a second demo on the journal of one that runs (refused naming the
  first's PID; the first plays on to its orderly stop);
- ``mark-link``, ``lock-link``, ``world-tmp-link``: a symbolic link to another file at
  the mark, the lock or the twin's ``world.json.tmp`` (the file must keep its bytes);

and while the table runs (the real daemon in this process, `firmware.sim.testbed`):

- ``deleted-at-runtime``: the journal file deleted between two moves;
- ``disk-full``: the journal on a 4 MiB tmpfs that is then filled up, later freed
  (without mount rights: SQLite's own SQLITE_FULL through ``PRAGMA max_page_count``);
- ``read-only-at-runtime``: SQLite's own SQLITE_READONLY (``PRAGMA query_only``; a
  mount cannot be made read-only while the daemon holds its files open for writing).
- ``full-after-stop``: an orderly stop, the 4 MiB tmpfs filled, a start: the table
  must open paused with ``disk-full`` (507), and go on once the filler is removed
  (needs mount rights: counted unclear without them).

and refusals that must leave the journal exactly as it was (its file, ``-wal``, ``-shm``
and mark byte for byte), after which the right files put back go on with every entry:

- ``another-table-over-wal``: a killed table's journal and mark moved aside, its WAL left,
  another table's journal and mark put in their place;
- ``another-edition-wal``, ``mark-missing-wal``: a killed journal started as Power, or
  with its mark moved away;
- ``full-disk-refused``: a killed journal on a full 4 MiB tmpfs with its mark moved away
  (refused, untouched), then put back: ``unotable run`` opens paused (507);

and ``unotable run`` itself (as systemd starts it):

- ``run-full-after-stop``: an orderly stop, the 4 MiB tmpfs filled, ``run`` started: it
  must keep running, paused with ``disk-full``, answer 507, and go on once there is room
  (the seats' invitations and the twin's world are on the full disk too);
- ``run-world-link``, ``run-world-tmp-link``, ``run-seats-link``, ``run-table-id-fifo``:
  a link (a FIFO) at the twin's world, its temporary file, the seats' keys or the
  table's identity: exit 2 with one line naming it, the link's target untouched.

Counters (over all faults; each fault counts once in at most one of them):

- ``silent_loss``: the daemon went on (started, or kept running) on a journal that no
  longer holds every entry committed before the fault (same seq, same CRC), without
  refusing to start or pausing the table for it;
- ``crash_loops``: a start ended with an exit status other than 0 (orderly) or 2 (the
  refusal), or with a traceback -- what systemd would restart into the same failure --
  or a running daemon exited by itself over the fault, or did not start again once the
  fault was repaired;
- ``touched``: a refused start changed the journal, its WAL, its -shm or its mark;
- ``unclear``: the refusal is not exactly one line, does not name the journal file, or
  does not say what to do (restore, recover, move, free, fix); or a pause does not name
  the file and its cause; or a write failure is called "corrupt", or damage is called
  "cannot write".

Prints ``faults=N touched=0 silent_loss=0 crash_loops=0 unclear=0`` and exits 0 when all
four are 0, else 1.
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bench.common import progress, unotable, workdir

DAMAGE_WORDS = ("ends at entry", "is missing", "corrupt", "fails its checksum", "not the journal",
                "is truncated", "holds no intact record", "not a regular file", "belongs to "
                "table", "journal of a", "in use by another daemon")
ADVICE_WORDS = ("restore", "recover", "move", "free", "fix", "accept", "stop")
RUN_TIMEOUT_S = 120


@dataclass
class Outcome:
    fault: str
    how: str  # refused | paused | went on | crashed
    message: str
    lost: int = 0  # committed entries missing or changed in what the daemon went on with
    crash: bool = False
    unclear: str = ""
    via: str = ""  # how the fault was made when it was injected
    touched: bool = False  # a refused start changed the journal's files

    @property
    def silent_loss(self) -> bool:
        return self.lost > 0 and self.how == "went on"


# ------------------------------------------------------------------ helpers
def demo(journal: Path, rounds: int, *, variant: str = "classic") -> list[str]:
    return unotable("demo", "--fast", "--json", "--variant", variant, "--rounds", str(rounds),
                    "--journal", str(journal))


def committed(journal: Path) -> dict[int, int]:
    """seq -> CRC of every entry the files hold now (read from a copy: never touched)."""
    with workdir("look") as tmp:
        for suffix in ("", "-wal"):
            if Path(f"{journal}{suffix}").exists():
                shutil.copyfile(f"{journal}{suffix}", tmp / f"j.db{suffix}")
        if not (tmp / "j.db").exists():
            return {}
        conn = sqlite3.connect(tmp / "j.db")
        try:
            return dict(conn.execute("SELECT seq, crc FROM entries"))
        except sqlite3.Error:
            return {}
        finally:
            conn.close()


def missing(before: dict[int, int], after: dict[int, int]) -> int:
    return sum(1 for seq, crc in before.items() if after.get(seq) != crc)


def judge_start(fault: str, journal: Path, before: dict[int, int], rounds: int,
                *, cannot_write: bool = False, via: str = "", variant: str = "classic",
                untouched: Path | None = None, own_files: bool = True) -> Outcome:
    """Start the demo on the damaged journal and judge what it did; `untouched`: a file
    a link points at, which must keep its bytes; `own_files`: False when another daemon
    writes the journal meanwhile (a refusal cannot be held to its bytes)."""
    kept = untouched.read_bytes() if untouched is not None else b""
    files = journal_files(journal)
    proc = subprocess.run(demo(journal, rounds, variant=variant), capture_output=True,
                          text=True, timeout=RUN_TIMEOUT_S)
    if untouched is not None and untouched.read_bytes() != kept:
        return Outcome(fault, "went on", "wrote through a link", lost=1, via=via)
    err = proc.stderr.strip()
    if proc.returncode == 2:
        return Outcome(fault, "refused", err, unclear=_unclear_refusal(err, journal,
                                                                      cannot_write), via=via,
                       touched=own_files and journal_files(journal) != files)
    if proc.returncode != 0 or "Traceback" in proc.stderr:
        return Outcome(fault, "crashed", err.splitlines()[-1] if err else "", crash=True,
                       via=via)
    return Outcome(fault, "went on", "", lost=missing(before, committed(journal)), via=via)


def journal_files(journal: Path) -> dict[str, bytes | str | None]:
    """The journal, its WAL, its WAL index and its mark, byte for byte (None: absent)."""
    out: dict[str, bytes | str | None] = {}
    for suffix in ("", "-wal", "-shm", ".mark"):
        name = Path(f"{journal}{suffix}")
        out[suffix] = "directory" if name.is_dir() else name.read_bytes() if name.exists() \
            else None
    return out


def _unclear_refusal(err: str, journal: Path, cannot_write: bool) -> str:
    if err.count("\n") != 0:
        return "more than one line"
    if str(journal) not in err:
        return "does not name the journal"
    if not any(w in err for w in ADVICE_WORDS):
        return "does not say what to do"
    if cannot_write and ("corrupt" in err or "cannot write" not in err):
        return "a write failure not called 'cannot write'"
    if not cannot_write and not any(w in err for w in DAMAGE_WORDS):
        return "damage not named"
    return ""


def flip(path: Path, rng: random.Random, count: int, skip: int = 0) -> None:
    data = bytearray(path.read_bytes())
    for _ in range(count):
        at = rng.randrange(skip, len(data))
        data[at] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def clean_journal(tmp: Path, rounds: int = 2) -> Path:
    journal = tmp / "journal.db"
    subprocess.run(demo(journal, rounds), check=True, capture_output=True, timeout=RUN_TIMEOUT_S)
    return journal


def killed_journal(tmp: Path, rng: random.Random) -> Path:
    """A journal whose daemon was SIGKILLed mid-round, after the first round's end was
    checkpointed into the file: its WAL holds commits the file does not (tried again,
    in a new directory, when the kill came right after a checkpoint)."""
    for attempt in range(5):
        journal = _killed(tmp / f"kill-{attempt}", rng)
        with workdir("db-only") as only:
            shutil.copyfile(journal, only / "journal.db")
            if len(committed(only / "journal.db")) < len(committed(journal)):
                return journal
    return journal


def _killed(tmp: Path, rng: random.Random) -> Path:
    tmp.mkdir()
    journal = tmp / "journal.db"
    wal = Path(f"{journal}-wal")
    want = rng.randrange(40_000, 120_000)
    proc = subprocess.Popen(demo(journal, 50), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + RUN_TIMEOUT_S
    try:
        while not (wal.exists() and wal.stat().st_size >= want
                   and journal.stat().st_size > 32768):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the demo ended before its WAL grew")
            time.sleep(0.005)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    return journal


# ------------------------------------------------------------------ faults at start
def zero_bytes(tmp: Path, rng: random.Random) -> Outcome:
    journal = clean_journal(tmp)
    before = committed(journal)
    journal.write_bytes(b"")
    return judge_start("zero-bytes", journal, before, 3)


def wal_deleted(tmp: Path, rng: random.Random) -> Outcome:
    journal = killed_journal(tmp, rng)
    before = committed(journal)
    Path(f"{journal}-wal").unlink()
    return judge_start("wal-deleted", journal, before, 50)


def wal_flips(tmp: Path, rng: random.Random) -> Outcome:
    journal = killed_journal(tmp, rng)
    before = committed(journal)
    flip(Path(f"{journal}-wal"), rng, 8, skip=32)
    return judge_start("wal-flips", journal, before, 50)


def db_flips(tmp: Path, rng: random.Random) -> Outcome:
    journal = clean_journal(tmp)
    before = committed(journal)
    flip(journal, rng, 16)
    return judge_start("db-flips", journal, before, 3)


def header_tamper(tmp: Path, rng: random.Random) -> Outcome:
    journal = clean_journal(tmp)
    before = committed(journal)
    conn = sqlite3.connect(journal)
    conn.execute("UPDATE matches SET seats = 5 WHERE seats = 4")
    conn.commit()
    conn.close()
    return judge_start("header-tamper", journal, before, 3)


def entry_flip(tmp: Path, rng: random.Random) -> Outcome:
    journal = clean_journal(tmp)
    before = committed(journal)
    conn = sqlite3.connect(journal)
    seq = rng.choice([s for s, in conn.execute("SELECT seq FROM entries")])
    text = conn.execute("SELECT payload FROM entries WHERE seq = ?", (seq,)).fetchone()[0]
    at = rng.randrange(len(text))
    flipped = text[:at] + chr(ord(text[at]) ^ 1) + text[at + 1:]
    conn.execute("UPDATE entries SET payload = ? WHERE seq = ?", (flipped, seq))
    conn.commit()
    conn.close()
    return judge_start("entry-flip", journal, before, 3)


def read_only(tmp: Path, rng: random.Random) -> Outcome:
    with tmpfs(tmp / "ro", "4m") as mounted:
        if mounted is None:  # no mount rights: the daemon's user cannot write the file
            journal = clean_journal(tmp)
            before = committed(journal)
            code = ("import os, sys, runpy; real = os.access; os.access = lambda p, m: "
                    f"False if str(p) == {str(journal)!r} else real(p, m); "
                    "sys.argv = ['unotable'] + sys.argv[1:]; "
                    "runpy.run_module('firmware', run_name='__main__')")
            args = demo(journal, 3)[3:]
            proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                                  text=True, timeout=RUN_TIMEOUT_S)
            err = proc.stderr.strip()
            how = "refused" if proc.returncode == 2 else "went on"
            return Outcome("read-only", how, err, via="injected access(2)",
                           unclear=_unclear_refusal(err, journal, True) if how == "refused"
                           else "", lost=missing(before, committed(journal)))
        journal = clean_journal(mounted)
        before = committed(journal)
        subprocess.run(["mount", "-o", "remount,ro", str(mounted)], check=True)
        outcome = judge_start("read-only", journal, before, 3, cannot_write=True,
                              via="read-only tmpfs")
        subprocess.run(["mount", "-o", "remount,rw", str(mounted)], check=True)
        return outcome


def mark_and_wal_lost(tmp: Path, rng: random.Random) -> Outcome:
    journal = killed_journal(tmp, rng)
    before = committed(journal)
    Path(f"{journal}-wal").unlink()
    Path(f"{journal}.mark").unlink()
    return judge_start("mark-and-wal-lost", journal, before, 50)


def _mark_damaged(fault: str, damage: Callable[[Path, random.Random], None]) -> Callable[
        [Path, random.Random], Outcome]:
    def make(tmp: Path, rng: random.Random) -> Outcome:
        journal = clean_journal(tmp)
        before = committed(journal)
        damage(Path(f"{journal}.mark"), rng)
        return judge_start(fault, journal, before, 3)
    return make


def _directory(mark: Path, rng: random.Random) -> None:
    mark.unlink()
    mark.mkdir()


mark_truncated = _mark_damaged("mark-truncated", lambda m, rng: m.write_bytes(
    m.read_bytes()[:rng.randrange(0, 1024)]))
mark_random = _mark_damaged("mark-random", lambda m, rng: m.write_bytes(rng.randbytes(1024)))
mark_directory = _mark_damaged("mark-directory", _directory)


def another_table(tmp: Path, rng: random.Random) -> Outcome:
    """A Power table's journal and mark copied over a classic table's (issue 21)."""
    (tmp / "power").mkdir()
    (tmp / "ours").mkdir()
    theirs = tmp / "power" / "journal.db"
    subprocess.run(demo(theirs, 2, variant="power"), check=True, capture_output=True,
                   timeout=RUN_TIMEOUT_S)
    journal = clean_journal(tmp / "ours")
    before = committed(journal)
    for suffix in ("", ".mark"):
        shutil.copyfile(f"{theirs}{suffix}", f"{journal}{suffix}")
    return judge_start("another-table", journal, before, 3)


def another_edition(tmp: Path, rng: random.Random) -> Outcome:
    journal = clean_journal(tmp)
    before = committed(journal)
    return judge_start("another-edition", journal, before, 3, variant="power")


def second_daemon(tmp: Path, rng: random.Random) -> Outcome:
    """A second demo on the journal of one that runs: refused naming its PID, and the
    first goes on to an orderly end."""
    journal = tmp / "journal.db"
    first = subprocess.Popen(demo(journal, 200), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + RUN_TIMEOUT_S
        while len(committed(journal)) < 20:
            if first.poll() is not None or time.monotonic() > deadline:
                return Outcome("second-daemon", "crashed", "the first demo ended early",
                               crash=True)
            time.sleep(0.05)
        before = committed(journal)
        outcome = judge_start("second-daemon", journal, before, 3, own_files=False)
        if outcome.how == "refused" and f"PID {first.pid}" not in outcome.message:
            outcome.unclear = "does not name the PID that holds the journal"
    finally:
        first.send_signal(signal.SIGTERM)
        _, err = first.communicate(timeout=RUN_TIMEOUT_S)
    if first.returncode not in (0, 1) or "Traceback" in err:
        outcome.crash, outcome.how = True, "crashed"
    outcome.lost = missing(before, committed(journal))
    return outcome


def _link_fault(fault: str, name: str) -> Callable[[Path, random.Random], Outcome]:
    def make(tmp: Path, rng: random.Random) -> Outcome:
        journal = clean_journal(tmp)
        before = committed(journal)
        target = tmp / "precious"
        target.write_bytes(b"someone else's file")
        link = Path(f"{journal}{name}")
        if link.is_file():
            link.unlink()
        link.symlink_to(target)
        return judge_start(fault, journal, before, 3, untouched=target)
    return make


def refused_then_restored(fault: str, journal: Path, put: Callable[[], None],
                          back: Callable[[], None], *, variant: str = "classic",
                          via: str = "") -> Outcome:
    """`put` the fault, start (it must be refused, the files untouched), put the right
    files `back` and start again: it must go on with every entry committed before."""
    before = committed(journal)
    put()
    outcome = judge_start(fault, journal, before, 3, variant=variant, via=via)
    if outcome.how != "refused":
        return outcome
    back()
    again = judge_start(fault, journal, before, 3)
    if again.how != "went on" or again.lost:
        # the right files refused, or short, once back: the first refusal changed them
        again.how = "went on" if again.lost else again.how
        again.touched = again.how == "refused" or outcome.touched
        again.message = f"after the right files were put back: {again.message}"
        return again
    return outcome


def another_table_over_wal(tmp: Path, rng: random.Random) -> Outcome:
    """Ours killed mid-round; its journal and mark moved aside, its WAL left; another
    table's journal and mark in their place: a read-write open would checkpoint our WAL
    into theirs, and our round would be lost."""
    (tmp / "theirs").mkdir()
    theirs = clean_journal(tmp / "theirs")
    (tmp / "ours").mkdir()
    journal = killed_journal(tmp / "ours", rng)
    aside = tmp / "aside"
    aside.mkdir()

    def put() -> None:
        for suffix in ("", ".mark"):
            shutil.move(f"{journal}{suffix}", aside / f"j{suffix}")
            shutil.copyfile(f"{theirs}{suffix}", f"{journal}{suffix}")

    def back() -> None:
        for suffix in ("", ".mark"):
            os.replace(aside / f"j{suffix}", f"{journal}{suffix}")

    return refused_then_restored("another-table-over-wal", journal, put, back)


def another_edition_wal(tmp: Path, rng: random.Random) -> Outcome:
    journal = killed_journal(tmp, rng)
    return refused_then_restored("another-edition-wal", journal, lambda: None, lambda: None,
                                 variant="power")


def mark_missing_wal(tmp: Path, rng: random.Random) -> Outcome:
    journal = killed_journal(tmp, rng)
    kept = tmp / "kept.mark"
    return refused_then_restored("mark-missing-wal", journal,
                                 lambda: os.replace(f"{journal}.mark", kept),
                                 lambda: os.replace(kept, f"{journal}.mark"))


# ------------------------------------------------------------------ `unotable run`
def run_command(tmp: Path) -> tuple[list[str], str]:
    """`unotable run` on the simulated twin with a free port: its arguments and URL."""
    from firmware.config import DEFAULT_PATH

    with contextlib.closing(__import__("socket").socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp / "config.toml"
    config.write_text(DEFAULT_PATH.read_text().replace("port = 8080", f"port = {port}"))
    return unotable("run", "--config", str(config)), f"http://127.0.0.1:{port}"


def get(url: str, path: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url + path, timeout=10) as resp:
            return int(resp.status), json.load(resp)
    except urllib.error.HTTPError as exc:
        return int(exc.code), json.load(exc)


@contextlib.contextmanager
def serving(tmp: Path, state: Path, *, stop: int = signal.SIGTERM) -> Iterator[
        tuple[subprocess.Popen[str], str]]:
    """`unotable run` until it serves (or ends), then `stop` (SIGTERM: as systemd stops
    it; SIGKILL: a power cut)."""
    args, url = run_command(tmp)
    proc = subprocess.Popen(args, env={**os.environ, "STATE_DIRECTORY": str(state)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + RUN_TIMEOUT_S
        while proc.poll() is None and time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if get(url, "/api/state")[0] == 200:
                    break
            time.sleep(0.2)
        yield proc, url
    finally:
        if proc.poll() is None:
            proc.send_signal(stop)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.communicate(timeout=RUN_TIMEOUT_S)
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _fill(directory: Path) -> Path:
    filler = directory / "filler"
    with open(filler, "wb", buffering=0) as f, contextlib.suppress(OSError):
        while True:
            f.write(b"\0" * 65536)
    return filler


def _paused_then_on(proc: subprocess.Popen[str], url: str, filler: Path) -> tuple[str, str]:
    """A table that must be paused with disk-full, answer 507, and go on once `filler`
    is removed: (what it said, what was wrong or "")."""
    if proc.poll() is not None:
        return "", f"run exited {proc.returncode}: {(proc.stderr.read() if proc.stderr else '')[-300:]}"
    waiting = get(url, "/api/state")[1]["waiting"]
    code = post(url, "/api/admin/resume")
    filler.unlink()
    deadline = time.monotonic() + 30
    while get(url, "/api/state")[1]["waiting"]["kind"] == "journal":
        if time.monotonic() > deadline:
            return str(waiting.get("message")), "did not go on once there was room"
        time.sleep(0.2)
    wrong = "" if waiting.get("cause") == "disk-full" and code == 507 else \
        f"not paused with disk-full at start, or the API answered {code}, not 507"
    return str(waiting.get("message", "")), wrong


def run_full_after_stop(tmp: Path, rng: random.Random) -> Outcome:
    with tmpfs(tmp / "small", "4m") as mounted:
        if mounted is None:
            return Outcome("run-full-after-stop", "paused", "no mount rights: not run here",
                           unclear="not run (needs a tmpfs)", via="none")
        with serving(tmp, mounted) as (proc, _):
            pass
        if proc.returncode != 0:
            return Outcome("run-full-after-stop", "crashed", "the first run did not stop in "
                           "order", crash=True)
        before = committed(mounted / "journal.db")
        filler = _fill(mounted)
        with serving(tmp, mounted) as (proc, url):
            message, wrong = _paused_then_on(proc, url, filler)
        crashed = proc.returncode != 0
        lost = missing(before, committed(mounted / "journal.db"))
    return Outcome("run-full-after-stop", "crashed" if crashed else "paused", message,
                   crash=crashed, unclear=wrong if not crashed else "", lost=lost,
                   via="unotable run, full 4 MiB tmpfs")


def full_disk_refused(tmp: Path, rng: random.Random) -> Outcome:
    with tmpfs(tmp / "small", "4m") as mounted:
        if mounted is None:
            return Outcome("full-disk-refused", "refused", "no mount rights: not run here",
                           unclear="not run (needs a tmpfs)", via="none")
        journal = mounted / "journal.db"
        with serving(tmp, mounted, stop=signal.SIGKILL):
            pass  # killed: its WAL holds the match it started
        before = committed(journal)
        kept = mounted / "kept.mark"
        os.replace(f"{journal}.mark", kept)
        filler = _fill(mounted)
        files = journal_files(journal)
        args, _ = run_command(tmp)
        env = {**os.environ, "STATE_DIRECTORY": str(journal.parent)}
        proc = subprocess.run(args, env=env, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT_S)
        err = proc.stderr.strip()
        outcome = Outcome("full-disk-refused", "refused", err, via="unotable run, full tmpfs",
                          touched=journal_files(journal) != files)
        if proc.returncode != 2:
            outcome.how, outcome.crash = "crashed", True
            return outcome
        outcome.unclear = _unclear_refusal(err, journal, False)
        os.replace(kept, f"{journal}.mark")
        with serving(tmp, journal.parent) as (run, url):
            message, wrong = _paused_then_on(run, url, filler)
        outcome.crash = run.returncode != 0
        outcome.unclear = outcome.unclear or wrong
        outcome.lost = missing(before, committed(journal))
        return outcome


def _run_refusal(fault: str, name: str, make: Callable[[Path, Path], None]) -> Callable[
        [Path, random.Random], Outcome]:
    """`unotable run` with `make(path, target)` done at `name` in its state directory:
    exit 2, one line naming the file, the target untouched."""
    def judge(tmp: Path, rng: random.Random) -> Outcome:
        state = tmp / "state"
        with serving(tmp, state) as (first, _):
            pass
        target = tmp / "precious"
        target.write_bytes(b"someone else's file")
        path = state / name
        if path.exists():
            path.unlink()
        make(path, target)
        args, _ = run_command(tmp)
        proc = subprocess.run(args, env={**os.environ, "STATE_DIRECTORY": str(state)},
                              capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        err = proc.stderr.strip()
        if target.read_bytes() != b"someone else's file":
            return Outcome(fault, "went on", "wrote through a link", lost=1)
        if proc.returncode != 2:
            return Outcome(fault, "crashed", err[-300:], crash=True, via="unotable run")
        unclear = ("more than one line" if err.count("\n") else "does not name the file"
                   if str(path) not in err else "does not say what to do"
                   if not any(w in err for w in ADVICE_WORDS) else "")
        return Outcome(fault, "refused", err, unclear=unclear, via="unotable run")
    return judge


# ------------------------------------------------------------------ faults at runtime
def post(url: str, path: str) -> int:
    req = urllib.request.Request(url + path, data=b"{}", method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def runtime(fault: str, directory: Path, make: Callable[[Any], str],
            repair: Callable[[Any], None], *, world_elsewhere: Path | None = None,
            restart_in: Callable[[], Path] | None = None) -> Outcome:
    """Play, make the fault (`make` returns how), play until the table pauses for it,
    ask a 507 of the API, `repair`, play on, stop, restart and compare."""
    from firmware.sim.testbed import SimTable

    def paused(st: Any) -> bool:
        return bool(st["waiting"]["kind"] == "journal")

    table = SimTable(directory, "classic")
    if world_elsewhere is not None:  # the simulated table's own file is not the journal
        shutil.copyfile(table.world.path, world_elsewhere)
        table.world.path = world_elsewhere
    try:
        table.play_until(lambda st: st["step"] >= 15)
        via = make(table)
        st = table.play_until(lambda st: paused(st) or st["stats"]["rounds"] >= 2,
                              max_steps=2000)
        if not paused(st):
            before = table.journal_seq
            table.stop()
            return Outcome(fault, "went on", "the fault was never noticed", via=via,
                           lost=0 if committed(table.journal_path).get(before) else before)
        message = st["waiting"]["message"]
        code = post(table.url, "/api/admin/pause")
        conn = table.controller.journal._conn  # what the daemon itself committed
        before = table.call(lambda: dict(conn.execute("SELECT seq, crc FROM entries")))
        unclear = "" if str(table.journal_path) in message and code == 507 else \
            f"the pause does not name the journal, or the API answered {code}, not 507"
        if "corrupt" in message:
            unclear = "a write failure called corrupt"
        repair(table)
        table.pass_time(1.0)  # the table's retry comes due on its (virtual) clock
        if fault != "deleted-at-runtime":
            st = table.wait_for(lambda st: not paused(st), timeout=15)
            rounds = st["stats"]["rounds"]
            table.play_until(lambda st: st["stats"]["rounds"] > rounds)
        crashed = table.status is not None
        step, seq = table.state()["step"], table.journal_seq
    finally:
        table.stop()
    again_dir = restart_in() if restart_in is not None else directory
    if fault == "deleted-at-runtime":
        shutil.move(f"{table.journal_path}.rescued", again_dir / "journal.db")
        shutil.move(f"{table.journal_path}.rescued.mark", again_dir / "journal.db.mark")
    try:
        with SimTable(again_dir, "classic") as again:
            back = again.state()["step"] == step and again.journal_seq == seq
    except Exception as exc:  # noqa: BLE001 -- any failure to start again is the finding
        return Outcome(fault, "crashed", f"no restart: {exc}", crash=True, via=via)
    lost = missing(before, committed(again_dir / "journal.db"))
    return Outcome(fault, "paused", message, lost=lost, crash=crashed or not back,
                   unclear=unclear, via=via)


def deleted_at_runtime(tmp: Path, rng: random.Random) -> Outcome:
    return runtime("deleted-at-runtime", tmp, lambda t: t.journal_path.unlink() or "unlink",
                   lambda t: None)


def disk_full(tmp: Path, rng: random.Random) -> Outcome:
    with tmpfs(tmp / "small", "4m") as mounted:
        if mounted is None:
            return runtime("disk-full", tmp, _page_limit, _no_page_limit)
        filler = mounted / "filler"

        def fill(table: Any) -> str:
            with open(filler, "wb") as f, contextlib.suppress(OSError):
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
            return "full 4 MiB tmpfs"

        def restart_dir() -> Path:
            again = tmp / "again"
            again.mkdir()
            for name in ("journal.db", "journal.db.mark", "table-id"):  # its state directory
                shutil.copyfile(mounted / name, again / name)
            shutil.copyfile(tmp / "world.json", again / "journal.db.world.json")
            return again

        return runtime("disk-full", mounted, fill, lambda t: filler.unlink(),
                       world_elsewhere=tmp / "world.json", restart_in=restart_dir)


def full_after_stop(tmp: Path, rng: random.Random) -> Outcome:
    """An orderly stop, the disk filled, a start: the journal opens, the table pauses
    with disk-full from the start, and goes on once space is freed (issue 21)."""
    from firmware.sim.testbed import SimTable

    with tmpfs(tmp / "small", "4m") as mounted:
        if mounted is None:
            return Outcome("full-after-stop", "paused", "no mount rights: not run here",
                           unclear="not run (needs a tmpfs)", via="none")
        world = tmp / "world.json"  # the twin's file is not the journal: off the full disk
        first = SimTable(mounted, "classic", world_path=world)
        try:
            first.play_until(lambda st: st["step"] >= 15)
            step = first.state()["step"]
        finally:
            first.stop()
        before = committed(mounted / "journal.db")
        filler = mounted / "filler"
        with open(filler, "wb") as f, contextlib.suppress(OSError):
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        try:
            table = SimTable(mounted, "classic", world_path=world)
        except Exception as exc:  # noqa: BLE001 -- no start is the finding
            return Outcome("full-after-stop", "crashed", f"no start: {exc}", crash=True,
                           via="full 4 MiB tmpfs")
        try:
            st = table.state()
            message = str(st["waiting"].get("message", ""))
            paused = st["waiting"]["kind"] == "journal" and st["waiting"].get("cause") == \
                "disk-full"
            code = post(table.url, "/api/admin/resume")
            filler.unlink()
            table.pass_time(1.0)  # the table's retry comes due on its clock
            table.wait_for(lambda st: st["waiting"]["kind"] != "journal", timeout=15)
            table.play_until(lambda st: st["step"] > step + 3)
            crashed = table.status is not None
        finally:
            table.stop()
        lost = missing(before, committed(mounted / "journal.db"))
    unclear = "" if paused and code == 507 and str(mounted / "journal.db") in message else \
        f"not paused with disk-full at start, or the API answered {code}, not 507"
    return Outcome("full-after-stop", "paused", message, crash=crashed, unclear=unclear,
                   lost=lost, via="full 4 MiB tmpfs")


def _page_limit(table: Any) -> str:
    conn = table.controller.journal._conn
    pages = table.call(lambda: conn.execute("PRAGMA page_count").fetchone()[0])
    table.call(lambda: conn.execute(f"PRAGMA max_page_count = {pages}"))
    return "injected SQLITE_FULL"


def _no_page_limit(table: Any) -> None:
    conn = table.controller.journal._conn
    table.call(lambda: conn.execute("PRAGMA max_page_count = 1073741823"))


def read_only_at_runtime(tmp: Path, rng: random.Random) -> Outcome:
    def make(table: Any) -> str:
        conn = table.controller.journal._conn
        table.call(lambda: conn.execute("PRAGMA query_only = ON"))
        return "injected SQLITE_READONLY"

    def repair(table: Any) -> None:
        conn = table.controller.journal._conn
        table.call(lambda: conn.execute("PRAGMA query_only = OFF"))

    return runtime("read-only-at-runtime", tmp, make, repair)


@contextlib.contextmanager
def tmpfs(where: Path, size: str) -> Iterator[Path | None]:
    """A small tmpfs mounted at `where`, or None without the rights to mount one."""
    where.mkdir()
    ok = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)],
        capture_output=True).returncode == 0
    try:
        yield where if ok else None
    finally:
        if ok:
            subprocess.run(["umount", "-l", str(where)], check=False)


# ------------------------------------------------------------------ the run
FAULTS: tuple[tuple[str, Callable[[Path, random.Random], Outcome], bool], ...] = (
    ("zero-bytes", zero_bytes, False),
    ("wal-deleted", wal_deleted, False),
    ("wal-flips", wal_flips, True),
    ("db-flips", db_flips, True),
    ("header-tamper", header_tamper, False),
    ("entry-flip", entry_flip, True),
    ("read-only", read_only, False),
    ("mark-and-wal-lost", mark_and_wal_lost, False),
    ("mark-truncated", mark_truncated, True),
    ("mark-random", mark_random, True),
    ("mark-directory", mark_directory, False),
    ("another-table", another_table, False),
    ("another-edition", another_edition, False),
    ("second-daemon", second_daemon, False),
    ("mark-link", _link_fault("mark-link", ".mark"), False),
    ("world-tmp-link", _link_fault("world-tmp-link", ".world.json.tmp"), False),
    ("lock-link", _link_fault("lock-link", ".lock"), False),
    ("deleted-at-runtime", deleted_at_runtime, False),
    ("disk-full", disk_full, False),
    ("read-only-at-runtime", read_only_at_runtime, False),
    ("full-after-stop", full_after_stop, False),
    ("another-table-over-wal", another_table_over_wal, False),
    ("another-edition-wal", another_edition_wal, False),
    ("mark-missing-wal", mark_missing_wal, False),
    ("full-disk-refused", full_disk_refused, False),
    ("run-full-after-stop", run_full_after_stop, False),
    ("run-world-link", _run_refusal("run-world-link", "journal.db.world.json",
                                    lambda p, t: p.symlink_to(t)), False),
    ("run-world-tmp-link", _run_refusal("run-world-tmp-link", "journal.db.world.json.tmp",
                                        lambda p, t: p.symlink_to(t)), False),
    ("run-seats-link", _run_refusal("run-seats-link", "seats.json",
                                    lambda p, t: p.symlink_to(t)), False),
    ("run-table-id-fifo", _run_refusal("run-table-id-fifo", "table-id",
                                       lambda p, t: os.mkfifo(p)), False),
)


def run(trials: int, seed: int, only: set[str] | None = None) -> list[Outcome]:
    import logging

    logging.getLogger("firmware").setLevel(logging.CRITICAL)
    outcomes = []
    for name, fault, repeated in FAULTS:
        if only is not None and name not in only:
            continue
        for trial in range(trials if repeated else 1):
            rng = random.Random(f"{seed}:{name}:{trial}")
            with workdir(name) as tmp:
                outcome = fault(tmp, rng)
            progress(f"journal_faults: {name}: {outcome.how}"
                     + (f" ({outcome.via})" if outcome.via else ""))
            outcomes.append(outcome)
    return outcomes


def summary(outcomes: list[Outcome]) -> str:
    return (f"faults={len(outcomes)} touched={sum(o.touched for o in outcomes)} "
            f"silent_loss={sum(o.silent_loss for o in outcomes)} "
            f"crash_loops={sum(o.crash for o in outcomes)} "
            f"unclear={sum(bool(o.unclear) for o in outcomes)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, help="runs of each random fault (3; --quick 1)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", metavar="FAULT,...", help="run only these faults")
    args = parser.parse_args(argv)
    trials = args.trials if args.trials is not None else 1 if args.quick else 3
    if trials < 1:
        parser.error("--trials must be at least 1")
    only = set(args.only.split(",")) if args.only else None
    if only is not None and only - {name for name, _, _ in FAULTS}:
        parser.error(f"--only: unknown fault(s) {', '.join(sorted(only - {n for n, _, _ in FAULTS}))}")
    outcomes = run(trials, args.seed, only)
    line = summary(outcomes)
    if args.json:
        print(json.dumps({"summary": line, "faults": [asdict(o) for o in outcomes]}))
    else:
        for o in outcomes:
            extra = "".join(f" {k}={v}" for k, v in (("lost", o.lost), ("crash", o.crash),
                                                       ("touched", o.touched),
                                                       ("unclear", o.unclear), ("via", o.via))
                            if v)
            print(f"{o.fault:22} {o.how:8}{extra}\n    {o.message[:300]}")
        print(line)
    return 0 if line.endswith("touched=0 silent_loss=0 crash_loops=0 unclear=0") else 1


if __name__ == "__main__":
    sys.exit(main())
