"""Who may ask the table for what (issue 20): `firmware.api.roles.refusal`, every role
against every kind of request."""

from __future__ import annotations

import pytest

from firmware.api import requests as api
from firmware.api.roles import refusal
from firmware.api.routes import to_http
from firmware.errors import Rejected
from firmware.words.messages import MESSAGES, Words
from firmware.words.rejected import Phrase

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
    assert refusal(SEAT2, request_) is None


def said(refused: Rejected | None) -> tuple[str, dict[str, object], int]:
    assert refused is not None
    return refused.key, refused.values, refused.status


@pytest.mark.parametrize("request_", for_seat(3), ids=repr)
def test_a_seat_may_not_act_for_another_seat(request_):
    assert said(refusal(SEAT2, request_)) == ("role.for_itself", {"seat": 2, "other": 3}, 403)


@pytest.mark.parametrize("request_, what", [
    (TABLES[0], "new_match"), (TABLES[1], "pause"), (TABLES[2], "resume"),
    (TABLES[3], "override"), (TABLES[4], "first_card")], ids=repr)
def test_the_admins_requests_and_the_first_card_are_the_owners(request_, what):
    assert said(refusal(SEAT2, request_)) == (
        "role.owners_only", {"seat": 2, "what": Phrase(f"role.what.{what}")}, 403)


@pytest.mark.parametrize("request_", EVERY_KIND, ids=repr)
def test_a_viewer_declares_nothing(request_):
    key, values, status = said(refusal(VIEWER, request_))
    assert (key, status) == ("role.watches", 403)
    assert isinstance(values["what"], Phrase) and values["what"].key in MESSAGES["de"]


def test_refusals_are_said_in_the_tables_language_with_its_seats_names():
    en, de = WORDS, Words("de", WORDS.names)
    assert en.rejected(refusal(SEAT2, api.Play(3, "R7"))) == "Cy may act only for Cy, not for Di"
    assert Words().rejected(refusal(SEAT2, api.Play(3, "R7"))) == \
        "seat 3 may act only for seat 3, not for seat 4"  # counted from 1, as the screen counts
    assert de.rejected(refusal(SEAT2, api.Play(3, "R7"))) == \
        "Cy darf nur für sich selbst handeln, nicht für Di"
    assert de.rejected(refusal(SEAT2, api.Admin("new-match", {}))) == \
        "Nur der Besitzer des Tisches darf ein neues Spiel starten, nicht Cy"
    assert de.rejected(refusal(VIEWER, api.Play(2, "R7"))) == \
        "Wer nur zuschaut, kann das nicht: eine Karte legen"
