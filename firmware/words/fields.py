"""A request's bad field, said in the language the request asked for (issue 14).

`firmware.api.schema` words what is wrong with a field in English ("must be at most
120, not 500"); the API answers it as "<field> <problem>". Each problem is recognised by
its pattern and said again from the catalog (``field.*`` keys, merged into
`firmware.words.messages.MESSAGES`); field names stay the API's. A problem no pattern knows
keeps its English.
"""

from __future__ import annotations

import re
from typing import Protocol


class _Words(Protocol):  # firmware.words.messages.Words (not imported: it imports this module)
    lang: str

    def __call__(self, key: str, **values: object) -> str: ...


def _kind(kind: str, words: _Words) -> str:
    try:
        return words(f"field.kind.{kind}")
    except KeyError:  # a type the catalog does not name keeps its schema name
        return kind


FIELD_RULES: list[tuple[re.Pattern[str], str]] = [(re.compile(p + r"\Z"), key) for p, key in [
    (r"must be at least (?P<limit>\S+), not (?P<value>.+)", "field.minimum"),
    (r"must be at most (?P<limit>\d+) characters", "field.max_length"),
    (r"must be at most (?P<limit>\S+), not (?P<value>.+)", "field.maximum"),
    (r"must be one of (?P<choices>.+), not (?P<value>.+)", "field.enum"),
    (r"must be (?P<kinds>[a-z ]+), not (?P<value>.+)", "field.type"),
    (r"must not be empty", "field.empty"),
    (r"is not valid: (?P<value>.+)", "field.pattern"),
    (r"must have at most (?P<limit>\d+) items", "field.max_items"),
    (r"must have at most (?P<limit>\d+) entries", "field.max_entries"),
    (r"is required", "field.required"),
    (r"is not a known field", "field.unknown"),
]]

FIELD_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "field.named": "{field} {problem}",
        "field.minimum": "must be at least {limit}, not {value}",
        "field.max_length": "must be at most {limit} characters",
        "field.maximum": "must be at most {limit}, not {value}",
        "field.enum": "must be one of {choices}, not {value}",
        "field.type": "must be {kinds}, not {value}",
        "field.empty": "must not be empty",
        "field.pattern": "is not valid: {value}",
        "field.max_items": "must have at most {limit} items",
        "field.max_entries": "must have at most {limit} entries",
        "field.required": "is required",
        "field.unknown": "is not a known field",
        "field.kind.object": "object",
        "field.kind.array": "array",
        "field.kind.string": "string",
        "field.kind.boolean": "boolean",
        "field.kind.integer": "integer",
        "field.kind.number": "number",
        "field.kind.null": "null",
        "field.or": " or ",
    },
    "de": {
        "field.named": "{field}: {problem}",
        "field.minimum": "muss mindestens {limit} sein, nicht {value}",
        "field.max_length": "darf höchstens {limit} Zeichen lang sein",
        "field.maximum": "darf höchstens {limit} sein, nicht {value}",
        "field.enum": "muss einer der Werte {choices} sein, nicht {value}",
        "field.type": "muss {kinds} sein, nicht {value}",
        "field.empty": "darf nicht leer sein",
        "field.pattern": "ist nicht gültig: {value}",
        "field.max_items": "darf höchstens {limit} Einträge haben",
        "field.max_entries": "darf höchstens {limit} Einträge haben",
        "field.required": "fehlt",
        "field.unknown": "ist kein bekanntes Feld",
        "field.kind.object": "ein Objekt",
        "field.kind.array": "eine Liste",
        "field.kind.string": "ein Text",
        "field.kind.boolean": "wahr oder falsch",
        "field.kind.integer": "eine ganze Zahl",
        "field.kind.number": "eine Zahl",
        "field.kind.null": "leer",
        "field.or": " oder ",
    },
}


def say_invalid(field: str | None, problem: str, words: _Words) -> str:
    """A bad field's `problem` (`schema.Invalid.message`) in `words`' language."""
    for pattern, key in FIELD_RULES:
        found = pattern.match(problem)
        if found is not None:
            values = found.groupdict()
            if "kinds" in values:  # JSON Schema's type names, said in the answer's language
                values["kinds"] = words("field.or").join(
                    _kind(kind, words) for kind in values["kinds"].split(" or "))
            problem = words(key, **values)
            break
    return problem if field is None else words("field.named", field=field, problem=problem)
