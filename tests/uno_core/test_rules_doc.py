"""docs/rules.md names a test for every rule; every named test must exist."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FILES = {  # under tests/
    "C": "uno_core/test_rules_classic.py", "P": "uno_core/test_rules_power.py",
    "A": "uno_core/test_rules_attack.py", "X": "uno_core/test_rules_extreme.py",
    "T": "uno_core/test_table_mode.py", "K": "uno_core/test_chance.py",
    "M": "uno_core/test_match.py", "E": "uno_core/test_editions.py",
    "O": "uno_core/test_options.py", "S": "uno_core/test_house_swaps.py",
    "J": "uno_core/test_house_jump.py", "D": "uno_core/test_house_draw.py",
    "H": "uno_core/test_house_rules.py", "U": "uno_core/test_house_rules_others.py",
    "B": "uno_core/test_house_mistakes.py",
    # the table's side of a rule (issue 12's turn timer, the twin's whole-table tests)
    "Q": "firmware/controller/test_turn_timer.py", "W": "e2e/test_house_rules_twin.py",
}


def _tests(filename):
    tree = ast.parse((ROOT / "tests" / filename).read_text(encoding="utf-8"))
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


def test_every_refusal_key_is_named_next_to_its_rules_with_its_wording():
    from uno_core.refusals import ENGLISH

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    numbers = set(re.findall(r"^\| (\d+) \|", text, re.M))
    listed = {m[0]: (m[1], m[2]) for m in
              re.findall(r"^\| `(\w+)` \| ([\d, ]+) \| (.*) \|$", text, re.M)}
    assert set(listed) == set(ENGLISH)
    for key, (rows, wording) in listed.items():
        assert wording == ENGLISH[key], key
        assert {r.strip() for r in rows.split(",")} <= numbers, (key, rows)
