"""Who is who at the table, fuzzed: the API's requests sent as every role (issue 20).

The daemon (`unotable run` on the twin) runs with an ``[api] token`` (the owner) and a
seats store (`firmware.seat_keys.SeatKeys` in its state directory) holding a device
token for each seat, a viewer token, and tokens that were revoked (a seat's phone
replaced by a new grant, a seat revoked). Each request is drawn as bench/fuzz.py draws
them (valid bodies from the API's schemas, broken ones, odd paths, Idempotency-Key
headers, fresh, repeated and too long), and sent as one identity:

* the owner (its token): may do everything;
* seat N (its device token; N as the server says in ``GET /api/whoami``): a third of
  its bodies name seat N, a third a seat the table waits on now (the seat to act, or one
  still to turn a card for the dealer: what the rules would accept from that seat),
  the rest the seat as drawn: acting for another seat, an admin action, the first card,
  the seats' and viewers' endpoints must never get a 2xx;
* a viewer: may read; any POST must never get a 2xx;
* a forged token (random, or the owner's or a seat's with one character changed), a
  revoked one, or none: nothing but the page's public paths may get a 2xx.

Every identity sends from its own loopback address (127.0.0.x; forged and revoked
tokens from 100 of them in turn, so that most are judged rather than answered 429
unread), and claims with bad join secrets from another, so the failed attempts of one
(429 after a few, `firmware.api.attempts`) do not slow the others down. Figures:
``wrong_role_2xx`` (must be 0) beside ``5xx`` (must stay 0), refusals that changed the
state (0), and the statuses per identity.
"""

from __future__ import annotations

import itertools
import json
import secrets
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from bench.common import free_port, served_daemon, sim_config, workdir
from bench.fuzz import JSON, Http, _broken, _cards, _error_body, _run_examples, from_schema

PUBLIC_PATHS = ("/", "/api/messages", "/api/seats/claim")  # the page, its words, a phone joining
PUBLIC_PREFIXES = ("/static/", "/seat/")
SEAT_PATHS = ("/api/seats", "/api/seats/approve", "/api/seats/refuse", "/api/seats/revoke",
              "/api/viewers")  # the owner's
ANYONE_AT_THE_TABLE = ("/api/next-round",)  # a seat may tap it whoever it names
SOURCES = {"owner": "127.0.0.1", "none": "127.0.0.1", "viewer": "127.0.0.20"}
# seat N sends from 127.0.0.(10 + N); forged and revoked tokens from 100 addresses in
# turn (127.0.0.50-149), so most are judged (401) before their address must wait (429)
IDENTITIES = ("owner", "seat", "seat", "seat", "viewer", "forged", "revoked", "none")
GAME_PATHS = ("/api/play", "/api/uno", "/api/undo", "/api/catch", "/api/challenge", "/api/hands",
              "/api/decide", "/api/reveal")  # a seat declares these for itself only


@dataclass
class Tokens:
    owner: str
    seats: dict[int, str]  # the seat the server resolves each to -> its device token
    viewer: str
    revoked: list[str]


def seat_store(state_dir: Path, seats: int) -> tuple[dict[str, int], str, list[str]]:
    """Fill the daemon's seats store: (device token -> seat as stored, viewer token,
    revoked tokens). Store seats 0..seats are granted, so the fuzz holds every seat
    whether the store counts from 0 or 1; one seat's first phone is replaced (its token
    revoked) and one extra seat is revoked altogether."""
    from firmware.seat_keys import SeatKeys

    keys = SeatKeys(state_dir / "seats.json")
    held = {keys.grant(seat): seat for seat in range(seats + 1)}
    replaced = next(t for t, s in held.items() if s == 1)
    del held[replaced]
    held[keys.grant(1)] = 1  # the old phone of seat 1 is revoked by the new grant
    gone = keys.grant(seats + 1)
    keys.revoke(seats + 1)
    return held, keys.viewer(), [replaced, gone]


def forged(tokens: Tokens, draw: int) -> str:
    """A token nobody holds: random, or a real one with one character changed."""
    real = [tokens.owner, *tokens.seats.values(), tokens.viewer]
    if draw % 3 == 0:
        return secrets.token_urlsafe(24)
    base = real[draw % len(real)]
    at = draw % len(base)
    return base[:at] + ("A" if base[at] != "A" else "B") + base[at + 1:]


def public(path: str) -> bool:
    bare = path.split("?", 1)[0]
    return bare in PUBLIC_PATHS or bare.startswith(PUBLIC_PREFIXES)


