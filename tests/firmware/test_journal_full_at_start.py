"""An existing journal on a full disk after an orderly stop: it opens, the table pauses
with `disk-full` from the start (507), and goes on once there is space.

A full disk at start shows first in SQLite's ``-shm``, which cannot grow: SQLite answers
SQLITE_IOERR_SHMSIZE to the first read. That answer is given here as SQLite gives it;
the writes after it meet SQLite's own SQLITE_FULL through `PRAGMA max_page_count`, as
tests/firmware/test_journal_faults.py makes it. bench/journal_faults.py runs the same
on a real full tmpfs."""

from __future__ import annotations

import sqlite3

from firmware.controller.faults import JOURNAL_RETRY_S
from firmware.journal.faults import write_cause
from firmware.journal.store import Journal
from firmware.sim.testbed import SimTable
from tests.firmware.conftest import post
from tests.firmware.test_journal_faults import NO_LIMIT, paused_by_journal, sql


class NoRoomForShm:
    """A connection whose first read fails as on a full disk (then closed)."""

    def execute(self, *_args):
        error = sqlite3.OperationalError("disk I/O error")
        error.sqlite_errorcode = 4874  # SQLITE_IOERR_SHMSIZE
        raise error

    def close(self) -> None:
        pass


def full_disk_at_open(mocker, journal):
    """The next open of `journal` finds the disk full: no -shm, no new page (and no
    free page inside the file: a full disk has none to give)."""
    real = sqlite3.connect
    raw = real(journal)
    raw.execute("VACUUM")
    raw.close()
    pages = journal.stat().st_size // 4096
    calls = []

    def connect(target, *args, **kw):
        if kw.get("uri"):  # the checks' immutable view reads without the -shm
            return real(target, *args, **kw)
        calls.append(target)
        if len(calls) == 1:
            return NoRoomForShm()
        conn = real(target, *args, **kw)
        conn.execute(f"PRAGMA max_page_count = {pages}")
        return conn

    return mocker.patch.object(sqlite3, "connect", side_effect=connect)


def test_no_room_for_the_shm_is_the_disk_full_not_an_io_error():
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode = 4874
    assert write_cause(error) == "disk-full"


def test_an_existing_journal_opens_on_a_full_disk_paused_and_goes_on_with_space(tmp_path,
                                                                              mocker):
    with SimTable(tmp_path, "classic") as table:
        table.play_until(lambda st: st["step"] >= 10)
        step = table.state()["step"]
    journal = tmp_path / "journal.db"
    full = full_disk_at_open(mocker, journal)
    with SimTable(tmp_path, "classic") as table:
        full.stop()
        st = table.state()
        assert paused_by_journal(st), st["waiting"]
        assert st["waiting"]["cause"] == "disk-full" and st["step"] == step
        assert "disk is full" in st["waiting"]["message"]
        status, body = post(table.url, "/api/admin/resume", {})
        assert (status, body["key"], body["values"]["cause"]) == (507, "refused.journal", "disk-full")
        sql(table, f"PRAGMA max_page_count = {NO_LIMIT}")  # space again
        table.pass_time(JOURNAL_RETRY_S)
        st = table.wait_for(lambda st: not paused_by_journal(st), timeout=10)
        st = table.play_until(lambda st: st["step"] > step + 3)
        seq = table.journal_seq
    with Journal.open(journal, readonly=True) as again:
        assert again.last_seq == seq  # what it played after the space came back is kept
