"""Bad input: property-based fuzzing of the API, of config files and of scenario files.

    python bench/fuzz.py [--examples N] [--seed S] [--json]

API: the real daemon, `unotable run` on the simulated twin (default config, a free
port), started with a notify socket and fuzzed over HTTP with hypothesis. Requests
are drawn from the API's own OpenAPI schemas (`firmware.api.schema`: bodies that
validate, with real cards and seats, so many are accepted and move the game), from
those bodies broken (a required field dropped, an unknown one added, a wrong type),
from arbitrary JSON and bytes, from bodies nested 1,000 to 20,000 deep, and from any
method on any path; a third of them carry odd headers (issue 10): a foreign, `null`,
other-port or non-UTF-8 `Origin` or `Referer`, a `Host` that does not name the table
(DNS rebinding) or is not UTF-8, an `Authorization` of random bytes, random header
names and values. For every request: no 5xx, the process still alive, when it was
refused `GET /api/state` is the same before and after, and a request from a foreign
origin or for a foreign host never gets a 2xx (nor state).

Config files: the built-in default with sections and keys removed, added or set to
random values, and raw byte damage to its text, checked with `unotable config check`:
exit 0 or 1, never a traceback; a file it passes loads, a file it rejects does not.

Scenario files: the examples in docs/scenarios with their fields and actions replaced
by random values (NaN, infinities and integers over 64 bits among them), and raw byte
damage, run with `unotable scenario`: exit 0 or 2 (a clear error naming the bad input),
never a traceback.

Bad inputs (issue 21): every numeric option of the config schema (firmware.config_schema)
set to nan, inf, -inf, 1e400, -1, 0 and 1, through `config check` (refused naming the
key when out of range) and `run` (exit 2); the scenario's number fields set to those and
to 5,000-digit integers; a FIFO, a directory, a device, nesting 100,000 deep and
5,000-digit integers given to `config check`, `run` and `scenario`: one line, the
documented exit status, never a traceback and never a wait.

Roles (issue 20, bench/fuzz_roles.py): the same kinds of requests sent as the owner,
each seat's phone (for itself and for other seats), a viewer, forged and revoked
tokens and none, to a daemon with an [api] token and a seats store: no request a role
may not make gets a 2xx (`wrong_role_2xx`), no 5xx.

Figures: requests / files tried, rejected, 5xx or crashes (must be 0), refusals that
changed the state (must be 0), wrong_role_2xx (must be 0).
"""

from __future__ import annotations

if not __package__:  # run as `python bench/NAME.py`: bench/_path.py
    import _path  # noqa: F401

import argparse
import contextlib
import http.client
import io
import json
import sys
import tomllib
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bench.common import (
    REPO,
    Figure,
    Result,
    exactly,
    free_port,
    machine_load,
    progress,
    report,
    served_daemon,
    sim_config,
    workdir,
)

Strategy = st.SearchStrategy[Any]


def _run_examples(strategy: Strategy, examples: int, seed: int,
                  check: Callable[[Any], None]) -> None:
    """Call `check` on `examples` values drawn by hypothesis (no shrinking: `check`
    counts what it sees instead of failing)."""

    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(strategy)
    def each(value: Any) -> None:
        check(value)

    from hypothesis import seed as hseed

    hseed(seed)(each)()


# -- the API ---------------------------------------------------------------------------
def _cards() -> list[str]:
    from uno_core import EDITIONS, format_card, get_edition

    return sorted({format_card(c) for e in EDITIONS for c in get_edition(e).deck})


