"""Whether what the screen shows fits, measured in the browser: `problems(page)`.

The rule (docs/screen.md, "Everything fits"), on the layer the person is looking at (an
open sheet; else the round or match end with the bar and the buttons under it; else the
whole board):

* reachable: every button, field and fold can be brought fully into view and is the
  element found at its centre there. A panel that scrolls (the seats, a sheet, the
  hand's row, a phone's page) is fine: the element is scrolled into view first, as a
  finger would. On the 800x480 screen the page itself never scrolls, so anything below
  its fold is out of reach;
* no sideways scroll: the page is no wider than the viewport, and no element sticks out
  of it (a row that scrolls sideways clips its own);
* no text cut off: an element that hides its overflow (an ellipsis) shows all its text,
  unless the whole text is in a `title` on it or around it;
* no overlap: no two buttons or fields cover each other, no text lies over other text (a bar pinned over a page that
  scrolls under it, a phone's buttons, is checked by reach instead).

`walk(page, server, table, seen)` opens every sheet and panel in turn and calls
`seen(name)` on each: the fit test checks there, tests/web/screenshots.py takes pictures.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from firmware.api import ApiServer
from firmware.loop import TableLoop
from firmware.seat_keys import SeatKeys
from tests.web.screen import EngineTable, Served
from uno_core import Challenge, Play, parse_card, position

SIZES = {"800x480": (800, 480), "390x844": (390, 844), "360x740": (360, 740)}
LANGUAGES = ("en", "de")
# the longest names a table takes ([table] names: 32 characters), wide letters and German words
NAMES = ["Maximiliane Wolkenstein-Habsburg", "Wenzeslaus Mühlenwerk-Großmannsd",
         "Bartholomew Wimbledon-Worthingto", "Gwendolyn Montgomery-Whitmoreham"]
assert all(len(n) == 32 for n in NAMES)

CHECK = r"""
() => {
  const W = innerWidth, H = innerHeight, out = [];
  const visible = (el) => {
    const cs = getComputedStyle(el);
    if (cs.visibility === "hidden" || cs.display === "none") return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const sheet = document.querySelector("#sheet"), ends = document.querySelector("#ends");
  const roots = !sheet.hidden ? [sheet] : !ends.hidden ? [ends, document.querySelector("#bar"), document.querySelector("#actions")]
    : [document.querySelector("#bar"), document.querySelector("#board"), document.querySelector("#actions")];
  const inLayer = (el) => roots.some((r) => r.contains(el)) && (sheet.hidden || sheet.contains(el))
    && (ends.hidden || !sheet.hidden || !document.querySelector("#board").contains(el) || ends.contains(el));
  const label = (el) => {
    const id = el.id ? `#${el.id}` : "";
    const data = [...el.attributes].filter((a) => a.name.startsWith("data-")).map((a) => `[${a.name}="${a.value}"]`).slice(0, 1).join("");
    const text = (el.textContent || el.value || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `${el.localName}${id}${data}${text ? ` "${text}"` : ""}`;
  };
  // the part of `el` its scrolling or clipping ancestors let through
  const clipped = (el) => {
    let r = el.getBoundingClientRect();
    let box = { l: r.left, t: r.top, r: r.right, b: r.bottom };
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
      const ar = a.getBoundingClientRect();
      if (cs.overflowX !== "visible") { box.l = Math.max(box.l, ar.left); box.r = Math.min(box.r, ar.right); }
      if (cs.overflowY !== "visible") { box.t = Math.max(box.t, ar.top); box.b = Math.min(box.b, ar.bottom); }
    }
    return box;
  };
  const all = [...document.querySelectorAll("body *")].filter((el) => inLayer(el) && visible(el));
  // the layer's main button (next round, new match, the sheet's confirm, start) in view as it opens
  for (const el of all.filter((e) => e.matches("#next-round, #new-match, #confirm, #start"))) {
    const r = el.getBoundingClientRect(), c = clipped(el);
    if (!(r.top >= 0 && r.bottom <= H + 1 && c.t <= r.top + 1 && c.b >= r.bottom - 1)) out.push(`not in view without scrolling: ${label(el)}`);
  }
  // sideways
  const sw = document.scrollingElement.scrollWidth;
  if (sw > W) out.push(`the page scrolls sideways: ${sw}px in ${W}px`);
  for (const el of all) {
    if (el.closest("svg") && el.localName !== "svg") continue;
    const r = el.getBoundingClientRect(), c = clipped(el);
    if (r.width > W + 1) out.push(`wider than the screen (${Math.round(r.width)}px): ${label(el)}`);
    else if (c.r > W + 1 && c.r > c.l) out.push(`sticks out on the right (${Math.round(c.r)}px): ${label(el)}`);
  }
  // text cut off
  const norm = (s) => s.replace(/\s+/g, " ").trim();
  for (const el of all) {
    const cs = getComputedStyle(el);
    const hides = ["hidden", "clip"].includes(cs.overflowX) || cs.textOverflow === "ellipsis";
    const text = norm(el.textContent || "");
    if (!hides || !text || el === document.body) continue;
    const cut = el.scrollWidth > el.clientWidth + 1
      || (["hidden", "clip"].includes(cs.overflowY) && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
        && el.scrollHeight > el.clientHeight + 1);
    if (!cut) continue;
    const titled = [el, ...(function* up(a) { while ((a = a.parentElement)) yield a; })(el)]
      .some((a) => a.title && norm(a.title).includes(text.replace(/^▶ /, "")));
    if (!titled) out.push(`text cut off: ${label(el)}`);
  }
  // overlap between buttons and fields
  // a bar pinned over a page that scrolls under it covers a part of it at some scroll: what
  // counts there is that each can be scrolled out from under it (reachable, below)
  const pinned = (el) => { for (let a = el; a; a = a.parentElement) { if (["fixed", "sticky"].includes(getComputedStyle(a).position)) return a; } return null; };
  const touch = all.filter((el) => el.matches("button, input, select, textarea, summary, a[href]"));
  const boxes = touch.map((el) => [el, clipped(el)]).filter(([, b]) => b.r - b.l > 1 && b.b - b.t > 1);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      if (a.contains(b) || b.contains(a) || pinned(a) !== pinned(b)) continue;
      const w = Math.min(p.r, q.r) - Math.max(p.l, q.l), h = Math.min(p.b, q.b) - Math.max(p.t, q.t);
      if (w > 1 && h > 1) out.push(`overlap: ${label(a)} and ${label(b)}`);
    }
  }
  // no text over text: a line that spills out of its row onto the next
  const texts = all.filter((el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
    .map((el) => [el, clipped(el)]).filter(([, b]) => b.r - b.l > 1 && b.b - b.t > 1);
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const [a, p] = texts[i], [b, q] = texts[j];
      if (a.contains(b) || b.contains(a) || pinned(a) !== pinned(b)) continue;
      const w = Math.min(p.r, q.r) - Math.max(p.l, q.l), h = Math.min(p.b, q.b) - Math.max(p.t, q.t);
      if (w > 2 && h > 2) out.push(`text over text: ${label(a)} and ${label(b)}`);
    }
  }
  // reachable: scrolled into view as a finger would, then fully in view and on top
  for (const el of touch) {
    el.scrollIntoView({ block: "nearest", inline: "nearest" });
    const r = el.getBoundingClientRect(), c = clipped(el);
    const inView = r.left >= -1 && r.top >= -1 && r.right <= W + 1 && r.bottom <= H + 1
      && c.l <= r.left + 1 && c.t <= r.top + 1 && c.r >= r.right - 1 && c.b >= r.bottom - 1;
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!inView) out.push(`out of reach: ${label(el)}`);
    else if (!hit || !(el === hit || el.contains(hit) || hit.contains(el) && hit.localName === "label")) {
      out.push(`covered: ${label(el)} by ${hit ? label(hit) : "nothing"}`);
    }
  }
  for (const el of document.querySelectorAll("*")) { if (el.scrollTop) el.scrollTop = 0; if (el.scrollLeft) el.scrollLeft = 0; }
  window.scrollTo(0, 0);
  return out;
}
"""


def problems(page: Any) -> list[str]:
    """What does not fit on the layer shown now (see the module docstring)."""
    return page.evaluate(CHECK)  # type: ignore[no-any-return]


class SeatedServed(Served):
    """`Served` with the seats' device tokens in `directory`: the Phones sheet has codes."""

    def __init__(self, table: EngineTable, directory: str) -> None:
        self.keys_path = Path(directory) / "seats.json"
        super().__init__(table)

    async def _start(self) -> None:
        self.loop = TableLoop()
        await self.loop.start()
        self.server = ApiServer(self.table, self.loop, port=self.port, token=self.token,
                                seat_keys=SeatKeys(self.keys_path))
        self.table.publish = self.server.publish
        await self.server.start()
        self.port = self.server.port


