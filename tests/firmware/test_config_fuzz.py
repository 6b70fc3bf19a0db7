"""Property test: whatever a config file holds, checking it reports ConfigErrors naming a
key and never crashes; a file with no errors loads."""

from __future__ import annotations

import tomllib

import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.config import DEFAULT_PATH, check_config, load_config
from firmware.errors import ConfigError

DEFAULT = tomllib.loads(DEFAULT_PATH.read_text())
KEYS = {section: sorted(values) for section, values in DEFAULT.items()}

scalars = (st.booleans() | st.integers(-5, 70000) | st.floats(-1e3, 1e3, allow_nan=False)
           | st.text(max_size=6) | st.sampled_from(["/dev/ttyUSB0", "loop://", "COM1", "power", "neutral"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.text(min_size=1, max_size=5), inner, max_size=3), max_leaves=10)


@st.composite
def documents(draw):
    doc = {section: dict(table) if isinstance(table, dict) else table
           for section, table in DEFAULT.items()}
    for _ in range(draw(st.integers(1, 4))):
        section = draw(st.sampled_from([*KEYS, "extra"]))
        table = doc.setdefault(section, {})
        if not isinstance(table, dict):
            continue
        key = draw(st.sampled_from([*KEYS.get(section, []), "bogus"]))
        if draw(st.booleans()):
            table[key] = draw(values)
        else:
            table.pop(key, None)
    return doc


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents())
def test_any_document_is_checked_without_crashing(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("cfg") / "config.toml"
    path.write_text(tomlkit.dumps(doc))
    errors = check_config(path)
    assert all(isinstance(e, ConfigError) and e.key and e.message for e in errors)
    if not errors:
        load_config(path)
