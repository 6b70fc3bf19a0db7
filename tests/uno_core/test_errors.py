"""IllegalAction names its rule by key and values (issue 23); its English is rendered
from uno_core.refusals only when read."""

import pickle

import pytest

from uno_core import IllegalAction, Play, parse_card, position
from uno_core import apply as apply_action
from uno_core.refusals import ENGLISH


def refusal() -> IllegalAction:
    s = position("classic", hands=["Y1 G5", "G2", "Y2"], discard="B4", turn=0)
    with pytest.raises(IllegalAction) as err:
        apply_action(s, Play(0, parse_card("G5")))
    return err.value


def test_a_refusal_carries_its_key_and_values_and_words_them_in_english():
    exc = refusal()
    assert exc.key == "no_match" and exc.key in ENGLISH
    assert exc.values == {"card": parse_card("G5"), "colour": "B", "top": parse_card("B4")}
    assert exc.rule == "G5 matches neither colour B nor B4"
    assert str(exc) == "illegal action play(seat=0, card=G5): G5 matches neither colour B nor B4"


def test_a_pickled_refusal_keeps_its_values():
    again = pickle.loads(pickle.dumps(refusal()))
    assert (again.key, again.values, again.rule) == ("no_match", refusal().values,
                                                      "G5 matches neither colour B nor B4")
