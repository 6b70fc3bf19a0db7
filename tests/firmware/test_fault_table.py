"""docs/operations.md's table "What each fault does to a game", produced row by row.

Every row of the table has a producer here that makes the fault for real and reports
what the table did; the row's "what happens" is then held against it: a refusal at start
(and then every file of the journal kept byte for byte, one line), its exit status, the
pause and its cause, the 507, going on, and every quoted message. A row without a
producer, or a producer without a row, fails."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.config import DEFAULT_PATH
from firmware.controller.faults import JOURNAL_RETRY_S
from firmware.journal.mark import SLOT, TABLE_ID, mark_path
from firmware.journal.store import Journal
from firmware.sim.testbed import SimTable
from tests.firmware.conftest import post, request
from tests.firmware.journal_damage import damage
from tests.firmware.journal_files import fill, killed_journal, small_disk, snapshot
from tests.firmware.test_daemon_startup import free_port
from tests.firmware.test_journal_faults import NO_LIMIT, disk_full, paused_by_journal, sql
from tests.firmware.test_run_state_files import running, waiting

DOCS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
HEADER = dict(edition="classic", options={}, seats=4, seed=1, config_hash="h")


@dataclass
class Seen:
    """What the table did about one fault."""

    how: str  # refused | paused | went on
    line: str = ""  # the refusal's line, or the pause's message
    status: int | None = None  # the exit status of the command that was refused
    cause: str | None = None  # the pause's cause
    answer: int | None = None  # what a request that changes the table got
    went_on: bool = False  # once repaired, it went on with every entry
    untouched: bool = True  # a refusal kept every file of the journal byte for byte


def rows() -> dict[str, tuple[str, str]]:
    """The table's rows: fault -> (what happens, what is lost)."""
    text = DOCS.read_text().split("### What each fault does to a game", 1)[1]
    out = {}
    for line in text.split("\n## ", 1)[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and cells[0] not in ("fault", "---"):
            out[cells[0]] = (cells[1], cells[2])
    return out


# -- making journals ---------------------------------------------------------------------


def clean(path: Path, n: int = 4) -> Path:
    """A journal after an orderly stop."""
    with Journal.open(path, edition="classic") as journal:
        journal.start_match(**HEADER)
        for i in range(n):
            journal.append("action", {"n": i})
    return path


def demo_start(journal: Path, capsys, *, variant: str = "classic") -> Seen:
    """`unotable demo --journal` started on the journal (refused, or it went on)."""
    before = snapshot(journal)
    capsys.readouterr()
    status = main(["demo", "--fast", "--json", "--variant", variant, "--journal",
                   str(journal)])
    err = capsys.readouterr().err
    if status != 2:
        return Seen("went on", err, status)
    return Seen("refused", err.strip(), status,
                untouched=snapshot(journal) == before and err.count("\n") == 1)


def run_start(state: Path, capsys, monkeypatch, tmp_path: Path) -> Seen:
    """`unotable run` (the simulated twin) started on the state directory `state`."""
    config = tmp_path / "config.toml"
    config.write_text(DEFAULT_PATH.read_text().replace("port = 8080", f"port = {free_port()}"))
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    capsys.readouterr()
    status = main(["run", "--config", str(config)])
    err = capsys.readouterr().err
    return Seen("refused" if status == 2 else "went on", err.strip(), status,
                untouched=err.count("\n") == 1)


# -- the producers, one per row ------------------------------------------------------


def truncated(tmp_path, capsys, monkeypatch) -> list[Seen]:
    journal = clean(tmp_path / "journal.db")
    journal.write_bytes(b"")
    return [demo_start(journal, capsys)]


def wal_deleted(tmp_path, capsys, monkeypatch) -> list[Seen]:
    journal = killed_journal(tmp_path / "journal.db")
    Path(f"{journal}-wal").unlink()
    return [demo_start(journal, capsys)]


def wal_flipped(tmp_path, capsys, monkeypatch) -> list[Seen]:
    journal = killed_journal(tmp_path / "journal.db")
    wal = Path(f"{journal}-wal")
    data = bytearray(wal.read_bytes())
    data[32 + 24 + 200] ^= 0x10  # in the first frame's page: every frame from it is dropped
    wal.write_bytes(bytes(data))
    return [demo_start(journal, capsys)]


def file_flipped(tmp_path, capsys, monkeypatch) -> list[Seen]:
    journal = clean(tmp_path / "journal.db")
    data = bytearray(journal.read_bytes())
    data[4096] = 0x55  # the second page's type: no b-tree page is of that type
    journal.write_bytes(bytes(data))
    return [demo_start(journal, capsys)]


def header_tampered(tmp_path, capsys, monkeypatch) -> list[Seen]:
    journal = clean(tmp_path / "journal.db")
    damage(journal, "UPDATE matches SET seats = 5")
    return [demo_start(journal, capsys)]


def entry_changed(tmp_path, capsys, monkeypatch) -> list[Seen]:
    journal = clean(tmp_path / "journal.db")
    damage(journal, "UPDATE entries SET payload = '{\"n\": 99}' WHERE seq = 2")
    return [demo_start(journal, capsys)]


def read_only(tmp_path, capsys, monkeypatch) -> list[Seen]:
    with small_disk(tmp_path / "ro") as disk:
        journal = clean(disk / "journal.db")
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        seen = demo_start(journal, capsys)
        assert "cannot write" in seen.line and "corrupt" not in seen.line
        return [seen]


def on_a_running_table(tmp_path, make: Callable[[SimTable], None],
                       repair: Callable[[SimTable], None] | None) -> Seen:
    """Make the fault while the table plays; it must pause and answer 507, and, once
    repaired, go on with every entry."""
    with SimTable(tmp_path, "classic") as table:
        table.play_until(lambda st: st["step"] >= 12)
        make(table)
        st = table.play_until(paused_by_journal, max_steps=400)
        seen = Seen("paused", st["waiting"]["message"], cause=st["waiting"]["cause"],
                    answer=post(table.url, "/api/admin/pause", {})[0])
        if repair is not None:
            repair(table)
            table.pass_time(JOURNAL_RETRY_S)
            st = table.wait_for(lambda st: not paused_by_journal(st), timeout=10)
            rounds = st["stats"]["rounds"]
            table.play_until(lambda st: st["stats"]["rounds"] > rounds)
            with Journal.open(table.journal_path, readonly=True) as journal:
                seen.went_on = [e.seq for e in journal.entries()] == list(
                    range(1, table.journal_seq + 1))
    return seen


def deleted_while_running(tmp_path, capsys, monkeypatch) -> list[Seen]:
    return [on_a_running_table(tmp_path, lambda t: t.journal_path.unlink(), None)]


def full_while_running(tmp_path, capsys, monkeypatch) -> list[Seen]:
    return [on_a_running_table(tmp_path, disk_full,
                               lambda t: sql(t, f"PRAGMA max_page_count = {NO_LIMIT}"))]


def read_only_while_running(tmp_path, capsys, monkeypatch) -> list[Seen]:
    return [on_a_running_table(tmp_path, lambda t: sql(t, "PRAGMA query_only = ON"),
                               lambda t: sql(t, "PRAGMA query_only = OFF"))]


def mark_and_wal_lost(tmp_path, capsys, monkeypatch) -> list[Seen]:
    journal = killed_journal(tmp_path / "journal.db")
    Path(f"{journal}-wal").unlink()
    mark_path(journal).unlink()
    return [demo_start(journal, capsys)]


def mark_damaged(tmp_path, capsys, monkeypatch) -> list[Seen]:
    seen = []
    for name, spoil in (("truncated", lambda m: m.write_bytes(m.read_bytes()[:700])),
                        ("random", lambda m: m.write_bytes(os.urandom(2 * SLOT))),
                        ("directory", lambda m: (m.unlink(), m.mkdir()))):
        journal = killed_journal(tmp_path / name / "journal.db")
        spoil(mark_path(journal))
        seen.append(demo_start(journal, capsys))
        assert str(mark_path(journal)) in seen[-1].line  # it names the mark
    return seen


def state_file(name: str, put: Callable[[Path, Path], None]) -> Callable[..., list[Seen]]:
    """`unotable run` with `put(path, target)` done at `name` in its state directory;
    the target a link points at must keep its bytes."""
    def produce(tmp_path, capsys, monkeypatch) -> list[Seen]:
        state = tmp_path / "state"
        state.mkdir(mode=0o700)
        target = tmp_path / "target"
        target.write_bytes(b"precious")
        put(state / name, target)
        seen = run_start(state, capsys, monkeypatch, tmp_path)
        seen.untouched = seen.untouched and target.read_bytes() == b"precious"
        assert str(state / name) in seen.line
        return [seen]
    return produce


def links(tmp_path, capsys, monkeypatch) -> list[Seen]:
    seen: list[Seen] = []
    for name in ("journal.db.mark", "journal.db.lock", TABLE_ID, "seats.json",
                 "journal.db.world.json", "journal.db.world.json.tmp"):
        where = tmp_path / f"link-{name}"
        where.mkdir()
        seen += state_file(name, lambda p, t: p.symlink_to(t))(where, capsys, monkeypatch)
    return seen


def fifo(tmp_path, capsys, monkeypatch) -> list[Seen]:
    return state_file(TABLE_ID, lambda p, t: os.mkfifo(p))(tmp_path, capsys, monkeypatch)


def damaged_state_files(tmp_path, capsys, monkeypatch) -> list[Seen]:
    (tmp_path / "seats").mkdir()
    (tmp_path / "world").mkdir()
    return (state_file("seats.json", lambda p, t: p.write_text("[1"))(
        tmp_path / "seats", capsys, monkeypatch)
        + state_file("journal.db.world.json", lambda p, t: p.write_text(
            '{"version": 1, "edition": "power", "seats": 2, "seed": 9}'))(
            tmp_path / "world", capsys, monkeypatch))


def over_our_wal(tmp_path, capsys, monkeypatch) -> list[Seen]:
    ours = killed_journal(tmp_path / "ours" / "journal.db")
    theirs = killed_journal(tmp_path / "theirs" / "journal.db")
    aside = tmp_path / "aside"
    aside.mkdir()
    for name in (ours, mark_path(ours)):
        os.replace(name, aside / name.name)
        shutil.copyfile(theirs.parent / name.name, name)
    seen = demo_start(ours, capsys)
    for name in (ours, mark_path(ours)):
        os.replace(aside / name.name, name)
    with Journal.open(ours, edition="classic") as again:
        seen.went_on = again.last_seq == 12
    return [seen]


def another_table(tmp_path, capsys, monkeypatch) -> list[Seen]:
    ours = clean(tmp_path / "ours" / "journal.db")
    theirs = clean(tmp_path / "theirs" / "journal.db")
    for name in (theirs, mark_path(theirs)):
        shutil.copyfile(name, ours.parent / name.name)
    seen = demo_start(ours, capsys)
    for table in (ours, theirs):  # naming both tables
        assert (table.parent / TABLE_ID).read_text().strip() in seen.line
    return [seen]


def another_edition(tmp_path, capsys, monkeypatch) -> list[Seen]:
    journal = killed_journal(tmp_path / "journal.db")
    seen = demo_start(journal, capsys, variant="power")
    assert "classic" in seen.line and "power" in seen.line  # naming both editions
    return [seen]


def second_daemon(tmp_path, capsys, monkeypatch) -> list[Seen]:
    journal = clean(tmp_path / "journal.db")
    with Journal.open(journal, edition="classic") as first:
        seen = demo_start(journal, capsys)
        assert f"PID {os.getpid()}" in seen.line
        seen.went_on = first.append("action", {"n": 9}).seq == 5  # the first plays on
    return [seen]


def full_after_stop(tmp_path, capsys, monkeypatch) -> list[Seen]:
    with small_disk(tmp_path / "state", "4m") as state:
        with running(tmp_path, state):
            pass
        filler = fill(state)
        with running(tmp_path, state) as url:
            paused = waiting(url)
            seen = Seen("paused", paused["message"], cause=paused.get("cause"),
                        answer=request(url, "POST", "/api/admin/resume", {})[0])
            assert request(url, "GET", "/api/seats")[0] == 507  # the invitations too
            filler.unlink()
            for _ in range(150):
                if waiting(url)["kind"] != "journal":
                    seen.went_on = True
                    break
                time.sleep(0.2)  # it tries again every second
    return [seen]


def full_after_kill(tmp_path, capsys, monkeypatch) -> list[Seen]:
    with small_disk(tmp_path / "disk") as disk:
        journal = killed_journal(disk / "state" / "journal.db")
        (disk / "tmp").mkdir()
        monkeypatch.setattr(tempfile, "tempdir", str(disk / "tmp"))  # on the full disk
        filler = fill(disk)
        os.replace(mark_path(journal), disk / "kept")
        seen = demo_start(journal, capsys)
        os.replace(disk / "kept", mark_path(journal))
        with Journal.open(journal, edition="classic") as again:
            fault = again.fault
            seen.cause = fault.cause if fault is not None else None
            seen.answer = fault.status if fault is not None else None  # the API's answer
            filler.unlink()
            seen.went_on = again.probe() and again.last_seq == 12
    return [seen]


def shared_directory(tmp_path, capsys, monkeypatch) -> list[Seen]:
    state = tmp_path / "state"
    state.mkdir()
    state.chmod(0o777)
    seen = demo_start(state / "journal.db", capsys)
    assert "mode 0777" in seen.line  # the reason and the mode
    return [seen]


PRODUCERS: dict[str, Callable[..., list[Seen]]] = {
    "journal truncated to 0 bytes": truncated,
    "`-wal` deleted after a kill": wal_deleted,
    "WAL bytes flipped": wal_flipped,
    "journal file bytes flipped": file_flipped,
    "match header tampered": header_tampered,
    "an entry of the match under way changed (bit rot SQLite does not see)": entry_changed,
    "read-only file or state directory": read_only,
    "journal deleted or replaced while running": deleted_while_running,
    "disk full while running": full_while_running,
    "file system read-only while running": read_only_while_running,
    "mark and WAL lost together after a kill": mark_and_wal_lost,
    "mark truncated, random, or a directory": mark_damaged,
    "a link at the mark, lock, `table-id`, `seats.json` or the twin's `world.json` / "
    "`world.json.tmp`": links,
    "a FIFO at `table-id`": fifo,
    "`seats.json` damaged, or the twin's `world.json` of another table": damaged_state_files,
    "another table's journal and mark put over ours after a kill, our `-wal` left beside "
    "it": over_our_wal,
    "another table's journal and mark copied in": another_table,
    "a journal of another edition under this config": another_edition,
    "a second `run` / `demo --journal` on a journal in use": second_daemon,
    "full disk after an orderly stop": full_after_stop,
    "full disk after a kill, the journal refused (its mark moved away)": full_after_kill,
    "a state directory others can write to": shared_directory,
}


def test_every_row_of_the_table_has_a_producer_and_every_producer_a_row():
    assert sorted(rows()) == sorted(PRODUCERS)


def quoted(text: str) -> list[re.Pattern[str]]:
    """The messages quoted in a cell, as patterns: numbers and "..." stand for any."""
    out = []
    for said in re.findall(r'\("([^"]+)"\)', text):
        pattern = re.sub(r"\bN\b", r"\\d+", re.escape(said).replace(r"\.\.\.", ".*"))
        out.append(re.compile(re.sub(r"\d+", r"\\d+", pattern)))
    return out


@pytest.mark.parametrize("fault", sorted(PRODUCERS))
def test_each_fault_does_what_its_row_says(fault, tmp_path, capsys, monkeypatch):
    happens, lost = rows()[fault]
    seen = PRODUCERS[fault](tmp_path, capsys, monkeypatch)
    assert seen
    for one in seen:
        if "refused at start" in happens:
            assert one.how == "refused", one
            assert one.untouched, f"a refused start changed the journal's files: {one}"
        if "exit 2" in happens or "exits 2" in happens:
            assert one.status == 2, one
        pause = re.search(r"paused \(`([\w-]+)`\)", happens)
        if pause:
            assert one.cause == pause.group(1), one
        if "507" in happens:
            assert one.answer == 507, one
        if "goes on" in happens or "plays on" in happens or "goes on" in lost:
            assert one.went_on, one
        for pattern in quoted(happens):
            assert pattern.search(one.line), (pattern.pattern, one.line)