def wrong_role(identity: str, seat: int | None, method: str, path: str, body: Any) -> bool:
    """Whether a 2xx to this request would let a role do what it may not."""
    bare = path.split("?", 1)[0]
    if identity == "owner" or public(bare):
        return False
    if identity in ("forged", "revoked", "none"):
        return True  # an [api] token is set: without a valid token only the page is served
    if identity == "viewer":
        return method not in ("GET", "HEAD", "OPTIONS")
    if method in ("GET", "HEAD", "OPTIONS"):
        return bare in SEAT_PATHS  # GET /api/seats: the invitations are the owner's
    if bare.startswith("/api/admin/") or bare in SEAT_PATHS:
        return True
    if bare in ANYONE_AT_THE_TABLE or not isinstance(body, dict):
        return False  # a body that is no object is refused as bad input anyway
    if bare == "/api/reveal" and "seat" not in body:
        return True  # the first card of the pile is the table's to turn
    named = body.get("seat")
    return isinstance(named, int) and not isinstance(named, bool) and named != seat


def role_requests() -> st.SearchStrategy[Any]:
    """(identity, seat mode, draw, (method, (path, body)), Idempotency-Key or None);
    seat mode for a seat's phone: 0 its own seat, 1 the seat to act now (another's
    phone acting for it: what the rules would accept), 2 the seat as drawn."""
    from firmware.api.schema import ADMIN_BODIES, BODIES, SEAT_BODIES

    cards = st.sampled_from(_cards())
    endpoints = {**{p: s for p, (s, _summary) in {**BODIES, **SEAT_BODIES}.items()},
                 **{f"/api/admin/{a}": s for a, s in ADMIN_BODIES.items()}}
    valid = st.one_of([st.tuples(st.just(p), from_schema(s, cards)) for p, s in endpoints.items()])
    broken = st.builds(lambda pb, k, j, h: (pb[0], _broken(pb[1], k, j, h)),
                       valid, st.text(max_size=6), JSON, st.integers(0, 2))
    game = st.one_of([st.tuples(st.just(p), from_schema(s, cards)) for p, (s, _) in BODIES.items()])
    posts = st.tuples(st.just("POST"), st.one_of(valid, game, game, broken))
    gets = st.tuples(st.just("GET"), st.tuples(st.sampled_from(
        ["/api/state", "/api/health", "/api/whoami", "/api/seats", "/api/openapi.json",
         "/api/messages", "/", "/static/app.js", "/api/editions", "/seat/1"]), st.none()))
    keys = st.one_of(st.none(), st.none(), st.sampled_from(["k1", "k2"]),
                     st.text(min_size=1, max_size=12).filter(str.isprintable), st.just("x" * 65))
    return st.tuples(st.sampled_from(IDENTITIES), st.integers(0, 2), st.integers(0, 10_000),
                     st.one_of(posts, posts, posts, gets), keys)


def waited_on(state: bytes) -> list[int]:
    """The seats the table waits on now, from `GET /api/state`: the seat to act, or
    the seats still to turn a card for the dealer (`waiting.missing`)."""
    try:
        data = json.loads(state)
    except ValueError:
        return []
    seat = data.get("to_act")
    if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
        return [seat]
    missing = (data.get("waiting") or {}).get("missing")
    return [s for s in missing if isinstance(s, int)] if isinstance(missing, list) else []


