"""The config's numeric schema: every numeric option with its range, read from the
parsers themselves (`hal.config.recording_numbers`) rather than listed by hand, across
the variants a file can choose (edition, ejection model); and a config text with one
option set to a raw TOML value. docs/operations.md lists the same ranges; the tests and
bench/fuzz.py feed every option NaN, infinities and values out of its range."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import tomlkit

import uno_core
from firmware.config import DEFAULT_PATH, EDITIONS, check_config
from hal.config import NumberOption, recording_numbers
from hal.ejection import MODEL_NAMES
from uno_core.documents import load_document
from uno_core.options import OPTION_SPECS

_PLACEHOLDER = "@@value@@"
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def numeric_options(path: str | Path | None = None) -> list[NumberOption]:
    """Every numeric option reading `path` (default: the built-in config) meets: each
    number a section's parser asks for, recorded while the file is read, then the integer
    house rules of its edition under ``table.options`` (uno_core.options). A section the
    file leaves out, or a variant it does not choose, contributes nothing."""
    file = Path(path) if path is not None else DEFAULT_PATH
    with recording_numbers() as seen:
        check_config(file)
    table = load_document(file.read_text(encoding="utf-8"), "toml").get("table", {})
    edition = uno_core.get_edition(table.get("edition", "classic"))
    house = [NumberOption(f"table.options.{spec.name}", spec.minimum, spec.maximum, True)
             for spec in OPTION_SPECS.values()
             if spec.type is int and spec.name in edition.option_defaults]
    return list({option.key: option for option in [*seen, *house]}.values())


def variants(base: str | None = None) -> Iterator[str]:
    """The built-in config (or `base`) once per edition and ejection model."""
    text = base if base is not None else DEFAULT_PATH.read_text(encoding="utf-8")
    for edition in EDITIONS:
        for model in MODEL_NAMES:
            doc = tomlkit.parse(text)
            doc["table"]["edition"] = edition  # type: ignore[index]
            table = tomlkit.table()
            table["name"] = model
            if model == "table":
                table["probabilities"] = [0.5, 0.5]
            doc["launcher"]["model"] = table  # type: ignore[index]
            yield tomlkit.dumps(doc)


def schema(directory: Path) -> list[tuple[str, NumberOption]]:
    """(variant text, option) for every numeric option of every variant, each key once
    (the first variant that has it); `directory` holds the scratch file."""
    found: dict[str, tuple[str, NumberOption]] = {}
    scratch = directory / "variant.toml"
    for text in variants():
        scratch.write_text(text, encoding="utf-8")
        for option in numeric_options(scratch):
            found.setdefault(option.key, (text, option))
    return list(found.values())


def with_value(text: str, key: str, literal: str) -> str:
    """`text` with the option at dotted `key` (``tray.readers[0].baudrate``) set to the
    raw TOML `literal` (``nan``, ``1e400``, ``-1``), written as is."""
    doc = tomlkit.parse(text)
    steps = [int(index) if index else name for name, index in _STEP.findall(key)]
    holder = doc
    for step in steps[:-1]:
        holder = holder.setdefault(step, tomlkit.table()) if isinstance(step, str) else holder[step]
    holder[steps[-1]] = _PLACEHOLDER
    return tomlkit.dumps(doc).replace(f'"{_PLACEHOLDER}"', literal)
