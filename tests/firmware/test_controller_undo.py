"""Undo of a mistaken declaration: taken back while it is the last thing that happened
and moved nothing physical; refused with the reason (and no change) otherwise; the
journal keeps the undo, so a restart comes back to the same game."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.api import requests as api
from firmware.controller.undo import standing
from firmware.errors import Rejected
from firmware.sim.players import private_view
from firmware.sim.testbed import SimTable
from firmware.words.rejected import Phrase
from tests.firmware.conftest import post


def number_plays(table, st):
    """The number cards the seat to play could lay now (plays without physical effects)."""
    seat = st["waiting"]["seat"]
    world = table.world
    view = table.call(lambda: private_view(table.controller.state, seat, world.hands[seat], []))
    cards = {U.format_card(a.card) for a in U.legal_actions(view)
             if isinstance(a, U.Play) and a.seat == seat and not a.uno and a.card.kind == "#"}
    return sorted(cards)


def turn_with_two_number_plays(table):
    return table.play_until(lambda st: st["waiting"]["kind"] == "turn"
                            and len(number_plays(table, st)) >= 2)


def declare(table, seat, card):
    table.world.lay(seat, [card])  # the card is on the pile, then the seat declares it
    return table.submit(api.Play(seat, card))


def but_undo(st):
    return {k: v for k, v in st.items() if k != "undoable"}


def refused(table, request):
    before_seq, before = table.journal_seq, table.state()
    with pytest.raises(Rejected) as err:
        table.submit(request)
    assert table.journal_seq == before_seq and table.state() == before
    return err.value


@pytest.fixture
def table(tmp_path, mock_factory):
    t = SimTable(tmp_path, "classic", seed=3, factory=mock_factory)
    yield t
    t.stop()


def test_a_declaration_taken_back_leaves_the_table_as_before_and_another_card_is_played(table):
    before = turn_with_two_number_plays(table)
    seat = before["waiting"]["seat"]
    wrong, right = number_plays(table, before)[:2]
    declare(table, seat, wrong)
    st = table.settle()
    assert st["undoable"] == {"seat": seat, "card": wrong} and st["top"] == wrong
    assert table.submit(api.Undo(seat))["undone"] == {"seat": seat, "card": wrong, "laid": []}
    st = table.settle()
    assert but_undo(st) == but_undo(before)  # turn, counts, pile, stats: as before the play
    assert st["undoable"] is None  # one step back only
    assert table.events[-1]["kind"] == "undone"
    table.world.take_back(seat, [wrong])
    declare(table, seat, right)
    st = table.settle()
    assert st["top"] == right and st["hand_counts"][seat] == before["hand_counts"][seat] - 1
    assert st["waiting"]["seat"] != seat
    assert table.world.check(st) == []
    plays = [e.payload["card"] for e in standing(table.controller.journal.entries())
             if e.kind == "action" and e.payload["type"] == "play"]
    assert wrong not in plays[-2:] and plays[-1] == right


def test_undo_is_refused_once_the_next_player_acted_and_for_other_seats(table):
    st = turn_with_two_number_plays(table)
    seat = st["waiting"]["seat"]
    declare(table, seat, number_plays(table, st)[0])
    st = table.settle()
    other = st["waiting"]["seat"]
    err = refused(table, api.Undo(other))
    assert (err.status, err.key, err.values["other"]) == (409, "undo.not_yours", seat)
    table.world.seats_sim.press_launcher()  # the next player draws instead of playing
    st = table.settle()
    assert st["hand_counts"][other] > 0 and st["stats"]["launcher_presses"] >= 1
    assert st["undoable"] is None
    err = refused(table, api.Undo(seat))
    assert (err.status, err.key) == (409, "undo.went_on")


def test_undo_is_refused_after_a_play_that_dealt_cards(table):
    st = table.play_until(lambda st: st["waiting"]["kind"] == "turn" and any(
        c[1:] == "+2" for c in table.world.hands[st["waiting"]["seat"]])
        and st["waiting"]["seat"] is not None and _draw_two_playable(table, st))
    seat = st["waiting"]["seat"]
    card = _draw_two_playable(table, st)
    declare(table, seat, card)
    st = table.settle()  # the next seat was dealt two cards
    assert st["undoable"] is None
    err = refused(table, api.Undo(seat))
    assert (err.key, err.values["card"], err.values["why"]) == (
        "undo.fixed", U.parse_card(card), Phrase("undo.why.dealt"))


def _draw_two_playable(table, st):
    seat = st["waiting"]["seat"]
    view = table.call(lambda: private_view(table.controller.state, seat,
                                           table.world.hands[seat], []))
    return next((U.format_card(a.card) for a in U.legal_actions(view)
                 if isinstance(a, U.Play) and a.seat == seat and not a.uno
                 and U.format_card(a.card)[1:] == "+2"), None)


def test_an_undo_survives_a_restart(tmp_path):
    table = SimTable(tmp_path, "classic", seed=3)  # each run of the daemon: its own pins
    try:
        before = turn_with_two_number_plays(table)
        seat = before["waiting"]["seat"]
        wrong, right = number_plays(table, before)[:2]
        declare(table, seat, wrong)
        table.settle()
        table.submit(api.Undo(seat))
        table.world.take_back(seat, [wrong])
        undone = table.settle()
    finally:
        table.stop()
    again = SimTable(tmp_path, "classic", seed=3)
    try:
        st = again.settle()
        assert st == undone  # replay skips the declaration taken back
        assert but_undo(st) == but_undo(before)
        declare(again, seat, right)
        st = again.settle()
        assert st["top"] == right and again.world.check(st) == []
    finally:
        again.stop()
    # the game record leaves the declaration taken back out: replayed through the engine,
    # the same seat laying two cards in a row would be refused
    from firmware.commands.replay import game_records
    from firmware.journal.store import Journal

    with Journal.open(tmp_path / "journal.db", readonly=True) as journal:
        record = "".join(game_records(journal))
    assert right in record.strip().splitlines()[-1]


def test_undo_over_http(table):
    st = turn_with_two_number_plays(table)
    seat = st["waiting"]["seat"]
    card = number_plays(table, st)[0]
    status, body = post(table.url, "/api/undo", {"seat": 7})
    assert (status, body["error"], body["field"], body["key"], body["values"]) == (
        404, "rejected", "seat", "refused.no_seat", {"value": 8, "last": 4})
    status, body = post(table.url, "/api/undo", {})
    assert status == 400 and body["field"] == "seat"
    table.world.lay(seat, [card])
    assert post(table.url, "/api/play", {"seat": seat, "card": card})[0] == 200
    seq = table.journal_seq
    status, body = post(table.url, "/api/undo", {"seat": seat})
    assert status == 200 and body["result"]["undone"] == {"seat": seat, "card": card, "laid": []}
    assert table.journal_seq == seq + 1 and table.state()["top"] != card
    status, body = post(table.url, "/api/undo", {"seat": seat})  # only once
    assert status == 409 and body["error"] == "rejected"
    assert (body["key"], body["values"]["seat"]) == ("undo.not_yours", seat)
    assert table.journal_seq == seq + 1


def test_a_discard_all_taken_back_gives_every_laid_card_back(tmp_path, mock_factory):
    table = SimTable(tmp_path, "attack", seed=2, factory=mock_factory)
    try:
        def discard_all(st):
            if st["waiting"]["kind"] != "turn":
                return None
            seat = st["waiting"]["seat"]
            view = table.call(lambda: private_view(table.controller.state, seat,
                                                   table.world.hands[seat], []))
            return next((a for a in U.legal_actions(view) if isinstance(a, U.Play)
                         and a.seat == seat and a.laid and not a.uno), None)

        before = table.play_until(lambda st: discard_all(st) is not None)
        play = discard_all(before)
        seat, card = play.seat, U.format_card(play.card)
        laid = [U.format_card(c) for c in play.laid]
        table.world.lay(seat, [*laid, card])
        table.submit(api.Play(seat, card, {"cards": tuple(laid)}))
        st = table.settle()
        assert st["hand_counts"][seat] == before["hand_counts"][seat] - 1 - len(laid)
        undone = table.submit(api.Undo(seat))["undone"]
        assert undone == {"seat": seat, "card": card, "laid": laid}
        table.world.take_back(seat, [*laid, card])
        st = table.settle()
        assert but_undo(st) == but_undo(before) and table.world.check(st) == []
    finally:
        table.stop()
