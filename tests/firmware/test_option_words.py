"""Every house rule the engine declares has a label and a one-line explanation in both
languages, and each of its choices a word (the set-up sheet shows them, not raw keys);
so do the presets and the editions. A new option without its words fails here, naming it."""

from __future__ import annotations

from firmware.words.messages import LANGUAGES, MESSAGES
from uno_core import EDITIONS
from uno_core.options import OPTION_SPECS, PRESETS


def needed() -> list[str]:
    keys = []
    for name, spec in OPTION_SPECS.items():
        keys += [f"option.{name}", f"option.{name}.help"]
        keys += [f"option.{name}.{choice}" for choice in spec.choices]
    keys += [k for p in PRESETS for k in (f"preset.{p}", f"preset.{p}.help")]
    keys += [f"edition.{e}" for e in EDITIONS]
    return keys


def test_every_option_choice_preset_and_edition_is_worded_in_both_languages():
    for lang in LANGUAGES:
        missing = [k for k in needed() if not MESSAGES[lang].get(k, "").strip()]
        assert missing == [], (lang, missing)


def test_the_words_are_words_not_keys_and_an_explanation_is_one_line():
    for lang in LANGUAGES:
        for key in needed():
            text = MESSAGES[lang][key]
            assert "_" not in text and "\n" not in text, (lang, key, text)
            if key.endswith(".help"):
                assert len(text) <= 110, (lang, key, len(text))  # one line on the sheet
    # German is German, not the English left in place
    same = [k for k in needed() if MESSAGES["de"][k] == MESSAGES["en"][k]
            and not k.startswith("option.wild_customizable.")]  # the Attack cards' own names
    assert same == ["preset.party"], same


def test_no_option_words_are_left_for_an_option_the_engine_no_longer_has():
    known = set(needed())
    for lang in LANGUAGES:
        stale = [k for k in MESSAGES[lang] if k.split(".")[0] in ("option", "preset", "edition")
                 and k not in known]
        assert stale == [], (lang, stale)
