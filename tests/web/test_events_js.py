"""The page words the events the daemon sends, and handles no event it never sends:
`describeEvent` in firmware/web/app.js (its ``EVENT_WORDS`` and ``e.kind === "..."``
branches) against the kinds the daemon publishes (every ``publish({"kind": ...})``
in firmware/)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from playwright.sync_api import expect

from tests.web.screen import EngineTable
from uno_core import position

ROOT = Path(__file__).resolve().parents[2]
APP_JS = ROOT / "firmware" / "web" / "app.js"


def published(root: Path) -> dict[str, set[str]]:
    """Each event kind published under `root` with the keys its dict literals name
    besides ``kind`` (``**`` for a spread after it, which may carry a message or even
    replace the kind: a stop's `to_json` does)."""
    kinds: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Dict)):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if not name.endswith("publish"):
                continue
            keys = [k.value if isinstance(k, ast.Constant) else None for k in node.args[0].keys]
            if "kind" not in keys:
                continue
            at = keys.index("kind")
            value = node.args[0].values[at]
            if not isinstance(value, ast.Constant):
                continue
            kinds.setdefault(value.value, set()).update(
                "**" if k is None else k for k in keys[at + 1:] + keys[:at])
    return kinds


def page_event_kinds(source: str) -> set[str]:
    """The kinds the page handles by name: ``EVENT_WORDS``' keys and ``e.kind === "x"``."""
    start = source.index("const EVENT_WORDS = {")
    block = source[start:source.index("\n};", start)]
    words = set(re.findall(r"^  ([a-z_]+): ", block, re.M))
    return words | set(re.findall(r'e\.kind === "([^"]+)"', source))


def page_worded(source: str) -> set[str]:
    start = source.index("const EVENT_WORDS = {")
    return set(re.findall(r"^  ([a-z_]+): ", source[start:source.index("\n};", start)], re.M))


def test_the_page_handles_no_event_the_daemon_never_sends():
    sent = published(ROOT / "firmware")
    assert {"action", "ejected", "new_match", "tower_seen"} <= set(sent)  # the scan finds them
    page = page_event_kinds(APP_JS.read_text(encoding="utf-8"))
    assert sorted(page - set(sent)) == []


def test_the_page_words_each_event_the_daemon_sends_without_a_message():
    """An event with no words of the page's own and no ``message`` or ``reason`` would
    show as its bare kind ("tray", "journal ok")."""
    sent = published(ROOT / "firmware")
    source = APP_JS.read_text(encoding="utf-8")
    worded = page_worded(source) | {"action"}  # actions: describeEvent's own branch
    bare = {kind for kind, keys in sent.items() if not keys & {"message", "reason", "**"}}
    assert sorted(bare - worded) == []


def test_the_scan_sees_the_kinds_published_and_what_they_carry(tmp_path):
    (tmp_path / "a.py").write_text(
        'self._publish({"kind": "seen", "tower": t})\n'
        'services.publish({"kind": "stopped", **stop.to_json()})\n'
        'self.log({"kind": "not-an-event"})\n'
        'self._publish({"kind": "said", "message": m, **extra})\n')
    assert published(tmp_path) == {"seen": {"tower"}, "stopped": {"**"},
                                   "said": {"message", "**"}}


def test_the_page_parser_reads_the_words_table_and_the_kind_branches():
    source = ('const EVENT_WORDS = {\n  paused: (s, e) => "p",\n  tower_seen: () => "t",\n};\n'
              'if (e.kind === "action") {}\nconst OTHER = {\n  later: 1,\n};')
    assert page_event_kinds(source) == {"paused", "tower_seen", "action"}


def test_the_screen_says_what_the_tray_and_the_launcher_report(page, served):
    """Events without a message of their own reach the notice line as sentences."""
    table = EngineTable(position("power", hands=["R7 R9", "R8 G2"], discard="R5", turn=0),
                        names=["Ann", "Bob"])
    server = served(table)
    page.goto(server.url + "/")
    expect(page.locator("#conn")).to_have_text("live")
    for event, text in [
        ({"kind": "tray", "event": "ReaderDown", "slot": 1},
         "a tray reader stopped answering: Bob (seat 2)"),
        ({"kind": "ejecting", "seat": 0, "job": "deal"}, "the launcher ejects for Ann (seat 1)"),
        ({"kind": "tower_lifted", "tower": "U", "slot": 1}, "the U tower was lifted off Bob (seat 2)"),
        ({"kind": "journal_ok"}, "the journal can be written again"),
    ]:
        server.do(lambda event=event: table.publish(event))
        expect(page.locator("#notice")).to_have_text(text)
