"""A phone is told seat numbers as the table's screen shows them, from 1: a reused
invitation for the screen's seat 2 (the API's seat 1) says "seat 2", and so does a claim
pushed out by too many phones asking for that seat."""

from __future__ import annotations

import pytest

from firmware.api.claims import MAX_WAITING, Claims
from firmware.seat_keys import BadJoin, SeatKeys
from firmware.words.messages import Words
from hal.sim.clock import VirtualClock


def test_a_reused_invitation_names_the_screens_seat(tmp_path):
    keys = SeatKeys(tmp_path / "seats.json", clock=VirtualClock(epoch=1_800_000_000))
    join = keys.invite(1)
    assert keys.claim(1, join) is not None
    with pytest.raises(BadJoin) as refused:
        keys.claim(1, join)  # the code was used: scanned again from a photo of the screen
    assert "not valid for seat 2 " in str(refused.value)


def test_a_claim_pushed_out_names_the_screens_seat():
    claims = Claims(clock=VirtualClock())
    opened = [claims.open(1, "join") for _ in range(MAX_WAITING + 1)]
    oldest = claims.find(opened[0][0], 1, "join")
    assert oldest.state == "refused" and oldest.refusal is not None
    assert (oldest.refusal.key, oldest.refusal.values) == ("claim.crowded", {"seat": 1})
    assert "for seat 2 at once" in Words().rejected(oldest.refusal)  # said as the screen counts
