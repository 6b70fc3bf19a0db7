"""A request's bad field, said in the language the request asked for.

`firmware.api.schema` names what is wrong with a field by a key (the ``field.*`` keys
below, merged into `firmware.words.messages.MESSAGES`) and its values; the API answers it
as "<field> <problem>", worded here once. Field names stay the API's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class _Words(Protocol):  # firmware.words.messages.Words (not imported: it imports this module)
    lang: str

    def __call__(self, key: str, **values: object) -> str: ...


def _kind(kind: str, words: _Words) -> str:
    try:
        return words(f"field.kind.{kind}")
    except KeyError:  # a type the catalog does not name keeps its schema name
        return kind


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
        "field.card": "is not a card: {value}",
        "field.not_json": "body is not valid JSON (line {line}, column {column})",
        "field.not_text": "body is not UTF-8",
        "field.too_deep": "body is nested too deeply",
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
        "field.card": "ist keine Karte: {value}",
        "field.not_json": "Die Anfrage ist kein gültiges JSON (Zeile {line}, Spalte {column})",
        "field.not_text": "Die Anfrage ist nicht in UTF-8 geschrieben",
        "field.too_deep": "Die Anfrage ist zu tief verschachtelt",
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


def shown(value: Any) -> str:
    """A bad `value` as its problem shows it: its repr, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def say_invalid(field: str | None, key: str, values: Mapping[str, Any], words: _Words) -> str:
    """A bad field's problem (`schema.Invalid`: its key and values) in `words`' language."""
    said = dict(values)
    if "kinds" in said:  # JSON Schema's type names, said in the answer's language
        said["kinds"] = words("field.or").join(_kind(kind, words) for kind in values["kinds"])
    if "choices" in said:
        said["choices"] = ", ".join(map(repr, values["choices"]))
    problem = words(key, **said)
    return problem if field is None else words("field.named", field=field, problem=problem)
