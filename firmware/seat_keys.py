"""Who holds which seat: the phones' device tokens and the seats' invitations.

A phone joins a seat by scanning the invitation the table's screen shows for it (a
link `seat_url` with a join secret after ``#``); the table answers with a device
token the phone sends with every request from then on (``Authorization: Bearer``).
A seat already held by another phone needs the owner's approval (the server's claims,
`firmware.api.claims`), which grants a new token and revokes the old one.

The store is ``<state dir>/seats.json``, mode 0600, and holds only the sha256 hashes
of the secrets, never a secret: a copy of the file lets nobody in. It is written
atomically (``seats.json.tmp`` created exclusive, no-follow, then renamed over it,
under a lock on ``seats.json.lock``), and re-read whenever its inode, size or mtime
changed, so ``unotable seats revoke`` run by another process takes effect at the next
request. A damaged file lets nobody in (and is logged) until it is written again.

Viewer tokens (read the public state, act for nobody) live here too: `viewer()` mints
one, `is_viewer(token)` checks one, `revoke_viewers()` ends them all.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import ipaddress
import json
import logging
import os
import secrets
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from firmware.safe_files import create_new, fsync_directory, open_regular, refuse_unless_regular
from hal.clock import REAL_TIME, Clock

log = logging.getLogger(__name__)

MAX_INVITATIONS = 4  # per seat; a newer one pushes the oldest out
JOIN_BYTES = 16  # 128 bits
TOKEN_BYTES = 24  # 192 bits
VERSION = 1

Data = dict[str, Any]


class BadJoin(ValueError):
    """A join secret that is not (or no longer) an invitation of the seat; the message
    names the seat, never the secret."""


def digest(secret: str) -> str:
    """The sha256 of a secret as stored (hex); any text hashes, a lone surrogate too (a
    wrong secret must be refused as wrong, never crash the request that sent it)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def _matches(wanted: str, entries: list[dict[str, Any]]) -> bool:
    """Whether `wanted` is the hash of one of `entries`, comparing with all of them."""
    found = False
    for entry in entries:
        found |= hmac.compare_digest(str(entry.get("hash", "")), wanted)
    return found


def _bad_join(seat: int) -> str:
    return (f"this invitation is not valid for seat {seat + 1} (it was revoked or replaced): scan "
            "the code on the table's screen again")


def _empty() -> Data:
    return {"version": VERSION, "seats": {}, "viewers": []}


def _checked(data: Any) -> Data:
    """`data` read from the file, with only the entries of the expected shape."""
    if not isinstance(data, dict) or not isinstance(data.get("seats"), dict):
        raise ValueError("it is not an object with \"seats\"")
    out = _empty()

    def entries(raw: Any) -> list[dict[str, Any]]:
        return [{"hash": e["hash"], "since": e.get("since")} for e in raw or []
                if isinstance(e, dict) and isinstance(e.get("hash"), str)] if isinstance(raw, list) else []

    for seat, record in data["seats"].items():
        if str(seat).isdigit() and isinstance(record, dict):
            out["seats"][str(int(seat))] = {"tokens": entries(record.get("tokens")),
                                            "invitations": entries(record.get("invitations"))}
    out["viewers"] = entries(data.get("viewers"))
    return out


def _signature(st: os.stat_result | None) -> tuple[int, int, int] | None:
    """What tells the file changed: inode (a rename over it), size, mtime."""
    return None if st is None else (st.st_ino, st.st_size, st.st_mtime_ns)


