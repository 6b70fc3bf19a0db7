"""Plays of several cards, and towers, on the card pad: Discard All's other cards are
tapped after it until its player's own button; holding the four towers, the cards laid
down are tapped one by one; the towers a card takes are tapped by their tags. Each
refusal changes nothing and the play still waits. The tags on the pile are rebuilt from
the journal after a restart."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.api import requests as api
from firmware.sim.demo import DECLARATIONS
from firmware.sim.testbed import SimTable
from firmware.sim.world import pad_deck
from hal.sim.pad import chip_uid
from tests.firmware.pad_taps import (
    NAMES,
    actions,
    fits,
    number_card,
    part_status,
    refused,
    tap,
    turn,
)
from uno_core.cards import COLOUR_NAMES
from uno_core.matching import free_towers


def colour_now(table) -> str:
    return str(table.call(lambda: table.controller.state.colour))


def free_tag(table, code: str) -> str:
    """A tag of `code` the pad has not laid on the pile."""
    on_pile = table.call(lambda: set(table.controller.lookup("pad").on_pile))
    return next(uid for uid in table.world.pad_sim.tags_of(code) if uid not in on_pile)


def unseen_numbers(table, edition: str, colour: str, *, plain: bool = False) -> list[str]:
    """Number cards of `colour` with a copy nobody has seen yet (`plain`: no tower)."""
    unseen = table.call(lambda: table.controller.state.unseen)
    out = []
    for code in dict.fromkeys(pad_deck(edition)):
        card = U.parse_card(code)
        if card.kind == "#" and card.colour == colour and unseen.get(card, 0) > 0 \
                and not (plain and code[-1] in "UNO!"):
            out.append(code)
    return out


def press(table, seat: int):
    """Press `seat`'s button; what the table says."""
    since = len(table.events)
    table.world.seats_sim.press_seat(seat)
    said = table.wait_for_event(lambda e: e.get("kind") in ("action", "refused", "pad_waits"),
                                since=since)
    table.settle()
    return said


# -- Discard All ---------------------------------------------------------------------------
def test_discard_all_lays_the_cards_tapped_after_it_until_its_players_own_button(tmp_path):
    with SimTable(tmp_path, "attack", pad=True) as table:
        seat = turn(table)["waiting"]["seat"]
        colour = colour_now(table)
        name = COLOUR_NAMES[colour]
        discard_all = f"{colour}DA"
        said = tap(table, free_tag(table, discard_all))
        assert said["kind"] == "pad_waits" and said["wants"] == "cards"
        assert said["message"] == (f"{NAMES[seat]}: tap the other {name} cards the {name} "
                                   "Discard All lays, one after another, then press your own "
                                   "button")
        one, two, three = unseen_numbers(table, "attack", colour)[:3]
        read = tap(table, free_tag(table, one))  # shown on the screen, not said
        assert read["kind"] == "pad_read" and read["message"] == f"{NAMES[seat]}: 1 tapped"
        # two at once: the rules lay several cards here
        assert tap(table, free_tag(table, two), free_tag(table, three))["kind"] == "pad_read"
        assert sorted(part_status(table)["waits"]["laid"]) == [one, two, three]  # (read order)
        played = press(table, seat)
        assert played["kind"] == "action" and played["action"]["card"] == discard_all
        assert sorted(played["action"]["laid"]) == [one, two, three]
        by = actions(table)[-1].payload["by"]
        assert by["via"] == "pad" and len(by["tags"]) == 4
        assert table.state()["top"] == discard_all


def test_discard_all_refuses_what_it_cannot_lay_and_still_waits(tmp_path):
    with SimTable(tmp_path, "attack", pad=True) as table:
        seat = turn(table)["waiting"]["seat"]
        colour = colour_now(table)
        discard_all = f"{colour}DA"
        uid = free_tag(table, discard_all)
        tap(table, uid)
        other = next(c for c in "RGBY" if c != colour)
        reason = refused(table, free_tag(table, unseen_numbers(table, "attack", other)[0]))
        assert "Discard All" in reason  # the engine's reason: another colour
        one = free_tag(table, unseen_numbers(table, "attack", colour)[0])
        assert tap(table, one)["kind"] == "pad_read"
        assert refused(table, one) == "that card is already on the pile"  # laid already
        assert "tap the wild first" in refused(table, chip_uid(colour))
        # the Discard All itself again: the play starts anew
        assert tap(table, uid)["kind"] == "pad_waits"
        assert part_status(table)["waits"] == {"seat": seat, "card": discard_all,
                                               "wants": "cards", "towers": [], "laid": []}
        played = press(table, seat)  # nothing else of its colour: Discard All alone
        assert played["kind"] == "action" and "laid" not in played["action"]


