"""English counts for the command line's lines: "1 card", "7 cards"."""

from __future__ import annotations


def count_of(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, singular for exactly one ("1 card"), else `plural` (noun + "s")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
