"""The collector's SQLite file: every result once (its id is the primary key), and the
standings computed from them.

Standings per player name (over every table): matches won, rounds won, points won in
rounds. Per table: rounds and matches played, the last match's winner, and the scores of
its latest round.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from firmware.mqtt.results import Result

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    table_id TEXT NOT NULL,
    table_name TEXT NOT NULL,
    match TEXT NOT NULL,
    round INTEGER NOT NULL,
    edition TEXT NOT NULL,
    winner TEXT NOT NULL,
    points INTEGER NOT NULL,
    scores TEXT NOT NULL,
    at REAL NOT NULL,
    received INTEGER NOT NULL,
    stored_at REAL NOT NULL
)
"""
COLUMNS = ("id", "kind", "table_id", "table_name", "match", "round", "edition", "winner",
           "points", "scores", "at", "stored_at")


class ResultsStore:
    """One SQLite file. `add` commits before it returns (synchronous=FULL): a result it
    said it kept survives a crash or a power cut."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute(SCHEMA)

    @classmethod
    def read_only(cls, path: str | Path) -> ResultsStore:
        """An existing store, opened for reading only (`unotable results show`)."""
        if not Path(path).is_file():
            raise FileNotFoundError(f"{path}: no results file (`unotable results` makes it)")
        store = cls.__new__(cls)
        store.path = Path(path)
        store._db = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        return store

    def close(self) -> None:
        self._db.close()

    def add(self, result: Result, stored_at: float = 0.0) -> bool:
        """Keep `result`, stamped `stored_at` (the collector's wall clock: `at` to
        `stored_at` is how late it came); False when its id was kept before."""
        with self._transaction():
            cursor = self._db.execute(
                f"INSERT OR IGNORE INTO results ({', '.join(COLUMNS)}, received) "
                f"VALUES ({', '.join('?' * len(COLUMNS))}, (SELECT COUNT(*) FROM results))",
                (result.id, result.kind, result.table, result.table_name, result.match,
                 result.round, result.edition, result.winner, result.points,
                 json.dumps(dict(result.scores), ensure_ascii=False), result.at, stored_at))
            return cursor.rowcount == 1

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def results(self) -> list[dict[str, Any]]:
        """Every stored result, in the order received."""
        with closing(self._db.execute(
                f"SELECT {', '.join(COLUMNS)} FROM results ORDER BY received")) as rows:
            found = [dict(zip(COLUMNS, row, strict=True)) for row in rows]
        for row in found:
            row["table"] = row.pop("table_id")
            row["scores"] = json.loads(row["scores"])
        return found

    def standings(self) -> dict[str, list[dict[str, Any]]]:
        rows = self.results()
        players: dict[str, dict[str, Any]] = {}
        tables: dict[str, dict[str, Any]] = {}
        for row in rows:
            table = tables.setdefault(row["table"], {
                "table": row["table"], "name": row["table_name"], "rounds": 0, "matches": 0,
                "last_winner": None, "scores": {}})
            table["name"] = row["table_name"] or table["name"]
            player = players.setdefault(row["winner"], {
                "name": row["winner"], "matches_won": 0, "rounds_won": 0, "points": 0})
            if row["kind"] == "round":
                table["rounds"] += 1
                table["scores"] = row["scores"]
                player["rounds_won"] += 1
                player["points"] += row["points"]
            else:
                table["matches"] += 1
                table["last_winner"] = row["winner"]
                table["scores"] = row["scores"]
                player["matches_won"] += 1
        ranked = sorted(players.values(),
                        key=lambda p: (-p["matches_won"], -p["rounds_won"], -p["points"], p["name"]))
        return {"players": ranked,
                "tables": sorted(tables.values(), key=lambda t: (t["name"], t["table"]))}