def test_another_seats_button_does_not_end_a_discard_all(tmp_path):
    with SimTable(tmp_path, "attack", pad=True) as table:
        seat = turn(table)["waiting"]["seat"]
        discard_all = f"{colour_now(table)}DA"
        tap(table, free_tag(table, discard_all))
        before = len(actions(table))
        said = press(table, (seat + 1) % 4)  # (it would call UNO or catch: nothing to)
        assert said["kind"] == "refused" and len(actions(table)) == before
        assert part_status(table)["waits"]["wants"] == "cards"


def test_the_screen_may_still_declare_a_discard_all_the_pad_waits_for(tmp_path):
    with SimTable(tmp_path, "attack", pad=True) as table:
        seat = turn(table)["waiting"]["seat"]
        colour = colour_now(table)
        discard_all = f"{colour}DA"
        tap(table, free_tag(table, discard_all))
        one = unseen_numbers(table, "attack", colour)[0]
        answer = table.submit(api.Play(seat, discard_all, {"cards": [one]}))
        assert answer["accepted"]["laid"] == [one]
        table.settle()
        assert part_status(table)["waits"] is None  # the pad waits no more
        assert "by" not in actions(table)[-1].payload  # the screen's (the owner's) play


# -- towers --------------------------------------------------------------------------------
def test_a_card_that_takes_towers_waits_for_the_towers_tapped(tmp_path):
    with SimTable(tmp_path, "power", pad=True) as table:
        seat = turn(table)["waiting"]["seat"]
        free = table.call(lambda: free_towers(table.controller.state, seat))
        assert len(free) > 2  # a choice to make (seed 1: the towers stand neutral)
        tags = table.world.tray_sim.towers
        take2 = f"{colour_now(table)}T2"
        uid = free_tag(table, take2)
        said = tap(table, uid)
        assert said["kind"] == "pad_waits" and said["wants"] == "towers"
        assert said["message"].startswith(f"{NAMES[seat]}: tap on the pad the towers the ")
        first, second = free[0], free[1]
        again = tap(table, tags[first])
        assert again["wants"] == "towers" and again["message"].endswith(
            "1 of " + ", ".join("exclamation mark" if t == "!" else t for t in free[1:]))
        assert refused(table, tags[first]).startswith(f"tower {first} cannot be taken now")
        played = tap(table, tags[second])
        assert played["kind"] == "action" and played["action"]["towers"] == [first, second]
        assert actions(table)[-1].payload["by"]["tags"] == [uid]  # the card's: towers stay


def test_a_tower_tapped_when_no_card_takes_one_is_refused(tmp_path):
    with SimTable(tmp_path, "power", pad=True) as table:
        turn(table)
        reason = refused(table, table.world.tray_sim.towers["U"])
        assert reason == "a tower answers a card that takes towers: tap that card first"


# -- the four-tower discard ----------------------------------------------------------------
def capture_all_towers(table) -> int:
    """Tap plays until one seat holds the four towers: it plays the symbol cards of the
    towers it lacks, the others plain numbers, all of one colour. That seat."""
    st = turn(table)
    taker = st["waiting"]["seat"]
    colour = colour_now(table)
    while st["waiting"]["kind"] != "four-towers":
        seat = st["waiting"]["seat"]
        lacking = table.call(lambda: free_towers(table.controller.state, taker))
        pool = [c for c in unseen_numbers(table, "power", colour)
                if (c[-1] in lacking if seat == taker else c[-1] not in "UNO!")]
        code = next(c for c in pool if fits(table, seat, c))
        assert tap(table, free_tag(table, code))["kind"] == "action"
        st = table.settle()
        while st["waiting"]["kind"] == "tower":  # the tray sees the captured tower moved
            table.world.move_tower(st["waiting"]["tower"], st["waiting"]["slot"])
            st = table.wait_for(lambda s: s["waiting"]["kind"] != "tower")
    assert st["waiting"]["seat"] == taker
    return taker


