"""A request sent twice with the same Idempotency-Key is taken once (issue 20): the copy
gets the first one's answer, nothing is applied twice, also after a restart between
the two; the same key from another sender is another request."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from firmware.api import requests as api
from firmware.controller.declared import BY, RECENT_KEYS, Declarers, by_of, signed
from firmware.errors import Rejected
from firmware.sim.api_client import headers
from firmware.sim.testbed import SimTable
from firmware.words.messages import Words


def seat(n: int) -> api.Who:
    return api.Who("seat", n, "phone")


def dealer_cards(table):
    """The cards turned so far to choose the dealer, by seat."""
    return table.call(lambda: table.controller.lookup("requests").get_status()["dealer_cards"])


@pytest.fixture
def table(tmp_path, mock_factory):
    t = SimTable(tmp_path, "classic", 3, seed=3, factory=mock_factory)
    yield t
    t.stop()


def test_the_same_key_twice_is_taken_once_and_answered_as_the_first(table):
    first = table.submit(api.Reveal("R1", 0, by=seat(0), key="k-1"))
    assert first == {"missing": [1, 2], "step": 0}
    seq, cards = table.journal_seq, dealer_cards(table)
    again = table.submit(api.Reveal("G9", 0, by=seat(0), key="k-1"))  # a copy, however
    assert again == {**first, "duplicate": True}
    assert table.journal_seq == seq and dealer_cards(table) == cards
    (entry,) = [e for e in table.controller.journal.entries() if e.kind == "dealer_card"]
    assert entry.payload == {"seat": 0, "card": "R1",
                             BY: {"role": "seat", "seat": 0, "key": "k-1"}}


def test_the_same_key_from_another_sender_is_another_request(table):
    table.submit(api.Reveal("R1", 0, by=seat(0), key="k-1"))
    assert table.submit(api.Reveal("R2", 1, by=seat(1), key="k-1")) == \
        {"missing": [2], "step": 0}
    table.submit(api.Reveal("R3", 2, key="k-1"))  # the owner's: the dealer is chosen
    assert table.state()["step"] == 1


def test_a_refused_request_leaves_its_key_unspent(table):
    with pytest.raises(Rejected):
        table.submit(api.Reveal("R1", 7, by=api.OWNER, key="k-2"))  # no seat 7: 404
    assert table.submit(api.Reveal("R1", 0, key="k-2")) == {"missing": [1, 2], "step": 0}


def test_a_restart_between_the_two_copies_still_takes_it_once(tmp_path):
    with SimTable(tmp_path, "classic", 3, seed=3) as table:
        table.submit(api.Reveal("R1", 0, by=seat(0), key="k-1"))
        table.submit(api.Admin("pause", {"reason": "pizza"}, key="k-3"))  # the owner's key
        seq = table.journal_seq
    with SimTable(tmp_path, "classic", 3, seed=3) as again:
        assert again.journal_seq == seq
        assert again.submit(api.Reveal("G9", 0, by=seat(0), key="k-1")) == {"duplicate": True}
        assert again.submit(api.Admin("pause", {}, key="k-3")) == {"duplicate": True}
        assert again.journal_seq == seq and dealer_cards(again) == {"0": "R1"}
        assert again.state()["paused"] == "pizza"
        again.submit(api.Admin("resume", {}))
        assert again.submit(api.Reveal("R2", 1, by=seat(1), key="k-1")) == \
            {"missing": [2], "step": 0}


def test_the_table_remembers_the_last_keys_only():
    ctx = SimpleNamespace(journal=None, subscribe=lambda *a, **k: None)
    keys = Declarers(ctx)  # type: ignore[arg-type]
    for n in range(RECENT_KEYS + 1):
        keys.remember(("seat", 1, f"k-{n}"), {"n": n})
    assert len(keys.taken) == RECENT_KEYS
    assert ("seat", 1, "k-0") not in keys.taken and ("seat", 1, "k-1") in keys.taken


def test_a_client_sends_its_key_and_its_seats_token_as_headers():
    tokens = {api.Who("seat", 2, "bot"): "t-2"}
    play = api.Play(2, "R7", by=api.Who("seat", 2, "bot"), key="k-9")
    assert headers(play, tokens.get) == {"Authorization": "Bearer t-2", "Idempotency-Key": "k-9"}
    assert headers(api.NextRound(), tokens.get) == {}  # the owner on loopback: no token
    assert headers(play) == {"Idempotency-Key": "k-9"}


def test_a_key_too_long_or_not_printable_is_refused_naming_it(table):
    seq = table.journal_seq
    for key in ("k" * 201, "k\n1", "schlüssel"):
        with pytest.raises(Rejected) as err:
            table.submit(api.Reveal("R1", 0, key=key))
        assert (err.value.status, err.value.key, err.value.values["most"]) == (
            400, "refused.key", 200)
    assert table.journal_seq == seq
    assert table.submit(api.Reveal("R1", 0, key="k" * 200)) == {"missing": [1, 2], "step": 0}


class _Written:
    """A journal that keeps what it is given."""

    def __init__(self) -> None:
        self.items: list[tuple[str, dict]] = []

    @property
    def last_seq(self) -> int:
        return len(self.items)

    def append(self, kind, payload, *, ref=None):
        self.items.append((kind, payload))
        return (kind, payload)


def test_a_request_refused_after_its_declaration_was_written_stays_taken():
    """(A journal that fills up after the declaration's entry, say.) The copy must not
    write it a second time."""
    ctx = SimpleNamespace(journal=_Written(), subscribe=lambda *a, **k: None,
                          words=Words())
    keys = Declarers(ctx)  # type: ignore[arg-type]
    calls = []

    def answer(request):
        calls.append(request)
        ctx.journal.append("arm", signed({"seat": 1}, by_of(request)))
        raise Rejected("refused.journal", cause="disk-full", path="journal.db", status=507)

    uno = api.CallUno(1, by=seat(1), key="k-5")
    with pytest.raises(Rejected):
        keys.answer(uno, answer)
    assert keys.answer(uno, answer) == {"duplicate": True} and len(calls) == 1
    assert ctx.journal.items == [("arm", {"seat": 1, BY: {"role": "seat", "seat": 1,
                                                           "key": "k-5"}})]
