from collections import Counter

import pytest

from uno_core import EDITIONS, SetupError, get_edition, parse_cards
from uno_core.cards import COLOURS


@pytest.mark.parametrize(
    ("name", "size", "players", "draw_mode"),
    [
        ("classic", 108, (2, 10), "pile"),
        ("power", 112, (2, 6), "pile"),
        ("attack", 112, (2, 10), "launcher"),
        ("attack-1999", 112, (2, 10), "launcher"),
        ("extreme", 112, (2, 10), "launcher"),
    ],
)
def test_deck_size_players_and_draw_mode(name, size, players, draw_mode):
    ed = EDITIONS[name]
    assert len(ed.deck) == size
    assert (ed.min_players, ed.max_players) == players
    assert ed.draw_mode == draw_mode


def _count(name, text):
    deck = Counter(EDITIONS[name].deck)
    return {t: deck[c] for t, c in zip(text.split(), parse_cards(text), strict=True)}


def test_classic_composition():
    assert _count("classic", "R0 R1 R9 R+2 RS RR W W+4") == {
        "R0": 1, "R1": 2, "R9": 2, "R+2": 2, "RS": 2, "RR": 2, "W": 4, "W+4": 4}


def test_power_composition_and_symbols():
    deck = EDITIONS["power"].deck
    assert _count("power", "R+1 R+2 RS RR RT2 WT1 W+4") == {
        "R+1": 2, "R+2": 2, "RS": 2, "RR": 1, "RT2": 1, "WT1": 4, "W+4": 4}
    numbers = [c for c in deck if c.kind == "#"]
    assert len(numbers) == 72 and {c.number for c in numbers} == set(range(1, 10))
    for colour in COLOURS:
        symbols = Counter(c.symbol for c in numbers if c.colour == colour and c.symbol)
        assert symbols == {"U": 2, "N": 2, "O": 2, "!": 2}


def test_attack_compositions():
    assert _count("attack", "BR BH2 BS BDA W WAA WC WH4") == {
        "BR": 1, "BH2": 2, "BS": 2, "BDA": 2, "W": 4, "WAA": 4, "WC": 3, "WH4": 1}
    assert _count("attack-1999", "BR BH2 BS BDA BTH W WAH WHF") == {
        "BR": 2, "BH2": 2, "BS": 2, "BDA": 1, "BTH": 1, "W": 4, "WAH": 2, "WHF": 2}


def test_extreme_composition():
    deck = EDITIONS["extreme"].deck
    assert sum(1 for c in deck if c.kind == "#") == 76
    assert _count("extreme", "Y0 Y5 YH2 YR YS YDA W WX") == {
        "Y0": 1, "Y5": 2, "YH2": 2, "YR": 1, "YS": 2, "YDA": 2, "W": 4, "WX": 4}


@pytest.mark.parametrize(
    ("name", "text", "points"),
    [
        ("classic", "R7 R+2 RS RR W W+4", [7, 20, 20, 20, 50, 70]),
        ("power", "R7U R+1 R+2 RS RR RT2 WT1 W+4", [7, 20, 20, 20, 20, 20, 50, 50]),
        ("attack", "R9 RR RS RH2 WH4 RDA W WAA WC", [9, 20, 20, 20, 40, 30, 50, 50, 50]),
        ("attack-1999", "RDA RTH WAH WHF", [30, 30, 50, 50]),
        ("extreme", "R0 RH2 RR RS RDA W WX", [0, 20, 20, 20, 30, 50, 50]),
    ],
)
def test_scoring_tables(name, text, points):
    ed = EDITIONS[name]
    assert [ed.card_points(c) for c in parse_cards(text)] == points


def test_unknown_edition_is_named():
    with pytest.raises(SetupError, match="'uno-flip'"):
        get_edition("uno-flip")


def test_every_edition_seats_fit_the_per_seat_tables():
    from uno_core.actions import MAX_SEATS

    assert all(ed.max_players <= MAX_SEATS for ed in EDITIONS.values())
