"""A journal that cannot be written while the table runs: disk full, read-only, deleted
or replaced. The table pauses (waiting kind "journal"), the request that could not be
journaled gets 507, nothing committed is lost, and the daemon never exits over it.

The faults are SQLite's own errors: `PRAGMA max_page_count` makes SQLite answer
SQLITE_FULL exactly as on a full disk, `PRAGMA query_only` answers SQLITE_READONLY as a
read-only mount does (tests run as root, whom file modes do not stop).
bench/journal_faults.py runs the same faults on a real full tmpfs and a read-only mount.
"""

from __future__ import annotations

import shutil

import pytest

from firmware.controller.faults import JOURNAL_RETRY_S
from firmware.journal.mark import mark_path, read_mark
from firmware.journal.store import Journal
from firmware.sim.testbed import SimTable
from tests.firmware.conftest import dealing_through, post

NO_LIMIT = 1_073_741_823


def sql(table: SimTable, statement: str) -> None:
    table.call(lambda: table.controller.journal._conn.execute(statement))


def disk_full(table: SimTable) -> None:
    pages = table.call(lambda: table.controller.journal._conn.execute(
        "PRAGMA page_count").fetchone()[0])
    sql(table, f"PRAGMA max_page_count = {pages}")


def paused_by_journal(st) -> bool:
    return st["waiting"]["kind"] == "journal"


def actions(path) -> list:
    with Journal.open(path, readonly=True) as journal:
        return [(e.seq, e.payload) for e in journal.entries()]


@pytest.mark.parametrize("fault", ["disk-full", "read-only"])
def test_the_table_pauses_answers_507_and_goes_on_once_it_can_write(tmp_path, fault):
    with SimTable(tmp_path, "classic") as table:
        table.play_until(lambda st: st["step"] >= 12)
        if fault == "disk-full":
            disk_full(table)
        else:
            sql(table, "PRAGMA query_only = ON")
        st = table.play_until(paused_by_journal, max_steps=400)
        waiting = st["waiting"]
        assert waiting["cause"] == fault
        assert ("disk is full" if fault == "disk-full" else "read-only") in waiting["message"]
        assert "corrupt" not in waiting["message"]
        committed = table.journal_seq
        status, body = post(table.url, "/api/admin/pause", {})
        assert (status, body["key"], body["values"]["cause"]) == (507, "refused.journal", fault)
        status, body = post(table.url, "/api/admin/resume", {})  # not "nothing to resume"
        assert (status, body["key"], body["values"]["cause"]) == (507, "refused.journal", fault)
        seat = table.state()["to_act"]
        status, _ = post(table.url, "/api/uno", {"seat": max(seat, 0)})
        assert status == 507
        assert table.journal_seq == committed and table.state()["paused"] is None

        if fault == "disk-full":
            sql(table, f"PRAGMA max_page_count = {NO_LIMIT}")
        else:
            sql(table, "PRAGMA query_only = OFF")
        table.pass_time(JOURNAL_RETRY_S)  # the table's one clock: its retry comes due
        st = table.wait_for(lambda st: not paused_by_journal(st), timeout=10)  # by itself
        rounds = st["stats"]["rounds"]
        st = table.play_until(lambda st: st["stats"]["rounds"] > rounds)
        step, seq = st["step"], table.journal_seq
        assert table.status is None  # the daemon never stopped
    assert table.status == 0
    journaled = actions(tmp_path / "journal.db")
    assert [s for s, _ in journaled] == list(range(1, seq + 1))  # nothing committed lost
    with SimTable(tmp_path, "classic") as again:
        assert again.state()["step"] == step


def test_a_journal_deleted_while_the_table_runs_pauses_it_and_is_saved(tmp_path):
    path = tmp_path / "journal.db"
    with SimTable(tmp_path, "classic") as table:
        table.play_until(lambda st: st["step"] >= 12)
        path.unlink()
        st = table.play_until(paused_by_journal, max_steps=50)
        waiting = st["waiting"]
        assert waiting["cause"] == "lost"
        assert f"the journal {path} was deleted while the table ran" in waiting["message"]
        assert f"saved in {path}.rescued" in waiting["message"]
        status, _ = post(table.url, "/api/admin/pause", {})
        assert status == 507
        step, seq = st["step"], table.journal_seq
    assert table.status == 0
    assert not path.exists()
    shutil.move(f"{path}.rescued", path)
    assert read_mark(mark_path(path)).seq == seq
    with SimTable(tmp_path, "classic") as again:
        assert again.state()["step"] == step and again.journal_seq == seq


def test_a_journal_replaced_while_the_table_runs_is_not_written_to(tmp_path):
    path = tmp_path / "journal.db"
    with SimTable(tmp_path, "classic") as table:
        table.play_until(lambda st: st["step"] >= 12)
        other = tmp_path / "other.db"
        shutil.copyfile(path, other)
        other.replace(path)
        before = path.read_bytes()
        st = table.play_until(paused_by_journal, max_steps=50)
        assert "was replaced by another file" in st["waiting"]["message"]
        assert path.read_bytes() == before


