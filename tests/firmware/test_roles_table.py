"""Who may do what, at the simulated table (issue 20): the controller refuses what the
sender's role may not do with 403 before anything changes, lets the rest through to the
rules, and journals who made each declaration (`unotable replay` shows it)."""

from __future__ import annotations

import dataclasses
import json

import pytest

import uno_core as U
from firmware.api import requests as api
from firmware.cli import main
from firmware.controller.declared import BY, engine_action
from firmware.errors import Rejected
from firmware.sim.players import TWIN, bot, private_view
from firmware.sim.testbed import SimTable
from firmware.words.rejected import Phrase

VIEWER = api.Who("viewer", via="viewer")
NAMES = ("North", "East", "South")  # the simulated table's seats, as messages name them


def seat(n: int) -> api.Who:
    return api.Who("seat", n, "phone")


def kinds_for(n: int, card: str) -> list[api.Request]:
    """One request of each kind a seat makes, all for seat `n`."""
    return [api.Play(n, card), api.CallUno(n), api.Undo(n), api.Catch(n, (n + 1) % 3),
            api.Challenge(n), api.Hands(n, (card,)), api.Decide(n, "pass"),
            api.Reveal(card, n)]


TABLE_WIDE = [api.Admin("new-match", {}), api.Admin("pause", {"reason": "pizza"}),
              api.Admin("resume", {}), api.Admin("override", {"kind": "clear-alarm"}),
              api.Reveal("R7")]


def as_(who: api.Who, request: api.Request) -> api.Request:
    return dataclasses.replace(request, by=who)


def number_plays(table, st):
    """The number cards the seat to play could lay now (no physical effects)."""
    s = st["waiting"]["seat"]
    world = table.world
    view = table.call(lambda: private_view(table.controller.state, s, world.hands[s], []))
    return sorted({U.format_card(a.card) for a in U.legal_actions(view)
                   if isinstance(a, U.Play) and a.seat == s and not a.uno
                   and a.card.kind == "#"})


def refused_403(table, request):
    """`request` is refused with 403, the table and its journal as they were: the
    refusal's key and values."""
    before_seq, before = table.journal_seq, table.state()
    with pytest.raises(Rejected) as err:
        table.submit(request)
    assert err.value.status == 403, (request, err.value.reason)
    assert table.journal_seq == before_seq and table.state() == before
    return err.value.key, err.value.values


def in_process(table):
    """The seated bots declare straight on the loop, as their seats (no HTTP, no token)."""
    table.bots.api_url = None
    return table


@pytest.fixture
def table(tmp_path, mock_factory):
    t = SimTable(tmp_path, "classic", 3, seed=3, factory=mock_factory)
    yield t
    t.stop()


def turn_with_a_number_play(table):
    return table.play_until(lambda st: st["waiting"]["kind"] == "turn"
                            and bool(number_plays(table, st)))


def test_what_a_role_may_not_do_is_refused_with_403_and_changes_nothing(table):
    st = turn_with_a_number_play(table)
    s = st["waiting"]["seat"]
    other = (s + 1) % 3
    card = number_plays(table, st)[0]
    for request in [*kinds_for(s, card), *TABLE_WIDE]:
        key, values = refused_403(table, as_(seat(other), request))
        assert key in ("role.for_itself", "role.owners_only") and values["seat"] == other
    for request in [*kinds_for(s, card), *kinds_for(other, card), *TABLE_WIDE,
                    api.NextRound()]:
        assert refused_403(table, as_(VIEWER, request))[0] == "role.watches"
    assert refused_403(table, as_(seat(other), api.Play(s, card))) == (
        "role.for_itself", {"seat": other, "other": s})
    assert refused_403(table, as_(seat(s), api.Admin("new-match", {}))) == (
        "role.owners_only", {"seat": s, "what": Phrase("role.what.new_match")})


def test_what_a_role_may_do_reaches_the_rules(table):
    """Refused or not, never by the role: the rules of the moment decide (409, 422)."""
    st = turn_with_a_number_play(table)
    s = st["waiting"]["seat"]
    other = (s + 1) % 3
    own = [r for r in kinds_for(other, "R0") if not isinstance(r, api.Reveal)]
    allowed = [(seat(other), r) for r in [*own, api.NextRound()]]
    allowed += [(api.OWNER, r) for r in [*kinds_for(other, "R0"), api.NextRound(),
                                         api.Reveal("R7"), api.Admin("resume", {})]]
    for who, request in allowed:
        with pytest.raises(Rejected) as err:
            table.submit(as_(who, request))
        assert err.value.status in (404, 409, 422), (who, request, err.value.reason)
    # and some are taken: the seat's own play, the owner's pause
    card = number_plays(table, st)[0]
    table.world.lay(s, [card])
    assert table.submit(api.Play(s, card, by=seat(s)))["accepted"]["card"] == card
    assert table.submit(as_(api.Who("owner", via="token"), TABLE_WIDE[1])) == \
        {"paused": "pizza"}


