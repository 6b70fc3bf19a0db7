"""Request -> engine action, on its own: what a request says becomes the engine's
action for the right seat, or a clear refusal that changes nothing."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.api import requests as api
from firmware.controller.actions import press_action
from firmware.errors import Rejected


def requesting(make_table, state, **kw):
    return make_table(state, "seats", "requests", "ejections", **kw)


def test_a_colour_is_named_in_words_and_reaches_the_engine_as_its_letter(make_table):
    s = U.position("classic", counts=[5, 5, 5, 5], discard="R5", turn=2, mode="table")
    table = requesting(make_table, s)
    out = table.requests.submit(api.Decide(2, "colour", color="blue"))
    assert table.accepted == [U.ChooseColour(2, "B")]
    assert out["accepted"] == U.action_to_dict(U.ChooseColour(2, "B"))
    table.requests.submit(api.Play(2, "W", {"color": "green"}))
    assert table.accepted[-1] == U.Play(2, U.parse_card("W"), colour="G")


def test_a_seat_the_table_does_not_have_is_refused_and_nothing_is_written(make_table):
    s = U.position("classic", counts=[5, 5, 5], discard="R5", turn=0, mode="table")
    table = requesting(make_table, s, seats=3)
    with pytest.raises(Rejected) as refused:
        table.requests.submit(api.Catch(1, 5))
    assert (refused.value.key, refused.value.values, refused.value.field,
            refused.value.status) == ("refused.no_seat", {"value": 6, "last": 3}, "target", 404)
    with pytest.raises(Rejected) as refused:
        table.requests.submit(api.Decide(0, "fold"))
    assert (refused.value.key, refused.value.values["decision"], refused.value.status) == (
        "refused.decision", "'fold'", 400)
    assert table.accepted == [] and list(table.journal.entries()) == []


def test_the_dealer_is_chosen_once_every_seat_turned_a_card(make_table):
    s = U.new_match("classic", 3, mode=U.TABLE)
    table = requesting(make_table, s, seats=3)
    assert table.requests.submit(api.Reveal("R1", seat=0)) == {"missing": [1, 2], "step": 0}
    assert table.requests.submit(api.Reveal("G9", seat=2)) == {"missing": [1], "step": 0}
    assert [e.kind for e in table.journal.entries()] == ["dealer_card", "dealer_card"]
    table.requests.submit(api.Reveal("B4", seat=1))
    cards = tuple(U.parse_card(c) for c in ("R1", "B4", "G9"))
    assert table.accepted == [U.DealerCards(cards)]
    with pytest.raises(Rejected) as refused:
        table.requests.submit(api.Reveal("R2"))
    assert refused.value.key == "refused.dealer_seat"


def test_the_first_card_is_said_only_once_the_launcher_turned_it(make_table):
    s = U.new_match("classic", 3, mode=U.TABLE)
    s, _ = U.apply(s, U.DealerCards(tuple(U.parse_card(c) for c in ("R1", "R2", "R9"))))
    s, _ = U.apply(s, U.Shuffle(()))
    assert (s.to_act, s.chance) == (U.CHANCE, "reveal")  # the deal is done
    table = requesting(make_table, s, seats=3)
    with pytest.raises(Rejected) as refused:
        table.requests.submit(api.Reveal("Y3"))
    assert refused.value.key == "refused.no_reveal"
    table.ejections.turned = True
    table.requests.submit(api.Reveal("Y3"))
    assert table.accepted == [U.Reveal(U.parse_card("Y3"))]


def test_nobody_presses_while_the_chance_player_is_to_act():
    s = U.new_match("classic", 3, mode=U.TABLE)
    with pytest.raises(Rejected) as refused:
        press_action(s)
    assert refused.value.key == "refused.no_press"
