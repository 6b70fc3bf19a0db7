"""One table of API paths serves both directions: what a client sends for a request
(`to_http`) is what the server builds back into the same request (`BUILDERS`), through
the same schema validation a person's screen passes."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from firmware.api import requests as api
from firmware.api import schema
from firmware.api.routes import BUILDERS, to_http

REQUESTS = [
    api.Play(0, "R5"),
    api.Play(1, "W", MappingProxyType({"color": "blue"})),
    api.Play(2, "WT1", MappingProxyType({"target": 0, "towers": ["U"], "cards": ("R5", "G5")})),
    api.CallUno(3),
    api.Undo(0),
    api.Catch(1, 2),
    api.Challenge(2),
    api.Hands(0, ()),
    api.Hands(1, ("R5", "W+4")),
    api.Decide(0, "pass"),
    api.Decide(1, "colour", color="red"),
    api.Decide(2, "four-towers", cards=("R1", "R2")),
    api.Reveal("G7"),
    api.Reveal("B3", seat=0),
    api.NextRound(),
]


@pytest.mark.parametrize("request_", REQUESTS, ids=repr)
def test_what_a_client_sends_the_server_builds_back_into_the_same_request(request_):
    path, body = to_http(request_)
    schema.validate(body, schema.BODIES[path][0])  # what the server checks first
    assert BUILDERS[path](body) == request_


def test_a_body_leaves_out_what_is_at_its_default_and_keeps_an_empty_hand():
    assert to_http(api.Reveal("G7")) == ("/api/reveal", {"card": "G7"})
    assert to_http(api.Decide(0, "pass")) == ("/api/decide", {"seat": 0, "decision": "pass"})
    assert to_http(api.Hands(2, ())) == ("/api/hands", {"seat": 2, "cards": []})  # required: sent


def test_every_path_the_server_serves_has_its_request():
    sent = {to_http(r)[0] for r in REQUESTS}
    assert sent == set(BUILDERS) == set(schema.BODIES)


def test_an_admin_request_goes_to_its_action_with_its_params():
    assert to_http(api.Admin("override", MappingProxyType({"kind": "cards-out", "count": 2}))) == (
        "/api/admin/override", {"kind": "cards-out", "count": 2})


def test_a_card_the_notation_does_not_know_is_refused_naming_the_field():
    with pytest.raises(schema.Invalid) as err:
        BUILDERS["/api/hands"]({"seat": 0, "cards": ["R5", "R55"]})
    assert (err.value.field, err.value.key, err.value.values) == ("cards[1]", "field.card", {"value": "'R55'"})


def test_a_request_with_no_path_is_an_error_not_a_guess():
    class Whisper(api.CallUno):
        pass

    with pytest.raises(TypeError, match="no API path"):
        to_http(Whisper(0))