def from_schema(schema: dict[str, Any], cards: Strategy) -> Strategy:
    """Values that validate against one of the API's JSON schemas (the subset it uses)."""
    if "anyOf" in schema:
        return st.one_of([from_schema(s, cards) for s in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        if not props:
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict):
                return st.dictionaries(st.text(min_size=1, max_size=12),
                                       from_schema(extra, cards), max_size=3)
            return st.just({})
        return st.fixed_dictionaries(
            {k: from_schema(v, cards) for k, v in props.items() if k in required},
            optional={k: from_schema(v, cards) for k, v in props.items() if k not in required})
    if kind == "integer":
        lo, hi = schema.get("minimum", -(2**31)), schema.get("maximum", 2**31)
        return st.integers(lo, min(hi, lo + 12)) | st.integers(lo, hi)
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        if schema.get("pattern", "").startswith("^[RGBYW]"):
            return cards | st.from_regex(schema["pattern"], fullmatch=True)
        return st.text(max_size=min(schema.get("maxLength", 16), 16))
    if kind == "array":
        return st.lists(from_schema(schema["items"], cards),
                        max_size=min(schema.get("maxItems", 4), 4))
    return st.none()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=True)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)


def _broken(body: Any, draw_key: str, junk: Any, how: int) -> Any:
    if not isinstance(body, dict):
        return body
    body = dict(body)
    if how == 0 and body:
        body.pop(sorted(body)[len(draw_key) % len(body)])  # a field missing
    elif how == 1:
        body[draw_key or "x"] = junk  # an unknown field
    elif body:
        body[sorted(body)[len(draw_key) % len(body)]] = junk  # a wrong type or value
    return body


def deep_bodies() -> Strategy:
    """JSON nested far deeper than any parser's recursion (20,000 levels), whole or cut."""
    def nest(depth: int, kind: str, whole: bool) -> bytes:
        opening, closing = {"list": (b"[", b"]"), "object": (b'{"a":', b"}")}[kind]
        return opening * depth + ((b"1" + closing * depth) if whole else b"")

    return st.builds(nest, st.sampled_from([1000, 5000, 12_000, 20_000]),
                     st.sampled_from(["list", "object"]), st.booleans())


FOREIGN_ORIGINS = ["http://evil.example", "null", "https://127.0.0.1", "http://localhost.evil.example"]


def odd_headers(port: int) -> Strategy:
    """Header sets a browser page, a rebinding attack or a broken client might send;
    values are bytes (sent as they are, UTF-8 or not)."""
    own = f"http://127.0.0.1:{port}".encode()
    origins = st.sampled_from([own, *(o.encode() for o in FOREIGN_ORIGINS),
                               f"http://127.0.0.1:{port + 1}".encode(), b"http://\xff\xfe", b""])
    hosts = st.sampled_from([f"127.0.0.1:{port}".encode(), f"localhost:{port}".encode(),
                             f"[::1]:{port}".encode(), b"evil.example", f"evil.example:{port}".encode(),
                             b"\xff\xfe.example", b""])
    junk = st.binary(min_size=1, max_size=24).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b"") or b"x")
    names = st.sampled_from(["X-Odd", "Accept", "Cookie", "Content-Encoding", "Expect", "Connection",
                             "Sec-Fetch-Site", "Upgrade"])
    return st.fixed_dictionaries({}, optional={
        "Origin": origins, "Referer": origins.map(lambda o: o + b"/page"), "Host": hosts,
        "Authorization": st.one_of(junk, junk.map(lambda b: b"Bearer " + b)),
    }).flatmap(lambda base: st.dictionaries(names, junk, max_size=2).map(lambda extra: {**extra, **base}))


def foreign(method: str, headers: dict[str, bytes], port: int) -> bool:
    """Whether the front door must refuse this request: a foreign Origin (or, for a
    POST without Origin, a foreign Referer), or a Host that does not name the table."""
    host = headers.get("Host", f"127.0.0.1:{port}".encode())
    name = host.rsplit(b":", 1)[0] if not host.startswith(b"[") else host.split(b"]")[0] + b"]"
    if host and name not in (b"127.0.0.1", b"localhost", b"[::1]"):
        return True
    own = b"http://" + host
    origin = headers.get("Origin")
    if origin is not None:
        return origin != own
    referer = headers.get("Referer")
    return method not in ("GET", "HEAD", "OPTIONS") and referer is not None and \
        not referer.startswith(own + b"/")


