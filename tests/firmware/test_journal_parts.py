"""The journal's parts on their own: the format (`Rows`: checked reads), the checks at
open (`check`, `make_ready`), the fault watch and the commit (`FaultWatch`, `Commit`), and the
timestamps from the one clock. `Journal` itself is tested in test_journal*.py."""

from __future__ import annotations

import errno
import sqlite3

import pytest

from firmware.errors import JournalCorrupt, JournalError, JournalRefused, JournalUnwritable
from firmware.journal.faults import Commit, FaultWatch, cannot_write, write_cause
from firmware.journal.format import (
    INSERT_ENTRIES,
    INSERT_HEADER,
    INTENT,
    RESULT,
    SCHEMA,
    Rows,
    entry_row,
    header_crc,
)
from firmware.journal.mark import Mark
from firmware.journal.opening import Tail, check, connect, make_ready
from firmware.journal.store import Journal
from hal.sim.clock import VirtualClock

HEADER = (1, "classic", "{}", 2, 7, "hash", 100.0)


def filled(conn: sqlite3.Connection, entries: list[tuple[str, object, int | None]]) -> Rows:
    """A journal's tables in `conn` with one match and `entries` (kind, payload, ref)."""
    conn.executescript(SCHEMA)
    conn.execute(INSERT_HEADER, (*HEADER, header_crc(*HEADER)))
    rows = [entry_row(seq, 1, kind, ref, payload, 100.0 + seq)
            for seq, (kind, payload, ref) in enumerate(entries, 1)]
    conn.executemany(INSERT_ENTRIES, rows)
    return Rows(conn, "j.db")


# -- the format ------------------------------------------------------------------------


def test_rows_read_back_what_was_written_with_the_header():
    rows = filled(sqlite3.connect(":memory:"), [("action", {"n": 1}, None),
                                                ("action", {"n": 2}, None)])
    assert [(e.seq, e.payload, e.at) for e in rows.entries()] == [(1, {"n": 1}, 101.0),
                                                                  (2, {"n": 2}, 102.0)]
    (match,) = rows.matches()
    assert (match.edition, match.seats, match.seed, match.options) == ("classic", 2, 7, {})


def test_a_changed_payload_is_refused_naming_its_entry():
    conn = sqlite3.connect(":memory:")
    rows = filled(conn, [("action", {"n": 1}, None), ("action", {"n": 2}, None)])
    conn.execute("""UPDATE entries SET payload = '{"n":3}' WHERE seq = 2""")
    with pytest.raises(JournalCorrupt, match="entry 2 \\(action\\) fails its checksum"):
        list(rows.entries())


def test_a_missing_entry_is_refused_where_the_gap_is():
    conn = sqlite3.connect(":memory:")
    rows = filled(conn, [("action", {"n": n}, None) for n in range(3)])
    conn.execute("DELETE FROM entries WHERE seq = 2")
    with pytest.raises(JournalCorrupt, match="entry 2 is missing \\(next is 3\\)"):
        list(rows.entries())


def test_a_changed_header_is_refused_naming_the_match():
    conn = sqlite3.connect(":memory:")
    rows = filled(conn, [])
    conn.execute("UPDATE matches SET seats = 4")
    with pytest.raises(JournalCorrupt, match="header of match 1 fails its checksum"):
        rows.matches()


def test_open_intents_are_the_ejections_without_a_result():
    rows = filled(sqlite3.connect(":memory:"), [
        (INTENT, {"seat": 0}, None), (RESULT, {"counted": 2}, 1), (INTENT, {"seat": 1}, None)])
    assert [(e.seq, e.payload) for e in rows.open_intents()] == [(3, {"seat": 1})]
    assert rows.has_result(1) and not rows.has_result(3)


def test_a_payload_that_is_not_plain_json_is_refused_before_anything_is_written():
    with pytest.raises(JournalError, match="action payload is not plain JSON"):
        entry_row(1, 1, "action", None, {"n": float("nan")}, 0.0)


# -- the checks at open ----------------------------------------------------------------


def test_a_fresh_file_is_made_a_journal_in_wal_mode(tmp_path):
    conn = connect(str(tmp_path / "new" / "j.db"), readonly=False)
    rows = Rows(conn, "j.db")
    watch = FaultWatch("j.db", conn, lambda: (0, None))
    found = check(rows, readonly=False)
    tail = make_ready(rows, found, commit=lambda: Commit(conn, watch))
    assert tail == Tail() and tail.mark() == Mark()
    assert rows.tables() == {"meta", "matches", "entries"} and rows.version() == 2
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_journal_behind_its_mark_is_refused_and_left_unchanged(tmp_path):
    conn = sqlite3.connect(tmp_path / "j.db", isolation_level=None)
    rows = filled(conn, [("action", {"n": 1}, None)])
    conn.execute("INSERT INTO meta VALUES ('schema_version', '2')")
    before = list(rows.entries())
    with pytest.raises(JournalRefused, match="ends at entry 1 but entry 5 was committed"):
        check(rows, readonly=False, mark=Mark(seq=5, match=1))
    assert list(rows.entries()) == before
    assert conn.execute("PRAGMA journal_mode").fetchone() != ("wal",)  # nothing was switched


