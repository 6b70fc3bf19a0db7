"""A stand-in for firmware.seat_keys, to its interface (docs: issue 20's shared spec), for
the `unotable seats` tests while the real module is not in this tree. `install()` puts it
in place only when `firmware.seat_keys` cannot be imported; with the real one present
the tests run against the real one."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sys
import time
import types
from pathlib import Path
from typing import Any

MAX_INVITATIONS = 4


class BadJoin(Exception):
    pass


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class SeatKeys:
    def __init__(self, path: Path, *, clock: Any = None) -> None:
        self.path = Path(path)
        self.clock = clock

    def _now(self) -> float:
        return self.clock.wall() if self.clock is not None else time.time()

    def _load(self) -> dict[str, Any]:
        if not self.path.exists():
            return {"seats": {}}
        return json.loads(self.path.read_text())

    def _save(self, data: dict[str, Any]) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        tmp.chmod(0o600)
        tmp.replace(self.path)

    def _seat(self, data: dict[str, Any], seat: int) -> dict[str, Any]:
        return data["seats"].setdefault(str(seat), {"tokens": [], "joins": [], "since": None})

    def invite(self, seat: int) -> str:
        data = self._load()
        join = secrets.token_urlsafe(32)
        entry = self._seat(data, seat)
        entry["joins"] = [*entry["joins"], _hash(join)][-MAX_INVITATIONS:]
        self._save(data)
        return join

    def claim(self, seat: int, join: str) -> str | None:
        data = self._load()
        entry = self._seat(data, seat)
        if _hash(join) not in entry["joins"]:
            raise BadJoin(seat)
        if entry["tokens"]:
            return None
        entry["joins"].remove(_hash(join))
        self._save(data)
        return self.grant(seat)

    def grant(self, seat: int) -> str:
        data = self._load()
        token = secrets.token_urlsafe(32)
        entry = self._seat(data, seat)
        entry["tokens"], entry["since"] = [_hash(token)], self._now()
        self._save(data)
        return token

    def revoke(self, seat: int) -> None:
        data = self._load()
        data["seats"][str(seat)] = {"tokens": [], "joins": [], "since": None}
        self._save(data)

    def who(self, token: str) -> int | None:
        digest = _hash(token)
        for seat, entry in self._load()["seats"].items():
            if any(hmac.compare_digest(digest, t) for t in entry["tokens"]):
                return int(seat)
        return None

    def status(self) -> list[dict[str, Any]]:
        return [{"seat": int(seat), "claimed": bool(e["tokens"]), "since": e["since"],
                 "invitations": len(e["joins"])}
                for seat, e in sorted(self._load()["seats"].items(), key=lambda i: int(i[0]))]


def seat_url(address: str, port: int, seat: int, join: str) -> str:
    return f"http://{address}:{port}/seat/{seat}#join={join}"


def lan_address(host: str) -> str:
    return host


def install() -> None:
    try:
        import firmware.seat_keys  # noqa: F401
    except ImportError:
        module = types.ModuleType("firmware.seat_keys")
        for name in ("BadJoin", "SeatKeys", "seat_url", "lan_address"):
            setattr(module, name, globals()[name])
        sys.modules["firmware.seat_keys"] = module
