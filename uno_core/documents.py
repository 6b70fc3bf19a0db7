"""Parsing a TOML or JSON document a person wrote (a scenario, the table's config), with
limits, so that no text makes the parser or a later error message raise:

- nesting: tomllib and json recurse once per level, and a document nested 100,000 deep
  ends in a RecursionError; anything deeper than `MAX_DEPTH` is refused;
- integers: Python refuses int() of a decimal string over 4300 digits (a ValueError),
  and str() of any int that long (hexadecimal TOML parses), which breaks every message
  that quotes the value; no field takes more than `MAX_INT_BITS` bits.

Every refusal is a `DocumentError` naming where: ``syntax`` says whether it is the text
(a line, the nesting) or one value (``where`` is then its dotted key, ``hands[2]``).
Pure: text in, values out.
"""

from __future__ import annotations

import json
import math
import tomllib
from typing import Any

from uno_core.record import FormatError

FORMATS = ("toml", "json")
MAX_DEPTH = 100  # tables and lists inside each other; real files nest 3 or 4 deep
MAX_INT_BITS = 64  # the largest number any field takes is a 63-bit seed


class DocumentError(FormatError):
    """The document is refused; ``syntax``: the text itself, else the value at ``where``."""

    def __init__(self, where: str, message: str, *, syntax: bool) -> None:
        super().__init__(where, message)
        self.syntax = syntax


def load_document(text: str, fmt: str) -> dict[str, Any]:
    """The table a TOML or JSON (one object) text holds, within the limits above."""
    label = fmt.upper()
    try:
        if fmt == "toml":
            data: Any = tomllib.loads(text)
        elif fmt == "json":
            data = json.loads(text)
        else:
            raise DocumentError("format", f"unknown format {fmt!r} (known: {', '.join(FORMATS)})",
                                syntax=True)
    except tomllib.TOMLDecodeError as exc:
        raise DocumentError(label, str(exc), syntax=True) from None
    except json.JSONDecodeError as exc:
        raise DocumentError(f"line {exc.lineno}", f"not JSON ({exc.msg}, column {exc.colno})",
                            syntax=True) from None
    except RecursionError:
        raise DocumentError(label, f"nested too deeply (more than {MAX_DEPTH} tables or lists "
                                   "inside each other)", syntax=True) from None
    except ValueError:  # int() of a decimal over 4300 digits
        raise DocumentError(label, "a number with more than 4300 digits: no field takes one",
                            syntax=True) from None
    if not isinstance(data, dict):
        raise DocumentError(label, "the document must be one object (a table)", syntax=True)
    _check_limits(data)
    return data


def _check_limits(data: dict[str, Any]) -> None:
    """Walk the document without recursing: refuse nesting over MAX_DEPTH and huge ints."""
    todo: list[tuple[str, Any, int]] = [("", data, 0)]
    while todo:
        where, value, depth = todo.pop()
        if depth > MAX_DEPTH:
            top = where.split("[")[0].split(".")[0]  # the deep path itself is no help
            raise DocumentError(top or "document", f"nested too deeply (more than {MAX_DEPTH} "
                                "tables or lists inside each other)", syntax=True)
        if isinstance(value, dict):
            todo.extend((f"{where}.{k}" if where else str(k), v, depth + 1)
                        for k, v in value.items())
        elif isinstance(value, list):
            todo.extend((f"{where}[{i}]", v, depth + 1) for i, v in enumerate(value))
        elif isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
            digits = math.floor(value.bit_length() * math.log10(2)) + 1
            raise DocumentError(where, f"is an integer of about {digits} digits: too large "
                                "for any field", syntax=False)
