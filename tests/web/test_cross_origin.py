"""Issue 10, point 1 in a real browser: a page of another origin (another port on the
same machine) tries everything a web page can do without the user's help against the
table's API. Nothing at the table changes, the page reads no state, and the front door
(not the browser) is what refused it. The table's own page keeps working under its
Content-Security-Policy."""

from __future__ import annotations

import json
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from playwright.sync_api import expect

from tests.web.screen import EngineTable

ATTACK = """<!doctype html><html><body><iframe name="sink"></iframe><script>
const TABLE = "__TABLE__";
window.results = {};
async function attempt(name, fn) {
  try { window.results[name] = await fn(); } catch (err) { window.results[name] = "error: " + err; }
}
async function run() {
  const json = '{"reason": "pwned"}';
  // "simple" requests: no preflight, the browser sends them as they are
  await attempt("pause text/plain", async () => (await fetch(TABLE + "/api/admin/pause",
    {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: json})).type);
  await attempt("new-match text/plain", async () => (await fetch(TABLE + "/api/admin/new-match",
    {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: "{}"})).type);
  await attempt("pause urlencoded", async () => (await fetch(TABLE + "/api/admin/pause",
    {method: "POST", mode: "no-cors", body: new URLSearchParams({reason: "pwned"})})).type);
  const form = new FormData(); form.append("reason", "pwned");
  await attempt("pause multipart", async () => (await fetch(TABLE + "/api/admin/pause",
    {method: "POST", mode: "no-cors", body: form})).type);
  // a JSON body needs a preflight: refused at the OPTIONS already
  await attempt("pause json cors", async () => (await fetch(TABLE + "/api/admin/pause",
    {method: "POST", headers: {"Content-Type": "application/json"}, body: json})).status);
  // reading
  await attempt("state cors", async () => await (await fetch(TABLE + "/api/state")).text());
  await attempt("state no-cors", async () => {
    const r = await fetch(TABLE + "/api/state", {mode: "no-cors"});
    return r.type + ":" + (await r.text());
  });
  // a classic form post into a frame (text/plain enctype, as CSRF pages do)
  await attempt("form post", async () => {
    const f = document.createElement("form");
    f.method = "POST"; f.action = TABLE + "/api/admin/resume"; f.enctype = "text/plain";
    f.target = "sink"; document.body.append(f); f.submit();
    await new Promise((ok) => setTimeout(ok, 300));
    return "submitted";
  });
  // the event stream
  await attempt("websocket", () => new Promise((ok) => {
    const seen = [];
    const ws = new WebSocket(TABLE.replace("http", "ws") + "/api/ws");
    ws.onopen = () => seen.push("open");
    ws.onmessage = (m) => seen.push("message:" + m.data);
    ws.onerror = () => seen.push("error");
    ws.onclose = () => { seen.push("close"); ok(seen); };
    setTimeout(() => ok(seen), 3000);
  }));
  window.done = true;
}
run();
</script></body></html>"""


class Attacker:
    """A second origin: another port on 127.0.0.1 serving the attack page."""

    def __init__(self, table_url: str) -> None:
        page = ATTACK.replace("__TABLE__", table_url).encode()

        class Page(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Page)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/attack.html"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def state(url: str) -> dict:
    with urllib.request.urlopen(url + "/api/state", timeout=5) as resp:  # a program: no Origin
        return json.load(resp)


def test_a_page_of_another_origin_can_neither_change_nor_read_the_table(page, served):
    table = EngineTable.new("classic", 3, seed=4)
    s = served(table)
    before = state(s.url)
    refused: list[tuple[str, int]] = []
    door = s.server.front_door
    check = door.check

    def recording(method, **headers):
        try:
            check(method, **headers)
        except Exception as exc:
            refused.append((method, getattr(exc, "status", 0)))
            raise

    door.check = recording  # type: ignore[method-assign]
    attacker = Attacker(s.url)
    try:
        page.goto(attacker.url)
        page.wait_for_function("window.done === true", timeout=15000)
        results = page.evaluate("window.results")
    finally:
        attacker.close()
    assert table.requests == []  # nothing reached the table
    assert state(s.url) == before
    # the page got nothing to read: blocked, opaque and empty, and no event stream
    text = json.dumps(results)
    assert "hand_counts" not in text and '"top' not in text and "message:" not in text, results
    assert results["state cors"].startswith("error:"), results
    # not even an opaque answer: Cross-Origin-Resource-Policy makes it a network error
    assert results["state no-cors"].startswith("error:"), results
    assert "open" not in results["websocket"], results
    # and it was the table that said no, to each kind of attempt (not the browser)
    assert ("POST", 403) in refused and ("GET", 403) in refused and ("OPTIONS", 403) in refused, refused


def test_the_tables_own_page_runs_under_its_content_security_policy(page, served):
    table = EngineTable.new("classic", 3, seed=4)
    s = served(table)
    violations: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.goto(s.url + "/")
    expect(page.locator("#conn")).to_have_text("live")  # its WebSocket is its own origin
    page.click("#open-setup")
    expect(page.locator("#sheet")).to_be_visible()
    assert violations == []
