import pytest

from uno_core import EDITIONS, Card, NotationError, format_card, parse_card, parse_cards
from uno_core.cards import NUMBER, WILD_DRAW4


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_card_of_every_edition_round_trips(edition):
    for card in set(EDITIONS[edition].deck):
        assert parse_card(format_card(card)) == card


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("R7", Card("R", NUMBER, 7)),
        ("G3!", Card("G", NUMBER, 3, "!")),
        ("B5U", Card("B", NUMBER, 5, "U")),
        ("B+2", Card("B", "+2")),
        ("YS", Card("Y", "S")),
        ("W+4", Card("", WILD_DRAW4)),
        ("WX", Card("", "WX")),
        ("RDA", Card("R", "DA")),
    ],
)
def test_notation_examples(text, card):
    assert parse_card(text) == card
    assert format_card(card) == text


@pytest.mark.parametrize("bad", ["", "X7", "R", "RQ", "R7Z", "W+5", "r7"])
def test_bad_notation_names_the_text(bad):
    with pytest.raises(NotationError) as err:
        parse_card(bad)
    assert repr(bad) in str(err.value)


def test_parse_cards_splits_on_spaces():
    assert parse_cards("R1 W") == (Card("R", NUMBER, 1), Card("", "W"))


def test_cards_are_interned_frozen_values():
    import copy
    import pickle

    card = parse_card("B+2")
    assert Card("B", "+2") is card and hash(card) == hash(parse_card("B+2"))
    assert copy.deepcopy(card) is card and pickle.loads(pickle.dumps(card)) is card
    with pytest.raises(AttributeError):
        card.colour = "R"  # type: ignore[misc]
    assert sorted(parse_cards("R7 B1 R2")) == sorted(parse_cards("R2 R7 B1"))
