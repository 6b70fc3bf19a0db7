"""The page words every wait the table can send, and only those: `waitingText`'s
``switch (w.kind)`` in firmware/web/app.js against `firmware.waits.Wait`, the one
vocabulary the controller says and the simulated players answer."""

from __future__ import annotations

import re
from pathlib import Path

from firmware.waits import PHASE_WAITS, Wait

APP_JS = Path(__file__).resolve().parents[2] / "firmware" / "web" / "app.js"


def page_wait_kinds(source: str) -> set[str]:
    """The kinds the page's ``switch (w.kind)`` has a ``case`` for (up to its default)."""
    start = source.index("switch (w.kind) {")
    block = source[start:source.index("default:", start)]
    return set(re.findall(r'case "([^"]+)":', block))


def test_the_page_words_each_wait_the_table_sends_and_no_other():
    page = page_wait_kinds(APP_JS.read_text(encoding="utf-8"))
    sent = {str(w) for w in Wait}
    assert sorted(sent - page) == []  # a wait the page would only show as the daemon's message
    assert sorted(page - sent) == []  # a case for a kind the daemon never sends


def test_the_parser_sees_each_case_of_the_switch_and_stops_at_its_default():
    source = ('switch (s.phase) { case "play": }\nswitch (w.kind) {\n  case "turn": return 1;\n'
              '  case "jam": case "reload": return 2;\n  default: return 3;\n}\ncase "later":')
    assert page_wait_kinds(source) == {"turn", "jam", "reload"}


def test_each_phase_the_engine_enters_has_its_wait():
    """A phase missing from PHASE_WAITS would reach the page as the engine's raw name."""
    from uno_core.state import Phase  # every phase the engine can enter (issue 23: an enum)

    entered = {str(p) for p in Phase}
    # the chance player's phases and the end: `waiting` words them before the phase
    by_chance_or_over = {"dealer", "shuffle", "reveal", "match_over"}
    assert entered - by_chance_or_over == set(PHASE_WAITS)
