"""The standings page a TV by the bar shows: players over every table, then each table.

Rendered on the server from the results file at every request (a few hundred rows at
most), refreshed by the page itself every `REFRESH_S` seconds; `/standings.json` is the
same as data. Names come from the tables over MQTT: they are escaped, never trusted.
"""

from __future__ import annotations

from html import escape
from typing import Any

from aiohttp import web

from firmware.mqtt.store import ResultsStore

REFRESH_S = 10
STYLE = """
body { font-family: sans-serif; background: #111; color: #eee; margin: 2vw; font-size: 2.2vw; }
h1 { font-size: 3.5vw; margin: 0 0 1vw; } h2 { font-size: 2.8vw; margin: 2vw 0 0.5vw; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.3vw 1vw; border-bottom: 1px solid #333; }
td.n, th.n { text-align: right; } tr:first-child td { color: #ffd54f; }
"""


def page(standings: dict[str, list[dict[str, Any]]]) -> str:
    players = "".join(
        f"<tr><td>{i}</td><td>{escape(p['name'])}</td><td class=n>{p['matches_won']}</td>"
        f"<td class=n>{p['rounds_won']}</td><td class=n>{p['points']}</td></tr>"
        for i, p in enumerate(standings["players"], 1))
    tables = "".join(
        f"<tr><td>{escape(t['name'] or t['table'][:6])}</td><td class=n>{t['matches']}</td>"
        f"<td class=n>{t['rounds']}</td><td>{escape(t['last_winner'] or '–')}</td>"
        f"<td>{escape(', '.join(f'{n} {s}' for n, s in t['scores'].items()))}</td></tr>"
        for t in standings["tables"])
    empty = "<p id=empty>No results yet.</p>" if not standings["players"] else ""
    return f"""<!doctype html>
<html lang=en><head><meta charset=utf-8><title>UNO standings</title>
<meta http-equiv=refresh content="{REFRESH_S}"><meta name=viewport content="width=device-width">
<style>{STYLE}</style></head><body>
<h1>UNO standings</h1>{empty}
<h2>Players</h2><table id=players><tr><th>#</th><th>Player</th><th class=n>Matches won</th>
<th class=n>Rounds won</th><th class=n>Points</th></tr>{players}</table>
<h2>Tables</h2><table id=tables><tr><th>Table</th><th class=n>Matches</th><th class=n>Rounds</th>
<th>Last winner</th><th>Scores</th></tr>{tables}</table>
</body></html>
"""


def app(store: ResultsStore) -> web.Application:
    async def index(_request: web.Request) -> web.Response:
        return web.Response(text=page(store.standings()), content_type="text/html")

    async def data(_request: web.Request) -> web.Response:
        return web.json_response({"standings": store.standings()})

    application = web.Application()
    application.router.add_get("/", index)
    application.router.add_get("/standings.json", data)
    return application
