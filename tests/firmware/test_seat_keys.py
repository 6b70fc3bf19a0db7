"""The seats' keys on disk: only hashes, mode 0600, seen by another process at once."""

from __future__ import annotations

import ipaddress
import json
import os
import socket
import stat

import pytest

from firmware.safe_files import UnsafeFile
from firmware.seat_keys import (
    MAX_INVITATIONS,
    BadJoin,
    SeatKeys,
    lan_address,
    reachable_by_phones,
    seat_url,
)
from hal.sim.clock import VirtualClock


@pytest.fixture
def keys(tmp_path):
    return SeatKeys(tmp_path / "state" / "seats.json", clock=VirtualClock(epoch=1_800_000_000))


def test_a_phone_with_an_invitation_gets_a_token_for_its_seat_only(keys):
    join = keys.invite(2)
    token = keys.claim(2, join)
    assert token is not None and keys.who(token) == 2
    assert keys.who("not-a-token") is None and keys.who(join) is None
    assert keys.status() == [{"seat": 2, "claimed": True, "since": 1_800_000_000.0, "invitations": 0}]


def test_the_file_holds_no_secret_and_only_its_owner_reads_it(keys):
    join, other = keys.invite(1), keys.invite(1)
    token, viewer = keys.claim(1, join), keys.viewer()
    text = keys.path.read_text()
    for secret in (join, other, token, viewer):
        assert len(secret) >= 22  # 16 random bytes or more, url-safe
        assert secret not in text
    assert stat.S_IMODE(os.stat(keys.path).st_mode) == 0o600
    assert json.loads(text)["seats"]["1"]["invitations"][0]["hash"] != other


def test_a_held_seat_needs_the_owner_and_a_grant_revokes_the_old_phone(keys):
    first = keys.claim(0, keys.invite(0))
    join = keys.invite(0)
    assert keys.claim(0, join) is None  # held: the owner must approve
    assert keys.valid_join(0, join)  # and the invitation still stands
    second = keys.grant(0)
    assert keys.who(second) == 0 and keys.who(first) is None


def test_a_wrong_invitation_is_refused_naming_the_seat_not_the_secret(keys):
    join = keys.invite(3)
    with pytest.raises(BadJoin) as info:
        keys.claim(1, join)  # another seat's invitation, for the screen's seat 2
    assert "seat 2 " in str(info.value) and join not in str(info.value)
    with pytest.raises(BadJoin):
        keys.claim(3, join + "x")
    assert not keys.claimed(1) and not keys.claimed(3)


def test_a_seat_keeps_its_newest_invitations_only(keys):
    joins = [keys.invite(4) for _ in range(MAX_INVITATIONS + 1)]
    assert not keys.valid_join(4, joins[0])
    assert all(keys.valid_join(4, j) for j in joins[1:])


def test_revoke_ends_the_seats_tokens_and_invitations(keys):
    token, join = keys.claim(5, keys.invite(5)), keys.invite(5)
    keys.revoke(5)
    assert keys.who(token) is None and not keys.valid_join(5, join)
    assert keys.status() == [{"seat": 5, "claimed": False, "since": None, "invitations": 0}]


def test_another_process_revoking_takes_effect_at_the_next_question(keys):
    token = keys.claim(1, keys.invite(1))
    other = SeatKeys(keys.path)  # as `unotable seats revoke` opens it
    other.revoke(1)
    assert keys.refresh() is True and keys.refresh() is False
    assert keys.who(token) is None


def test_two_writers_lose_nothing_of_each_other(keys):
    other = SeatKeys(keys.path)
    a = keys.claim(0, keys.invite(0))
    b = other.claim(1, other.invite(1))
    assert keys.who(a) == 0 and keys.who(b) == 1 and other.who(a) == 0


def test_viewer_tokens_are_no_seat_and_end_together(keys):
    viewer = keys.viewer()
    assert keys.is_viewer(viewer) and keys.who(viewer) is None
    keys.revoke_viewers()
    assert not keys.is_viewer(viewer)


def test_a_link_in_place_of_the_file_is_refused(tmp_path):
    target = tmp_path / "elsewhere.json"
    target.write_text('{"seats": {}}')
    (tmp_path / "seats.json").symlink_to(target)
    with pytest.raises(UnsafeFile, match="symbolic link"):
        SeatKeys(tmp_path / "seats.json")


def test_a_damaged_file_is_named_at_start_and_lets_nobody_in_later(tmp_path, caplog):
    path = tmp_path / "seats.json"
    path.write_text("{not json")
    with pytest.raises(ValueError, match="seats.json is damaged"):
        SeatKeys(path)
    path.unlink()
    keys = SeatKeys(path)
    token = keys.claim(0, keys.invite(0))
    path.write_text("[1, 2]")
    assert keys.who(token) is None
    assert "damaged" in caplog.text and token not in caplog.text


def test_the_seat_link_carries_the_secret_after_the_hash():
    assert seat_url("192.168.1.20", 8080, 2, "abc") == "http://192.168.1.20:8080/seat/2#join=abc"
    assert seat_url("fd00::5", 8080, 0, "abc") == "http://[fd00::5]:8080/seat/0#join=abc"


def test_the_address_phones_reach_the_table_on():
    assert lan_address("192.168.1.20") == "192.168.1.20"
    assert lan_address("localhost") == "127.0.0.1"
    assert not reachable_by_phones(lan_address("127.0.0.1"))
    assert not reachable_by_phones("::1") and reachable_by_phones("192.168.1.20")
    everywhere = lan_address("0.0.0.0")
    assert isinstance(ipaddress.ip_address(everywhere), ipaddress.IPv4Address)
    assert everywhere != "0.0.0.0"


def test_without_a_route_all_addresses_come_down_to_the_loopback(monkeypatch):
    class NoRoute(socket.socket):
        def connect(self, address):
            raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(socket, "socket", NoRoute)
    assert lan_address("::") == "127.0.0.1"