def test_a_round_end_checkpoints_the_wal_into_the_journal_file(tmp_path):
    path = tmp_path / "journal.db"
    with SimTable(tmp_path, "classic") as table:
        table.play_until(lambda st: st["stats"]["rounds"] >= 1)
        round_end = table.journal_seq
        for _ in range(3):
            table.bot_step()
        now = table.journal_seq
        assert path.stat().st_size > 8192
        shutil.copyfile(path, tmp_path / "db-only.db")  # the WAL lost now
        with Journal.open(tmp_path / "db-only.db", readonly=True) as copy:
            kept = copy.last_seq
    # A lost WAL costs the entries since the round end, not the round before it.
    assert kept == round_end < now


def test_the_journal_reports_a_failed_commit_and_its_end_to_its_listeners(tmp_path):
    from firmware.errors import JournalUnwritable

    heard = []
    with Journal.open(tmp_path / "j.db") as journal:
        journal.fault_listeners.append(heard.append)
        journal.start_match(edition="classic", options={}, seats=2, seed=1, config_hash="h")
        journal._conn.execute("PRAGMA query_only = ON")
        with pytest.raises(JournalUnwritable) as err:
            journal.append("action", {"n": 1})
        assert err.value.status == 507 and err.value.cause == "read-only"
        assert journal.last_seq == 0 and not journal.probe()
        journal._conn.execute("PRAGMA query_only = OFF")
        assert journal.probe() and journal.fault is None
        assert journal.append("action", {"n": 1}).seq == 1
    assert [f.cause if f else None for f in heard] == ["read-only", "read-only", None]


def test_a_wal_deleted_under_the_daemon_is_noticed_at_the_next_commit(tmp_path):
    from firmware.errors import JournalUnwritable

    path = tmp_path / "j.db"
    with Journal.open(path) as journal:
        journal.start_match(edition="classic", options={}, seats=2, seed=1, config_hash="h")
        journal.append("action", {"n": 1})
        (tmp_path / "j.db-wal").unlink()
        with pytest.raises(JournalUnwritable) as failed:
            journal.append("action", {"n": 2})
        assert (failed.value.key, failed.value.cause) == ("refused.journal", "lost")
        assert f"lost its {path}-wal while the table ran" in failed.value.detail  # the log's line
        assert journal.rescued == f"{path}.rescued"
    with Journal.open(journal.rescued, readonly=True) as saved:
        assert [e.payload for e in saved.entries()] == [{"n": 1}]


def test_an_ejection_that_ends_while_the_journal_cannot_be_written_is_journaled_later(tmp_path):
    import threading
    import time

    hold = threading.Event()
    deals = {"n": 0}

    def deal(real, n, seat):
        deals["n"] += 1
        result = real(n, seat)
        if deals["n"] == 2:
            hold.wait(30)  # all its cards are out; the end reaches the table later
        return result

    with SimTable(tmp_path, "classic", wrap_hardware=dealing_through(deal)) as table:
        table.play_until(lambda st: st["waiting"]["kind"] == "shuffle")
        table.bot_step(settle=False)  # shuffle and load: the deal starts
        deadline = time.monotonic() + 10
        while deals["n"] < 2 and time.monotonic() < deadline:
            time.sleep(0.005)
        sql(table, "PRAGMA query_only = ON")
        intent = table.call(lambda: table.controller.running[0])
        hold.set()
        st = table.wait_for(paused_by_journal)
        assert st["waiting"]["cause"] == "read-only"
        assert table.call(lambda: table.controller.running is not None)  # not forgotten
        sql(table, "PRAGMA query_only = OFF")
        table.pass_time(JOURNAL_RETRY_S)
        st = table.wait_for(lambda st: not paused_by_journal(st))
        st = table.play_until(lambda st: st["stats"]["rounds"] >= 1)
        assert table.world.agree, table.world.mismatches
    with Journal.open(tmp_path / "journal.db", readonly=True) as journal:
        results = [e for e in journal.entries() if e.kind == "result" and e.ref == intent]
    assert len(results) == 1 and results[0].payload["status"] == "ok"


def test_a_state_directory_deleted_under_the_daemon_is_made_again_for_the_rescue(tmp_path):
    from firmware.errors import JournalUnwritable

    state = tmp_path / "state"
    with Journal.open(state / "j.db") as journal:
        journal.start_match(edition="classic", options={}, seats=2, seed=1, config_hash="h")
        journal.append("action", {"n": 1})
        shutil.rmtree(state)
        with pytest.raises(JournalUnwritable) as failed:
            journal.append("action", {"n": 2})
        assert (failed.value.key, failed.value.cause) == ("refused.journal", "lost")
        assert f"saved in {state}/j.db.rescued" in failed.value.detail  # the log's line
    with Journal.open(state / "j.db.rescued", readonly=True) as saved:
        assert [e.payload for e in saved.entries()] == [{"n": 1}]