def test_a_seat_takes_back_only_its_own_declaration(table):
    st = turn_with_a_number_play(table)
    s = st["waiting"]["seat"]
    other = (s + 1) % 3
    card = number_plays(table, st)[0]
    table.world.lay(s, [card])
    table.submit(api.Play(s, card, by=seat(s)))
    assert table.state()["undoable"] == {"seat": s, "card": card}
    assert refused_403(table, api.Undo(s, by=seat(other))) == (
        "role.for_itself", {"seat": other, "other": s})
    with pytest.raises(Rejected) as err:  # its own undo names no declaration of its own
        table.submit(api.Undo(other, by=seat(other)))
    assert (err.value.status, err.value.key) == (409, "undo.not_yours")
    assert table.submit(api.Undo(s, by=seat(s)))["undone"]["card"] == card
    undo = list(table.controller.journal.entries())[-1]
    assert undo.kind == "undo" and undo.payload[BY] == {"role": "seat", "seat": s}


def test_the_bots_declare_as_their_seats_and_the_journal_says_who(table, capsys):
    in_process(table).play_until(lambda st: st["step"] >= 40)
    entries = list(table.controller.journal.entries())
    dealer = [e.payload for e in entries if e.kind == "dealer_card"]
    assert dealer and all(p[BY] == {"role": "seat", "seat": p["seat"]} for p in dealer)
    declared = {"play", "pass", "choose_colour", "challenge", "enter_hand", "four_tower_discard"}
    plays = [e.payload for e in entries if e.kind == "action" and e.payload["type"] in declared]
    assert plays and all(p[BY] == {"role": "seat", "seat": p["seat"]} for p in plays)
    shuffles = [e.payload for e in entries if e.kind == "action"
                and e.payload["type"] in ("shuffle", "reveal")]  # the twin's chores
    assert shuffles and all(p[BY] == {"role": "owner", "seat": None} for p in shuffles)
    presses = [e.payload for e in entries if e.kind == "action"
               and e.payload["type"] in ("draw", "press", "eject")]  # the button: nobody's
    assert all(BY not in p for p in presses)
    # the journal replays as before: "by" is no part of the engine's action
    actions = [engine_action(e.payload) for e in entries if e.kind == "action"]
    assert len(actions) == table.state()["stats"]["actions"]
    table.stop()
    assert main(["replay", str(table.journal_path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    said = {(line["payload"].get("type"), line.get("by")) for line in lines
            if line.get("kind") == "action"}
    first = plays[0]
    assert (first["type"], f"seat {first['seat']}") in said
    assert ("shuffle", "owner") in said
    assert all(line.get("by") is None for line in lines if line.get("kind") == "action"
               and line["payload"]["type"] in ("draw", "press", "eject"))
    assert main(["replay", "--record", str(table.journal_path)]) == 0
    record = capsys.readouterr().out.splitlines()
    assert len(record) == 1 + len(actions) and all('"by"' not in line for line in record)


def test_a_journal_without_by_is_the_owners_and_replays_unchanged(table, capsys):
    """Every journal written before seats: the owner's on the table itself."""
    table.play_until(lambda st: st["step"] >= 10)  # the bots over HTTP, with no token
    entries = list(table.controller.journal.entries())
    assert entries and all(BY not in e.payload for e in entries
                           if e.kind in ("action", "dealer_card"))
    table.stop()
    assert main(["replay", str(table.journal_path)]) == 0
    assert '"by"' not in capsys.readouterr().out.replace('"by": "tap"', "")


def test_twin_chores_are_the_owners():
    assert TWIN.role == "owner" and bot(2) == api.Who("seat", 2, "bot")


def test_anyone_at_the_table_taps_next_round_but_a_viewer(table):
    st = in_process(table).play_until(lambda st: st["waiting"]["kind"] == "round-over")
    assert refused_403(table, api.NextRound(by=VIEWER)) == (
        "role.watches", {"what": Phrase("role.what.next_round")})
    tapper = (st["round_end"]["winner"] + 1) % 3
    assert table.submit(api.NextRound(by=seat(tapper))) == {"next_round": 1,
                                                            "step": st["step"]}
    entry = [e for e in table.controller.journal.entries() if e.kind == "next_round"][-1]
    assert entry.payload == {"round": 1, BY: {"role": "seat", "seat": tapper}}
    assert [e["by"] for e in table.events if e.get("kind") == "next_round"] == ["tap"]


def test_the_first_card_is_the_tables_whatever_seat_a_reveal_names(table):
    table.play_until(lambda st: st["waiting"]["kind"] == "reveal")
    assert refused_403(table, api.Reveal("R5", 1, by=seat(1))) == (
        "role.owners_only", {"seat": 1, "what": Phrase("role.what.first_card")})
    assert refused_403(table, api.Reveal("R5", by=VIEWER)) == (
        "role.watches", {"what": Phrase("role.what.first_card")})
