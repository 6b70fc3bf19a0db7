"""The rules against a fault once planted in them and passed by every other test: an
extra turn offered to a hand that is empty (a Skip or Reverse as the last card)."""

import pytest

from tests.uno_core.scen import c, of, run
from uno_core import Pass, Play, legal_actions, position


@pytest.mark.parametrize("card", ["RS", "RR"])
@pytest.mark.parametrize("players, options", [
    (2, {}), (3, {"skip_reverse_extra_turn": "always"}),
], ids=["two players", "always"])
def test_a_skip_or_reverse_as_the_last_card_ends_the_round_with_no_extra_turn(
        card, players, options):
    hands = [card, "G5 B7", "B6 Y2"][:players]
    s = position("attack", hands=hands, discard="R7", options=options)
    s, fx = run(s, Play(0, c(card)))
    assert [p for p in of(fx, "prompt") if p.kind == "extra_play"] == []
    assert s.phase != "extra" and len(of(fx, "round_over")) == 1
    assert Pass(0) not in legal_actions(s)


def test_a_skip_with_cards_left_still_gives_the_extra_turn():
    s = position("attack", hands=["RS R1", "G5 B7", "B6 Y2"], discard="R7",
                 options={"skip_reverse_extra_turn": "always"})
    s, fx = run(s, Play(0, c("RS")))
    assert s.phase == "extra" and [p.kind for p in of(fx, "prompt")] == ["extra_play"]
