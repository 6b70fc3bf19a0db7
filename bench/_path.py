"""The repository's root first on ``sys.path`` for a bench script run as
``python bench/NAME.py``.

Python puts the script's folder (``bench/``) first on the path, where ``import bench``,
``firmware``, ``hal`` and ``uno_core`` would not resolve to this checkout; this module,
importable from there by its bare name, puts the folder's parent in its place. A script
imports it first, only when it runs without a package (``python -m bench.NAME`` and an
import as ``bench.NAME`` need nothing)::

    if not __package__:  # run as `python bench/NAME.py`
        import _path  # noqa: F401
"""

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if sys.path and Path(sys.path[0] or ".").resolve() == _HERE:
    sys.path[0] = str(_HERE.parent)
