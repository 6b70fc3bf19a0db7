"""uno_core and hal must not import each other or firmware (docs/architecture.md); no
production code imports the tests (the frozen oracle in tests/oracle/ is for tests only)."""

import ast
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "uno_core": {"hal", "firmware", "tests"},
    "hal": {"uno_core", "firmware", "tests"},
    "firmware": {"tests"},  # bench/ may: bench/engine.py times the oracle as its baseline
}


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_does_not_import_forbidden(package):
    offenders = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = _imported_roots(path) & FORBIDDEN[package]
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def test_uno_core_has_no_io_or_global_randomness():
    banned = {"random", "time", "threading", "socket", "os", "subprocess", "sqlite3"}
    offenders = {}
    for path in sorted((ROOT / "uno_core").rglob("*.py")):
        bad = _imported_roots(path) & banned
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def _parts(package: Path) -> set[str]:
    """The package's parts: its top-level modules and subpackages (namespace ones too)."""
    return {p.stem for p in package.glob("*.py") if p.stem != "__init__"} | {
        p.name for p in package.iterdir() if p.is_dir() and any(p.rglob("*.py"))}


def _imported_modules(path: Path, module: str) -> list[tuple[str, int]]:
    """Every module `path` imports, at any depth of the file (function-level too), with
    ``from pkg import name`` also counted as importing ``pkg.name``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = module.split(".")[: len(module.split(".")) - node.level] if node.level else []
            target = ".".join([*base, node.module] if node.module else base)
            found.append((target, node.lineno))
            found += [(f"{target}.{alias.name}", node.lineno) for alias in node.names]
    return found


def part_imports(root: Path, package: str) -> dict[str, dict[str, str]]:
    """part -> {imported part: "file:line" of the first import that makes the edge}."""
    parts = _parts(root / package)
    edges: dict[str, dict[str, str]] = {part: {} for part in parts}
    for path in sorted((root / package).rglob("*.py")):
        rel = path.relative_to(root)
        if len(rel.parts) < 2 or rel.parts[1].removesuffix(".py") not in parts:
            continue
        source = rel.parts[1].removesuffix(".py")
        module = ".".join(rel.with_suffix("").parts)
        for target, line in _imported_modules(path, module):
            bits = target.split(".")
            if bits[0] == package and len(bits) > 1 and bits[1] in parts and bits[1] != source:
                edges[source].setdefault(bits[1], f"{rel}:{line}")
    return edges


def import_cycles(edges: dict[str, dict[str, str]]) -> list[list[str]]:
    """One cycle (as a closed path of parts) through each part that is on a cycle."""
    cycles: list[list[str]] = []
    on_cycle: set[str] = set()
    for start in sorted(edges):
        if start in on_cycle:
            continue
        stack, seen = [(start, [start])], {start}
        while stack:
            part, path = stack.pop()
            for nxt in sorted(edges.get(part, {})):
                if nxt == start:
                    cycles.append([*path, start])
                    on_cycle.update(path)
                    stack = []
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    return cycles


def cycles_said(edges: dict[str, dict[str, str]]) -> list[str]:
    """Each cycle as its path, every import on it with its file and line."""
    return [" -> ".join(f"{a} ({edges[a][b]})" for a, b in pairwise(cycle)) + f" -> {cycle[-1]}"
            for cycle in import_cycles(edges)]


def test_firmware_parts_import_each_other_in_one_direction_only():
    assert cycles_said(part_imports(ROOT, "firmware")) == []


def test_uno_core_modules_import_each_other_in_one_direction_only():
    """Issue 23: no import circle in uno_core, not even one closed by a type-only or a
    function-level import (state.py and listing.py were one, through four more)."""
    edges = part_imports(ROOT, "uno_core")
    assert len(edges) >= 25
    found = [" -> ".join(f"{a} ({edges[a][b]})" for a, b in pairwise(cycle)) + f" -> {cycle[-1]}"
             for cycle in import_cycles(edges)]
    assert found == []


def test_the_cycle_finder_sees_a_cycle_through_a_function_level_import(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("import pkg.sub.c\n")
    (pkg / "sub" / "c.py").write_text("def f():\n    from pkg.a import thing\n")
    (pkg / "d.py").write_text("from pkg import a\n")
    edges = part_imports(tmp_path, "pkg")
    assert edges["sub"] == {"a": "pkg/sub/c.py:2"}
    assert import_cycles(edges) == [["a", "b", "sub", "a"]]


def test_the_tray_tags_the_very_towers_the_game_knows():
    """hal and uno_core may not import each other, so each names the towers; the tray's
    names must be the game's, in the same order (docs/architecture.md)."""
    from hal.tray import TOWERS as TRAY_TOWERS
    from uno_core.cards import TOWERS as GAME_TOWERS

    assert TRAY_TOWERS == GAME_TOWERS


