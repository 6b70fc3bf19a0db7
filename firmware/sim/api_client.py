"""The simulated players' way to the table over HTTP, as a person's screen goes.

`ApiClient.post(request)` sends a typed request to its API path as JSON
(`firmware.api.routes.to_http`, the table the server builds requests from) and
returns the answer's ``result``; a refusal (HTTP 4xx/5xx) raises `Rejected` with the
server's reason, field and status, as `TableLoop.call` would.
"""

from __future__ import annotations

from typing import Any

from firmware.api import requests as api
from firmware.api.routes import to_http
from firmware.errors import Rejected


class ApiClient:
    """One aiohttp session, opened at the first request; `close()` on the loop."""

    def __init__(self) -> None:
        self._http: Any = None

    async def post(self, url: str, request: api.Request) -> dict[str, Any]:
        import aiohttp

        if self._http is None:
            self._http = aiohttp.ClientSession()
        path, body = to_http(request)
        async with self._http.post(url + path, json=body) as resp:
            data = await resp.json()
        if resp.status >= 400:
            raise Rejected(f"{resp.status} {data.get('reason')}", field=data.get("field"),
                           status=resp.status)
        return dict(data["result"])

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None
