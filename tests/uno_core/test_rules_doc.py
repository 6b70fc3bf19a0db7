"""docs/rules.md names a test for every rule; every named test must exist."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FILES = {
    "C": "test_rules_classic.py", "P": "test_rules_power.py", "A": "test_rules_attack.py",
    "X": "test_rules_extreme.py", "T": "test_table_mode.py", "K": "test_chance.py",
    "M": "test_match.py", "E": "test_editions.py", "O": "test_options.py",
    "S": "test_house_swaps.py", "J": "test_house_jump.py", "D": "test_house_draw.py",
    "H": "test_house_rules.py",
}


def _tests(filename):
    tree = ast.parse((ROOT / "tests" / "uno_core" / filename).read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_every_rule_row_names_existing_tests():
    rows = [line for line in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
            .splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) >= 80
    known = {key: _tests(name) for key, name in FILES.items()}
    for row in rows:
        refs = re.findall(r"\b([A-Z])::(test_\w+)", row.split("|")[-2])
        assert refs, f"row without a test: {row[:60]}"
        for key, name in refs:
            assert name in known[key], f"{key}::{name} does not exist"