def open_page(page: Any, server: Served, lang: str, query: str = "") -> None:
    page.goto(server.url + "/" + query)
    page.evaluate(f"localStorage.setItem('unotable-lang', '{lang}')")
    page.reload()
    expect(page.locator("#conn")).to_have_text("live" if lang == "en" else "Verbunden")


def power_table() -> EngineTable:
    state = position("power", hands=["R7 WT1 B3 RT2", "B4 G1", "G5 G6 Y2 Y3 R1U", "R5 Y5 Y6 B9"],
                     discard="R2", towers={"U": 1, "N": 2, "O": 2}, turn=3,
                     scores=[120, 45, 0, 310], exposed=1)
    return EngineTable(state, names=list(NAMES))


def five_plays(server: Served, table: EngineTable) -> None:
    """Five plays on the event stream, as the table announces them, with the way each came
    in (the longest words the strip says): the strip's content."""
    for seat, card, way in ((0, "R9", "pad"), (1, "R+2", "screen"), (2, "W+4", "phone"),
                            (3, "B3", "bot"), (0, "BR", "screen")):
        event = {"kind": "action", "action": {"type": "play", "seat": seat, "card": card},
                 "effects": [], "way": way}
        server.do(lambda e=event: table.publish(e))


Seen = Callable[[str], None]
Serve = Callable[[EngineTable], Served]


