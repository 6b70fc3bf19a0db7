"""The seat door against a fault once planted in it and passed by every other test:
seat n of a table of n seats (one past the last) is refused 404 on every path that names
a seat, before any key, claim or secret is looked at."""

from __future__ import annotations

import pytest
from test_api_roles import NAMES, served

SEAT_N = len(NAMES)  # seats count from 0: one past the last


@pytest.mark.parametrize("path", ["/api/seats/approve", "/api/seats/refuse",
                                  "/api/seats/revoke"])
def test_the_owner_naming_seat_n_is_refused_404(tmp_path, path):
    async def test(api, table, server):
        # approve and refuse name the phone's code too (a revoke takes none)
        body = {"seat": SEAT_N} if path.endswith("revoke") else {"seat": SEAT_N, "code": "1234"}
        status, body, _ = await api.post(path, body)
        assert status == 404, body
        assert (body["key"], body["values"]) == (
            "refused.no_seat", {"value": SEAT_N + 1, "last": SEAT_N})

    served(test, tmp_path)


def test_a_phone_claiming_seat_n_is_refused_404_and_gets_no_seat(tmp_path):
    async def test(api, table, server):
        join = await api.invitation(SEAT_N - 1)  # a real invitation, for the last seat
        status, body, _ = await api.post("/api/seats/claim", {"seat": SEAT_N, "join": join},
                                         token=None)
        assert status == 404 and "token" not in body, body
        _, listing, _ = await api.get("/api/seats")
        assert len(listing["seats"]) == SEAT_N
        assert not any(seat["claimed"] for seat in listing["seats"])

    served(test, tmp_path)


def test_seat_n_minus_one_is_a_seat(tmp_path):
    async def test(api, table, server):
        assert await api.join(SEAT_N - 1)

    served(test, tmp_path)
