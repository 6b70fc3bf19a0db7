"""Crash soak: SIGKILL the daemon at random moments of real matches, restart it, and
check that nothing was lost or doubled; then cut the journal's WAL like a power loss.

    python bench/crash.py --kills K --seed S [--variant V] [--cuts N] [--json]

Matches are `unotable demo --fast --journal PATH [--rounds R]` processes (the daemon, unchanged, on
the simulated twin with bots). For each game (seed S, S+1, ... until K kills were
made) the script first plays the match uninterrupted on its own journal, then plays it
again on a second journal and SIGKILLs the process at random moments, restarting it
with the same `--journal` each time, until a run ends by itself. Kill moments, drawn
from `random.Random(S)`, take turns between:

- a random delay after start (0.3-2.5 s: start-up, dealing, mid-match);
- mid-ejection: as soon as the world file beside the journal shows an ejection under
  way (the motor is running, cards are leaving the hopper);
- mid-commit: as soon as the journal's WAL grows (a commit is being written);
- right after a 200: the players SIGKILL the process as soon as the table answered the
  N-th request of a kind (`UNOTABLE_DEMO_KILL_AFTER`, `firmware.sim.players`): each
  killed game's first start after its 1st-4th dealer card, a restart that must count a
  cut-off ejection after its `override cards-out`, else in turn after a play, a
  decision, a hand entered, the first card, a resume, or any request. The restart
  checks that what the table held when it answered came back from the journal.

At the end: `lost` = actions of the uninterrupted run missing from the killed one,
(up to the first random launcher press a kill cut short, if any: its outcome is the
cards that had come out, so the game may go on differently from there), plus answered
requests that a restart did not bring back,
`doubled` = actions more than it, `mismatches` = positions where the two journals'
actions differ + summary figures that differ (actions, presses, cards ejected, tower
moves, rounds, scores) + world/referee disagreements of the final run. Prints
``kills=K lost=0 doubled=0 mismatches=0`` and exits 0 when all is well, else 1.

Power loss: a live copy of a journal's database and WAL taken while a match writes
it, cut at `--cuts` random byte offsets (and at every commit boundary ±1): each cut
must open (SQLite recovery), hold exactly the entries of the last commit that lies
wholly before the cut, and those actions must replay into a legal game.
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import json
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import (
    Figure,
    Result,
    at_least,
    daemon_env,
    dump,
    exactly,
    machine_load,
    progress,
    table,
    unotable,
    workdir,
)

KINDS = ("delay", "ejection", "commit", "answer")
# requests the "answer" kills take turns after, and the N-th answer of a run to kill at
ANSWERS = (("play", 3), ("decide", 2), ("hands", 2), ("reveal-first", 1),
           ("admin-resume", 2), ("any", 20))
SAME = ("actions", "launcher_presses", "cards_ejected", "tower_moves", "rounds", "scores")
RUN_TIMEOUT_S = 180  # a whole Power match takes ~10 s; a run past this is stuck


def demo_cmd(variant: str, seed: int, journal: Path, rounds: int = 10_000) -> list[str]:
    return unotable("demo", "--fast", "--json", "--variant", variant, "--seed", str(seed),
                    "--rounds", str(rounds), "--journal", str(journal))


def actions_of(path: Path) -> list[Any]:
    from firmware.journal.store import Journal

    with Journal.open(path, readonly=True) as journal:
        return [e.payload for e in journal.entries() if e.kind == "action"]


def comparable_actions(path: Path) -> tuple[list[Any], bool]:
    """The journal's actions up to the first launcher press whose outcome a kill changed,
    and whether there was one. A `fire` ejection (a random number of cards) cut off by
    the kill ends with the cards that had come out, counted at the restart: the player
    got those, so from that eject on the game need not match an uninterrupted run. (A
    `deal` of an exact count is finished after the restart: it must match throughout.)"""
    from firmware.journal.store import Journal

    kept: list[Any] = []
    intents: dict[int, Any] = {}
    with Journal.open(path, readonly=True) as journal:
        for e in journal.entries():
            if e.kind == "intent":
                intents[e.seq] = e.payload
            elif e.kind == "result":
                intent = intents.get(e.ref) if e.ref is not None else None
                if (e.payload.get("status") == "recovered" and intent is not None
                        and intent.get("job") == "fire"
                        and e.payload.get("counted") != intent.get("want")):
                    return kept, True
            elif e.kind == "action":
                kept.append(e.payload)
    return kept, False


def open_intents(path: Path) -> int:
    from firmware.errors import JournalCorrupt, JournalError
    from firmware.journal.store import Journal

    if not path.exists():
        return 0  # killed before the daemon created its journal
    try:
        with Journal.open(path, readonly=True) as journal:
            return len(journal.open_intents())
    except JournalCorrupt:
        raise
    except JournalError:  # killed between creating the file and writing its tables:
        return 0  # the next start completes them (Journal.open creates what is missing)


@dataclass
class Soak:
    kills: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    cut_ejections: int = 0  # restarts that found an ejection cut off (intent without result)
    chance_changed: int = 0  # killed runs compared only up to a random press a kill cut short
    lost: int = 0
    doubled: int = 0
    mismatches: list[str] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)  # copies of the journals of hung runs
    answers: Counter[str] = field(default_factory=Counter)  # "answer" kills per request

    @property
    def total(self) -> int:
        return sum(self.kills.values())


def _wait_moment(kind: str, proc: subprocess.Popen[bytes], journal: Path,
                 rng: random.Random) -> None:
    """Return at the moment to kill (or when the process ended by itself)."""
    if kind == "delay":
        deadline = time.monotonic() + rng.uniform(0.3, 2.5)
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.005)
        return
    wal = Path(f"{journal}-wal")
    world = journal.with_name(journal.name + ".world.json")
    time.sleep(rng.uniform(0.0, 1.0))  # not always the first one after start-up
    size = _size(wal)
    deadline = time.monotonic() + 30
    while proc.poll() is None and time.monotonic() < deadline:
        if kind == "commit":
            if _size(wal) != size:
                return
        else:
            try:
                if json.loads(world.read_text()).get("ejection") is not None:
                    return
            except (OSError, ValueError):
                pass  # not written yet
        time.sleep(0.0005)


def _answer_to_kill(journal: Path, turn: int, rng: random.Random) -> str:
    """`KIND:N` for the players' kill hook (module docstring)."""
    if not journal.exists():
        return f"reveal-dealer:{rng.randint(1, 4)}"
    if open_intents(journal):
        return "override-cards-out:1"
    kind, most = ANSWERS[turn % len(ANSWERS)]
    return f"{kind}:{rng.randint(1, most)}"


