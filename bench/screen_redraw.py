"""The screen's redraw cost per state push, in Debian's headless Chromium.

    python bench/screen_redraw.py [--pushes N] [--json]

A 10-seat classic match with the longest names the API takes (24 characters) is served
by the real API server (tests/web/screen.py); the table's page is open with the match
set-up sheet showing, as when the owner types a name. Each push is an event the page
hears on its WebSocket, so it fetches the state and redraws; the figure is the page's
scripting time (CDP ``Performance.getMetrics`` ScriptDuration) from the push until the
redraw shows it, median and p99 over `--pushes` pushes (docs/screen.md, "Redraw cost").
"""

from __future__ import annotations

if not __package__:  # run as `python bench/screen_redraw.py`
    import _path  # noqa: F401

import argparse
import json
import shutil
import statistics
import tempfile
from typing import Any

from playwright.sync_api import expect, sync_playwright

from tests.web.conftest import chromium
from tests.web.screen import EngineTable, Served

SEATS = 10
NAME_LENGTH = 24  # the longest name the API takes (firmware/api/schema.py)
NAMES = [f"Seat {n:>2} " + "W" * (NAME_LENGTH - 8) for n in range(1, SEATS + 1)]


def script_seconds(cdp: Any) -> float:
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "ScriptDuration"))


def measure(pushes: int) -> list[float]:
    """The scripting time of each push's redraw, in milliseconds."""
    table = EngineTable.new("classic", SEATS, seed=3, names=NAMES)
    server = Served(table)
    profile = tempfile.mkdtemp(prefix="unotable-bench-")
    try:
        with sync_playwright() as pw:
            context = chromium(pw, profile)
            page = context.new_page()
            page.goto(server.url + "/")
            expect(page.locator("#conn")).to_have_text("live")
            page.click("#open-setup")
            expect(page.locator("[data-name='9']")).to_be_visible()
            cdp = context.new_cdp_session(page)
            cdp.send("Performance.enable")
            costs = []
            for i in range(pushes):
                before = script_seconds(cdp)
                server.do(lambda i=i: table.publish({"kind": "bench", "reason": f"push {i}"}))
                expect(page.locator("#notice")).to_contain_text(f"push {i}")
                page.wait_for_timeout(30)  # the fetch that follows the event redraws once more
                costs.append((script_seconds(cdp) - before) * 1000)
            context.close()
    finally:
        server.close()
        shutil.rmtree(profile, ignore_errors=True)
    return costs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pushes", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    costs = sorted(measure(args.pushes))
    figures = {"pushes": len(costs), "median_ms": round(statistics.median(costs), 2),
               "p99_ms": round(costs[min(len(costs) - 1, int(len(costs) * 0.99))], 2)}
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"redraw per state push ({SEATS} seats, {NAME_LENGTH}-character names, set-up open): "
              f"median {figures['median_ms']} ms, p99 {figures['p99_ms']} ms over {figures['pushes']} pushes")


if __name__ == "__main__":
    main()