class SeatKeys:
    """The store of seat device tokens, invitations and viewer tokens at `path`."""

    def __init__(self, path: str | Path, *, clock: Clock = REAL_TIME) -> None:
        self.path = Path(path)
        self.clock = clock
        self._lock_path = self.path.with_name(self.path.name + ".lock")
        self._data: Data = _empty()
        self._seen: tuple[int, int, int] | None | str = "unread"
        self.generation = 0  # counts the contents' changes (read or written) in this process
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._refresh(strict=True)

    # -- reading ------------------------------------------------------------------------
    def refresh(self) -> bool:
        """Re-read the file if another process changed it; whether it had changed."""
        return self._refresh(strict=False)

    def _refresh(self, *, strict: bool) -> bool:
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            st = None
        if _signature(st) == self._seen:
            return False
        raw, seen = None, None
        try:
            fd = open_regular(self.path)  # UnsafeFile for a link or a directory
        except FileNotFoundError:
            pass
        else:
            with os.fdopen(fd, "rb") as f:
                seen, raw = _signature(os.fstat(f.fileno())), f.read()
        try:
            self._data = _empty() if raw is None else _checked(json.loads(raw))
        except (ValueError, UnicodeDecodeError) as exc:
            if strict:
                raise ValueError(f"{self.path} is damaged ({exc}): move it away; every phone "
                                 "then joins its seat again") from None
            log.warning("%s is damaged (%s): no phone is let in until it is written again",
                        self.path, exc)
            self._data = _empty()
        self._seen = seen
        self.generation += 1
        return True

    def who(self, token: str) -> int | None:
        """The seat of a device token, or None (compared with every token held)."""
        self.refresh()
        wanted, seat = digest(token), None
        for name, record in self._data["seats"].items():
            if _matches(wanted, record["tokens"]):
                seat = int(name)
        return seat

    def is_viewer(self, token: str) -> bool:
        self.refresh()
        return _matches(digest(token), self._data["viewers"])

    def status(self) -> list[dict[str, Any]]:
        """Every seat the store knows: ``{"seat", "claimed", "since", "invitations"}``
        (`since`: wall-clock seconds of the device token held, else None)."""
        self.refresh()
        out = []
        for name in sorted(self._data["seats"], key=int):
            record = self._data["seats"][name]
            tokens = record["tokens"]
            out.append({"seat": int(name), "claimed": bool(tokens),
                        "since": tokens[-1]["since"] if tokens else None,
                        "invitations": len(record["invitations"])})
        return out

    def valid_join(self, seat: int, join: str) -> bool:
        """Whether `join` is still one of `seat`'s invitations."""
        return self.holds_invitation(seat, digest(join))

    def holds_invitation(self, seat: int, hashed: str) -> bool:
        """Whether the invitation whose `digest` is `hashed` is still one of `seat`'s
        (a revoke, or four newer invitations, end it)."""
        self.refresh()
        return _matches(hashed, self._data["seats"].get(str(seat), {}).get("invitations", []))

    def claimed(self, seat: int) -> bool:
        self.refresh()
        return bool(self._data["seats"].get(str(seat), {}).get("tokens"))

    # -- changing -----------------------------------------------------------------------
    def invite(self, seat: int) -> str:
        """A new join secret for `seat` (the oldest of more than MAX_INVITATIONS goes)."""
        join = secrets.token_urlsafe(JOIN_BYTES)

        def add(data: Data) -> None:
            record = self._record(data, seat)
            record["invitations"] = [*record["invitations"], self._entry(join)][-MAX_INVITATIONS:]

        self._change(add)
        return join

    def claim(self, seat: int, join: str) -> str | None:
        """A device token when `seat` is free (the invitation is used up); None when a phone
        holds it (the owner must approve; the invitation stays); `BadJoin` when `join` is
        not an invitation of `seat`. Only a free seat's claim takes the lock and writes
        the file: a stranger's claims never cost the table a write."""
        if not self.valid_join(seat, join):
            raise BadJoin(_bad_join(seat))
        if self.claimed(seat):
            return None
        token: list[str] = []

        def take(data: Data) -> None:
            record = data["seats"].get(str(seat))
            if record is None or not _matches(digest(join), record["invitations"]):
                raise BadJoin(_bad_join(seat))
            if not record["tokens"]:
                wanted = digest(join)
                record["invitations"] = [e for e in record["invitations"]
                                         if not hmac.compare_digest(e["hash"], wanted)]
                token.append(self._grant(data, seat))

        self._change(take)
        return token[0] if token else None

    def grant(self, seat: int) -> str:
        """A new device token for `seat`; the seat's old tokens stop working."""
        token: list[str] = []
        self._change(lambda data: token.append(self._grant(data, seat)))
        return token[0]

    def revoke(self, seat: int) -> None:
        """The seat's device tokens and invitations are gone."""
        self._change(lambda data: data["seats"].update({str(seat): {"tokens": [], "invitations": []}}))

    def viewer(self) -> str:
        """A new viewer token (reads the public state and the stream, acts for nobody)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self._change(lambda data: data["viewers"].append(self._entry(token)))
        return token

    def revoke_viewers(self) -> None:
        self._change(lambda data: data.update(viewers=[]))

    # -- internals ----------------------------------------------------------------------
    def _entry(self, secret: str) -> dict[str, Any]:
        return {"hash": digest(secret), "since": round(self.clock.wall(), 3)}

    def _record(self, data: Data, seat: int) -> dict[str, Any]:
        record: dict[str, Any] = data["seats"].setdefault(str(seat), {"tokens": [], "invitations": []})
        return record

    def _grant(self, data: Data, seat: int) -> str:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self._record(data, seat)["tokens"] = [self._entry(token)]
        return token

    def _change(self, change: Callable[[Data], Any]) -> None:
        """Apply `change` to the file's newest contents and write them, under the lock."""
        with self._locked():
            self._refresh(strict=False)
            data = json.loads(json.dumps(self._data))
            change(data)  # may raise: then nothing is written
            self._write(data)
            self._data = data
            self.generation += 1

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        fd = open_regular(self._lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _write(self, data: Data) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        refuse_unless_regular(self.path)
        if refuse_unless_regular(tmp):
            tmp.unlink()
        fd = create_new(tmp, 0o600)
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o600)
            f.write(json.dumps(data, indent=1, sort_keys=True).encode())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        fsync_directory(self.path.parent)
        self._seen = _signature(os.lstat(self.path))

    def __repr__(self) -> str:
        return f"<SeatKeys {self.path} seats={sorted(self._data['seats'], key=int)}>"


def seat_url(address: str, port: int, seat: int, join: str) -> str:
    """The link a seat's invitation shows (and its QR code holds); the join secret is
    after ``#``, so the browser never sends it in a request line or a Referer."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/seat/{seat}#join={join}"


# Any address off this machine: connecting a UDP socket to it sends nothing, it only
# makes the kernel pick the interface (and so the address) it would route through.
_PROBE = ("192.0.2.1", 9)  # TEST-NET-1 (RFC 5737), discard port


def lan_address(host: str, *, probe: tuple[str, int] = _PROBE) -> str:
    """The address phones reach the table on when it serves on `host`: a specific
    address as it is; ``0.0.0.0`` / ``::`` / ``""`` the primary LAN IPv4 (the loopback
    when there is no route); ``localhost`` 127.0.0.1. `reachable_by_phones` tells
    whether the answer is of any use to a phone."""
    if host in ("0.0.0.0", "::", ""):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe_socket:
                probe_socket.connect(probe)
                return str(probe_socket.getsockname()[0])
        except OSError:
            return "127.0.0.1"
    if host == "localhost":
        return "127.0.0.1"
    return host


def reachable_by_phones(address: str) -> bool:
    """False for a loopback address (or a name for one): a phone cannot reach it."""
    if address == "localhost":
        return False
    try:
        return not ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        return True  # a host name: its resolution is the phones' business