def test_the_tail_is_where_the_writer_goes_on(tmp_path):
    conn = sqlite3.connect(tmp_path / "j.db", isolation_level=None)
    rows = filled(conn, [("action", {"n": 1}, None), ("action", {"n": 2}, None)])
    conn.execute("INSERT INTO meta VALUES ('schema_version', '2')")
    tail = check(rows, readonly=True).tail
    assert (tail.last_seq, tail.match_id) == (2, 1)
    assert tail.last_crc == rows.entry_crc_at(2) and tail.match_crc == header_crc(*HEADER)


def test_an_sqlite_file_of_another_program_is_not_taken_for_a_journal(tmp_path):
    conn = sqlite3.connect(tmp_path / "other.db", isolation_level=None)
    conn.execute("CREATE TABLE photos (id INTEGER)")
    with pytest.raises(JournalError, match="not a unotable journal"):
        check(Rows(conn, "other.db"), readonly=False)


def test_a_reader_is_told_there_is_no_journal(tmp_path):
    with pytest.raises(JournalError, match="no journal at"):
        connect(str(tmp_path / "none.db"), readonly=True)


# -- faults and the commit -------------------------------------------------------------


@pytest.mark.parametrize(("exc", "cause"), [
    (OSError(errno.ENOSPC, "No space left"), "disk-full"),
    (OSError(errno.EROFS, "Read-only file system"), "read-only"),
    (OSError(errno.EIO, "I/O error"), "io"),
])
def test_a_failed_write_is_told_by_its_cause(exc, cause):
    assert write_cause(exc) == cause
    assert cannot_write("/var/j.db", cause, exc).startswith("cannot write the journal /var/j.db")


def test_a_failed_commit_writes_nothing_and_is_heard_until_one_works(tmp_path):
    conn = sqlite3.connect(tmp_path / "j.db", isolation_level=None)
    filled(conn, [])
    watch = FaultWatch(str(tmp_path / "j.db"), conn, lambda: (0, None))
    heard: list[str | None] = []
    watch.listeners.append(lambda fault: heard.append(fault.cause if fault else None))
    conn.execute("PRAGMA query_only = ON")
    with pytest.raises(JournalUnwritable) as failed, Commit(conn, watch):
        conn.execute("INSERT INTO meta VALUES ('k', 'v')")
    assert (failed.value.key, failed.value.status) == ("refused.journal", 507)
    assert "nothing was written" in failed.value.detail  # the log's line
    assert watch.fault is not None and watch.fault.cause == "read-only"
    conn.execute("PRAGMA query_only = OFF")
    assert conn.execute("SELECT count(*) FROM meta").fetchone() == (0,)
    with Commit(conn, watch):
        conn.execute("INSERT INTO meta VALUES ('k', 'v')")
    assert watch.fault is None and heard == ["read-only", None]


def test_a_journal_deleted_under_the_writer_is_rescued_from_its_connection(tmp_path):
    path = tmp_path / "j.db"
    conn = sqlite3.connect(path, isolation_level=None)
    filled(conn, [("action", {"n": 1}, None)])
    watch = FaultWatch(str(path), conn, lambda: (1, None))
    watch.remember_identity()
    path.unlink()
    with pytest.raises(JournalUnwritable) as failed, Commit(conn, watch):
        pass
    assert failed.value.cause == "lost"
    assert "was deleted while the table ran: everything up to entry 1 is saved in" in \
        failed.value.detail  # the log's line
    assert watch.rescued == f"{path}.rescued"
    saved = Rows(sqlite3.connect(watch.rescued), watch.rescued)
    assert [e.payload for e in saved.entries()] == [{"n": 1}]


def test_a_closed_journal_refuses_to_commit():
    watch = FaultWatch("j.db", sqlite3.connect(":memory:"), lambda: (0, None))
    with pytest.raises(JournalError, match="journal is closed"), Commit(None, watch):
        pass


# -- timestamps ------------------------------------------------------------------------


def test_entries_are_stamped_with_the_clocks_wall_time_not_its_monotonic_time(tmp_path):
    clock = VirtualClock(5.0, epoch=1_700_000_000.0)
    with Journal.open(tmp_path / "j.db", clock=clock) as journal:
        match = journal.start_match(edition="classic", options={}, seats=2, seed=1,
                                    config_hash="h")
        clock.advance(2.5)
        entry = journal.append("action", {"n": 1})
    assert match.started_at == 1_700_000_005.0 and entry.at == 1_700_000_007.5


def test_the_daemon_stamps_its_journal_on_its_loops_clock(tmp_path):
    from firmware.daemon import Daemon
    from firmware.sim.demo import sim_config

    clock = VirtualClock(3.0, epoch=1_700_000_000.0)
    daemon = Daemon(sim_config("classic", 2, 1, tmp_path / "journal.db"), lambda _s: None,
                    env={}, clock=clock)
    with daemon._open_journal() as journal:
        assert journal.path == str(tmp_path / "journal.db")
        match = journal.start_match(edition="classic", options={}, seats=2, seed=1,
                                    config_hash="h")
    assert match.started_at == 1_700_000_003.0