def test_holding_the_four_towers_the_cards_laid_down_are_tapped_one_by_one(tmp_path):
    with SimTable(tmp_path, "power", pad=True) as table:
        seat = capture_all_towers(table)
        count = table.call(lambda: table.controller.state.counts[seat])
        cards = unseen_numbers(table, "power", "R", plain=True)[:count - 1]
        assert "tap the wild first" in refused(table, chip_uid("R"))
        said = tap(table, free_tag(table, cards[0]))
        if count > 2:
            assert said["kind"] == "pad_waits" and said["message"] == (
                f"{NAMES[seat]}: {count - 2} more to lay down with the four towers: tap them "
                "one after another")
            for code in cards[1:-1]:
                assert tap(table, free_tag(table, code))["kind"] == "pad_read"
            said = tap(table, free_tag(table, cards[-1]))
        assert said["kind"] == "action" and said["action"]["type"] == "four_tower_discard"
        assert said["action"]["laid"] == cards
        entry = actions(table)[-1].payload
        assert entry["by"]["via"] == "pad" and len(entry["by"]["tags"]) == count - 1
        assert table.call(lambda: table.controller.state.counts[seat]) == 1


# -- the pile's tags across a restart --------------------------------------------------------
def test_a_restarted_table_still_refuses_a_card_the_pad_laid_on_the_pile(tmp_path):
    table = SimTable(tmp_path, "classic", pad=True)
    try:
        seat = turn(table)["waiting"]["seat"]
        card = number_card(table, seat, fitting=True)
        uid = table.world.pad_sim.tag_of(card)
        assert tap(table, uid)["kind"] == "action"
        table.settle()
        held = table.call(table.controller.journaled_view)
    finally:
        table.stop()
    again = SimTable(tmp_path, "classic", pad=True)
    try:
        assert again.call(again.controller.journaled_view) == held  # on_pile among it
        assert uid in held["on_pile"]
        turn(again)
        assert refused(again, uid) == "that card is already on the pile"
    finally:
        again.stop()


# -- whole matches -------------------------------------------------------------------------
@pytest.mark.parametrize("edition", tuple(U.EDITIONS))
def test_a_whole_match_of_every_edition_is_declared_through_the_pad_alone(edition, tmp_path):
    """With house rules (jump-ins, the 7-0 swaps), to a small target score: every play
    and four-tower discard tapped, none through the API, the world and the referee
    agreeing."""
    options = {"target_score": 300, "jump_in": True, "seven_zero": True}
    with SimTable(tmp_path, edition, pad=True, options=options) as table:
        st = table.play_until(lambda s: s["waiting"]["kind"] == "match-over", max_steps=20000)
        declared = [e.payload for e in actions(table) if e.payload["type"] in DECLARATIONS]
        assert st["stats"]["rounds"] >= 1 and declared
        assert {(p.get("by") or {}).get("via") for p in declared} == {"pad"}
        assert table.world.agree, table.world.mismatches
        assert part_status(table)["refused"] == 0


# -- jump-ins --------------------------------------------------------------------------------
def test_a_uno_call_by_its_button_opens_no_jump_in_window(tmp_path):
    """The seat open to a catch calls UNO with its button: that press is all it does, so
    the seat to act's tap of the top card's twin right after is the seat to act's play."""
    options = {"jump_in": True}
    with SimTable(tmp_path, "attack", pad=True, forget_uno=1.0, options=options) as table:
        def twin_free(st) -> bool:
            top = U.parse_card(st["top"])  # a number: its play asks for nothing more
            return top.kind == "#" and table.call(
                lambda: table.controller.state.unseen.get(top, 0)) > 0

        st = table.play_until(lambda s: s.get("uno_exposed") is not None
                              and s["waiting"]["kind"] == "turn" and twin_free(s))
        exposed, to_act = st["uno_exposed"], st["waiting"]["seat"]
        since = len(table.events)
        said = press(table, exposed)
        assert said["kind"] == "action" and said["action"]["type"] == "call_uno"
        played = tap(table, free_tag(table, st["top"]))
        assert played["kind"] == "action" and played["action"]["seat"] == to_act
        assert not [e for e in table.events[since:] if e.get("wants") == "jump"]
