"""`bench/latency.py`'s hand-off count: what a walk counts, and that the tray's watcher
thread, which polls at its own pace, never adds its calls to a walk it happens to fall in."""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType

from bench import latency

FILES = {"firmware/press.py": "def go(read):\n    return read()\n",
         "hal/reader.py": "def read():\n    return 1\n",
         "hal/tray.py": "def watch(read):\n    return read()\n"}


def _load(root: Path, name: str) -> ModuleType:
    """A file of the tree under a name of its own (the project's packages stay as they are)."""
    spec = importlib.util.spec_from_file_location(f"walked_{name.replace('/', '_')[:-3]}",
                                                  root / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_walk_counts_the_calls_between_files_and_leaves_the_tray_watcher_out(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    press, reader, tray = (_load(tmp_path, name) for name in FILES)
    walk = latency._Walk(tmp_path)
    walk.armed = True
    threading.setprofile(walk.profile)
    sys.setprofile(walk.profile)
    try:
        watcher = threading.Thread(target=tray.watch, args=(reader.read,))
        watcher.start()  # a poll that falls inside the walk
        watcher.join()
        press.go(reader.read)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    tree = len(str(tmp_path.resolve())) + 1
    assert [(c.callee[tree:], c.function) for c in walk.calls] == [
        ("firmware/press.py", "go"), ("hal/reader.py", "read")]
