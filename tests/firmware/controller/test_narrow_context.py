"""What a part may touch, read from the controller's source: a peer is found by its
class and asked a method, the panel's lights and buzzer have one owner, and the
controller needs no `type: ignore`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

CONTROLLER = Path(__file__).resolve().parents[3] / "firmware" / "controller"
PANEL_OWNER = "seats.py"  # the seat buttons part: every other part asks it


def sources() -> dict[str, str]:
    return {path.name: path.read_text() for path in sorted(CONTROLLER.glob("*.py"))}


def test_no_type_ignore_in_the_controller():
    assert [name for name, text in sources().items() if "type: ignore" in text] == []


def test_only_the_seat_buttons_drive_the_lights_and_the_buzzer():
    drives = re.compile(r"panel\.(buzz|light|show)\(")
    assert [name for name, text in sources().items()
            if name != PANEL_OWNER and drives.search(text)] == []


def _asks_peer(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr in ("peer", "optional")


def test_a_part_asks_its_peers_methods_and_reads_none_of_their_fields():
    """In every part (the coordinator, table.py, is no part), `ctx.peer(X).name` is
    always a call of `name`: a part never reads a peer's field."""
    read = []
    for name, text in sources().items():
        if name == "table.py":
            continue
        tree = ast.parse(text)
        called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
        read += [(name, node.lineno, node.attr) for node in ast.walk(tree)
                 if isinstance(node, ast.Attribute) and _asks_peer(node.value)
                 and id(node) not in called]
    assert read == []


def test_no_part_sees_the_hardware_bundle_each_gets_its_own_device():
    """The coordinator hands the panel to the seat buttons and the launcher to the
    ejections; no part reaches the `Hardware` bundle (`ctx.hw`)."""
    reach = re.compile(r"\b(ctx|t|self\.ctx)\.hw\b")
    assert [name for name, text in sources().items() if reach.search(text)] == []
