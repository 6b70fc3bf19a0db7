"""Freeze uno_core as the lockstep oracle: copy it from a git ref into
tests/oracle/uno_core_oracle/ with its imports renamed.

    python tests/oracle/freeze.py [REF]      (default: main)

The copy is taken from the committed tree of REF (not the working tree), so freezing is
reproducible and never picks up a half-rewritten engine. Every ``uno_core`` import becomes
``tests.oracle.uno_core_oracle`` (ruff re-wraps the import blocks); nothing else changes. The copy's ``FROZEN`` file names
the commit it came from. Run it again after a rules fix lands on main, then commit.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
TARGET = HERE / "uno_core_oracle"
PACKAGE = "tests.oracle.uno_core_oracle"
_IMPORT = re.compile(r"^(\s*(?:from|import)\s+)uno_core\b", re.MULTILINE)
HEADER = "# Frozen copy of uno_core (tests/oracle/freeze.py): the lockstep oracle. Do not edit.\n"


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, check=True, capture_output=True,
                          text=True).stdout


def rewrite(source: str) -> str:
    """`source` with every import of uno_core renamed to the oracle package."""
    return HEADER + _IMPORT.sub(lambda m: m.group(1) + PACKAGE, source)


def freeze(ref: str = "main") -> str:
    """Replace the oracle by uno_core as committed at `ref`; return the commit."""
    commit = _git("rev-parse", "--verify", f"{ref}^{{commit}}").strip()
    files = _git("ls-tree", "-r", "--name-only", commit, "uno_core/").split()
    if "uno_core/engine.py" not in files:
        raise SystemExit(f"{ref} ({commit[:10]}) has no uno_core/engine.py")
    if TARGET.exists():
        shutil.rmtree(TARGET)
    for name in files:
        out = TARGET / Path(name).relative_to("uno_core")
        out.parent.mkdir(parents=True, exist_ok=True)
        text = _git("show", f"{commit}:{name}")
        out.write_text(rewrite(text) if name.endswith(".py") else text)
    (TARGET / "FROZEN").write_text(f"uno_core from {commit} ({ref})\n")
    # the longer module names need the import blocks re-wrapped to stay ruff-clean
    ruff = Path(sys.executable).with_name("ruff")
    subprocess.run([str(ruff) if ruff.exists() else "ruff", "check", "--fix", "--quiet",
                    "--select", "I", str(TARGET)], cwd=REPO, check=True)
    return commit


if __name__ == "__main__":
    ref = sys.argv[1] if len(sys.argv) > 1 else "main"
    print(f"froze uno_core from {freeze(ref)} into {TARGET.relative_to(REPO)}")