def _size(path: Path) -> int:
    """0 for a file that is not there (any more: SQLite deletes the WAL when the last
    connection closes, which can happen between two looks)."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def play_killed(variant: str, seed: int, journal: Path, kills_left: int, soak: Soak,
                rng: random.Random, rounds: int) -> dict[str, Any] | None:
    """Play the match on `journal`, killing it up to `kills_left` times; the final summary,
    or None when the last run did not end within RUN_TIMEOUT_S (its journal and world
    file are kept in a temp directory for inspection)."""
    from firmware.sim.demo import KILL_AFTER_ENV

    env = daemon_env(journal.parent)
    while True:
        kind = request = None
        if kills_left > 0:
            kind = "answer" if not journal.exists() else KINDS[soak.total % len(KINDS)]
            if kind == "answer":
                request = _answer_to_kill(journal, soak.kills["answer"], rng)
        proc = subprocess.Popen(demo_cmd(variant, seed, journal, rounds),
                                env=env if request is None else {**env, KILL_AFTER_ENV: request},
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if kind is not None and request is None:
            _wait_moment(kind, proc, journal, rng)
            if proc.poll() is None:
                proc.kill()
                proc.communicate(timeout=60)
                soak.kills[kind] += 1
                kills_left -= 1
                soak.cut_ejections += open_intents(journal) > 0
                continue
        try:
            out, err = proc.communicate(timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            kept = Path(tempfile.mkdtemp(prefix=f"unotable-crash-hang-{variant}-{seed}-"))
            shutil.copytree(journal.parent, kept, dirs_exist_ok=True)
            soak.hangs.append(str(kept))
            return None
        if request is not None and proc.returncode == -signal.SIGKILL:  # it killed itself
            soak.kills["answer"] += 1
            soak.answers[request.rpartition(":")[0]] += 1
            kills_left -= 1
            soak.cut_ejections += open_intents(journal) > 0
            continue
        try:  # exit 1 with a summary: the world and the referee disagreed (compared later)
            return dict(json.loads(out))
        except ValueError:
            raise RuntimeError(f"{variant} seed {seed}: demo exited {proc.returncode}: "
                               f"{err.decode(errors='replace')[-800:]}") from None


def compare(name: str, ref: dict[str, Any], got: dict[str, Any], ref_actions: list[Any],
            got_actions: list[Any], soak: Soak, *, chance_changed: bool = False) -> None:
    """`chance_changed`: `got_actions` end where a kill cut a random press short (see
    `comparable_actions`); they must then equal the start of `ref_actions`."""
    if chance_changed:
        soak.chance_changed += 1
        ref_actions = ref_actions[:len(got_actions)]
    soak.lost += max(0, len(ref_actions) - len(got_actions))
    soak.doubled += max(0, len(got_actions) - len(ref_actions))
    for i, (a, b) in enumerate(zip(ref_actions, got_actions, strict=False)):
        if a != b:
            soak.mismatches.append(f"{name}: action {i}: {b} instead of {a}")
    for key in () if chance_changed else SAME:
        if ref.get(key) != got.get(key):
            soak.mismatches.append(f"{name}: {key} {got.get(key)} instead of {ref.get(key)}")
    soak.lost += got.get("answers_lost", 0)
    if got.get("error"):
        soak.mismatches.append(f"{name}: the restarted demo stopped: {got['error']}")
    if not got.get("world_agrees"):
        soak.mismatches += [f"{name}: world: {m}" for m in got.get("mismatches", [])] or \
            [f"{name}: the world and the referee disagreed"]


def crash_soak(kills: int, seed: int, variant: str, rounds: int = 10_000) -> Soak:
    rng = random.Random(seed)
    soak = Soak()
    game_seed = seed
    with workdir("crash") as tmp:
        while soak.total < kills or not soak.games:
            name = f"{variant} seed {game_seed}"
            progress(f"crash: {name}: uninterrupted run")
            whole = tmp / f"whole-{game_seed}" / "journal.db"
            whole.parent.mkdir()
            ref = play_killed(variant, game_seed, whole, 0, soak, rng, rounds)
            if ref is None:
                raise RuntimeError(f"{name}: the uninterrupted run did not end; journal kept "
                                   f"in {soak.hangs[-1]}")
            before, answers_before = soak.total, soak.kills["answer"]
            cut = tmp / f"killed-{game_seed}" / "journal.db"
            cut.parent.mkdir()
            progress(f"crash: {name}: killed run ({kills - soak.total} kills to go)")
            got = play_killed(variant, game_seed, cut, kills - soak.total, soak, rng, rounds)
            if got is None:
                soak.mismatches.append(f"{name}: a restarted run did not end within "
                                       f"{RUN_TIMEOUT_S} s (journal kept in {soak.hangs[-1]})")
            else:
                found = len(soak.mismatches)
                got_actions, changed = comparable_actions(cut)
                compare(name, ref, got, actions_of(whole), got_actions, soak,
                        chance_changed=changed)
                answered = soak.kills["answer"] - answers_before
                if got.get("answers_checked") != answered:
                    soak.mismatches.append(f"{name}: {answered} kills right after a 200, "
                                           f"{got.get('answers_checked')} checked at a restart")
                if len(soak.mismatches) > found:  # keep both journals for inspection
                    kept = Path(tempfile.mkdtemp(prefix=f"unotable-crash-mismatch-{game_seed}-"))
                    shutil.copytree(tmp, kept, dirs_exist_ok=True)
                    soak.mismatches.append(f"{name}: journals kept in {kept}")
            soak.games.append({"game": name, "kills": soak.total - before,
                               "actions": got and got.get("actions"),
                               "rounds": got and got.get("rounds")})
            game_seed += 1
    return soak


# -- power loss: the WAL cut at random byte offsets ----------------------------------------
WAL_HEADER = 32
FRAME_HEADER = 24


def commit_ends(wal: bytes) -> list[int]:
    """Byte offsets just after each commit frame of a WAL (sqlite.org/fileformat2: the
    frame header's second word, the database size after a commit, is non-zero)."""
    if len(wal) < WAL_HEADER:
        return []
    page = struct.unpack(">I", wal[8:12])[0]
    ends = []
    at = WAL_HEADER
    while at + FRAME_HEADER + page <= len(wal):
        if struct.unpack(">I", wal[at + 4:at + 8])[0]:
            ends.append(at + FRAME_HEADER + page)
        at += FRAME_HEADER + page
    return ends


def _live_image(tmp: Path, variant: str, seed: int) -> tuple[Path, bytes]:
    """A copy of database + WAL of a journal while a match writes it, as a power cut
    would leave them (nothing checkpointed)."""
    journal = tmp / "live" / "journal.db"
    journal.parent.mkdir()
    proc = subprocess.Popen(demo_cmd(variant, seed, journal), env=daemon_env(journal.parent),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wal = Path(f"{journal}-wal")
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None and \
                (not wal.exists() or len(commit_ends(wal.read_bytes())) < 60):
            time.sleep(0.05)
        image = tmp / "image"
        image.mkdir()
        shutil.copy(journal, image / "journal.db")
        wal_bytes = wal.read_bytes()
    finally:
        proc.kill()
        proc.wait()
    return image / "journal.db", wal_bytes


def _open_cut(image: Path, wal: bytes, where: Path) -> tuple[int, list[Any], str, int]:
    from firmware.journal.store import Journal

    where.mkdir()
    shutil.copy(image, where / "journal.db")
    (where / "journal.db-wal").write_bytes(wal)
    # read-only: SQLite's WAL recovery without the daemon's checks (the cut has no mark)
    with Journal.open(where / "journal.db", readonly=True) as journal:
        entries = list(journal.entries())
        match = journal.match
        header = (match.edition, match.seats) if match is not None else ("", 0)
    shutil.rmtree(where)
    return len(entries), [e.payload for e in entries if e.kind == "action"], *header


def _replays(edition: str, seats: int, actions: list[Any]) -> bool:
    import uno_core as U

    if not edition:
        return not actions
    from firmware.controller.declared import engine_action

    state = U.new_match(edition, seats, {}, mode=U.TABLE)
    for payload in actions:  # (a seat's declaration says who made it: "by")
        state, _ = U.apply(state, engine_action(payload))
    return True


def power_loss(cuts: int, seed: int, variant: str) -> dict[str, Any]:
    rng = random.Random(f"{seed}:wal")
    with workdir("wal") as tmp:
        progress("crash: power loss: a live copy of a journal being written")
        image, wal = _live_image(tmp, variant, seed)
        ends = commit_ends(wal)
        offsets = {0, WAL_HEADER - 1, WAL_HEADER, len(wal)}
        offsets |= {e + d for e in ends for d in (-1, 0, 1) if 0 <= e + d <= len(wal)}
        while len(offsets) < len(ends) * 3 + cuts:
            offsets.add(rng.randrange(0, len(wal) + 1))
        progress(f"crash: power loss: {len(offsets)} cuts of a {len(wal)}-byte WAL "
                 f"({len(ends)} commits)")
        at_commit: dict[int, int] = {0: 0}  # commit end -> entries recovered
        for end in ends:
            at_commit[end] = _open_cut(image, wal[:end], tmp / "cut")[0]
        recovered = failed = 0
        problems: list[str] = []
        # (a commit may add no entry: the schema, a match header)
        ordered = all(at_commit[a] <= at_commit[b] for a, b in zip(ends, ends[1:], strict=False))
        for offset in sorted(offsets):
            last = max([0, *(e for e in ends if e <= offset)])
            try:
                n, actions, edition, seats = _open_cut(image, wal[:offset], tmp / "cut")
                if n != at_commit[last]:
                    raise AssertionError(f"{n} entries, the last commit before it holds "
                                         f"{at_commit[last]}")
                _replays(edition, seats, actions)
                if not ordered:
                    raise AssertionError("a later commit recovered fewer entries than an "
                                         "earlier one")
                recovered += 1
            except Exception as exc:  # a failed recovery is the figure, not a crash
                failed += 1
                if len(problems) < 10:
                    problems.append(f"cut at byte {offset}: {type(exc).__name__}: {exc}")
        return {"wal_bytes": len(wal), "commits": len(ends), "cuts": len(offsets),
                "recovered": recovered, "failed": failed, "problems": problems,
                "entries_in_copy": at_commit[ends[-1]] if ends else 0}


def run(quick: bool = False, *, kills: int | None = None, seed: int = 1,
        variant: str = "power", cuts: int | None = None, rounds: int | None = None) -> Result:
    """`rounds`: stop each match after this many rounds (whole matches; --quick 2)."""
    kills = kills if kills is not None else (3 if quick else 20)
    rounds = rounds if rounds is not None else (2 if quick else 10_000)
    cuts = cuts if cuts is not None else (20 if quick else 200)
    result = Result("crash")
    soak = crash_soak(kills, seed, variant, rounds)
    result.add(Figure("kills (delay/ejection/commit/answer)",
                      "/".join(str(soak.kills[k]) for k in KINDS)))
    result.add(at_least("kills", soak.total, kills))
    result.add(Figure("kills right after a 200, per request",
                      " ".join(f"{k}={n}" for k, n in sorted(soak.answers.items()))))
    result.add(Figure("restarts that found an ejection cut off", soak.cut_ejections))
    result.add(Figure("runs compared up to a random press a kill cut short",
                      soak.chance_changed))
    result.add(exactly("lost", soak.lost, 0))
    result.add(exactly("doubled", soak.doubled, 0))
    result.add(exactly("mismatches", len(soak.mismatches), 0))
    result.add(exactly("restarted runs that hung", len(soak.hangs), 0))
    wal = power_loss(cuts, seed, variant)
    result.add(Figure("WAL cuts (random offsets + each commit +-1)", wal["cuts"]))
    result.add(exactly("WAL cuts recovered to the last commit", wal["recovered"], wal["cuts"]))
    result.detail = {"variant": variant, "seed": seed, "rounds": rounds, "kills": soak.kills,
                     "games": soak.games, "mismatch_list": soak.mismatches[:20], "hangs": soak.hangs,
                     "power_loss": wal, "load": machine_load()}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, help="SIGKILLs to make (20; --quick 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="power",
                        help="edition of the matches (power: towers and exact deals)")
    parser.add_argument("--cuts", type=int, help="random WAL cut offsets (200; --quick 20)")
    parser.add_argument("--rounds", type=int,
                        help="rounds per match (default: whole matches; --quick 2)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if (args.kills is not None and args.kills < 1) or (args.cuts is not None and args.cuts < 0):
        parser.error("--kills must be at least 1 and --cuts not negative")
    from uno_core import EDITIONS

    if args.variant not in EDITIONS:
        parser.error(f"--variant {args.variant!r}: one of {', '.join(EDITIONS)}")
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds must be at least 1")
    result = run(args.quick, kills=args.kills, seed=args.seed, variant=args.variant,
                 cuts=args.cuts, rounds=args.rounds)
    soak_line = (f"kills={result.detail['kills'] and sum(result.detail['kills'].values())} "
                 f"lost={_value(result, 'lost')} doubled={_value(result, 'doubled')} "
                 f"mismatches={_value(result, 'mismatches')}")
    wal = result.detail["power_loss"]
    wal_line = f"wal_cuts={wal['cuts']} recovered={wal['recovered']} failed={wal['failed']}"
    if args.json:
        print(dump([result], summary=soak_line, wal=wal_line))
    else:
        print(table([result]))
        for line in result.detail["mismatch_list"] + wal["problems"]:
            print(f"  {line}")
        print(soak_line)
        print(wal_line)
    return 0 if result.ok else 1


def _value(result: Result, name: str) -> Any:
    return next(f.value for f in result.figures if f.name == name)


if __name__ == "__main__":
    sys.exit(main())
