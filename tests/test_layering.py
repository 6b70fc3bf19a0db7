"""uno_core and hal must not import each other or firmware (docs/architecture.md); no
production code imports the tests (the frozen oracle in tests/oracle/ is for tests only)."""

import ast
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