def walk(page: Any, serve: Serve, lang: str, seen: Seen) -> None:
    """Every sheet and panel of the screen in turn, `seen(name)` on each."""
    power(page, serve, lang, seen)
    person(page, serve, lang, seen)
    challenge(page, serve, lang, seen)
    target(page, serve, lang, seen)
    hand_entry(page, serve, lang, seen)
    four_towers(page, serve, lang, seen)
    no_match(page, serve, lang, seen)


def close(page: Any) -> None:
    page.click("#close")
    expect(page.locator("#sheet")).to_be_hidden()


def power(page: Any, serve: Serve, lang: str, seen: Seen) -> None:
    table = power_table()
    server = serve(table)
    open_page(page, server, lang)
    five_plays(server, table)
    expect(page.locator("#recent .play")).to_have_count(5)
    seen("board")
    page.click("#catch")
    expect(page.locator("[data-catcher]").first).to_be_visible()
    seen("catch")
    close(page)
    page.click('[data-declare="R"]')
    seen("play")
    page.click('[data-tab="W"]')
    page.click('.grid [data-card="WT1"]')
    page.click('[data-choose-colour="B"]')
    seen("colour-towers")
    close(page)
    page.click("#open-help")
    expect(page.locator("[data-help-tower]")).to_have_count(4)
    seen("help")
    close(page)
    page.click("#open-setup")
    page.click("details summary")
    seen("setup")
    close(page)
    page.click("#open-health")
    expect(page.locator("#sheet .hrow").first).to_be_visible()
    seen("health")
    close(page)
    page.click("#open-seats")
    expect(page.locator("[data-seat-code]").first).to_be_visible()
    page.click('[data-show-code="3"]')
    expect(page.locator("[data-seat-code] svg.qr")).to_have_count(1)
    link = urlsplit(page.locator('[data-seat-code="3"]').get_attribute("data-url"))
    seen("seats")
    close(page)
    rounds = [{"round": 1, "winner": 2, "points": [40, 12, 0, 68], "scores": [40, 12, 0, 68]},
              {"round": 2, "winner": 1, "points": [80, 0, 45, 242], "scores": [120, 12, 45, 310]}]
    table.extra = {"rounds": rounds, "round_end": rounds[1],
                   "waiting": {"kind": "round-over", **rounds[1], "pause_s": 20}}
    page.reload()
    expect(page.locator("#round-end")).to_be_visible()
    seen("round-end")
    rounds.append({"round": 3, "winner": 1, "points": [30, 0, 60, 190], "scores": [150, 12, 105, 500]})
    table.extra = {"rounds": rounds, "round_end": None, "winners": [1],
                   "waiting": {"kind": "match-over", "winners": [1], "message": "match over"}}
    page.reload()
    expect(page.locator("#score-chart")).to_be_visible()
    seen("match-end")
    table.extra = {}
    page.goto(f"{server.url}{link.path}#{link.fragment}")  # seat 4's phone, joined by its code
    expect(page.locator("#me")).to_be_visible()
    expect(page.locator("#recent .play")).to_have_count(5)
    seen("phone")


