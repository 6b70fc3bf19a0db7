"""The local HTTP + WebSocket API (aiohttp), running on the daemon's one event loop.

Handlers never touch game state: reads call `Table.public_state()`/`health()` on the
loop, writes validate the JSON body into a typed request and ``await loop.call(req)``,
which queues it behind every earlier event and returns the `Table.submit` result.

Who may come in is `firmware.api.guard` (Host, Origin, JSON bodies); how many, and for
how long, is `firmware.api.connections` (cap, header deadline); the body deadline and
the bounded stop are here.

Who a request is (`Who`: owner, seat, viewer) is `firmware.api.identity`, decided by the
auth middleware here from its token; requests reach the table with ``by=who`` and
``key=`` the ``Idempotency-Key`` header, and the controller judges what each role may
do (`firmware.api.roles`). The door's own rules: a viewer posts nothing; ``/api/admin/*``,
``GET /api/seats``, approving, refusing and revoking seats and minting viewer tokens are
the owner's. Phones join through ``POST /api/seats/claim`` (`firmware.api.seat_door`).
Event streams are shared out by `firmware.api.streams`; a stream whose token is revoked
(here, or by another process: noticed within a second) is closed with 1008.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

from aiohttp import WSCloseCode, web

from firmware.api import identity, schema
from firmware.api.answers import (
    bad_field,
    error,
    json_errors_outside_the_app,
    protocols_with_json_errors,
    rejected,
)
from firmware.api.attempts import Attempts
from firmware.api.connections import ACCEPT_BURST, Connections
from firmware.api.guard import SAFE_METHODS, FrontDoor, Refused, add_security_headers
from firmware.api.log_limit import accept_errors_rate_limited
from firmware.api.recent import RecentPlays
from firmware.api.requests import OWNER, Admin, Request, Table, Who
from firmware.api.routes import BUILDERS
from firmware.api.seat_door import CLAIM_PATH, SeatDoor
from firmware.api.streams import Streams
from firmware.config import ApiConfig, is_loopback
from firmware.errors import ConfigError, LoopStopped, Rejected
from firmware.loop import TableLoop
from firmware.seat_keys import SeatKeys
from firmware.serve import add_screen_routes, is_public
from firmware.words.messages import ANSWER_LANGUAGE, DEFAULT_LANGUAGE, Words, asked_language
from firmware.words.rejected import Phrase
from hal.clock import REAL_TIME, Clock

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024
MAX_CONNECTIONS = 256  # far below the unit's LimitNOFILE=1024
HEADER_TIMEOUT = 10.0  # seconds for a complete request header (after opening or an answer)
BODY_TIMEOUT = 10.0  # seconds for the whole body once the header is in
STOP_TIMEOUT = 1.0  # at a stop: for event streams to close, then for answers in flight
STREAMS_PER_IDENTITY = 4  # event streams one owner, seat or viewer token holds at once


async def _drop(ws: web.WebSocketResponse, code: int = WSCloseCode.TRY_AGAIN_LATER,
                message: bytes = b"too slow") -> None:
    """Disconnect a stream (too slow, revoked, or making room); its own failure concerns
    nobody else."""
    with contextlib.suppress(Exception):
        await ws.close(code=code, message=message)


class _Client:
    def __init__(self, ws: web.WebSocketResponse, backlog: int, who: Who, token: str | None) -> None:
        self.ws = ws
        self.who = who
        self.token = token  # to notice its revocation
        self.queue: asyncio.Queue[Mapping[str, Any] | None] = asyncio.Queue(backlog)


class ApiServer:
    def __init__(
        self,
        table: Table,
        loop: TableLoop,
        *,
        host: str = "127.0.0.1",
        port: int = 8080,
        token: str | None = None,
        max_clients: int = 16,
        backlog: int = 256,
        allowed_hosts: Iterable[str] = (),
        max_connections: int = MAX_CONNECTIONS,
        header_timeout: float = HEADER_TIMEOUT,
        body_timeout: float = BODY_TIMEOUT,
        stop_timeout: float = STOP_TIMEOUT,
        clock: Clock = REAL_TIME,
        seat_keys: SeatKeys | None = None,
        streams_per_identity: int = STREAMS_PER_IDENTITY,
        attempts: Attempts | None = None,
        trusted_proxy: str | None = None,
    ) -> None:
        """`seat_keys`: the seats' device tokens and invitations (None: only the owner and
        no seat endpoints but whoami); `attempts`: how failed tokens are slowed;
        `trusted_proxy`: the address of a proxy whose X-Forwarded-For names the client."""
        if token is None and not is_loopback(host):
            raise ConfigError("api.token", f"is required when api.host is {host!r} (not a loopback address)")
        self.table, self.loop, self.host, self.port = table, loop, host, port
        self._token = token
        self._max_clients = max_clients
        self._backlog = backlog
        self._clients: set[_Client] = set()
        self._streams: Streams[_Client] = Streams(cap=max_clients, per_identity=streams_per_identity)
        self.clock = clock
        self.seat_keys, self.recent = seat_keys, RecentPlays()  # the board's strip of plays
        self._keys_checked = -1  # the seat keys' generation the streams were checked at
        self.attempts = attempts or Attempts(clock=clock)
        self.identities = identity.Identities(token, seat_keys)
        self.client_address: Callable[[web.Request], str] = identity.ClientAddress(trusted_proxy)
        self.door = SeatDoor(self)  # the seat endpoints (they use this server as their host)
        self._closing: set[asyncio.Task[None]] = set()
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._quiet_logs = contextlib.ExitStack()
        self.front_door = FrontDoor(host, allowed_hosts)
        self.connections = Connections(limit=max_connections, header_timeout=header_timeout, clock=clock)
        self._body_timeout, self._stop_timeout = body_timeout, stop_timeout
        self.app = self._build_app()
        loop.on(Request, table.submit)
        loop.on_shutdown(self.close)

    @classmethod
    def from_config(cls, cfg: ApiConfig, table: Table, loop: TableLoop, *,
                    seat_keys: SeatKeys | None = None, clock: Clock = REAL_TIME) -> ApiServer:
        return cls(table, loop, host=cfg.host, port=cfg.port, token=cfg.token,
                   allowed_hosts=cfg.allowed_hosts, seat_keys=seat_keys, clock=clock,
                   trusted_proxy=cfg.trusted_proxy)

    # -- life cycle ---------------------------------------------------------------
    async def start(self) -> None:
        """Listen; afterwards `port` is the bound port (useful with port 0)."""
        # lingering_time: how long an unread rest of a refused body is drained (aiohttp: 10 s)
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False,
                                     shutdown_timeout=self._stop_timeout, lingering_time=1.0)
        await self._runner.setup()
        server, guard = self._runner.server, self.connections
        assert server is not None
        server.request_handler = json_errors_outside_the_app(server.request_handler)
        aio = asyncio.get_running_loop()
        protocol = protocols_with_json_errors(server)
        self._quiet_logs.enter_context(accept_errors_rate_limited())
        # Our own listening socket instead of web.TCPSite: every connection passes the guard.
        self._listener = await aio.create_server(lambda: guard.protocol(protocol()), self.host,
                                                 self.port, backlog=ACCEPT_BURST)
        self.port = self._listener.sockets[0].getsockname()[1]
        self.door.invite_every_seat()
        self._sweeper = aio.create_task(self._sweeping())
        log.info("API serving on http://%s:%d", self.host, self.port)

    @property
    def serving(self) -> bool:
        return self._listener is not None

    async def close(self) -> None:
        """Stop listening and close every connection; bounded by twice `stop_timeout`
        whatever the clients do (half-sent requests are dropped at once)."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        dropped = self.connections.close_unpinned()
        streams = [c.ws.close(code=WSCloseCode.GOING_AWAY, message=b"table stopping") for c in list(self._clients)]
        if streams:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*streams, return_exceptions=True), self._stop_timeout)
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()  # answers in flight get `stop_timeout`, then are cut
            log.info("API closed (%d idle or half-sent connections dropped)", dropped)
        self._quiet_logs.close()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def _sweeping(self, interval: float = 1.0) -> None:
        while True:
            await asyncio.sleep(interval)
            self.tick()

    def tick(self) -> None:
        """What the sweeper does each second: close connections past their header
        deadline, notice a seats file another process changed (closing the streams of
        revoked tokens) and forget expired claims."""
        self.connections.sweep()
        if self.seat_keys is not None:
            self.seat_keys.refresh()  # (a request may have read the change already)
            if self.seat_keys.generation != self._keys_checked:
                self.recheck_streams()
        if self.door.claims.expire():
            self.door.announce()

    # -- events to WebSocket clients ----------------------------------------------
    def public_state(self) -> dict[str, Any]:
        """The table's public state with the door's part (`SeatDoor.public_part`)."""
        return {**self.table.public_state(), **self.door.public_part(), **self.recent.public()}

    def stream_callers(self) -> list[Who]:
        return [client.who for client in self._clients]

    def recheck_streams(self) -> None:
        """Close the streams whose token no longer says who they were opened as."""
        if self.seat_keys is not None:
            self._keys_checked = self.seat_keys.generation
        for client in list(self._clients):
            if client.token is not None and self.identities.resolve(client.token) != client.who:
                self._close_stream(client, WSCloseCode.POLICY_VIOLATION, b"token revoked")
        self.door.check_claims()  # a revoke by another process refuses the seat's claims
        self.door.announce()

    def _close_stream(self, client: _Client, code: int, message: bytes) -> None:
        self._clients.discard(client)
        self._streams.remove(client)
        self._closing.add(asyncio.get_running_loop().create_task(_drop(client.ws, code, message)))
        self._closing = {t for t in self._closing if not t.done()}

    def publish(self, event: Mapping[str, Any]) -> None:
        """Send `event` (plain JSON data) to every WebSocket client. Call on the loop."""
        self.recent.note(event)
        message = {"type": "event", "event": dict(event)}
        for client in list(self._clients):
            try:
                client.queue.put_nowait(message)
            except asyncio.QueueFull:
                # A client that cannot keep up is dropped rather than slowing the table.
                self._close_stream(client, WSCloseCode.TRY_AGAIN_LATER, b"too slow")

    # -- HTTP ---------------------------------------------------------------------
    def _build_app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY,
                              middlewares=[self._language, self._errors, self.front_door.middleware,
                                           self._tracked, self._auth])
        app.on_response_prepare.append(add_security_headers)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/health", self._health)
        app.router.add_get("/api/openapi.json", self._openapi)
        app.router.add_get("/api/ws", self._ws)
        app.router.add_get("/api/whoami", self._whoami)
        for path in schema.BODIES:
            app.router.add_post(path, self._poster(path))
        app.router.add_post("/api/admin/{action}", self._admin)
        self.door.add_routes(app)
        add_screen_routes(app, lambda: self.table)  # the screen: /, /static/, /api/editions
        return app

    @web.middleware
    async def _errors(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        try:
            return await handler(request)
        except Refused as exc:
            return error(exc.status, exc.kind, exc.reason)
        except schema.Invalid as exc:  # in the language asked for (English without a header)
            return bad_field(exc, Words(ANSWER_LANGUAGE.get() or DEFAULT_LANGUAGE))
        except Rejected as exc:
            return rejected(exc, self.table.refused(exc))
        except LoopStopped as exc:
            return error(503, "stopping", str(exc))
        except web.HTTPException as exc:
            if exc.status < 400:
                raise
            kind = {404: "not_found", 405: "method_not_allowed", 408: "timeout", 413: "too_large"}.get(exc.status, "http_error")
            answer = error(exc.status, kind, exc.reason, **({"Allow": exc.headers["Allow"]} if "Allow" in exc.headers else {}))
            if exc.status == 408:
                answer.force_close()  # the rest of a late body is not waited for
            return answer
        except ConnectionError:  # the client went away, or was cut at a stop
            return error(400, "bad_request", "the connection closed before the request was read")
        except Exception as exc:
            return _failed(request, exc, self.table)

    @web.middleware
    async def _language(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Answers (results, refusals, the state's texts) in the language the request asks
        for with ``Accept-Language``, else in the table's `[table] language`."""
        token = ANSWER_LANGUAGE.set(asked_language(request.headers.get("Accept-Language", "")))
        try:
            return await handler(request)
        finally:
            ANSWER_LANGUAGE.reset(token)

    @web.middleware
    async def _tracked(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        self.connections.request_started(request.transport)
        try:
            return await handler(request)
        finally:
            self.connections.request_done(request.transport)

    @web.middleware
    async def _auth(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if is_public(request.path) or request.path == CLAIM_PATH:  # the page; a phone joining
            return await handler(request)
        token = identity.given_token(request)
        if token is None:
            if self._token is not None:
                return identity.unauthorized()
            who = OWNER  # no [api] token: loopback only (see __init__), today's rights
        else:
            address = self.client_address(request)
            wait = self.attempts.retry_after(address)
            if wait is not None:
                return identity.too_many(wait)
            found = self.identities.resolve(token)
            if found is None:
                self.attempts.failed(address)
                return identity.unauthorized()
            who = found
        if who.role == "viewer" and request.method not in SAFE_METHODS:
            raise Rejected("refused.viewer", method=request.method, path=request.path, status=403)
        said = identity.CALLER.set((who, token))
        try:
            return await handler(request)
        finally:
            identity.CALLER.reset(said)

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response(self.public_state())

    async def _health(self, request: web.Request) -> web.Response:
        return web.json_response(self.table.health())

    async def _openapi(self, request: web.Request) -> web.Response:
        return web.json_response(schema.openapi(token_required=self._token is not None))

    async def _whoami(self, request: web.Request) -> web.Response:
        who = identity.who()
        return web.json_response({"role": who.role, "seat": who.seat,
                                  "name": self.door.seat_name(who.seat) if who.seat is not None else None})

    async def read_body(self, request: web.Request) -> Any:
        try:
            async with asyncio.timeout(self._body_timeout):
                raw = await request.read()
        except TimeoutError:
            raise web.HTTPRequestTimeout(reason=f"the body did not arrive within {self._body_timeout:g} s") from None
        return schema.parse(raw) if raw.strip() else {}

    async def _submit(self, request: web.Request, req: Request) -> web.Response:
        with self.connections.pinned(request.transport):  # never evicted while at the table
            result = await self.loop.call(req)
        return web.json_response({"result": dict(result or {})})

    def _poster(self, path: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        body_schema, build = schema.BODIES[path][0], BUILDERS[path]

        async def post(request: web.Request) -> web.Response:
            body = await self.read_body(request)
            schema.validate(body, body_schema)
            key = identity.idempotency_key(request)
            return await self._submit(request, dataclasses.replace(build(body), by=identity.who(), key=key))

        return post

    async def _admin(self, request: web.Request) -> web.Response:
        action = request.match_info["action"]
        identity.owner_only(Phrase("role.what.admin", {"action": action}))
        if action not in schema.ADMIN_BODIES:
            return error(404, "not_found", f"no admin action {action!r}; there are {', '.join(schema.ADMIN_BODIES)}", "action")
        body = await self.read_body(request)
        schema.validate(body, schema.ADMIN_BODIES[action])
        key = identity.idempotency_key(request)
        return await self._submit(request, Admin(action, MappingProxyType(body), by=identity.who(), key=key))

    # -- WebSocket ----------------------------------------------------------------
    async def _ws(self, request: web.Request) -> web.StreamResponse:
        who, token = identity.CALLER.get()
        ws = web.WebSocketResponse(heartbeat=30, timeout=self._stop_timeout)
        client = _Client(ws, self._backlog, who, token)
        room = self._streams.admit(client, identity.stream_identity(who, token),
                                   viewer=who.role == "viewer")
        if room is None:
            return error(503, "busy", f"at most {self._max_clients} event streams at once, and "
                         "a viewer does not push out the table's screen or a seat")
        for victim in room:
            self._close_stream(victim, WSCloseCode.TRY_AGAIN_LATER, b"room for a newer stream")
        try:
            await ws.prepare(request)
        except BaseException:
            self._streams.remove(client)
            raise
        # State and registration in one step on the loop: no event is missed or doubled.
        first = {"type": "state", "state": self.public_state()}
        self._clients.add(client)
        sender = asyncio.get_running_loop().create_task(self._send(client, first))
        self.door.announce()
        try:
            with self.connections.pinned(request.transport):
                async for _message in ws:
                    pass  # the stream is one-way; requests go through the HTTP endpoints
        finally:
            self._clients.discard(client)
            self._streams.remove(client)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
            self.door.announce()
        return ws

    async def _send(self, client: _Client, first: Mapping[str, Any]) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await client.ws.send_json(first)
            while True:
                await client.ws.send_json(await client.queue.get())

    def __repr__(self) -> str:
        state = "serving" if self._runner is not None else "stopped"
        return f"<ApiServer {self.url} {state} clients={len(self._clients)} token={'yes' if self._token else 'no'}>"


def _failed(request: web.Request, exc: Exception, table: Table) -> web.Response:
    """A file of the table's (the seats' keys) on a full disk: 507, as the journal's; any
    other failure is a bug in the table: logged with its traceback, the client told."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        full = Rejected("refused.files_full", status=507)
        return rejected(full, table.refused(full))
    log.exception("%s %s failed", request.method, request.path)
    return error(500, "internal", f"the table failed: {type(exc).__name__}")
