"""The message catalog: both languages complete, card names from the seeds' words."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import uno_core
from firmware.words import messages as M
from uno_core.cards import KIND_NAMES, TOWERS, Card, parse_card

DOC = Path(__file__).parents[2] / "docs" / "voice.md"


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def test_every_message_exists_in_both_languages_with_the_same_placeholders():
    assert set(M.MESSAGES) == set(M.LANGUAGES) == {"en", "de"}
    en, de = M.MESSAGES["en"], M.MESSAGES["de"]
    assert set(en) == set(de)
    different = {key: (placeholders(en[key]), placeholders(de[key])) for key in en
                 if placeholders(en[key]) != placeholders(de[key])}
    assert different == {}


def test_every_card_kind_colour_and_tower_has_a_name_in_both_languages():
    for lang in M.LANGUAGES:
        assert set(M.KINDS[lang]) == set(KIND_NAMES)
        assert set(M.COLOURS[lang]) == set(M.CARD_COLOURS[lang]) == set(uno_core.cards.COLOURS)
        assert all(M.tower_name(t, lang).strip() for t in TOWERS)


@pytest.mark.parametrize("edition", sorted(uno_core.EDITIONS))
def test_an_edition_renames_only_cards_of_its_own_deck(edition):
    kinds = {card.kind for card in uno_core.get_edition(edition).deck}
    for lang in M.LANGUAGES:
        assert set(M.EDITION_KINDS[lang].get(edition, {})) <= kinds
        for card in set(uno_core.get_edition(edition).deck):
            assert M.card_name(card, lang, edition)  # every card of the deck can be said


def test_german_card_names_per_edition():
    assert M.card_name(parse_card("W+4"), "de", "classic") == "Zieh-4-Farbenwahl-Karte"
    assert M.card_name(parse_card("W+4"), "de", "power") == "Zieh-4-Farbenwahl-Karte"
    assert M.card_name(parse_card("RH2"), "de", "extreme") == "rote Zweimal-drücken-Karte"
    assert M.card_name(parse_card("YS"), "de", "classic") == "gelbe Aussetzen-Karte"
    assert M.card_name(parse_card("BR"), "de") == "blaue Retour-Karte"
    assert M.card_name(parse_card("G4O"), "en") == "green 4 with tower O"
    assert M.card_name(parse_card("W"), "en", "classic") == "Wild"


def test_an_unknown_language_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown language 'fr' \\(known: en, de\\)"):
        M.text("fr", "turn", seat="North")


def _doc_rows() -> list[list[str]]:
    """The card-name table of docs/voice.md: kind | editions | English | German | seed."""
    text = DOC.read_text()
    table = text[text.index("| kind |"):].split("\n\n")[0].splitlines()[2:]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in table]


def _words(text: str) -> list[str]:
    return re.sub(r"[\s\-„“\"«»]+", " ", text).strip().lower().split()


def _in_order(words: list[str], quote: list[str]) -> bool:
    """Every word of `words` is in `quote`, in that order ("Hände tauschen" in „die Hände
    zu tauschen")."""
    rest = iter(quote)
    return all(word in rest for word in words)


def test_docs_voice_lists_every_german_card_name_with_the_seed_it_quotes():
    rows = _doc_rows()
    documented = {}
    for kind, editions, english, german, seed in rows:
        kind = kind.strip("`")
        assert english == M.KINDS["en"][kind]  # what the table says in English
        for edition in editions.split(", "):
            documented[(kind, edition)] = german
        assert _in_order(_words(german), _words(seed)), f"{german!r} is not in the quote {seed!r}"
    expected = {}
    for edition in uno_core.EDITIONS:
        for kind in {c.kind for c in uno_core.get_edition(edition).deck} - {uno_core.cards.NUMBER}:
            expected[(kind, edition)] = M.kind_name(kind, "de", edition)
    assert documented == expected


def test_a_card_name_is_the_same_card_for_every_interned_value():
    assert M.card_name(Card("R", "S"), "de") == M.card_name(parse_card("RS"), "de")


WEB = Path(__file__).parents[2] / "firmware" / "web"


def page_source() -> str:
    return "\n".join((WEB / name).read_text() for name in ("app.js", "rules.js", "index.html"))


def test_every_text_the_page_asks_for_is_in_both_languages_with_its_placeholders():
    js = page_source()
    keys = set(re.findall(r'"(page\.[\w.-]+)"', js))  # every catalog key the page names
    assert len(keys) >= 150
    for lang in M.LANGUAGES:
        assert keys <= set(M.MESSAGES[lang]), (lang, keys - set(M.MESSAGES[lang]))
    # t("key") or t("key", { name: ..., name }); t("key", values) passes a built object
    asked = re.findall(r'\bt\("([\w.-]+)"(?:, (\{[^}]*\}|[\w.]+))?', js)
    assert len(asked) >= 100
    for key, args in asked:
        if args and not args.startswith("{"):
            continue
        given = {a.split(":")[0].strip() for a in args.strip("{}").split(",") if a.strip()}
        for lang in M.LANGUAGES:
            assert placeholders(M.MESSAGES[lang][key]) <= given, (key, lang, given)


def test_the_catalog_holds_no_page_text_the_page_never_asks_for():
    js = page_source()
    # a key's case forms ("page.neutral_spot:dat") go with the key
    unused = {key for key in M.MESSAGES["en"]
              if key.startswith("page.") and f'"{key.split(":")[0]}"' not in js}
    assert unused == set()


def test_a_key_missing_from_the_catalog_fails_the_check(tmp_path):
    """The check above reads keys the way the page writes them: a new one is caught."""
    js = 'el.textContent = t("page.not_in_the_catalog", { n });'
    assert set(re.findall(r'"(page\.[\w.-]+)"', js)) - set(M.MESSAGES["de"]) == {
        "page.not_in_the_catalog"}


def test_the_screen_catalog_names_kinds_and_colours_in_the_language():
    de = M.screen_catalog("de")
    assert de["kinds"]["classic"]["S"] == "Aussetzen" and de["kinds"]["extreme"]["H2"] == "Zweimal drücken"
    assert de["colours"] == {"R": "Rot", "G": "Grün", "B": "Blau", "Y": "Gelb"}
    assert M.screen_catalog("en")["kinds"]["power"]["T2"] == "Take-2-Towers"


def test_an_accept_language_header_picks_one_of_the_tables_languages():
    assert M.asked_language("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert M.asked_language("en-GB, de;q=0.5") == "en"
    assert M.asked_language("fr, de;q=0.5, en;q=0.7") == "en"
    assert M.asked_language("fr") is None and M.asked_language("") is None
    assert M.asked_language("de;q=0, en;q=x") is None


@pytest.mark.parametrize(("value", "schema", "english", "german"), [
    (-1, {"type": "integer", "minimum": 0}, "count must be at least 0, not -1",
     "count: muss mindestens 0 sein, nicht -1"),
    (500, {"type": "integer", "maximum": 120}, "count must be at most 120, not 500",
     "count: darf höchstens 120 sein, nicht 500"),
    ("x", {"enum": ["a", "b"]}, "count must be one of 'a', 'b', not 'x'",
     "count: muss einer der Werte 'a', 'b' sein, nicht 'x'"),
    ("x", {"type": "integer"}, "count must be integer, not 'x'", "count: muss eine ganze Zahl sein, nicht 'x'"),
    ("x", {"type": ["integer", "null"]}, "count must be integer or null, not 'x'",
     "count: muss eine ganze Zahl oder leer sein, nicht 'x'"),
    ("", {"type": "string", "minLength": 1}, "count must not be empty", "count: darf nicht leer sein"),
    ("x" * 30, {"type": "string", "maxLength": 24}, "count must be at most 24 characters",
     "count: darf höchstens 24 Zeichen lang sein"),
    ("?", {"type": "string", "pattern": "^[a-z]+$"}, "count is not valid: '?'", "count: ist nicht gültig: '?'"),
    ([1, 2, 3], {"type": "array", "maxItems": 2}, "count must have at most 2 items",
     "count: darf höchstens 2 Einträge haben"),
    ({"a": 1, "b": 2}, {"type": "object", "maxProperties": 1}, "count must have at most 1 entries",
     "count: darf höchstens 1 Einträge haben"),
    ({}, {"type": "object", "required": ["seat"]}, "count.seat is required", "count.seat: fehlt"),
    ({"x": 1}, {"type": "object", "properties": {}, "additionalProperties": False},
     "count.x is not a known field", "count.x: ist kein bekanntes Feld"),
])
def test_every_bad_field_the_schema_names_is_said_in_english_and_german(value, schema, english, german):
    from firmware.api.schema import Invalid, validate
    from firmware.words.fields import say_invalid

    with pytest.raises(Invalid) as caught:
        validate(value, schema, "count")
    bad = caught.value
    assert say_invalid(bad.field, bad.key, bad.values, M.Words("en")) == english
    assert say_invalid(bad.field, bad.key, bad.values, M.Words("de")) == german


@pytest.mark.parametrize(("key", "values", "english", "german"), [
    ("field.card", {"value": "'R77'"}, "card is not a card: 'R77'", "card: ist keine Karte: 'R77'"),
    ("field.not_json", {"line": 1, "column": 2}, "body is not valid JSON (line 1, column 2)",
     "Die Anfrage ist kein gültiges JSON (Zeile 1, Spalte 2)"),
    ("field.not_text", {}, "body is not UTF-8", "Die Anfrage ist nicht in UTF-8 geschrieben"),
    ("field.too_deep", {}, "body is nested too deeply", "Die Anfrage ist zu tief verschachtelt"),
])
def test_a_problem_the_api_finds_beside_the_schema_is_worded_from_the_catalog_too(key, values, english, german):
    from firmware.words.fields import say_invalid

    field = "card" if key == "field.card" else None  # the body's own problems name no field
    assert say_invalid(field, key, values, M.Words("en")) == english
    assert say_invalid(field, key, values, M.Words("de")) == german


def test_no_problem_of_a_field_is_read_back_from_its_words():
    """The schema's problems are keys with values: the module that words them holds no
    regular expression to recognise a text by."""
    import firmware.words.fields as fields

    assert "import re" not in Path(fields.__file__).read_text()
