"""The simulated players' way to the table over HTTP, as a person's screen goes.

`ApiClient.post(request)` sends a typed request to its API path as JSON
(`firmware.api.routes.to_http`, the table the server builds requests from) and
returns the answer's ``result``; a refusal (HTTP 4xx/5xx) raises `Rejected` (`Answered`)
with the server's key, values, reason, field and status, as `TableLoop.call` would.

Who sends it goes as a phone's would: ``Authorization: Bearer`` with the token
`token_for(request.by)` gives (none: no header, the owner on loopback), and the
request's `key` as its ``Idempotency-Key``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from firmware.api import requests as api
from firmware.api.routes import to_http
from firmware.errors import Rejected

TokenFor = Callable[[api.Who], str | None]


class Answered(Rejected):
    """A refusal as the table answered it (the API's error, or the event stream's
    ``refused``): its key and values as sent, its words as the table said them."""

    def __init__(self, answer: Mapping[str, Any], status: int = 409) -> None:
        super().__init__(str(answer.get("key") or answer.get("error")), field=answer.get("field"),
                         status=status, **dict(answer.get("values") or {}))
        self.said = str(answer.get("reason"))

    @property
    def reason(self) -> str:
        return self.said


def headers(request: api.Request, token_for: TokenFor | None = None) -> dict[str, str]:
    """The headers that say who sends `request` and its key."""
    out: dict[str, str] = {}
    token = token_for(request.by) if token_for is not None else None
    if token:
        out["Authorization"] = f"Bearer {token}"
    if request.key:
        out["Idempotency-Key"] = request.key
    return out


class ApiClient:
    """One aiohttp session, opened at the first request; `close()` on the loop.
    `token_for(who)`: the token a sender's requests carry (a seat's device token)."""

    def __init__(self, token_for: TokenFor | None = None) -> None:
        self._http: Any = None
        self.token_for = token_for

    async def post(self, url: str, request: api.Request) -> dict[str, Any]:
        import aiohttp

        if self._http is None:
            self._http = aiohttp.ClientSession()
        path, body = to_http(request)
        async with self._http.post(url + path, json=body,
                                   headers=headers(request, self.token_for)) as resp:
            data = await resp.json()
        if resp.status >= 400:
            raise Answered(data, resp.status)
        return dict(data["result"])

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None
