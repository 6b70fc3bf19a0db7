"""Damage a journal from outside, as a person with sqlite3 (or a bad disk) would."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def damage(path: Path, statement: str) -> None:
    """Run one SQL statement on the journal behind its back, and commit it."""
    raw = sqlite3.connect(path)
    raw.execute(statement)
    raw.commit()
    raw.close()