def test_the_public_state_says_neutral_in_the_trays_word():
    """The engine's -1 for the neutral slot reaches every outside view as the tray's own
    word: `public_state` (uno_core) and `hal.tray` each spell it, and must agree."""
    from hal.tray import NEUTRAL
    from uno_core.state import NEUTRAL_SLOT

    assert NEUTRAL == NEUTRAL_SLOT


MAX_CLASS_LINES = 350



def classes_over(root: Path, packages: tuple[str, ...], limit: int) -> dict[str, int]:
    """"file::Class" -> lines, for every class (nested ones too) longer than `limit`."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    lines = node.end_lineno - node.lineno + 1
                    if lines > limit:
                        found[f"{path.relative_to(root).as_posix()}::{node.name}"] = lines
    return found


def test_no_class_in_firmware_hal_or_uno_core_is_over_350_lines():
    over = classes_over(ROOT, ("firmware", "hal", "uno_core"), MAX_CLASS_LINES)
    assert over == {}


def test_the_class_size_check_sees_a_long_class(tmp_path):
    (tmp_path / "pkg").mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(5))
    (tmp_path / "pkg" / "m.py").write_text(f"class Short:\n{body}\nclass Long:\n{body * 2}")
    assert classes_over(tmp_path, ("pkg",), 6) == {"pkg/m.py::Long": 11}


# -- file level (issue 22): every import counts, type-only ones too --------------------
def _module_of(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_imports(root: Path, package: str) -> dict[str, dict[str, str]]:
    """module -> {module of the package it imports: "file:line"}, every import in the
    file (inside ``if TYPE_CHECKING:`` and functions too). ``from pkg import name`` is an
    edge to ``pkg.name`` where that is a module of the package, else to ``pkg``."""
    files = {_module_of(root, p): p for p in sorted((root / package).rglob("*.py"))}
    edges: dict[str, dict[str, str]] = {module: {} for module in files}
    for module, path in files.items():
        own = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = own.split(".")[: len(own.split(".")) - node.level + 1] if node.level \
                    else []
                pkg = ".".join([*base, node.module] if node.module else base)
                targets = [f"{pkg}.{a.name}" if f"{pkg}.{a.name}" in files else pkg
                           for a in node.names]
            for target in targets:
                if target in files and target != module:
                    edges[module].setdefault(target, f"{path.relative_to(root)}:{node.lineno}")
    return edges


def test_no_file_of_firmware_is_on_an_import_circle_type_only_imports_counted():
    assert cycles_said(module_imports(ROOT, "firmware")) == []


def test_no_part_of_the_controller_imports_the_coordinator():
    """The parts hold a `Context` (firmware/controller/context.py), never the
    `Controller`: not even for a type."""
    edges = module_imports(ROOT, "firmware")
    coordinator = "firmware.controller.table"
    importers = sorted(m for m, targets in edges.items()
                       if coordinator in targets and m.startswith("firmware.controller."))
    assert importers == []


def test_the_file_level_check_sees_a_type_only_circle(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from pkg.a import A\n")
    (pkg / "c.py").write_text("from . import a\n")
    edges = module_imports(tmp_path, "pkg")
    assert edges["pkg.b"] == {"pkg.a": "pkg/b.py:3"} and edges["pkg.c"] == {"pkg.a": "pkg/c.py:1"}
    assert import_cycles(edges) == [["pkg.a", "pkg.b", "pkg.a"]]


# uno_core's core: the card rules, the turn machinery and the listings (with all they
# import); the house rules (house_*.py) sit above it, the engine above them
CORE_TOPS = ("cardrules", "listing", "turns")


def test_the_house_rules_sit_above_the_uno_core_core():
    """Issue 33: no core module imports a house-rule module, at any depth; the core asks
    the house rules only through what the engine gives it (turns.ask_house_rules)."""
    edges = part_imports(ROOT, "uno_core")
    core, todo = set(), list(CORE_TOPS)
    while todo:
        part = todo.pop()
        if part not in core:
            core.add(part)
            todo += edges[part]
    assert {"cardrules", "listing", "turns", "matching", "tables", "state", "kinds"} <= core
    reaching = {part: sorted(edges[part][h] for h in edges[part] if h.startswith("house_"))
                for part in sorted(core)}
    assert {part: where for part, where in reaching.items() if where} == {}
    assert not core & {p for p in edges if p.startswith("house_")}
    houses = {p for p in edges if p.startswith("house_")}
    assert {p for p in edges["engine"] if p.startswith("house_")} == houses
