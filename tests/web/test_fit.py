"""Every sheet and panel fits (tests/web/fit.py has the rule): the board, the play sheet
with its colour, tower and target choices, the challenge and verdict, hand entry, what
the cards do, set-up, health, seats and phones, round and match end; in English and
German, on the table's 800x480 screen and on phones of 390x844 and 360x740, with names
of 32 characters (the longest a table takes)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.web.fit import LANGUAGES, SIZES, SeatedServed, problems, walk
from tests.web.screen import EngineTable


@pytest.fixture
def serve(closed_after: Callable[[Any], Any], tmp_path: Any) -> Iterator[Callable[[EngineTable], SeatedServed]]:
    yield lambda table: closed_after(SeatedServed(table, str(tmp_path)))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_sheet_and_panel_fits(page, serve, size, lang):
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    found: dict[str, list[str]] = {}

    def seen(name: str) -> None:
        wrong = problems(page)
        if wrong:
            found[name] = wrong

    walk(page, serve, lang, seen)
    assert found == {}, "\n".join(f"{name}: {wrong}" for name, wrong in found.items())
