"""Who may ask the table for what (issue 20): `firmware.api.roles.refusal`, every role
against every kind of request."""

from __future__ import annotations

import pytest

from firmware.api import requests as api
from firmware.api.roles import refusal
from firmware.api.routes import to_http
from firmware.words.messages import Words

SEAT2 = api.Who("seat", 2, "phone")
VIEWER = api.Who("viewer", via="viewer")
WORDS = Words(names=("Ann", "Bo", "Cy", "Di"))  # seat 2 is Cy, as every message names it


def for_seat(n: int) -> list[api.Request]:
    """One request of every kind a seat makes, all for seat `n`."""
    return [api.Play(n, "R7"), api.CallUno(n), api.Undo(n), api.Catch(n, 0),
            api.Catch(n, 3), api.Challenge(n), api.Hands(n, ("R1",)),
            api.Decide(n, "pass"), api.Reveal("R7", n)]


TABLES = [api.Admin("new-match", {}), api.Admin("pause", {}), api.Admin("resume", {}),
          api.Admin("override", {"kind": "cards-out", "count": 1}), api.Reveal("R7")]
EVERY_KIND = [*for_seat(2), *for_seat(3), *TABLES, api.NextRound()]


def test_who_names_its_role_and_a_seat_needs_a_number():
    assert (str(api.OWNER), str(SEAT2), str(VIEWER)) == ("owner", "seat 2", "viewer")
    assert api.Who("owner", None, "local") == api.OWNER
    with pytest.raises(ValueError, match="role 'admin' is not one of owner, seat, viewer"):
        api.Who("admin")
    with pytest.raises(ValueError, match="role seat needs a seat number, not None"):
        api.Who("seat")
    with pytest.raises(ValueError, match="role owner has no seat, not 1"):
        api.Who("owner", 1)


def test_a_request_is_the_owners_by_default_and_who_sends_it_is_not_its_body():
    play = api.Play(2, "R7", by=SEAT2, key="k-1")
    assert api.Play(2, "R7").by == api.OWNER and api.Play(2, "R7").key == ""
    assert play == api.Play(2, "R7")  # the same declaration, whoever sends it
    assert to_http(play) == ("/api/play", {"seat": 2, "card": "R7"})
    assert to_http(api.NextRound(by=SEAT2, key="k")) == ("/api/next-round", {})


@pytest.mark.parametrize("request_", EVERY_KIND, ids=repr)
def test_the_owner_may_do_everything(request_):
    assert refusal(api.OWNER, request_) is None
    assert refusal(api.Who("owner", via="token"), request_) is None


@pytest.mark.parametrize("request_", [*for_seat(2), api.NextRound()], ids=repr)
def test_a_seat_declares_for_itself_and_taps_next_round(request_):
    assert refusal(SEAT2, request_, WORDS) is None


@pytest.mark.parametrize("request_", for_seat(3), ids=repr)
def test_a_seat_may_not_act_for_another_seat(request_):
    assert refusal(SEAT2, request_, WORDS) == "Cy may act only for Cy, not for Di"


def test_a_seat_without_a_name_is_counted_from_1_as_the_screen_counts():
    assert refusal(SEAT2, api.Play(3, "R7")) == "seat 3 may act only for seat 3, not for seat 4"


@pytest.mark.parametrize("request_, what", [
    (TABLES[0], "start a new match"), (TABLES[1], "pause the table"),
    (TABLES[2], "resume the table"), (TABLES[3], "override what the table sees"),
    (TABLES[4], "turn the first card")], ids=repr)
def test_the_admins_requests_and_the_first_card_are_the_owners(request_, what):
    assert refusal(SEAT2, request_, WORDS) == f"Cy may not {what}: only the table's owner may"


@pytest.mark.parametrize("request_", EVERY_KIND, ids=repr)
def test_a_viewer_declares_nothing(request_):
    reason = refusal(VIEWER, request_)
    assert reason is not None and reason.startswith("a viewer only watches: it may not ")


def test_refusals_speak_the_tables_language():
    de = Words("de", WORDS.names)
    assert refusal(SEAT2, api.Play(3, "R7"), de) == "Cy darf nur für sich selbst handeln, nicht für Di"
    assert refusal(SEAT2, api.Admin("new-match", {}), de) == \
        "Nur der Besitzer des Tisches darf ein neues Spiel starten, nicht Cy"
    assert refusal(VIEWER, api.Play(2, "R7"), de) == \
        "Wer nur zuschaut, kann das nicht: eine Karte legen"
    assert refusal(api.Who("seat", 1), api.Play(2, "R7"), Words("de")) == \
        "Platz 2 darf nur für sich selbst handeln, nicht für Platz 3"
