"""German as a German family speaks it: no English word, no API path, no "Karte(n)",
one word for each thing, and cards in the case their sentence asks for.

The English words come from the English side of the catalog itself, so a German text
that was left in English (or half translated) fails here whatever the message. Words
that German writes the same way are allowed by name below, each with its reason.
"""

from __future__ import annotations

import re
import string

import pytest

from firmware.words.messages import MESSAGES, Words, card_name, kind_noun, text
from uno_core import EDITIONS, parse_card

# Words the English catalog holds that German rightly writes the same way.
SAME_IN_GERMAN = {
    # the game, its maker and its editions' names (the box says „UNO Power", „UNO Attack")
    "uno", "mattel", "power", "attack", "extreme", "u", "n", "o",
    # card names the German Attack sheet (shared/seeds/001) keeps in English:
    # „Wild Hit 4", „Wild Attack-Attack", „Wild Hit Fire", „Wild All Hit", „Hit 2"
    "wild", "hit", "fire", "all",
    # German words spelt like English ones
    "alarm", "also", "an", "bluff", "bots", "chip", "code", "hand", "hardware", "in", "journal",
    "links", "null", "party", "pause", "plus", "start", "was", "so",
    # the unit of seconds („20 s"), the program and its command („unotable lan"), the
    # address the page is opened at („/#token=…")
    "s", "unotable", "lan", "token",
    # the names of the formats a request's body is written in („kein gültiges JSON“, „UTF-8“)
    "json", "utf",
}
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+")
# what the page and the voice must never show in German
FORBIDDEN = {
    "an alternative in brackets, like Karte(n)": re.compile(r"\w\(\w{1,3}\)"),
    "alternatives with a slash, like Turm/Türme": re.compile(r"\w/\w"),
    "an API path": re.compile(r"/api/|\bPOST\b|\bGET\b"),
    "a straight quote instead of „…“": re.compile(r"\""),
}
# one thing, one word: the word the catalog uses, and the ones it must not use for it
ONE_WORD = {
    "der neutrale Platz": re.compile(r"\bMitte\b"),
    "anzweifeln": re.compile(r"[Hh]erausforder"),
    "UNO": re.compile(r"\bUno\b"),
    "Kartengeber": re.compile(r"\bGeber\b"),
}


def bare(template: str) -> str:
    """`template` without its placeholders (their values are checked where they come from)."""
    return "".join(literal for literal, _, _, _ in string.Formatter().parse(template))


def english_words() -> set[str]:
    return {w.lower() for t in MESSAGES["en"].values() for w in WORD.findall(bare(t))}


# a command the person types, quoted („unotable demo --serve --lan“): its words are the program's
COMMAND = re.compile(r"„unotable [^“]*“")


def test_no_german_text_holds_a_word_of_the_english_catalog():
    english = english_words() - SAME_IN_GERMAN
    leaks = {key: sorted(w for w in WORD.findall(COMMAND.sub("", bare(t))) if w.lower() in english)
             for key, t in MESSAGES["de"].items()}
    assert {k: w for k, w in leaks.items() if w} == {}


@pytest.mark.parametrize("what", sorted(FORBIDDEN))
def test_no_german_text_holds(what):
    found = {key: t for key, t in MESSAGES["de"].items() if FORBIDDEN[what].search(bare(t))}
    assert found == {}


@pytest.mark.parametrize("word", sorted(ONE_WORD))
def test_one_thing_has_one_german_word(word):
    found = {key: t for key, t in MESSAGES["de"].items() if ONE_WORD[word].search(t)}
    assert found == {}, f"say {word!r}"


def test_a_card_takes_the_case_its_sentence_asks_for():
    red_7, wild = card_name(parse_card("R7"), "de"), card_name(parse_card("W"), "de", "attack")
    assert text("de", "protected", tower="U", seat="Süd", card=red_7) == \
        "Turm U schützt Süd vor der roten 7."
    assert text("de", "card_played", seat="Süd", card=wild) == "Süd legt eine Joker-Karte."
    assert text("de", "refusal.lays_none", card=red_7) == \
        "Mit der roten 7 legt man keine anderen Karten ab"
    assert text("de", "refusal.no_target", card=red_7) == "Die rote 7 hat kein Ziel"
    assert text("de", "protected", tower="N", seat="Ost", card=kind_noun("+2", "de")) == \
        "Turm N schützt Ost vor der Zieh-2-Karte."
    assert f"{red_7:dat}" == "roter 7" and str(red_7) == "rote 7"  # the screen's name
    assert text("en", "protected", tower="U", seat="South", card=card_name(parse_card("R7"), "en")) \
        == "Tower U protects South from red 7."


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_card_of_every_edition_declines(edition):
    for card in EDITIONS[edition].deck:
        name = card_name(card, "de", edition)
        assert f"{name:the_dat}".startswith("der ") and f"{name:a}".startswith("eine ")
        if card.colour:  # the colour's ending follows the article: „der roten", „roter"
            assert f"{name:the_dat}".split()[1].endswith("en"), name
            assert f"{name:dat}".split()[0].endswith("er"), name


def test_the_neutral_place_takes_the_case_its_sentence_asks_for():
    words = Words("de")
    neutral = words("slot.neutral")
    assert words("wait.tower", tower="U", slot=neutral) == "Turm U auf den neutralen Platz stellen"
    assert words("alarm.stands", tower="O", slot=neutral, expected="Süd") == \
        "Turm O steht ohne Eroberung auf dem neutralen Platz: zurück auf Süd"
    # a seat's name stays as it is in every case
    assert words("alarm.stands", tower="O", slot="Süd", expected=neutral) == \
        "Turm O steht ohne Eroberung auf Süd: zurück auf den neutralen Platz"


def test_the_page_renders_only_forms_it_is_given():
    """The page's `t` fills "{slot:acc}" from a value `forms` made, and a card's bare name
    otherwise: a page text asks no case form of a card (the page has only its bare name)."""
    asks = {key: t for key, t in MESSAGES["de"].items()
            if key.startswith("page.") and re.search(r"\{(card|cards|top|same|kind):", t)}
    assert asks == {}


# texts a message puts inside another sentence (after a colon, as its object), where a
# German sentence goes on in lowercase; every other text begins with a capital
FRAGMENTS = ("role.what.", "wait.what.", "refusal.chance.", "refusal.unit.", "refusal.or_",
             "refusal.the_table", "slot.", "field.", "option.", "undo.why.", "card.", "resume",
             "page.did.", "page.need_", "page.hw.state.", "page.one_card", "page.end.went_out",
             "page.neutral_spot", "neutral", "button.seat", "refused.option.",
             "refused.setup.")


def test_a_german_text_that_stands_alone_begins_with_a_capital():
    lower = {key: t for key, t in MESSAGES["de"].items()
             if not key.startswith(FRAGMENTS) and bare(t)[:1].islower()}
    assert lower == {}
