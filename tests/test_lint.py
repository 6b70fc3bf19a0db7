"""The project's own standards, checked as part of the suite: ruff everywhere, mypy on uno_core."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    exe = Path(sys.executable).with_name(name)
    return str(exe) if exe.exists() else (shutil.which(name) or name)


def test_ruff_clean():
    proc = subprocess.run([_tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_clean_on_uno_core():
    proc = subprocess.run(
        [_tool("mypy"), "--no-error-summary", "-p", "uno_core"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_test_file_has_its_own_name():
    """The test folders are no packages, so pytest imports each file by its name: two files
    of one name stop the whole run at collection."""
    names = [p.name for p in (ROOT / "tests").rglob("test_*.py")]
    assert sorted({n for n in names if names.count(n) > 1}) == []