def fuzz_roles(examples: int, seed: int, seats: int = 4) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    per_identity: dict[str, Counter[int]] = {}
    not_theirs: Counter[int] = Counter()  # statuses of the requests a role may not make
    for_another: Counter[int] = Counter()  # ... of a seat's phone declaring for another seat
    turns = itertools.count()  # which address the next forged or revoked token comes from
    problems: list[str] = []
    with workdir("fuzz-roles") as tmp:
        import tomlkit

        config = sim_config(tmp, port=(port := free_port()))
        doc = tomlkit.parse(config.read_text())
        doc["api"]["token"] = owner = secrets.token_urlsafe(32)  # type: ignore[index]
        config.write_text(tomlkit.dumps(doc))
        held, viewer, revoked = seat_store(tmp, seats)
        with served_daemon(tmp, config) as served:
            proc = served.proc
            as_owner = {"Authorization": f"Bearer {owner}".encode()}
            look = Http(port)
            tokens = Tokens(owner, {}, viewer, revoked)
            for token, stored in held.items():  # which seat the server says each token is
                status, answer = look("GET", "/api/whoami", None, "",
                                      {"Authorization": f"Bearer {token}".encode()})
                who = json.loads(answer) if status == 200 else {}
                if who.get("role") != "seat" or not isinstance(who.get("seat"), int):
                    problems.append(f"whoami for stored seat {stored}: {status} {answer[:80]!r}")
                    continue
                tokens.seats[who["seat"]] = token
            if not tokens.seats:
                raise RuntimeError(f"no seat token was taken: {problems[:3]}")

            def check(req: tuple[str, int, int, tuple[str, tuple[str, Any]], str | None]) -> None:
                identity, mode, draw, (method, (path, body)), key = req
                if identity == "owner" and path == "/api/seats/revoke":
                    identity = "seat"  # the owner revoking would end the seats' identities
                if proc.poll() is not None:
                    counts["after_crash"] += 1
                    return
                seat = None
                before = look("GET", "/api/state", None, "", as_owner)[1]
                if identity == "seat":
                    held = sorted(tokens.seats)
                    seat = held[draw % len(held)]
                    waited = waited_on(before)
                    acting = waited[draw % len(waited)] if waited else None
                    if mode == 1 and acting is not None and len(held) > 1:
                        others = [s for s in held if s != acting]
                        seat = others[draw % len(others)]  # another seat's phone ...
                    if path == "/api/reveal" and isinstance(body, dict) and mode < 2:
                        body = {**body, "seat": -1}  # a card turned for the dealer: a seat's
                    if isinstance(body, dict) and "seat" in body and mode < 2:
                        named = seat if mode == 0 or acting is None else acting
                        body = {**body, "seat": named}  # ... for a seat the table waits on
                    identity_name = f"seat {seat}"
                    token: str | None = tokens.seats[seat]
                    source = f"127.0.0.{10 + seat}"
                else:
                    identity_name = identity
                    token = {"owner": owner, "viewer": viewer, "none": None,
                             "forged": forged(tokens, draw),
                             "revoked": revoked[draw % len(revoked)]}[identity]
                    source = SOURCES.get(identity) or f"127.0.0.{50 + next(turns) % 100}"
                if path == "/api/seats/claim":
                    source = "127.0.0.40"  # bad joins slow their address: not the identity's
                headers = {} if token is None else {"Authorization": f"Bearer {token}".encode()}
                if key is not None:
                    headers["Idempotency-Key"] = key.encode()
                data = None if body is None else json.dumps(body).encode()
                try:
                    status, answer = Http(port, source)(method, path, data,
                                                        "application/json" if data else "", headers)
                except OSError as exc:
                    counts["no_answer"] += 1
                    problems.append(f"{identity_name} {method} {path}: no answer ({exc})")
                    return
                counts["tried"] += 1
                per_identity.setdefault(identity, Counter())[status] += 1
                barred = wrong_role(identity, seat, method, path, body)
                not_theirs[status] += barred
                if barred and identity == "seat" and path in GAME_PATHS:
                    for_another[status] += 1
                if status >= 500:
                    counts["5xx"] += 1
                    problems.append(f"{identity_name} {method} {path} {data!r:.80}: {status} {answer[:160]!r}")
                elif status >= 400:
                    counts["rejected"] += 1
                    counts["429"] += status == 429
                    if not _error_body(answer):
                        counts["unclear"] += 1
                        problems.append(f"{identity_name} {method} {path}: {status} without a reason")
                    if look("GET", "/api/state", None, "", as_owner)[1] != before:
                        counts["changed_on_reject"] += 1
                        problems.append(f"{identity_name} {method} {path} {data!r:.80}: refused "
                                        f"with {status} but the state changed")
                else:
                    counts["accepted"] += 1
                    if barred:
                        counts["wrong_role_2xx"] += 1
                        problems.append(f"{identity_name} {method} {path} {data!r:.80}: {status} "
                                        f"{answer[:120]!r}")

            _run_examples(role_requests(), examples, seed, check)
    return {"tried": counts["tried"], "accepted": counts["accepted"],
            "rejected": counts["rejected"], "throttled_429": counts["429"],
            "5xx": counts["5xx"], "wrong_role_2xx": counts["wrong_role_2xx"],
            "changed_on_reject": counts["changed_on_reject"], "unclear": counts["unclear"],
            "no_answer": counts["no_answer"] + counts["after_crash"],
            "not_theirs": sum(not_theirs.values()),
            "not_theirs_statuses": {str(k): v for k, v in sorted(not_theirs.items()) if v},
            "for_another_seat": sum(for_another.values()),
            "for_another_seat_statuses": {str(k): v for k, v in sorted(for_another.items())},
            "seats_held": sorted(tokens.seats), "alive": served.alive,
            "stopped_cleanly": served.stopped_cleanly, "tracebacks_logged": served.tracebacks,
            "statuses": {name: {str(k): v for k, v in sorted(c.items())}
                         for name, c in sorted(per_identity.items())},
            "problems": problems[:20]}