def api_requests(port: int = 8080) -> Strategy:
    """(method, path, body bytes or None, content type, extra headers)."""
    from firmware.api.schema import ADMIN_BODIES, BODIES

    cards = st.sampled_from(_cards())
    endpoints = {**{p: s for p, (s, _summary) in BODIES.items()},
                 **{f"/api/admin/{a}": s for a, s in ADMIN_BODIES.items()}}
    valid = st.one_of([st.tuples(st.just(p), from_schema(s, cards)) for p, s in endpoints.items()])
    broken = st.builds(lambda pb, k, j, h: (pb[0], _broken(pb[1], k, j, h)),
                       valid, st.text(max_size=6), JSON, st.integers(0, 2))
    paths = st.sampled_from([*endpoints, "/api/state", "/api/health", "/api/openapi.json",
                             "/api/ws", "/api/admin/unknown", "/api/nothing", "/", "/api/play/x",
                             "/api/admin/", "/api/admin/new-match/1", "/api/editions",
                             "/api/screen/launcher", "/static/app.js", "/static/../../etc/passwd",
                             "/api/state?x=1", "/api/ws?token=x"])
    as_json = st.tuples(st.just("POST"), st.one_of(valid, broken, st.tuples(paths, JSON)))
    posts = as_json.map(lambda mb: (mb[0], mb[1][0], json.dumps(mb[1][1]).encode(),
                                    "application/json"))
    raw = st.tuples(st.sampled_from(["POST", "PUT", "DELETE", "PATCH", "GET"]), paths,
                    st.none() | st.binary(max_size=64),
                    st.sampled_from(["application/json", "text/plain", ""]))
    big = st.tuples(st.just("POST"), st.sampled_from(list(endpoints)),
                    st.integers(60_000, 80_000).map(lambda n: b'{"seat": 0, "x": "' + b"a" * n
                                                    + b'"}'), st.just("application/json"))
    deep = st.tuples(st.just("POST"), st.sampled_from(list(endpoints)), deep_bodies(),
                     st.just("application/json"))
    plain = st.one_of(posts, posts, posts, raw, big, deep)
    headers = st.one_of(st.just({}), st.just({}), odd_headers(port))
    return st.builds(lambda req, extra: (*req, extra), plain, headers)


class Http:
    def __init__(self, port: int, source: str | None = None) -> None:
        self.port = port
        self.source = source  # the loopback address to send from (127.0.0.x), else any

    def __call__(self, method: str, path: str, body: bytes | None = None,
                 ctype: str = "application/json",
                 extra: dict[str, bytes] | None = None) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15,
                                          source_address=(self.source, 0) if self.source else None)
        try:
            headers: dict[str, str | bytes] = {"Content-Type": ctype} if ctype else {}
            headers.update(extra or {})
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            return resp.status, resp.read()
        finally:
            conn.close()