def person(page: Any, serve: Serve, lang: str, seen: Seen) -> None:
    """`demo --serve`'s person: their own cards in a row under the board, their turn."""
    state = position("power", hands=["R7 WT1 B3 RT2 G5 G6 Y2 Y3 R1U B9 Y5", "B4 G1", "G7 R5", "Y6 B8"],
                     discard="R2", towers={"U": 1, "N": 2, "O": 2}, turn=0)
    table = EngineTable(state, names=list(NAMES))
    hand = ["R7", "WT1", "B3", "RT2", "G5", "G6", "Y2", "Y3", "R1U", "B9", "Y5"]
    table.extra = {"screen_hands": [hand, None, None, None],
                   "waiting": {"kind": "turn", "seat": 0}}
    server = serve(table)
    open_page(page, server, lang, "?seat=1")
    five_plays(server, table)
    expect(page.locator("#hand [data-hand]")).to_have_count(len(hand))
    seen("person")


def challenge(page: Any, serve: Serve, lang: str, seen: Seen) -> None:
    """A Wild Draw 4 to challenge, then the verdict, on the board's buttons."""
    state = position("classic", counts=[3, 2, 4, 2], discard="R2", mode="table",
                     options={"wild_draw4_restricted": True})
    table = EngineTable(state, names=list(NAMES))
    server = serve(table)
    open_page(page, server, lang)
    server.do(lambda: table.act(Play(0, parse_card("W+4"), "B")))
    expect(page.locator("#challenge")).to_be_visible()
    seen("challenge")
    server.do(lambda: table.act(Challenge(1)))
    expect(page.locator("#guilty")).to_be_visible()
    seen("verdict")


def target(page: Any, serve: Serve, lang: str, seen: Seen) -> None:
    """Attack's Wild Attack-Attack: choosing the colour and the seat it hits."""
    state = position("attack", hands=["WAA R1 R3", "B4 B5", "G5", "Y1 Y2"], discard="R2")
    table = EngineTable(state, names=list(NAMES))
    server = serve(table)
    open_page(page, server, lang)
    page.click('[data-declare="W"]')
    page.click('.grid [data-card="WAA"]')
    expect(page.locator("[data-target]").first).to_be_visible()
    seen("target")


def hand_entry(page: Any, serve: Serve, lang: str, seen: Seen) -> None:
    """A round's end on a real table: the hands left are entered card by card."""
    state = position("classic", counts=[1, 7, 4, 5], discard="R2", mode="table")
    table = EngineTable(state, names=list(NAMES))
    server = serve(table)
    open_page(page, server, lang)
    server.do(lambda: table.act(Play(0, parse_card("R5"))))
    expect(page.locator("#enter-hand")).to_be_visible()
    seen("hand-waits")
    page.click("#enter-hand")
    for card in ("R1", "R2", "R+2"):
        page.click(f'.grid [data-card="{card}"]')
    seen("hand-entry")


def four_towers(page: Any, serve: Serve, lang: str, seen: Seen) -> None:
    """Power: a seat that took the fourth tower may lay all its cards but one."""
    state = position("power", hands=["R4! R3 B3 G4 Y7 Y9", "B4 G1", "G7 R5", "Y6 B8"], discard="R2",
                     towers={"U": 0, "N": 0, "O": 0}, turn=0)
    table = EngineTable(state, names=list(NAMES))
    server = serve(table)
    open_page(page, server, lang)
    server.do(lambda: table.act(Play(0, parse_card("R4!"))))
    expect(page.locator("#four-towers")).to_be_visible()
    seen("four-towers-waits")
    page.click("#four-towers")
    for card in ("R3", "R5"):
        page.click(f'.grid [data-card="{card}"]')
    seen("four-towers")


def no_match(page: Any, serve: Serve, lang: str, seen: Seen) -> None:
    """A table with no match yet: the one button that starts one."""
    table = EngineTable(position("classic", hands=["R1", "B4", "G5", "Y1"], discard="R2"))
    table.public_state = lambda: {"edition": None, "waiting": {"kind": "new-match"}}  # type: ignore[method-assign]
    server = serve(table)
    open_page(page, server, lang)
    expect(page.locator("#setup-now")).to_be_visible()
    seen("no-match")
