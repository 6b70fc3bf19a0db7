import pytest

from uno_core import EDITIONS, OPTION_SPECS, OptionError, make_options, new_match


def test_seed_defaults():
    classic = make_options(EDITIONS["classic"])
    assert classic.draw_then_play is False
    assert classic.wild_draw4_restricted is False
    assert classic.wild_draw4_points == 70
    assert classic.target_score == 500 and classic.scoring == "winner_takes"
    assert make_options(EDITIONS["power"]).wild_draw4_restricted is True
    assert make_options(EDITIONS["attack"]).skip_reverse_extra_turn == "two-player"
    assert make_options(EDITIONS["extreme"]).draw_then_play is True
    assert classic.forgotten_uno == "at_play"  # 002: UNO is said before the card
    assert {make_options(EDITIONS[e]).forgotten_uno for e in EDITIONS if e != "classic"} == {
        "catch"}  # 000's catch window


def test_official_alternatives_can_be_chosen():
    opts = make_options(EDITIONS["classic"], {"draw_then_play": True,
                                             "wild_draw4_restricted": True,
                                             "wild_draw4_points": 50})
    assert (opts.draw_then_play, opts.wild_draw4_restricted, opts.wild_draw4_points) == (
        True, True, 50)


@pytest.mark.parametrize(
    ("edition", "overrides", "name"),
    [
        ("classic", {"stacking": True}, "stacking"),
        ("classic", {"draw_then_play": "yes"}, "draw_then_play"),
        ("classic", {"target_score": 0}, "target_score"),
        ("classic", {"target_score": True}, "target_score"),
        ("attack", {"skip_reverse_extra_turn": "never"}, "skip_reverse_extra_turn"),
        ("classic", {"skip_reverse_extra_turn": "always"}, "skip_reverse_extra_turn"),
        ("power", {"scoring": "highest"}, "scoring"),
        ("classic", {"forgotten_uno": "never"}, "forgotten_uno"),
        ("classic", {"forgotten_uno": True}, "forgotten_uno"),
    ],
)
def test_bad_options_are_rejected_by_name(edition, overrides, name):
    with pytest.raises(OptionError) as err:
        new_match(edition, 2, overrides)
    assert err.value.name == name
    assert repr(name) in str(err.value)


def test_every_option_is_documented():
    for spec in OPTION_SPECS.values():
        assert spec.doc