def fuzz_api(examples: int, seed: int) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    problems: list[str] = []
    statuses: Counter[int] = Counter()
    with workdir("fuzz") as tmp:
        port = free_port()
        with served_daemon(tmp, sim_config(tmp, port=port)) as served:
            proc = served.proc
            call = Http(port)

            def check(req: tuple[str, str, bytes | None, str, dict[str, bytes]]) -> None:
                method, path, body, ctype, extra = req
                if proc.poll() is not None:
                    counts["after_crash"] += 1
                    return
                before = call("GET", "/api/state")[1]
                try:
                    status, answer = call(method, path, body, ctype, extra)
                except (OSError, http.client.HTTPException) as exc:
                    counts["no_answer"] += 1
                    problems.append(f"{method} {path}: no answer ({exc})")
                    return
                counts["tried"] += 1
                counts["odd_headers"] += bool(extra)
                statuses[status] += 1
                if foreign(method, extra, port) and status < 400:
                    counts["foreign_passed"] += 1
                    problems.append(f"{method} {path} {extra}: {status} from a foreign origin or host")
                if status >= 500:
                    counts["5xx"] += 1
                    problems.append(f"{method} {path} {body[:80] if body else body!r} {extra}: {status} "
                                    f"{answer[:200]!r}")
                elif status >= 400:
                    counts["rejected"] += 1
                    if not _error_body(answer):
                        counts["unclear"] += 1
                        problems.append(f"{method} {path}: {status} without a reason: {answer[:80]!r}")
                    if call("GET", "/api/state")[1] != before:
                        counts["changed_on_reject"] += 1
                        problems.append(f"{method} {path} {body[:80] if body else body!r}: "
                                        f"refused with {status} but the state changed")
                else:
                    counts["accepted"] += 1

            _run_examples(api_requests(port), examples, seed, check)
    return {"tried": counts["tried"], "accepted": counts["accepted"],
            "rejected": counts["rejected"], "5xx": counts["5xx"],
            "no_answer": counts["no_answer"] + counts["after_crash"],
            "changed_on_reject": counts["changed_on_reject"], "unclear": counts["unclear"],
            "odd_headers": counts["odd_headers"], "foreign_passed": counts["foreign_passed"],
            "alive": served.alive, "stopped_cleanly": served.stopped_cleanly,
            "tracebacks_logged": served.tracebacks,
            "statuses": {str(k): v for k, v in sorted(statuses.items())},
            "problems": problems[:20]}


def _error_body(answer: bytes) -> bool:
    try:
        data = json.loads(answer)
    except ValueError:
        return False
    return isinstance(data, dict) and bool(data.get("reason")) and "error" in data


# -- files -----------------------------------------------------------------------------
def _cli(args: list[str]) -> tuple[int | None, str]:
    """Run `unotable ARGS` in this process; (exit status, traceback or '')."""
    import traceback

    from firmware.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            return main(args), ""
    except SystemExit as exc:
        return int(exc.code or 0), ""
    except Exception:
        return None, traceback.format_exc(limit=3)


def _damaged(text: str) -> Strategy:
    data = text.encode()
    edits = st.lists(st.tuples(st.integers(0, len(data) - 1), st.integers(0, 255),
                               st.sampled_from(["flip", "drop", "insert"])), min_size=1, max_size=6)

    def apply(ops: list[tuple[int, int, str]]) -> bytes:
        b = bytearray(data)
        for at, value, how in ops:
            at = min(at, len(b) - 1)
            if how == "flip":
                b[at] = value
            elif how == "drop":
                del b[at]
            else:
                b.insert(at, value)
        return bytes(b)

    return edits.map(apply)


SCALARS = (st.booleans() | st.integers(-5, 70000) | st.floats(-1e3, 1e3, allow_nan=False)
           | st.sampled_from([float("nan"), float("inf"), float("-inf"), 2**64, -(2**70)])
           | st.text(max_size=8) | st.sampled_from(["/dev/ttyUSB0", "loop://", "neutral", "R7",
                                                      "W+4", "power", "play", "U"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(min_size=1, max_size=6), inner, max_size=3),
                      max_leaves=8)


def _mutated(doc: dict[str, Any]) -> Strategy:
    """`doc` with 1-4 keys (top level, or inside a table) removed, added or replaced."""

    @st.composite
    def build(draw: Callable[[Strategy], Any]) -> dict[str, Any]:
        out = json.loads(json.dumps(doc))
        for _ in range(draw(st.integers(1, 4))):
            where = out
            tables = [k for k, v in out.items() if isinstance(v, dict)]
            if tables and draw(st.booleans()):
                where = out[draw(st.sampled_from(tables))]
            lists = [k for k, v in where.items() if isinstance(v, list) and v]
            if lists and draw(st.booleans()):
                items = where[draw(st.sampled_from(lists))]
                i = draw(st.integers(0, len(items) - 1))
                if isinstance(items[i], dict) and items[i] and draw(st.booleans()):
                    items[i][draw(st.sampled_from(sorted(items[i])))] = draw(VALUES)
                else:
                    items[i] = draw(VALUES)
                continue
            key = draw(st.sampled_from([*where, "bogus"])) if where else "bogus"
            if draw(st.integers(0, 2)) == 0:
                where.pop(key, None)
            else:
                where[key] = draw(VALUES)
        return out

    return build()


def _files(base_texts: list[str]) -> Strategy:
    import tomlkit

    docs = st.one_of([_mutated(tomllib.loads(t)) for t in base_texts])
    return st.one_of(docs.map(lambda d: tomlkit.dumps(d).encode()),
                     st.one_of([_damaged(t) for t in base_texts]))


def fuzz_files(kind: str, examples: int, seed: int) -> dict[str, Any]:
    from firmware.config import DEFAULT_PATH, load_config
    from firmware.errors import ConfigError

    if kind == "config":
        bases = [DEFAULT_PATH.read_text()]
    else:
        bases = [p.read_text() for p in sorted((REPO / "docs" / "scenarios").glob("*.toml"))]
    counts: Counter[str] = Counter()
    problems: list[str] = []
    with workdir(f"fuzz-{kind}") as tmp:
        path = tmp / f"{kind}.toml"

        def check(data: bytes) -> None:
            path.write_bytes(data)
            counts["tried"] += 1
            if kind == "config":
                status, tb = _cli(["config", "check", str(path)])
                ok_status = (0, 1)
            else:
                status, tb = _cli(["scenario", "--json", str(path)])
                ok_status = (0, 2)
            if status not in ok_status:
                counts["crashed"] += 1
                problems.append(f"{data[:120]!r}: exit {status} {tb[-400:]}")
                return
            counts["rejected" if status else "accepted"] += 1
            if kind == "config":  # what `check` says is what loading does
                try:
                    load_config(path)
                    loads = True
                except (ConfigError, OSError):
                    loads = False
                except Exception as exc:
                    loads = None
                    problems.append(f"load_config: {type(exc).__name__}: {exc}")
                if loads is not (status == 0):
                    counts["disagree"] += 1
                    if len(problems) < 20:
                        problems.append(f"check exit {status} but load_config "
                                        f"{'loads' if loads else 'fails'}: {data[:120]!r}")

        _run_examples(_files(bases), examples, seed, check)
    return {"tried": counts["tried"], "accepted": counts["accepted"],
            "rejected": counts["rejected"], "crashed": counts["crashed"],
            "disagree": counts["disagree"], "problems": problems[:20]}


NUMBER_LITERALS = ("nan", "inf", "-inf", "1e400", "-1", "0", "1")
# Scenario fields that hold numbers (uno_core.scenario), and values no field may take.
SCENARIO_NUMBERS = ("seats", "turn", "direction", "dealer", "round", "since_eject", "uno_exposed")
SCENARIO_LITERALS = ("nan", "inf", "-inf", "1e400", "-1", "0x" + "f" * 5000, "9" * 5000)


def _special_inputs(tmp: Any) -> list[tuple[str, str]]:
    """(name, path) of files no command may read as text or wait on."""
    import os

    fifo, directory = tmp / "fifo.toml", tmp / "directory.toml"
    os.mkfifo(fifo)
    directory.mkdir()
    texts = {
        "deep.toml": "[table]\nnames = " + "[" * 100_000 + "]" * 100_000 + "\n",
        "deep.json": '{"hands": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "digits.toml": "[table]\nseats = " + "7" * 5000 + "\n",
        "digits.json": '{"seats": ' + "7" * 5000 + "}",
        "hex.toml": "[table]\nseats = 0x" + "f" * 5000 + "\n",
    }
    for name, text in texts.items():
        (tmp / name).write_text(text)
    return [("FIFO", str(fifo)), ("directory", str(directory)), ("device", "/dev/null"),
            *((name, str(tmp / name)) for name in texts)]


def _bounded_cli(args: list[str]) -> tuple[int | None, str, str, bool]:
    """`_cli` in a thread: (exit status, traceback, what it printed, whether it came back
    within 20 s; a command that waits on a FIFO never does)."""
    import threading
    import traceback

    from firmware.cli import main

    done: list[tuple[int | None, str, str]] = []

    def call() -> None:
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                code: int | None = main(args)
            done.append((code, "", out.getvalue()))
        except SystemExit as exc:
            done.append((int(exc.code or 0), "", out.getvalue()))
        except Exception:
            done.append((None, traceback.format_exc(limit=3), out.getvalue()))

    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    worker.join(20)
    return (*done[0], True) if done else (None, "", "", False)


def fuzz_bad_inputs() -> dict[str, Any]:
    """Every numeric option of the config schema set to nan, ±inf, 1e400, -1, 0 and 1
    (`config check`, and `run` on what it refuses); the scenario's number fields set to
    those and to 5,000-digit integers; a FIFO, a directory, a device, nesting 100,000
    deep and 5,000-digit integers given to `config check`, `run` and `scenario`."""
    from firmware.config_schema import schema, with_value

    counts: Counter[str] = Counter()
    problems: list[str] = []

    def judge(what: str, args: list[str], codes: tuple[int, ...], *, names: str = "") -> int | None:
        code, tb, said, came_back = _bounded_cli(args)
        counts["tried"] += 1
        if not came_back:
            counts["blocked"] += 1
            problems.append(f"{what}: {' '.join(args[:2])} never came back")
        elif tb or code not in codes:
            counts["crashed"] += 1
            problems.append(f"{what}: exit {code} {tb[-300:]}")
        elif code and names and names not in said:
            counts["unclear"] += 1
            problems.append(f"{what}: refused without naming {names}: {said[-200:]!r}")
        return code

    with workdir("fuzz-bad-inputs") as tmp:
        path = tmp / "config.toml"
        for text, option in schema(tmp):
            for literal in NUMBER_LITERALS:
                path.write_text(with_value(text, option.key, literal))
                allowed = option.allows(tomllib.loads(f"v = {literal}")["v"])
                code = judge(f"{option.key} = {literal}", ["config", "check", str(path)], (0, 1),
                             names="" if allowed else option.key)
                if code == 1 and not allowed:
                    judge(f"run: {option.key} = {literal}", ["run", "--config", str(path)], (2,),
                          names=option.key)
        scenario = (REPO / "docs" / "scenarios" / "power-capture.toml").read_text()
        for field in SCENARIO_NUMBERS:
            for literal in SCENARIO_LITERALS:
                bad = tmp / "scenario.toml"
                bad.write_text(f"{field} = {literal}\n" + "\n".join(
                    line for line in scenario.splitlines() if not line.startswith(f"{field} ")))
                judge(f"scenario {field} = {literal[:12]}", ["scenario", str(bad)], (0, 2))
        for name, special in _special_inputs(tmp):
            judge(f"{name}: config check", ["config", "check", special], (1,), names=special)
            judge(f"{name}: run", ["run", "--config", special], (2,), names=special)
            judge(f"{name}: scenario", ["scenario", special], (2,), names=special)
    return {"tried": counts["tried"], "crashed": counts["crashed"], "blocked": counts["blocked"],
            "unclear": counts["unclear"], "problems": problems[:20]}


def fuzz_roles_or_none(examples: int, seed: int) -> dict[str, Any] | None:
    """bench/fuzz_roles.py's run, or None on a tree without seat keys (firmware.seat_keys)."""
    try:
        import firmware.seat_keys  # noqa: F401
    except ImportError:
        progress("fuzz: no firmware.seat_keys here: the role variants are not run")
        return None
    from bench.fuzz_roles import fuzz_roles

    progress(f"fuzz: {examples} requests as the owner, seats, a viewer, forged and revoked tokens")
    return fuzz_roles(examples, seed)


def run(quick: bool = False, *, examples: int | None = None, seed: int = 1) -> Result:
    examples = examples if examples is not None else (150 if quick else 3000)
    result = Result("fuzz")
    progress(f"fuzz: {examples} requests to unotable run on the twin")
    api = fuzz_api(examples, seed)
    result.add(Figure("API requests tried", api["tried"]))
    result.add(Figure("API requests accepted / rejected (4xx)",
                      f"{api['accepted']} / {api['rejected']}"))
    result.add(exactly("API 5xx", api["5xx"], 0))
    result.add(exactly("API refusals that changed the state", api["changed_on_reject"], 0))
    result.add(exactly("API errors without a JSON reason", api["unclear"], 0))
    result.add(Figure("API requests with odd headers (Origin, Host, Referer, Authorization)",
                      api["odd_headers"]))
    result.add(exactly("API requests from a foreign origin or host that got a 2xx",
                       api["foreign_passed"], 0))
    result.add(exactly("API no answer / daemon died", api["no_answer"], 0))
    result.add(exactly("daemon stopped cleanly at the end", api["stopped_cleanly"], True))
    roles = fuzz_roles_or_none(examples, seed)
    if roles is not None:
        result.add(Figure("API requests as owner / seat / viewer / forged / revoked / no token",
                          roles["tried"]))
        result.add(Figure("API requests a role may not make (seat for another seat, seat or "
                          "viewer as owner, forged, revoked, no token)", roles["not_theirs"]))
        result.add(exactly("API requests a role may not make that got a 2xx (wrong_role_2xx)",
                           roles["wrong_role_2xx"], 0))
        result.add(exactly("API 5xx, sent as every role", roles["5xx"], 0))
        result.add(exactly("API refusals that changed the state, as every role",
                           roles["changed_on_reject"], 0))
        result.add(Figure("API role requests accepted / rejected (of which 429)",
                          f"{roles['accepted']} / {roles['rejected']} ({roles['throttled_429']})"))
        result.add(exactly("API no answer / daemon died, as every role",
                           roles["no_answer"] + (not roles["stopped_cleanly"]), 0))
    files = {}
    for kind in ("config", "scenario"):
        n = max(20, examples // 3)
        progress(f"fuzz: {n} {kind} files")
        r = files[kind] = fuzz_files(kind, n, seed)
        result.add(Figure(f"{kind} files tried (rejected)", f"{r['tried']} ({r['rejected']})"))
        result.add(exactly(f"{kind} files that crashed the command", r["crashed"], 0))
    result.add(exactly("config check vs load_config disagreements", files["config"]["disagree"], 0))
    progress("fuzz: every numeric option at nan/inf/out of range; FIFOs, devices, deep files")
    bad = fuzz_bad_inputs()
    result.add(Figure("config and scenario bad inputs tried", bad["tried"]))
    result.add(exactly("bad inputs that crashed the command (traceback, wrong exit)", bad["crashed"], 0))
    result.add(exactly("bad inputs a command waited on (FIFO)", bad["blocked"], 0))
    result.add(exactly("bad inputs refused without naming the key or file", bad["unclear"], 0))
    result.detail = {"api": api, "roles": roles, **files, "bad_inputs": bad, "seed": seed,
                     "load": machine_load()}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, help="API requests (3000; --quick 150); "
                        "a third as many config and scenario files")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.examples is not None and args.examples < 1:
        parser.error("--examples must be at least 1")
    return report(run(args.quick, examples=args.examples, seed=args.seed), args.json)


if __name__ == "__main__":
    sys.exit(main())
