// The table's screen: shows the public state live and declares what players did.
// Plain ES module, no build step. Talks only to the daemon's API (docs/api.md).
import {
  COLOURS, COLOUR_NAMES, COLOUR_SHAPES, TOWERS,
  cardName, cardsOfColour, face, fitReason, matchReason, needs, parseCard, playBlocked, seatName, setCatalog, setWords,
  turnReason,
} from "./rules.js";
import { Idiomorph } from "./vendor/idiomorph-0.8.0.esm.js";

const params = new URLSearchParams(location.search);
// a seat's own page on a player's phone: /seat/N, opened from the seat's link (its code on
// the table's screen, /seat/N#join=<secret>). It claims the seat, keeps the device token it
// is given (per table and seat) and then shows and sends only what that seat may do.
const SEAT_PATH = location.pathname.match(/^\/seat\/(\d{1,3})\/?$/);
const PHONE = SEAT_PATH ? Number(SEAT_PATH[1]) : null;  // the link's seat number, as the table wrote it
const PHONE_KEY = `unotable-seat:${location.host}:${PHONE}`;  // this table's token for this seat
// a phone or `demo --serve` may bind the page to one seat: ?seat=2 numbers it from 1, as
// the screen does (MY_SEAT is the API's 0-based seat); anything else binds none. A seat's
// phone learns its seat from the table (GET /api/whoami) once it holds the seat's token.
const SEAT_PARAM = Number(params.get("seat"));
let MY_SEAT = PHONE === null && Number.isInteger(SEAT_PARAM) && SEAT_PARAM >= 1 ? SEAT_PARAM - 1 : null;
// a table with an API token: open the page once as /#token=...; it is kept in this browser
function takeToken() {
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (!token) return false;
  localStorage.setItem("unotable-token", token);
  history.replaceState(null, "", location.pathname + location.search);  // not left on screen
  return true;
}
/** The seat's link: its join secret, taken off the address bar (kept for this tab only,
 * until the table answered, so a reload while the owner approves does not lose it). */
function takeJoin() {
  const join = new URLSearchParams(location.hash.slice(1)).get("join");
  if (join) {
    sessionStorage.setItem(`${PHONE_KEY}:join`, join);
    sessionStorage.removeItem(`${PHONE_KEY}:claim`);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(`${PHONE_KEY}:join`);
}
if (PHONE === null) {
  takeToken();
  window.addEventListener("hashchange", () => { if (takeToken()) location.reload(); });
} else {
  window.addEventListener("hashchange", () => { if (takeJoin()) location.reload(); });
}
let TOKEN = PHONE === null ? localStorage.getItem("unotable-token") : localStorage.getItem(PHONE_KEY);

const ui = {
  state: null,      // the last public state from the daemon
  catalog: null,    // GET /api/editions
  health: null,     // GET /api/health
  live: false,      // WebSocket open
  sheet: null,      // the open overlay: {kind: "play" | "hand" | "catch" | "setup" | "health" | "seats", ...}
  lastEvent: null,
  phone: PHONE === null ? null : { step: "joining", reason: "" },  // a seat's phone: where its claim stands
  sending: 0,       // declarations waiting for the table to be back, to be sent again (same key)
  cardsOut: null,   // the count typed for a cut-off ejection, kept over redraws
};
window.unotable = ui; // for people poking at the screen from the browser console

// ---------------------------------------------------------------- the screen's language
// The texts come from the table's catalog (GET /api/messages, firmware/words/messages.py) in the
// table's [table] language, or the one this browser switched to (kept in localStorage).
const LANG_KEY = "unotable-lang";
const words = { language: null, messages: {}, cards: {}, kinds: {}, colours: {}, colour_letters: {}, default_names: {},
  languages: ["en", "de"] };

/** The catalog's text `key` with its {placeholders} filled from `args`; "{slot:dat}" asks
 * a value made by `forms` for its case form (German „dem neutralen Platz“). */
function t(key, args = {}) {
  const template = words.messages[key] ?? key;
  return template.replace(/\{(\w+)(?::(\w+))?\}/g, (all, name, form) => (name in args ? String(args[name]?.[form] ?? args[name]) : all));
}

/** The catalog's text `key` carrying its case forms (the catalog's `key:acc`, `key:dat`). */
function forms(key, args = {}) {
  const said = new String(t(key, args));
  for (const form of ["acc", "dat"]) if (`${key}:${form}` in words.messages) said[form] = t(`${key}:${form}`, args);
  return said;
}

/** An edition's name as the set-up sheet says it ("UNO Power"), not the API's ("power"). */
function editionName(name) {
  return t(`edition.${name}`).split(":")[0];
}

/** Whether `seat` is the person at this screen: a phone's own seat, or the demo's "You". */
function isYou(s, seat) {
  return MY_SEAT === seat || (MY_SEAT === null && s?.names?.[seat] === "You");
}

/** A card's name as this edition's sheet says it in the screen's language ("rote Aussetzen"). */
function cardTitle(text) {
  return words.cards[ui.state?.edition]?.[text] ?? cardName(text);
}

/** A colour as a word of the screen's language ("Rot"); the API's values stay COLOUR_NAMES. */
function colourWord(letter) {
  return words.colours[letter] ?? COLOUR_NAMES[letter] ?? letter;
}

/** A colour's letter beside its shape, in the screen's language (German: Ro Gr Bl Ge, as
 * G and Y would clash with Grün and Gelb). */
function colourLetter(letter) {
  return words.colour_letters[letter] ?? letter;
}

/** A seat's name as the screen says it: the demo's compass names in the screen's language
 * (Nord, Ost, Süd, West), the person of `demo --serve` as "You" / "Du". */
function nameWord(name) {
  if (name === "You") return t("page.you");
  return words.default_names[name] ?? name;
}

// rules.js words its reasons with the same catalog
setWords({ t, card: cardTitle, colour: colourWord, name: nameWord,
  kind: (code) => words.kinds[ui.state?.edition]?.[code] ?? Object.values(words.kinds).find((k) => code in k)?.[code] ?? code });

async function loadWords(lang = localStorage.getItem(LANG_KEY)) {
  try {
    const res = await request("GET", lang ? `/api/messages?lang=${encodeURIComponent(lang)}` : "/api/messages");
    if (!res.ok) return;
    Object.assign(words, res.data);
    document.documentElement.lang = words.language;
    $("#lang").textContent = t("page.switch_language");
    $("#open-setup").textContent = t("page.match_button");
    // a phone drawn on the button (the bar has no room for another word at 800 px), named for screen readers
    $("#open-seats").title = t("page.seats_button");
    $("#open-seats").setAttribute("aria-label", t("page.seats_button"));
    // index.html's own words: data-aria / data-title / data-text name the catalog key
    for (const el of document.querySelectorAll("[data-aria]")) el.setAttribute("aria-label", t(el.dataset.aria));
    for (const el of document.querySelectorAll("[data-title]")) el.title = t(el.dataset.title);
    if (!ui.live) $("#conn").textContent = t($("#conn").dataset.text);
  } catch { /* the table is down: the next connection renders again */ }
}

async function switchLanguage() {
  const next = words.languages.find((l) => l !== words.language) ?? "en";
  localStorage.setItem(LANG_KEY, next);
  await loadWords(next);
  render();
}

// ---------------------------------------------------------------- DOM helpers

function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el[k] = v;  // a property: a redraw hands it on to the element shown
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
const $ = (sel) => document.querySelector(sel);

// A redraw builds the elements afresh and morphs the ones shown into them (idiomorph):
// what the person is doing stays, a field's text, caret and focus, an open fold, a scroll.
const HANDLERS = ["onclick", "oninput", "onchange"];
const adding = [];  // the built nodes idiomorph is cloning in, innermost last
function handOn(from, to) {  // a clone has none of its original's handlers
  for (const name of HANDLERS) to[name] = from[name];
  for (let i = 0; i < from.children.length; i++) handOn(from.children[i], to.children[i]);
}
const MORPH = {
  morphStyle: "innerHTML",
  callbacks: {
    beforeNodeMorphed: (shown, built) => {
      if (shown.nodeType === Node.ELEMENT_NODE) for (const name of HANDLERS) shown[name] = built[name];
      return true;
    },
    beforeNodeAdded: (built) => { adding.push(built); return true; },
    afterNodeAdded: (node) => { const built = adding.pop(); if (node.nodeType === Node.ELEMENT_NODE) handOn(built, node); },
    // the person's own: the text of the field they type in, the folds they open or shut
    beforeAttributeUpdated: (name, el) => !((name === "value" && el === document.activeElement)
      || (name === "open" && el.localName === "details")),
    beforeNodeRemoved: (node) => node.id !== "error",  // the refusal's line moves between board and sheet
  },
};
/** Show `kids` (as `h` takes them) in `el`, morphing what it shows into them. */
function draw(el, ...kids) {
  Idiomorph.morph(el, [...h("div", {}, ...kids).childNodes], MORPH);
}

function cardEl(text, attrs = {}, big = false) {
  const c = parseCard(text);
  const colour = c.colour || "W";
  const letter = c.colour ? `${COLOUR_SHAPES[c.colour]}${colourLetter(c.colour)}` : "W";
  // a power symbol is a tower (♜ and its letter on the tower's colour), never read as a digit
  const symbol = c.symbol ? h("span", { class: `sym t-${towerClass(c.symbol)}`, "data-symbol": c.symbol }, `♜${c.symbol}`) : "";
  return h("span", { class: `card c-${colour}${big ? " big" : ""}`, title: cardTitle(text), ...attrs },
    h("span", { class: "face" }, face(c)), symbol, h("span", { class: "cl" }, letter));
}

function colourLabel(letter) {
  return `${COLOUR_SHAPES[letter]} ${colourWord(letter)}`;
}

/** A colour button's short face: its shape and letter ("▲ R", German "▲ Ro"). */
function colourShort(letter) {
  return `${COLOUR_SHAPES[letter]} ${colourLetter(letter)}`;
}

// ---------------------------------------------------------------- talking to the daemon

async function request(method, path, body, extra = {}) {
  const headers = { "Content-Type": "application/json", ...extra };
  if (TOKEN) headers.Authorization = `Bearer ${TOKEN}`;
  if (words.language) headers["Accept-Language"] = words.language;  // the table answers in the page's language
  const resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await resp.json(); } catch { data = null; }
  return { ok: resp.ok, status: resp.status, data };
}

/** A random id for one declaration (crypto.randomUUID needs https; a table is plain http). */
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// resolved when the stream is open again: a declaration lost on the way waits for it
let backAgain = null;
let whenBack = new Promise((resolve) => { backAgain = resolve; });
const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** POST `body` with an Idempotency-Key; when the answer is lost (the Wi-Fi dropped, the
 * phone slept) the same declaration is sent again with the SAME key once the table is back,
 * so the table takes it once even if the first one arrived. The answer, at last. */
function post(path, body) {
  const what = `${path} ${JSON.stringify(body)}`;
  // tapped again while it waits to be sent again: the same declaration, not a second one
  return resending.get(what) ?? firstTry(path, body, what);
}

// "path body" -> the answer of a POST that got none and waits to be sent again
const resending = new Map();

async function firstTry(path, body, what) {
  const key = newKey();
  try {
    return await request("POST", path, body, { "Idempotency-Key": key });
  } catch {
    if (socket && socket.readyState === WebSocket.OPEN) dropSocket();  // the stream went with it (or will)
    const answer = sendAgain(path, body, key);
    resending.set(what, answer);
    try {
      return await answer;
    } finally {
      resending.delete(what);
    }
  }
}

/** The same POST with the same key, each time the stream is back (or after a back-off),
 * until the table answers. */
async function sendAgain(path, body, key) {
  let wait = 250;
  for (;;) {
    showError(t("page.no_answer", { error: t("page.sending_again") }));
    ui.sending += 1;
    renderBar();
    await Promise.race([whenBack, pause(wait)]);
    wait = Math.min(wait * 2, 4000);
    ui.sending -= 1;
    try {
      return await request("POST", path, body, { "Idempotency-Key": key });
    } catch { /* still away */ }
  }
}

/** POST and show the daemon's reason when it refuses; true when accepted. */
async function send(path, body) {
  showError(null);
  const res = await post(path, body);
  showError(null);
  if (!res.ok) {
    showError(res.data?.reason ?? t("page.refused", { status: res.status }));
    return false;
  }
  refresh();
  return true;
}

// a refusal stays this long (or until tapped): long enough to read, never in the way for good
const ERROR_MS = 6000;
let errorTimer = null;

/** A refusal in words, where it covers nothing: in place of the last event on the board,
 * or under the open sheet's title (never over the seat rows, the chosen card or the tabs). */
function showError(text) {
  const el = $("#error");
  el.textContent = text ?? "";
  el.hidden = !text;
  clearTimeout(errorTimer);
  if (text) errorTimer = setTimeout(() => showError(null), ERROR_MS);
}
$("#error").addEventListener("click", () => showError(null));

let fetching = null;
let fetchAgain = false;
/** Fetch the state; calls that arrive while one is running are folded into one more fetch. */
async function refresh() {
  if (fetching) { fetchAgain = true; return fetching; }
  fetching = (async () => {
    do {
      fetchAgain = false;
      try {
        const res = await request("GET", "/api/state");
        if (res.ok) ui.state = res.data;
        else if (res.status === 401 && PHONE !== null) seatLost();
        else if (res.status === 401) showError(t("page.token"));
      } catch { /* the socket's close handler reports the outage */ }
    } while (fetchAgain);
    fetching = null;
    render();
    // the launcher's aim and ejection end without an event of their own at times (the wait
    // turns to the presses owed): while it ejects, look again shortly, so no page stays behind
    clearTimeout(ejectingTimer);
    if (ui.state?.waiting?.kind === "ejecting") ejectingTimer = setTimeout(refresh, 500);
  })();
  return fetching;
}
let ejectingTimer = null;

async function refreshHealth() {
  try {
    const res = await request("GET", "/api/health");
    ui.health = res.ok ? res.data : { ok: false, error: res.data?.reason ?? `HTTP ${res.status}` };
  } catch (err) {
    ui.health = { ok: false, error: t("page.hw.no_answer", { error: err.message }) };
  }
  renderBar();
  if (ui.sheet?.kind === "health") renderSheet();
}

async function loadCatalog() {
  const res = await request("GET", "/api/editions");
  if (res.ok) {
    ui.catalog = res.data;
    setCatalog(res.data);  // the rules the page checks itself come from the engine
  }
}

let socket = null;
let backoff = 250;
let retry = null;  // the timer of the next connection attempt
function connect() {
  clearTimeout(retry);
  retry = null;
  if (socket && socket.readyState <= WebSocket.OPEN) return;  // connecting or open already
  if (PHONE !== null && ui.phone.step !== "joined") return;  // a phone streams once it holds its seat
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = TOKEN ? `?token=${encodeURIComponent(TOKEN)}` : "";
  const ws = new WebSocket(`${scheme}://${location.host}/api/ws${query}`);
  socket = ws;
  ws.onopen = () => {
    backoff = 250;
    ui.live = true;
    backAgain();  // declarations lost on the way go again now
    whenBack = new Promise((resolve) => { backAgain = resolve; });
    // the first message is the state too; fetching as well never leaves a stale view
    if (!words.language) loadWords().then(render);  // the table was down when the page loaded
    refresh();
    if (PHONE === null) refreshHealth();
    if (!ui.catalog) loadCatalog().then(render, () => {});  // the table was down when the page loaded
    if (ui.sheet?.kind === "seats") loadSeats();
  };
  ws.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    if (data.type === "state") {
      ui.state = data.state;
      render();
    } else if (data.type === "event") {
      // a phone joined or left ("seats"): no news for the board's last event
      if (data.event.kind !== "seats") ui.lastEvent = data.event;
      refresh();
      if (ui.sheet?.kind === "seats") loadSeats();
    }
  };
  ws.onclose = () => {
    if (socket !== ws) return;  // dropped on purpose: a new one is on its way
    socket = null;
    // never connected: ask over HTTP why; a phone asks each time (its seat may have gone
    // to another phone: the table then closes its stream and refuses its token)
    if ((ui.live === false && !ui.state) || PHONE !== null) refresh();
    if (PHONE !== null && ui.phone.step !== "joined") return;
    down();
    retry = setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 4000);
  };
}

function down() {
  ui.live = false;
  renderBar();
  document.body.classList.add("stale");
}

/** Let the stream go (it may be dead without knowing: iOS drops sockets in the background)
 * and open a new one now; the page says "reconnecting…" meanwhile. */
function dropSocket() {
  const old = socket;
  socket = null;
  if (old) { old.onclose = null; old.close(); }
  down();
  backoff = 250;
  connect();
}

// a phone that wakes up, or whose Wi-Fi comes back, joins again by itself at once
let hiddenAt = null;
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") { hiddenAt = performance.now(); return; }
  const away = hiddenAt === null ? 0 : performance.now() - hiddenAt;
  hiddenAt = null;
  if (!socket || socket.readyState !== WebSocket.OPEN || away > 5000) dropSocket();
  else refresh();
});
window.addEventListener("online", dropSocket);
window.addEventListener("offline", () => { if (socket) dropSocket(); });
setInterval(() => { if (ui.live && PHONE === null) refreshHealth(); }, 3000);

// ---------------------------------------------------------------- what the table waits for

function waitingText(s) {
  const w = s.waiting;
  const named = (seat) => (seat === undefined || seat === null ? "" : seatName(s, seat));
  const pad = padText(s);
  if (pad) return pad;
  if (w) {
    // the person's own wait needs no name before it (their seat is underlined, the board says "Your turn")
    const who = named(w.seat) && w.seat !== MY_SEAT ? `${named(w.seat)}: ` : "";
    switch (w.kind) {
      case "press":
        return w.until_cards ? t("page.press_until", { who })
          : t("page.press", { who, count: w.presses ?? w.count ?? 1 });
      case "tower": return t("page.tower_to", { tower: w.tower, slot: slotName(s, w.seat) });
      case "reload": return t("page.reload");
      case "jam": return t("page.jam");
      case "paused": return pausedText(w.reason);
      case "alarm": return t(w.slot === null || w.slot === undefined ? "page.alarm_lifted" : "page.alarm_moved",
        { tower: w.tower, slot: slotName(s, w.slot), expected: slotName(s, w.expected) });
      case "cards-out": return t("page.cards_out", { seat: named(w.seat) });
      case "ejecting": return w.seat === null || w.seat === undefined ? t("page.ejecting") : t("page.ejecting_for", { seat: named(w.seat) });
      case "new-match": return t("page.new_match");
      case "match-over": return t("page.match_over", { winners: (w.winners ?? s.winners ?? []).map(named).join(", ") });
      case "turn": return w.seat === MY_SEAT ? t("page.turn_yours") : t("page.turn", { seat: named(w.seat) });
      case "play-drawn": return t(s.options?.draw_until_playable ? "page.draw_until" : "page.play_drawn", { who });
      case "extra-play": return t("page.extra_play", { who });
      case "challenge": return t("page.challenge_or_take", { who });
      case "verdict": return t("page.verdict", { who });
      case "colour": return t("page.first_colour", { who });
      case "four-towers": return t("page.four_towers", { who });
      case "hand": return handText(s, who);
      case "round-over": return roundOverText(s, w);
      case "reveal": return t("page.reveal", { who });
      case "dealer-cards": return t("page.dealer_cards", { missing: (w.missing ?? []).map(named).join(", ") });
      case "shuffle": return t(w.round_start ? "page.shuffle_start" : "page.shuffle_pile");
      case "extra-cards": return t("page.extra_cards", { count: w.count, seat: named(w.seat) });
      case "journal": return JOURNAL_WORDS[w.cause] ? t(JOURNAL_WORDS[w.cause]) : w.message;
      default: if (w.text || w.message) return w.text || w.message;
    }
  }
  if (s.paused) return pausedText(typeof s.paused === "string" ? s.paused : "");
  if (!s.edition) return t("page.new_match");
  const owed = (s.owed ?? [])[0];
  if (owed) {
    const who = `${named(owed.seat)}: `;
    if (owed.kind === "draw") return t(owed.count === 1 ? "page.take_one" : "page.take_many", { who, count: owed.count });
    if (owed.kind === "until") return t("page.press_until", { who });
    return t("page.press", { who, count: owed.count });
  }
  const who = s.to_act >= 0 ? named(s.to_act) : "";
  switch (s.phase) {
    case "play": return isYou(s, s.to_act) ? t("page.turn_yours") : t("page.turn", { seat: who });
    case "drawn": return t(s.options?.draw_until_playable ? "page.draw_until" : "page.play_drawn", { who: `${who}: ` });
    case "extra": return t("page.extra_play", { who: `${who}: ` });
    case "challenge": return t("page.challenge_or_take", { who: `${who}: ` });
    case "verdict": return t("page.verdict", { who: `${who}: ` });
    case "first_colour": return t("page.first_colour", { who: `${who}: ` });
    case "four_towers": return t("page.four_towers", { who: `${who}: ` });
    case "hand_entry": return handText(s, `${who}: `);
    case "match_over": return t("page.match_over", { winners: (s.winners ?? []).map(named).join(", ") });
    default: return s.chance ? t("page.chance", { chance: t(`refusal.chance.${s.chance}`) }) : s.phase ?? "";
  }
}

/** A round's end before the hands are entered: who went out, then whose cards to enter. */
function handText(s, who) {
  const out = (s.hand_counts ?? []).indexOf(0);
  const enter = t("page.hand", { who });
  return out >= 0 ? t("page.went_out_enter", { seat: shortName(s, out), enter }) : enter;
}

function pausedText(reason) {
  return reason && reason !== "paused" ? t("page.paused_because", { reason }) : t("page.paused");
}

/** What the card pad waits for (the daemon's `pad`): the seat to act's card at its turn, a
 * colour chip, a seat's button. Said on the table's screen and on that seat's own page;
 * "" without a pad, while it does not answer, or when it waits for nothing from this page.
 * The screen's own way to declare stays beside it. */
function padText(s) {
  const pad = s.pad;
  if (!pad?.ok || !pad.wants || typeof pad.seat !== "number") return "";
  if (MY_SEAT !== null && MY_SEAT !== pad.seat) return "";
  const yours = isYou(s, pad.seat);
  const who = yours ? "" : `${seatName(s, pad.seat)}: `;
  switch (pad.wants) {
    case "card":  // a drawn card or an extra play keeps its own words (keep it, pass)
      if (s.waiting && s.waiting.kind !== "turn") return "";
      return yours ? t("page.pad.card_yours") : t("page.pad.card", { seat: seatName(s, pad.seat) });
    case "colour": return pad.card ? t("page.pad.colour_for", { who, card: cardTitle(pad.card) }) : t("page.pad.colour", { who });
    case "seat": return t("page.pad.seat", { who, card: cardTitle(pad.card) });
    case "towers": return t("page.pad.towers", { who, card: cardTitle(pad.card), count: pad.left });
    case "cards":  // no card: the four-tower discard, a known count; else Discard All, until the button
      return pad.card ? t("page.pad.cards", { who, card: cardTitle(pad.card), colour: colourWord(pad.card[0]) })
        : t("page.pad.four_towers", { who, count: pad.left });
    default: return "";
  }
}

// the journal cannot be written: its cause in words (the daemon's message has the path and details)
const JOURNAL_WORDS = { "disk-full": "page.journal.disk-full", "read-only": "page.journal.read-only",
  io: "page.journal.io", lost: "page.journal.lost" };

const ACTION_WORDS = {
  play: (a, s) => {
    const extra = (a.colour ? t("page.did.colour", { colour: colourWord(a.colour) }) : "")
      + (a.target !== undefined ? t("page.did.target", { seat: seatName(s, a.target) }) : "")
      + (a.laid ? t("page.did.laid", { cards: a.laid.map(cardTitle).join(", ") }) : "");
    const after = a.towers ? t("page.did.towers", { towers: a.towers.join(" ") }) : "";
    return t("page.did.play", { card: cardTitle(a.card), extra, after });
  },
  draw: () => t("page.did.draw"), press: () => t("page.did.press"), pass: () => t("page.did.pass"),
  call_uno: () => t("page.did.call_uno"), catch: (a, s) => t("page.did.catch", { seat: seatName(s, a.target) }),
  challenge: () => t("page.did.challenge"), accept: () => t("page.did.accept"),
  verdict: (a) => t(a.guilty ? "page.did.guilty" : "page.did.innocent"),
  enter_hand: (a) => t("page.did.enter_hand", { cards: (a.cards ?? []).join(" ") }),
  choose_colour: (a) => t("page.did.choose_colour", { colour: colourWord(a.colour) }),
  four_tower_discard: (a) => t("page.did.four_towers", { count: (a.laid ?? []).length }),
};

// a tray slot: a seat (the screen numbers seats from 1) or the neutral spot
function slotName(s, slot) {
  return typeof slot === "number" ? seatName(s, slot) : forms("page.neutral_spot");
}

const EVENT_WORDS = {
  tower_capture: (s, e) => t("page.ev.tower_capture", { tower: e.tower, slot: slotName(s, e.slot) }),
  tower_seen: (s, e) => t("page.ev.tower_seen", { tower: e.tower, slot: slotName(s, e.slot) }),
  protected: (s, e) => t("page.ev.protected", { tower: e.tower, seat: seatName(s, e.seat), card: cardTitle(e.card) }),
  ejected: (s, e) => t(!e.counted ? "page.ev.ejected_none" : e.counted === 1 ? "page.ev.ejected_one" : "page.ev.ejected_many",
    { count: e.counted, seat: seatName(s, e.seat) }),
  uno_armed: (s, e) => t("page.ev.uno_armed", { seat: seatName(s, e.seat) }),
  paused: (s, e) => pausedText(e.reason),
  resumed: () => t("page.ev.resumed"),
  undone: (s, e) => t("page.ev.undone", { seat: seatName(s, e.seat), card: cardTitle(e.card) }),
  new_match: (s, e) => t("page.ev.new_match", { edition: editionName(e.edition), seats: e.seats }),
  ejecting: (s, e) => t("page.ev.ejecting", { seat: seatName(s, e.seat) }),
  tower_lifted: (s, e) => t("page.ev.tower_lifted", { tower: e.tower, slot: slotName(s, e.slot) }),
  alarm_cleared: (s, e) => (e.tower ? t("page.ev.tower_back", { tower: e.tower }) : t("page.ev.alarm_cleared")),
  journal_ok: () => t("page.ev.journal_ok"),
  next_round: (s, e) => t("page.ev.next_round", { round: e.round }),
  tray: (s, e) => {
    const what = TRAY_WORDS[e.event] ? t(TRAY_WORDS[e.event]) : t("page.ev.tray", { event: e.event });
    return e.slot === null || e.slot === undefined ? what : t("page.ev.tray_at", { what, slot: slotName(s, e.slot) });
  },
};
// the launcher's state as the health sheet says it
const LAUNCHER_STATES = { idle: "page.hw.state.idle", running: "page.hw.state.running", reversing: "page.hw.state.reversing",
  faulted: "page.hw.state.faulted", closed: "page.hw.state.closed" };
const TRAY_WORDS = { ReaderDown: "page.ev.reader_down", ReaderUp: "page.ev.reader_up", UnknownTag: "page.ev.unknown_tag" };
// the way a play came in (the daemon's `recent[].way`), as the strip says it
const WAY_WORDS = { pad: "page.way.pad", phone: "page.way.phone", screen: "page.way.screen", bot: "page.way.bot",
  table: "page.way.table" };

// a play that left one card without the UNO call, where the table applies the penalty
// at once (classic: the call belongs before the card)
function penaltyWords(fx) {
  const i = fx.findIndex((f) => f.type === "uno_penalty" && f.catcher < 0);
  if (i < 0) return "";
  const owed = fx.slice(i + 1).find((f) => ["dispense", "owe_presses"].includes(f.type) && f.seat === fx[i].seat);
  const what = !owed ? t("page.penalty.follow")
    : t(owed.type === "dispense" ? "page.penalty.draws" : "page.penalty.presses", { count: owed.count });
  return t("page.penalty", { what });
}

function describeEvent(e) {
  if (!e) return "";
  const s = ui.state;
  if (EVENT_WORDS[e.kind]) return EVENT_WORDS[e.kind](s, e);
  if (e.text || e.message) return e.text || e.message;
  if (e.kind === "action" && e.action) {
    const a = e.action;
    const words = ACTION_WORDS[a.type];
    if (a.seat === undefined || a.seat < 0) return a.type === "eject" ? t("page.did.ejected", { count: a.count }) : "";
    return t("page.did", { seat: seatName(s, a.seat), what: words ? words(a, s) : a.type, penalty: penaltyWords(e.effects ?? []) + swapWords(s, e.effects ?? []) });
  }
  const bits = [String(e.kind ?? "event").replaceAll("_", " ")];
  if (typeof e.seat === "number" && e.seat >= 0) bits.push(seatName(s, e.seat));
  if (e.card) bits.push(e.card);
  if (e.reason) bits.push(e.reason);
  return bits.join(" · ");
}

// ---------------------------------------------------------------- the board

function render() {
  document.body.classList.toggle("stale", !ui.live);
  document.body.classList.toggle("phone", PHONE !== null);
  document.body.classList.toggle("joining", PHONE !== null && ui.phone.step !== "joined");
  renderBar();
  if (PHONE !== null && ui.phone.step !== "joined") { renderJoin(); return; }
  const s = ui.state;
  if (!s) return;
  if (!s.edition) {  // no match yet
    draw($("#top-card"), h("span", { class: "card big blank" }, "–"));
    draw($("#colour"));
    $("#waiting").textContent = waitingText(s);
    draw($("#seats"));
    draw($("#rules"));
    draw($("#actions"), h("button", { type: "button", class: "primary", id: "setup-now",
      onclick: () => $("#open-setup").click() }, t("page.start_match")));
    if (ui.sheet) renderSheet();
    return;
  }
  const top = $("#top-card");
  draw(top, s.top ? cardEl(s.top, { id: "top", "data-card": s.top }, true) : h("span", { class: "card big blank" }, "–"));
  draw($("#colour"), s.colour ? h("span", { class: `pill c-${s.colour}`, id: "current-colour" }, colourLabel(s.colour)) : "");
  const yours = PHONE !== null ? yoursText(s) : { text: "", mine: false };
  $("#yours").textContent = yours.text;
  // a seat's phone says its own wait once, in its own words; others' waits as the table says them
  $("#waiting").textContent = yours.mine ? "" : waitingText(s);
  $("#notice").textContent = describeEvent(ui.lastEvent);
  $("#notice").title = $("#notice").textContent;  // whole, where one line on the board has room for less
  renderSeats(s);
  renderRecent(s);
  renderRules(s);
  renderHand(s);
  ownersPhones(s);
  renderActions(s);
  renderEnds(s);
  if (ui.sheet) renderSheet();
}

function renderBar() {
  const s = ui.state;
  const conn = $("#conn");
  const joining = PHONE !== null && ui.phone.step !== "joined";  // not connected yet: nothing to reconnect
  conn.textContent = t(joining ? "page.connecting" : ui.live && !ui.sending ? "page.live" : "page.reconnecting");
  conn.className = `conn ${ui.live && !ui.sending ? "up" : "down"}`;
  const me = $("#me");  // a seat's phone: whose it is, always in view
  me.hidden = PHONE === null || MY_SEAT === null || !s;
  if (!me.hidden) me.textContent = me.title = shortName(s, MY_SEAT);
  const hb = $("#open-health");
  hb.className = `small ${ui.health ? (ui.health.ok ? "ok" : "bad") : ""}`;
  hb.textContent = t(ui.health ? (ui.health.ok ? "page.health_ok" : "page.health_bad") : "page.health");
  if (!s) return;
  $("#edition").textContent = s.edition ?? "";
  $("#round").textContent = s.round ? t("page.round_to", { round: s.round, target: s.options?.target_score ?? "?" }) : "";
  $("#round").title = $("#round").textContent;  // whole, where the bar has room for less
  const from = s.turn >= 0 ? s.turn : 0;  // the order of play from the seat whose turn it is
  const order = Array.from({ length: Math.min(s.seats, 3) }, (_, i) => ((from + i * (s.direction >= 0 ? 1 : -1)) % s.seats + s.seats) % s.seats + 1);
  $("#direction").textContent = `${s.direction >= 0 ? "↻" : "↺"} ${order.join("→")}…`;
}

function renderSeats(s) {
  const rows = [];
  for (let seat = 0; seat < s.seats; seat++) {
    const count = s.hand_counts[seat];
    const held = s.towers ? TOWERS.filter((tower) => s.towers[tower] === seat) : [];
    let uno = null;
    if (s.uno_exposed === seat) uno = h("span", { class: "badge warn" }, t("page.uno_not_called"));
    else if (count === 1) uno = h("span", { class: "badge" }, "UNO");
    else if ((s.uno_armed ?? []).includes(seat)) uno = h("span", { class: "badge", "data-uno-said": seat }, t("page.uno_said"));
    const turn = seat === s.to_act;
    // a seat played from a phone (a phone drawn in CSS: no emoji font needed), or whose phone
    // waits for the owner's approval (the phone with a question mark)
    const phone = (s.claims ?? []).some((c) => c.seat === seat) ? h("span", { class: "phone-mark asks", "data-asks": seat,
      title: t("page.seats.asks"), "aria-label": t("page.seats.asks") }, "?")
      : s.phones?.[seat] ? h("span", { class: "phone-mark", "data-phone": seat, title: t("page.seats.on_phone"),
        "aria-label": t("page.seats.on_phone") }) : "";
    rows.push(h("div", { class: `seat${turn ? " turn" : ""}${MY_SEAT === seat ? " me" : ""}`, "data-seat": seat },
      h("span", { class: "who" }, h("span", { class: "name", title: `${shortName(s, seat)} ${seat + 1}` }, turn ? "▶ " : "", s.names?.[seat] ? nameWord(s.names[seat]) : t("page.seat_unnamed", { number: seat + 1 }),
        s.names?.[seat] ? h("small", {}, ` ${seat + 1}`) : "", phone), uno),
      h("span", { class: "count", title: t("page.cards_in_hand") }, `${count} 🂠`),
      h("span", { class: "towers" }, held.map((tower) => h("span", { class: `tower t-${towerClass(tower)}` }, tower))),
      h("span", { class: "score", title: t("page.score") }, t("page.points", { points: s.scores[seat] }))));
  }
  if (s.towers) {
    const neutral = TOWERS.filter((tower) => s.towers[tower] === NEUTRAL);
    rows.push(h("div", { class: "seat neutral" }, h("span", { class: "who" }, h("span", { class: "name", title: t("page.neutral") }, t("page.neutral"))), h("span", {}),
      h("span", { class: "towers" }, neutral.map((tower) => h("span", { class: `tower t-${towerClass(tower)}` }, tower)))));
  }
  draw($("#seats"), ...rows);
  $("#seats").classList.toggle("with-towers", Boolean(s.towers));
}

const towerClass = (tower) => (tower === "!" ? "X" : tower);
// where the state says a tower stands on the tray's neutral slot (else a seat number)
const NEUTRAL = "neutral";

/** `demo --serve`: the cards the simulated launcher delivered to this seat, if the daemon shows them. */
function renderHand(s) {
  const hand = MY_SEAT !== null ? s.screen_hands?.[MY_SEAT] : null;
  const el = $("#hand");
  el.hidden = !hand;
  document.body.classList.toggle("with-hand", Boolean(hand));
  if (!hand) return;
  const busy = playBlocked(s);  // the launcher, a deal, a press or a tower comes first: the table would refuse
  const mine = !busy && turnReason(s, MY_SEAT) === null;
  draw(el, h("span", { class: "label" }, t(busy ? "page.your_cards_wait" : "page.your_cards")),
    ...hand.map((c) => h("button", { type: "button", class: `cardbtn${mine && matchReason(s, c) ? " dim" : ""}`,
      "data-hand": c, disabled: busy, onclick: () => tapHand(c) }, cardEl(c))));
}

/** A card tapped in the hand: declared when it may be played, else the reason, and no picker. */
function tapHand(text) {
  const reason = turnReason(ui.state, MY_SEAT) ?? fitReason(ui.state, text);
  if (reason) showError(reason);
  else openPlay(MY_SEAT, text);
}

function actor(s) {
  return MY_SEAT ?? (s.to_act >= 0 ? s.to_act : null);
}

function shortName(s, seat) {
  const name = s.names?.[seat];
  return name ? nameWord(name) : t("page.seat_unnamed", { number: seat + 1 });
}

function renderActions(s) {
  const buttons = [];
  const prompts = [];
  const seat = actor(s);
  const playPhase = ["play", "drawn", "extra"].includes(s.phase) && !(s.owed ?? []).length;
  if (playPhase && seat !== null && (MY_SEAT === null || s.to_act === MY_SEAT)) {
    // tap the colour, tap the card, confirm: three taps for a number card
    const declared = isYou(s, seat) ? t("page.declared_yours") : t("page.declared", { seat: shortName(s, seat) });
    buttons.push(h("span", { class: "declare-label", id: "declare", title: declared }, declared),
      ...[...COLOURS, "W"].map((c) => h("button", { type: "button", class: `declare c-${c}`, "data-declare": c,
        disabled: playBlocked(s), onclick: () => openPlay(seat, null, c) }, c === "W" ? t("page.wild") : colourShort(c))));
  }
  if (playPhase && seat !== null && s.hand_counts[seat] === 2 && Array.isArray(s.uno_armed)) {
    // the daemon arms the call: UNO is said together with the second-to-last card
    const armed = s.uno_armed.includes(seat);
    buttons.push(h("button", { id: "arm-uno", type: "button", class: armed ? "" : "uno", disabled: armed,
      onclick: () => send("/api/uno", { seat }) }, t(armed ? "page.uno_said" : "page.uno")));
  }
  if (s.uno_exposed !== null && s.uno_exposed !== undefined) {
    const x = s.uno_exposed;
    if (MY_SEAT === null || MY_SEAT === x) {
      prompts.push(h("button", { id: "call-uno", type: "button", class: "uno",
        onclick: () => send("/api/uno", { seat: x }) }, t("page.call_uno", { seat: shortName(s, x) })));
    }
    if (MY_SEAT === null) {
      prompts.push(h("button", { id: "catch", type: "button", onclick: () => openSheet({ kind: "catch", target: x }) },
        t("page.catch", { seat: shortName(s, x) })));
    } else if (MY_SEAT !== x) {
      prompts.push(h("button", { id: "catch", type: "button", onclick: () => send("/api/catch", { seat: MY_SEAT, target: x }) },
        t("page.catch", { seat: shortName(s, x) })));
    }
  }
  if (s.phase === "challenge" && s.to_act >= 0 && (MY_SEAT === null || MY_SEAT === s.to_act)) {
    prompts.push(h("button", { id: "challenge", type: "button",
      onclick: () => send("/api/challenge", { seat: s.to_act }) }, isYou(s, s.to_act) ? t("page.challenge_yours") : t("page.challenge", { seat: shortName(s, s.to_act) })));
  }
  const mine = s.to_act >= 0 && (MY_SEAT === null || MY_SEAT === s.to_act);
  const who = s.to_act >= 0 ? shortName(s, s.to_act) : "";
  const decide = (decision, extra = {}) => send("/api/decide", { seat: s.to_act, decision, ...extra });
  const launcherTakes = s.screen_hands && MY_SEAT !== null;  // demo --serve: the bar's button takes them
  if (mine && s.phase === "challenge" && !launcherTakes) {
    prompts.push(h("button", { id: "accept", type: "button", onclick: () => decide("accept") }, isYou(s, s.to_act) ? t("page.accept_yours") : t("page.accept", { seat: who })));
  }
  if (mine && s.phase === "verdict") {
    prompts.push(...challengedHand(s));
    prompts.push(h("button", { id: "guilty", type: "button", onclick: () => decide("guilty") }, t("page.guilty")),
      h("button", { id: "innocent", type: "button", onclick: () => decide("innocent") }, t("page.innocent")));
  }
  // draw_until_playable: a drawn card is never kept (played if it fits, else one more draw)
  const keeps = s.phase === "extra" || (s.phase === "drawn" && !s.options?.draw_until_playable);
  if (mine && !(s.owed ?? []).length && keeps) {
    prompts.push(h("button", { id: "pass", type: "button", onclick: () => decide("pass") },
      isYou(s, s.to_act) ? t(s.phase === "drawn" ? "page.keep_yours" : "page.pass_yours")
        : t(s.phase === "drawn" ? "page.keep" : "page.pass", { seat: who })));
  }
  if (mine && s.phase === "first_colour") {
    prompts.push(...COLOURS.map((c) => h("button", { type: "button", class: `pick c-${c}`, "data-first-colour": c,
      onclick: () => decide("colour", { color: COLOUR_NAMES[c] }) }, colourLabel(c))));
  }
  if (mine && s.phase === "four_towers") {
    prompts.push(h("button", { id: "four-towers", type: "button", class: "primary", onclick: () => layFourTowers(s.to_act) },
      isYou(s, s.to_act) ? t("page.lay_all_but_one_yours") : t("page.lay_all_but_one", { seat: who })), h("button", { id: "pass", type: "button", onclick: () => decide("pass") }, t("page.keep_playing")));
  }
  if (mine && s.phase === "hand_entry") {
    buttons.push(h("button", { id: "enter-hand", type: "button", class: "primary", onclick: () => enterHand(s.to_act) },
      isYou(s, s.to_act) ? t("page.enter_your_cards") : t("page.enter_cards", { seat: seatName(s, s.to_act) })));
  }
  if (MY_SEAT === null) {  // the owner's screen: a phone asks for a seat, showing its code
    for (const { seat, code } of s.claims ?? []) {
      prompts.push(h("button", { type: "button", class: "primary", "data-approve": seat, "data-code": code,
        onclick: () => send("/api/seats/approve", { seat, code }) }, isYou(s, seat) ? t("page.seats.approve_yours", { code }) : t("page.seats.approve_seat", { seat: shortName(s, seat), code })),
      h("button", { type: "button", "data-refuse": seat, "data-code": code, onclick: () => send("/api/seats/refuse", { seat, code }) },
        t("page.seats.refuse", { code })));
    }
  }
  prompts.push(...jumpInPrompts(s));
  const u = s.undoable;  // the last declaration, while it may still be taken back
  if (u && (MY_SEAT === null || MY_SEAT === u.seat)) {
    prompts.push(h("button", { id: "undo", type: "button", "data-undo": u.card,
      onclick: () => send("/api/undo", { seat: u.seat }) }, isYou(s, u.seat) ? t("page.undo_yours", { card: cardTitle(u.card) })
      : t("page.undo", { seat: shortName(s, u.seat), card: cardTitle(u.card) })));
  }
  const w = s.waiting ?? {};
  const drawsAgain = w.kind === "play-drawn" && s.options?.draw_until_playable;
  if (s.screen_hands && MY_SEAT !== null && w.seat === MY_SEAT && (["turn", "press", "challenge"].includes(w.kind) || drawsAgain)) {
    // demo --serve: the simulated launcher's button, for a person without a table
    const label = w.kind === "press" ? (w.until_cards ? t("page.press_button_until") : t("page.press_button_count", { count: w.presses }))
      : drawsAgain ? t("page.draw_again_button")
      : w.kind === "turn" ? t(s.edition && ui.catalog?.editions.find((e) => e.name === s.edition)?.launcher
        ? "page.press_button" : "page.draw_button") : t("page.take_by_press");
    buttons.push(h("button", { id: "press-launcher", type: "button", onclick: () => send("/api/screen/launcher", {}) }, label));
  }
  if (MY_SEAT === null && w.kind === "cards-out") {
    const input = h("input", { type: "number", id: "cards-out-count", min: 0, max: 120, value: ui.cardsOut ?? 0, class: "count-input",
      oninput: (e) => { ui.cardsOut = e.target.value; } });
    prompts.push(h("label", {}, t("page.cards_out_label"), input), h("button", { id: "cards-out", type: "button", class: "primary",
      onclick: () => send("/api/admin/override", { kind: "cards-out", count: Number($("#cards-out-count").value) }) }, t("page.cards_out_enter")));
  }
  if (MY_SEAT === null && w.kind === "alarm") {
    prompts.push(h("button", { id: "clear-alarm", type: "button",
      onclick: () => send("/api/admin/override", { kind: "clear-alarm" }) }, t("page.clear_alarm")));
  }
  if (MY_SEAT === null && w.kind === "tower") {  // a broken reader: confirm the tower by eye
    prompts.push(h("button", { id: "tower-seen", type: "button",
      onclick: () => send("/api/admin/override", { kind: "tower-seen", tower: w.tower, ...(typeof w.seat === "number" ? { seat: w.seat } : {}) }) },
    t("page.tower_there", { tower: w.tower })));
  }
  if (MY_SEAT === null && w.kind === "reveal") {
    buttons.push(h("button", { id: "reveal", type: "button", class: "primary", onclick: () => revealCard() },
      t("page.reveal_button")));
  }
  if (MY_SEAT === null && w.kind === "dealer-cards") {
    buttons.push(...(w.missing ?? []).map((seat) => h("button", { type: "button", "data-dealer-card": seat,
      onclick: () => revealCard(seat) }, t("page.turned_button", { seat: shortName(s, seat) }))));
  }
  const blocked = ["paused", "jam", "reload", "shuffle"].includes(s.waiting?.kind);
  if ((s.paused || blocked) && MY_SEAT === null) {
    buttons.push(h("button", { id: "resume", type: "button", class: "primary",
      onclick: () => send("/api/admin/resume", {}) }, t("page.resume")));
  }
  draw($("#actions"), ...buttons);
  draw($("#prompts"), ...prompts);
}

/** demo --serve: the hand a +4 was played from, for the person who challenged it to judge
 * (the cards of the colour before the +4 are marked: one of them makes the player guilty). */
function challengedHand(s) {
  const player = s.challenge?.player;
  const cards = s.screen_hands?.[player];
  if (player === undefined || player === MY_SEAT || !cards) return [];
  const colour = s.challenge.colour;
  return [h("div", { id: "challenged-hand", class: "challenged-hand", "data-seat": player },
    h("span", { class: "label" }, colour ? t("page.challenged_hand_colour", { seat: shortName(s, player), colour: colourLabel(colour) })
      : t("page.challenged_hand", { seat: shortName(s, player) })),
    ...cards.map((c) => cardEl(c, { "data-challenged": c, ...(colour && parseCard(c).colour === colour ? { "data-fits": "1" } : {}) })))];
}

// ---------------------------------------------------------------- overlays

function openSheet(sheet) {
  showError(null);
  ui.sheet = sheet;
  renderSheet();
}

function closeSheet() {
  ui.sheet = null;
  $("#notice").after($("#error"));  // the refusal goes back to its place on the board
  $("#sheet").hidden = true;
  draw($("#sheet"));
}

function openPlay(seat, card = null, tab = null) {
  const s = ui.state;
  openSheet({ kind: "play", seat, tab: tab ?? (COLOURS.includes(s.colour) ? s.colour : "R"),
    card: null, colour: null, target: null, towers: [], laid: [] });
  if (card) pickCard(card);
}

function renderSheet() {
  const sh = ui.sheet;
  const el = $("#sheet");
  if (!sh) { closeSheet(); return; }
  const body = { play: playSheet, cards: cardsSheet, catch: catchSheet, setup: setupSheet, health: healthSheet,
    seats: seatsSheet, help: helpSheet }[sh.kind](sh);
  draw(el,
    h("div", { class: "sheet-head" }, h("span", { class: "title" }, body.title),
      h("button", { type: "button", class: "small", id: "close", onclick: closeSheet }, t("page.close"))),
    ...body.content);
  if (el.firstChild.nextSibling !== $("#error")) el.firstChild.after($("#error"));  // under the title
  el.hidden = false;
  el.dataset.kind = sh.kind;
}

function deck() {
  const s = ui.state;
  const ed = ui.catalog?.editions.find((e) => e.name === s?.edition);
  return ed?.deck ?? [];
}

function tabs(sh) {
  return h("div", { class: "tabs" }, [...COLOURS, "W"].map((c) =>
    h("button", { type: "button", class: `tab c-${c}${sh.tab === c ? " on" : ""}`, "data-tab": c,
      onclick: () => { sh.tab = c; showError(null); renderSheet(); } },
    c === "W" ? t("page.wild") : colourShort(c))));
}

function grid(sh, onPick, dim) {
  return h("div", { class: "grid" }, cardsOfColour(deck(), sh.tab).map((c) =>
    h("button", { type: "button", class: `cardbtn${dim && dim(c) ? " dim" : ""}`, "data-card": c,
      onclick: () => onPick(c) }, cardEl(c))));
}

// -- declaring a play

function pickCard(text) {
  const s = ui.state;
  const sh = ui.sheet;
  const reason = turnReason(s, sh.seat) ?? matchReason(s, text);
  if (reason) {  // refused here: nothing is sent
    showError(reason);
    return;
  }
  showError(null);
  Object.assign(sh, { card: text, colour: null, target: null, towers: [], laid: [], tab: parseCard(text).colour || sh.tab });
  renderSheet();
}

function playSheet(sh) {
  const s = ui.state;
  const title = isYou(s, sh.seat) ? t("page.played_yours") : t("page.played", { seat: seatName(s, sh.seat) });
  if (!sh.card) {
    return { title, content: [tabs(sh), grid(sh, pickCard, (c) => matchReason(s, c) !== null)] };
  }
  const need = needs(s, sh.seat, sh.card);
  const parts = [h("div", { class: "chosen" }, cardEl(sh.card, {}, true), h("span", { id: "chosen-name" }, cardTitle(sh.card)))];
  if (need.colour) {
    parts.push(h("div", { class: "choice" }, h("span", { class: "label" }, t("page.colour_label")),
      COLOURS.map((c) => h("button", { type: "button", class: `pick c-${c}${sh.colour === c ? " on" : ""}`,
        "data-choose-colour": c, onclick: () => { sh.colour = c; renderSheet(); } }, colourLabel(c)))));
  }
  if (need.target) {
    const seats = [...Array(s.seats).keys()].filter((other) => other !== sh.seat);
    parts.push(h("div", { class: "choice" }, h("span", { class: "label" }, need.swap ? t("page.swap_with") : t("page.target_label")),
      seats.map((other) => h("button", { type: "button", class: `pick${sh.target === other ? " on" : ""}`, "data-target": other,
        onclick: () => { sh.target = other; renderSheet(); } }, seatName(s, other)))));
  }
  if (need.towers) {
    parts.push(h("div", { class: "choice" }, h("span", { class: "label" }, t("page.take_towers", { count: need.towers })),
      need.freeTowers.map((tower) => {
        const owner = s.towers[tower];
        const on = sh.towers.includes(tower);
        return h("button", { type: "button", class: `pick tower-pick${on ? " on" : ""}`, "data-tower": tower,
          onclick: () => {
            sh.towers = on ? sh.towers.filter((x) => x !== tower) : [...sh.towers, tower].slice(-need.towers);
            renderSheet();
          } }, t("page.tower_owner", { tower, owner: owner === NEUTRAL ? t("page.neutral") : shortName(s, owner) }));
      })));
  }
  if (need.laid) {
    const laidTab = { ...sh, tab: need.laid };
    parts.push(h("div", { class: "choice" }, h("span", { class: "label" }, t("page.also_laid", { colour: colourWord(need.laid) })),
      sh.laid.map((c, i) => h("button", { type: "button", class: "chip", "data-laid": c, title: t("page.tap_to_remove"),
        onclick: () => { sh.laid.splice(i, 1); renderSheet(); } }, cardEl(c))),
      sh.laid.length ? "" : h("span", { class: "hint" }, t("page.none_yet"))),
    grid(laidTab, (c) => {
      if (sh.laid.length + 1 >= (s.hand_counts[sh.seat] ?? 99)) { showError(t("page.not_that_many", { seat: seatName(s, sh.seat) })); return; }
      sh.laid.push(c);
      renderSheet();
    }));
  }
  const missing = [];
  if (need.colour && !sh.colour) missing.push(t("page.need_colour"));
  if (need.target && sh.target === null) missing.push(t("page.need_target"));
  if (need.towers && sh.towers.length !== need.towers) missing.push(t("page.need_towers", { count: need.towers }));
  parts.push(h("div", { class: "confirm-row" },
    h("button", { type: "button", id: "back", onclick: () => { sh.card = null; showError(null); renderSheet(); } }, t("page.other_card")),
    h("button", { type: "button", id: "confirm", class: "primary", disabled: missing.length > 0,
      onclick: () => declare(sh) }, missing.length ? t("page.choose", { what: missing.join(", ") })
      : t(sh.laid.length ? "page.play_card_laid" : "page.play_card", { card: sh.card, count: sh.laid.length }))));
  return { title, content: parts };
}

async function declare(sh) {
  const choices = {};
  if (sh.colour) choices.color = COLOUR_NAMES[sh.colour];
  if (sh.target !== null) choices.target = sh.target;
  if (sh.towers.length) choices.towers = sh.towers;
  if (sh.laid.length) choices.cards = sh.laid;
  const body = { seat: sh.seat, card: sh.card };
  if (Object.keys(choices).length) body.choices = choices;
  if (await send("/api/play", body)) closeSheet();
}

// -- entering cards: the hand left at the end of a round, the cards laid holding four
// towers, a card turned face up. `sh.need` cards, then `sh.submit(cards)`.

function cardsSheet(sh) {
  const s = ui.state;
  const need = sh.need(s);
  return {
    title: t("page.cards_title", { title: sh.title(s), count: sh.cards.length, need }),
    content: [
      h("div", { class: "choice" }, sh.cards.map((c, i) => h("button", { type: "button", class: "chip", "data-entered": c,
        title: t("page.tap_to_remove"), onclick: () => { sh.cards.splice(i, 1); renderSheet(); } }, cardEl(c)))),
      tabs(sh),
      grid(sh, (c) => {
        if (sh.cards.length >= need) { showError(sh.tooMany(s, need)); return; }
        sh.cards.push(c);
        showError(null);
        renderSheet();
      }),
      h("div", { class: "confirm-row" }, h("button", { type: "button", id: "confirm", class: "primary",
        disabled: sh.cards.length !== need,
        onclick: async () => { if (await sh.submit([...sh.cards])) closeSheet(); } },
      t(sh.verb, { count: sh.cards.length }))),
    ],
  };
}

function enterHand(seat) {
  const shown = ui.state.screen_hands?.[seat];  // demo --serve: the cards on the screen
  openSheet({ kind: "cards", seat, tab: "R", cards: shown ? [...shown] : [], verb: "page.enter_count",
    need: (s) => s.hand_counts[seat],
    title: (s) => t("page.hand_title", { seat: seatName(s, seat) }),
    tooMany: (s, n) => t("page.hand_too_many", { seat: seatName(s, seat), count: n }),
    submit: (cards) => send("/api/hands", { seat, cards }) });
}

function layFourTowers(seat) {
  openSheet({ kind: "cards", seat, tab: "R", cards: [], verb: "page.lay_count",
    need: (s) => s.hand_counts[seat] - 1,
    title: (s) => t("page.four_title", { seat: seatName(s, seat) }),
    tooMany: (s, n) => t("page.four_too_many", { count: n }),
    submit: (cards) => send("/api/decide", { seat, decision: "four-towers", cards }) });
}

function revealCard(seat = null) {
  openSheet({ kind: "cards", seat, tab: "R", cards: [], verb: "page.turned_count",
    need: () => 1,
    title: (s) => (seat === null ? t("page.first_turned") : t("page.seat_turned", { seat: seatName(s, seat) })),
    tooMany: () => t("page.one_card"),
    submit: ([card]) => send("/api/reveal", seat === null ? { card } : { card, seat }) });
}

// -- catching a forgotten UNO: who caught?

function catchSheet(sh) {
  const s = ui.state;
  if (s.uno_exposed !== sh.target) return { title: t("page.too_late"), content: [h("p", {}, t("page.window_closed"))] };
  const seats = [...Array(s.seats).keys()].filter((other) => other !== sh.target);
  return {
    title: t("page.who_caught", { seat: seatName(s, sh.target) }),
    content: [h("div", { class: "choice" }, seats.map((other) => h("button", { type: "button", class: "pick", "data-catcher": other,
      onclick: async () => { if (await send("/api/catch", { seat: other, target: sh.target })) closeSheet(); } }, seatName(s, other))))],
  };
}

// -- match set-up

function setupSheet(sh) {
  const eds = ui.catalog?.editions ?? [];
  const ed = eds.find((e) => e.name === sh.edition) ?? eds[0];
  if (!ed) return { title: t("page.setup"), content: [h("p", {}, t("page.loading_editions"))] };
  sh.seats = Math.min(Math.max(sh.seats, ed.players.min), ed.players.max);
  const names = [];
  for (let i = 0; i < sh.seats; i++) {
    names.push(h("input", { type: "text", maxlength: 24, placeholder: t("page.seat_unnamed", { number: i + 1 }), value: sh.names[i] ?? "",
      "data-name": i, oninput: (e) => { sh.names[i] = e.target.value; } }));
  }
  // each option: its label and one line saying what it does, in the screen's language
  // (firmware/words/options.py), visible without hover; each choice in words too
  const opts = Object.entries(ed.options).map(([name, o]) => {
    const value = sh.options[name] ?? o.default;
    const set = (v) => { sh.options[name] = v; };
    let input;
    if (o.type === "bool") {
      input = h("input", { type: "checkbox", checked: value, "data-option": name, onchange: (e) => set(e.target.checked) });
    } else if (o.choices) {
      input = h("select", { "data-option": name, onchange: (e) => set(e.target.value) },
        o.choices.map((c) => h("option", { value: c, selected: c === value }, t(`option.${name}.${c}`))));
    } else {
      input = h("input", { type: "number", min: o.minimum, max: o.maximum, value, "data-option": name,
        onchange: (e) => set(Number(e.target.value)) });
    }
    return h("label", { class: "option", "data-option-row": name },
      h("span", { class: "what" }, h("span", { class: "label" }, t(`option.${name}`)),
        h("span", { class: "help" }, t(`option.${name}.help`))), input);
  });
  const start = async () => {
    const options = {};
    for (const [name, v] of Object.entries(sh.options)) if (v !== ed.options[name]?.default) options[name] = v;
    const body = { edition: ed.name, seats: sh.seats };
    const named = sh.names.slice(0, sh.seats).map((n) => (n ?? "").trim());
    if (named.some((n) => n)) body.names = named;
    if (Object.keys(options).length) body.options = options;
    if (sh.preset) body.preset = sh.preset;
    if (await send("/api/admin/new-match", body)) closeSheet();
  };
  return {
    title: t("page.setup"),
    content: [
      h("div", { class: "setup" },
        h("label", {}, t("page.edition"),
          h("select", { id: "edition-select", onchange: (e) => { sh.edition = e.target.value; sh.options = presetOf(sh); renderSheet(); } },
            eds.map((e) => h("option", { value: e.name, selected: e.name === ed.name }, t(`edition.${e.name}`).split(":")[0])))),
        h("label", {}, t("page.seats_range", { min: ed.players.min, max: ed.players.max }),
          h("input", { id: "seats-input", type: "number", min: ed.players.min, max: ed.players.max, value: sh.seats,
            onchange: (e) => { sh.seats = Number(e.target.value); renderSheet(); } })),
        presetControl(sh, ed),
        h("p", { class: "hint", id: "edition-about" }, t(`edition.${ed.name}`))),
      h("p", { class: "hint", id: "preset-about" }, t(`preset.${sh.preset ?? "seed"}.help`)),
      h("div", { class: "names" }, names),
      h("details", {}, h("summary", {}, t("page.house_rules")), h("div", { class: "options" }, opts)),
      h("div", { class: "confirm-row" },
        h("button", { type: "button", id: "pause", onclick: () => send("/api/admin/pause", {}) }, t("page.pause")),
        h("button", { type: "button", id: "resume-setup", onclick: () => send("/api/admin/resume", {}) }, t("page.resume")),
        h("button", { type: "button", id: "start", class: "primary", onclick: start }, t("page.start_new_match"))),
    ],
  };
}

// -- house rules (issue 12): presets in the set-up, badges on the board, jump-in, 7-0

/** The options `sh.preset` sets in the set-up's edition (GET /api/editions' `presets`). */
function presetOf(sh) {
  const ed = ui.catalog?.editions.find((e) => e.name === sh.edition);
  return { ...(ed?.presets?.[sh.preset ?? "seed"] ?? {}) };
}

function presetControl(sh, ed) {
  const names = Object.keys(ed.presets ?? {});
  return h("label", {}, `${t("page.setup_preset")} `,
    h("select", { id: "preset-select", onchange: (e) => { sh.preset = e.target.value; sh.options = presetOf(sh); renderSheet(); } },
      names.map((p) => h("option", { value: p, selected: p === (sh.preset ?? "seed") }, t(`preset.${p}`)))));
}

/** A badge for each house rule in force (an option the catalog words as `badge.<name>`, set
 * otherwise than the edition's default), the draw stack pending, the turn timer running. */
function ruleBadges(s) {
  const ed = ui.catalog?.editions.find((e) => e.name === s.edition);
  const badges = [];
  for (const [name, value] of Object.entries(s.options ?? {})) {
    const key = `badge.${name}`;
    // the state lists every option; one the edition does not take is never in force
    const off = value === false || value === 0 || value === "off";
    if (!ed || !(name in ed.options) || off || !(key in words.messages) || value === ed.options[name].default) continue;
    badges.push(h("span", { class: "badge rule", "data-rule": name, title: t(`option.${name}.help`) },
      t(key, { value: `option.${name}.${value}` in words.messages ? t(`option.${name}.${value}`) : value })));
  }
  const st = s.stack;
  if (st && st.count) {
    badges.push(h("span", { class: "badge warn", id: "stack-badge" },
      t(st.unit === "presses" ? "badge.stack.presses" : "badge.stack.cards", { count: st.count, seat: shortName(s, st.seat) })));
  }
  const timer = s.turn_timer;
  if (timer) {
    const key = `${timer.step}:${timer.seat}`;
    if (ui.timer?.key !== key || ui.timer.warning !== timer.warning) ui.timer = { key, warning: timer.warning, ends: Date.now() + timer.left_s * 1000 };
    badges.push(h("span", { class: `badge${timer.warning ? " warn" : ""}`, id: "timer-badge", "data-seat": timer.seat }, timerText(s)));
  } else {
    ui.timer = null;
  }
  return badges;
}

function timerText(s) {
  const left = Math.max(0, Math.ceil((ui.timer.ends - Date.now()) / 1000));
  return t("badge.timer_left", { seat: shortName(s, s.turn_timer.seat), left });
}

function renderRules(s) {
  draw($("#rules"), ...ruleBadges(s));
}

setInterval(() => {  // the turn timer counts down between the table's events
  const el = $("#timer-badge");
  if (el && ui.timer && ui.state?.turn_timer) el.textContent = timerText(ui.state);
}, 1000);

/** jump_in: every seat but the one to act may lay a card identical to the top card; the
 * table takes the first declaration it receives (the card is confirmed on the play sheet). */
function jumpInPrompts(s) {
  if (!s.options?.jump_in || !s.top || parseCard(s.top).colour === "" || s.to_act < 0 || playBlocked(s)) return [];
  const seats = [...Array(s.seats).keys()].filter((seat) => seat !== s.to_act && (MY_SEAT === null || MY_SEAT === seat));
  // one row: what may be laid, then a short button per seat (a shared screen offers every seat)
  return [h("div", { class: "jump-row" }, h("span", { id: "jump-in-label", class: "label" }, t("page.jump_in_label", { card: cardTitle(s.top) })),
    seats.map((seat) => h("button", { type: "button", class: "jump", "data-jump-in": seat,
      onclick: () => openSheet({ kind: "play", seat, tab: s.top[0], card: s.top, colour: null, target: null, towers: [], laid: [] }) },
    shortName(s, seat))))];
}

/** seven_zero: what the table tells the players to do with their hands after a 7 or a 0. */
function swapWords(s, fx) {
  return fx.map((f) => (f.type === "hands_traded" ? ` — ${t("hands_traded", { seat: seatName(s, f.seat), other: seatName(s, f.other) })}`
    : f.type === "hands_passed" ? ` — ${t("hands_passed")}` : "")).join("");
}

// -- hardware health

function healthRows(value, name = "") {
  if (value === null || typeof value !== "object") {
    return [h("div", { class: "hrow" }, h("span", {}, name), h("span", {}, String(value)))];
  }
  const ok = value.ok;
  const rows = [];
  if (name) {
    rows.push(h("div", { class: `hrow ${ok === false ? "bad" : ok === true ? "ok" : ""}`, "data-detail": name },
      h("span", { class: "dev" }, name), h("span", {}, ok === false ? t("page.hw.fault") : ok === true ? t("page.hw.fine") : "")));
  }
  for (const [k, v] of Object.entries(value)) {
    if (k === "ok") continue;
    if (v !== null && typeof v === "object") rows.push(h("div", { class: "nested" }, healthRows(v, k)));
    else rows.push(h("div", { class: "hrow detail" }, h("span", {}, k), h("span", {}, String(v))));
  }
  return rows;
}

/** The devices a person must look after, in words: launcher, hopper, each tray reader. */
function healthSummary(hl) {
  const row = (name, ok, text) => h("div", { class: `hrow ${ok ? "ok" : "bad"}`, "data-device": name },
    h("span", { class: "dev" }, name), h("span", {}, `${ok ? "✓" : "✗"} ${text}`));
  const rows = [];
  const l = hl.launcher;
  if (l && typeof l === "object") {
    if ("state" in l || "fault" in l || "ok" in l) {
      const ok = l.ok ?? (!l.fault && l.state !== "closed");
      rows.push(row(t("page.hw.launcher"), ok, l.fault ? t("page.hw.launcher_fault", { fault: l.fault }) : (l.error ?? (LAUNCHER_STATES[l.state] ? t(LAUNCHER_STATES[l.state]) : l.state ?? ""))));
    }
    if ("hopper_empty" in l) rows.push(row(t("page.hw.hopper"), !l.hopper_empty, t(l.hopper_empty ? "page.hw.hopper_empty" : "page.hw.hopper_loaded")));
  }
  const readers = hl.tray?.readers;
  if (readers && typeof readers === "object" && !Array.isArray(readers)) {
    for (const [name, r] of Object.entries(readers)) {
      const ok = r.ok ?? (r.connected && r.ready);
      // the tray's slots: a seat's number, or the neutral slot (hal.tray)
      const where = name === NEUTRAL ? t("page.neutral") : seatName(ui.state, Number(name));
      rows.push(row(t("page.hw.reader", { where }), Boolean(ok), ok ? t("page.hw.ready") : (r.error ?? t(r.connected ? "page.hw.not_ready" : "page.hw.disconnected"))));
    }
  }
  return rows;
}

function healthSheet() {
  const hl = ui.health;
  const summary = hl ? healthSummary(hl) : [];
  return {
    title: t(hl ? (hl.ok ? "page.hw.ok" : "page.hw.bad") : "page.hw.title"),
    content: [h("div", { class: "health" }, hl ? [
      ...summary,
      summary.length ? h("details", {}, h("summary", {}, t("page.hw.details")), healthRows(hl)) : healthRows(hl),
    ] : t("page.hw.asking"))],
  };
}

// -- seats and phones (the owner's): a code per seat to scan, claims to approve

let seatsAsked = null;
/** GET /api/seats into the open seats sheet (again after every event: a phone joined). */
async function loadSeats() {
  if (seatsAsked) return seatsAsked;
  seatsAsked = (async () => {
    try {
      const res = await request("GET", "/api/seats");
      if (ui.sheet?.kind === "seats") {
        ui.sheet.seats = res.ok ? res.data.seats : null;
        ui.sheet.reachable = res.ok ? res.data.reachable !== false : true;
        ui.sheet.reason = res.ok ? "" : res.data?.reason ?? t("page.refused", { status: res.status });
        if (codeServed(ui.sheet)) hideCode(ui.sheet);
        renderSheet();
      }
    } catch { /* the stream's close handler says the table is away */ }
    seatsAsked = null;
  })();
  return seatsAsked;
}

// Everyone at the table sees its screen, and a free seat goes to whoever scans its code
// first: one seat's code at a time, on the owner's tap, gone once it served or after this.
const CODE_SHOWN_MS = 60_000;

/** Show seat `seat`'s code (and only it) until it is used or a minute has passed. */
function showCode(sh, seat) {
  const e = sh.seats?.find((x) => x.seat === seat);
  if (!e) return;
  hideCode(sh);
  sh.shown = { seat, claimed: e.claimed, asking: (e.codes ?? []).length,
    timer: setTimeout(() => { if (ui.sheet === sh) { hideCode(sh); renderSheet(); } }, CODE_SHOWN_MS) };
  renderSheet();
  $(`[data-seat-code="${seat}"] .qr`)?.scrollIntoView({ block: "nearest" });  // below the fold on 800x480
}

function hideCode(sh) {
  if (sh.shown) clearTimeout(sh.shown.timer);
  sh.shown = null;
}

/** Whether the shown code did its job: its free seat was taken, or a phone asks for it. */
function codeServed(sh) {
  const e = sh.shown && sh.seats?.find((x) => x.seat === sh.shown.seat);
  if (!sh.shown) return false;
  return !e || (e.claimed && !sh.shown.claimed) || (e.codes ?? []).length > sh.shown.asking;
}

/** The table's inline SVG of a QR code as a node of this page (parsed, never run). */
function qrEl(text, label) {
  const doc = new DOMParser().parseFromString(text ?? "", "image/svg+xml");
  const el = doc.documentElement;
  if (!el || el.nodeName !== "svg" || doc.querySelector("parsererror")) return h("span", { class: "qr none" }, "–");
  for (const bad of el.querySelectorAll("script, foreignObject")) bad.remove();
  const w = parseFloat(el.getAttribute("width")), hgt = parseFloat(el.getAttribute("height"));
  if (!el.getAttribute("viewBox") && w > 0 && hgt > 0) el.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
  el.removeAttribute("width");
  el.removeAttribute("height");
  const svg = document.importNode(el, true);
  svg.setAttribute("class", "qr");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  return svg;
}

function seatsSheet(sh) {
  const s = ui.state;
  if (!sh.seats) {
    return { title: t("page.seats.title"), content: [h("p", { class: "hint" }, sh.reason || t("page.seats.asking"))] };
  }
  const answered = (path, seat, code) => async () => { if (await send(path, { seat, code })) loadSeats(); };
  const codes = sh.seats.map((e) => {
    const name = s?.edition ? seatName(s, e.seat) : (e.name || t("page.seat_unnamed", { number: e.seat + 1 }));
    const status = e.pending ? t("page.seats.asks") : e.phone || e.claimed ? t("page.seats.on_phone") : t("page.seats.free");
    const shown = sh.shown?.seat === e.seat;
    const buttons = (e.codes ?? []).flatMap((code) => [
      h("button", { type: "button", class: "primary", "data-approve": e.seat, "data-code": code,
        onclick: answered("/api/seats/approve", e.seat, code) }, t("page.seats.approve", { code })),
      h("button", { type: "button", "data-refuse": e.seat, "data-code": code,
        onclick: answered("/api/seats/refuse", e.seat, code) }, t("page.seats.refuse", { code }))]);
    if (e.claimed || e.phone) {
      buttons.push(h("button", { type: "button", "data-revoke": e.seat,
        onclick: async () => { if (await send("/api/seats/revoke", { seat: e.seat })) loadSeats(); } }, t("page.seats.release")));
    }
    buttons.push(shown
      ? h("button", { type: "button", "data-hide-code": e.seat, onclick: () => { hideCode(sh); renderSheet(); } }, t("page.seats.hide"))
      : h("button", { type: "button", "data-show-code": e.seat, onclick: () => showCode(sh, e.seat) }, t("page.seats.show")));
    return h("div", { class: `seat-code${e.pending ? " asks" : ""}${shown ? " shown" : ""}`, "data-seat-code": e.seat,
      ...(shown ? { "data-url": e.url ?? "" } : {}) },
      h("div", { class: "seat-code-head" }, h("span", { class: "name" }, name), h("span", { class: "status" }, status)),
      shown ? qrEl(e.svg, t("page.seats.code", { seat: name })) : "",
      shown ? h("span", { class: "url" }, e.url ?? "") : "",
      h("div", { class: "confirm-row" }, buttons));
  });
  return { title: t("page.seats.title"), content: [h("p", { class: "hint" }, t("page.seats.how")),
    sh.reachable ? "" : h("p", { class: "warn-line", id: "seats-unreachable" },
      t(ui.state?.screen_hands ? "page.seats.unreachable_demo" : "page.seats.unreachable")),
    h("div", { class: "seat-codes" }, codes)] };
}

// ---------------------------------------------------------------- start

$("#open-setup").addEventListener("click", () => {
  const s = ui.state;
  // an unnamed seat ("" in the state) stays empty; the demo's compass names in the page's language (Nord, Ost, ...)
  const names = (s?.names ?? []).map((n) => (n ? nameWord(n) : ""));
  openSheet({ kind: "setup", edition: s?.edition, seats: s?.seats ?? 4, names, options: {} });
});
$("#open-help").addEventListener("click", () => openSheet({ kind: "help" }));
$("#open-health").addEventListener("click", () => { openSheet({ kind: "health" }); refreshHealth(); });
$("#open-seats").addEventListener("click", () => { openSheet({ kind: "seats", seats: null, reason: "", shown: null }); loadSeats(); });
// a person's own page shows no owner's codes, but in `demo --serve` the person is the owner
// (the table's state shows their cards): there the Phones button stays
if (MY_SEAT !== null) $("#open-seats").hidden = true;
function ownersPhones(s) {
  if (PHONE === null && MY_SEAT !== null && s?.screen_hands) $("#open-seats").hidden = false;
}
$("#lang").addEventListener("click", switchLanguage);

loadCatalog().then(render, () => {});  // retried on every connection until it loads
// the texts first: the board is worded in them from the start; a seat's phone joins first
loadWords().finally(PHONE === null ? connect : joinSeat);

// ---------------------------------------------------------------- a seat's phone

/** Claim the seat with the link's secret (or use the token this phone holds), learn which
 * seat the table says it is, then connect. */
async function joinSeat() {
  for (const id of ["open-setup", "open-health", "open-seats"]) $(`#${id}`).hidden = true;  // the owner's
  const join = takeJoin();
  if (TOKEN && (await whoami(!join))) return connect();
  if (!join && ui.phone.step !== "joining") return;  // the table said why (lost, refused)
  if (join && !(await claimSeat(join))) return;
  if (!TOKEN) { phoneStep("no-link"); return; }
  if (await whoami(true)) connect();
}

function phoneStep(step, reason = "", code = "") {
  ui.phone = { step, reason, code };
  render();
}

/** POST /api/seats/claim until the table answers: 200 a token, 202 ask again with the
 * claim's id (the owner approves on the table's screen), anything else refused. */
async function claimSeat(join) {
  const kept = `${PHONE_KEY}:claim`;
  let claim = JSON.parse(sessionStorage.getItem(kept) ?? "null");
  phoneStep("joining");
  for (;;) {
    const body = { seat: PHONE, join };
    if (claim !== null) body.claim = claim;
    let res;
    try {
      res = await request("POST", "/api/seats/claim", body, { "Idempotency-Key": newKey() });
    } catch {
      down();
      await pause(2000);
      continue;
    }
    if (res.status === 200 && res.data?.token) {
      TOKEN = res.data.token;
      localStorage.setItem(PHONE_KEY, TOKEN);
      sessionStorage.removeItem(`${PHONE_KEY}:join`);
      sessionStorage.removeItem(kept);
      return true;
    }
    if (res.status === 202) {
      claim = res.data?.claim ?? claim;
      sessionStorage.setItem(kept, JSON.stringify(claim));
      phoneStep("waiting", "", res.data?.code ?? "");
      await pause(2000);
      continue;
    }
    if (res.status === 429) {  // this address failed too often: the table answers again soon
      await pause(2000);
      continue;
    }
    sessionStorage.removeItem(`${PHONE_KEY}:join`);
    sessionStorage.removeItem(kept);
    phoneStep("refused", res.data?.reason ?? t("page.refused", { status: res.status }));
    return false;
  }
}

/** GET /api/whoami with this phone's token: the seat it plays. A token the table no longer
 * knows is forgotten (`lost`: say so, unless a link's secret is there to claim again). */
async function whoami(sayLost) {
  for (;;) {
    let res;
    try {
      res = await request("GET", "/api/whoami");
    } catch {
      down();
      await pause(2000);
      continue;
    }
    if (res.ok && res.data?.role === "seat" && Number.isInteger(res.data.seat)) {
      MY_SEAT = res.data.seat;
      phoneStep("joined");
      return true;
    }
    if (!res.ok && res.status !== 401 && res.status !== 403) {  // the table could not say: not the token's fault
      phoneStep("refused", res.data?.reason ?? t("page.refused", { status: res.status }));
      return false;
    }
    localStorage.removeItem(PHONE_KEY);
    TOKEN = null;
    if (sayLost) phoneStep("lost");
    return false;
  }
}

/** The table no longer takes this phone's token (the owner let another phone take the
 * seat, or revoked it): forget it, stop reconnecting, say so. */
function seatLost() {
  localStorage.removeItem(PHONE_KEY);
  TOKEN = null;
  MY_SEAT = null;
  clearTimeout(retry);
  const old = socket;
  socket = null;
  if (old) { old.onclose = null; old.close(); }
  closeSheet();
  phoneStep("lost");
}

/** The phone before it holds its seat: what it is doing, in words. */
function renderJoin() {
  const step = ui.phone.step;
  document.body.classList.remove("stale");
  draw($("#top-card"));
  for (const id of ["colour", "rules", "prompts", "seats", "actions", "yours", "notice"]) draw($(`#${id}`));
  // a phone out of its seat shows none of the seat's cards or results, and does not claim
  // to be connecting when it has nothing to connect to (lost, refused, no link)
  $("#hand").hidden = true;
  document.body.classList.remove("with-hand");
  $("#ends").hidden = true;
  $("#conn").hidden = !["joining", "waiting"].includes(step);
  const text = { joining: t("page.phone.joining"), waiting: t("page.phone.waiting", { code: ui.phone.code }),
    refused: t("page.phone.refused", { reason: ui.phone.reason }), "no-link": t("page.phone.no_link"),
    lost: t("page.phone.lost") }[step];
  $("#waiting").textContent = text ?? "";
  $("#waiting").dataset.phone = step;
  $("#waiting").dataset.code = step === "waiting" ? ui.phone.code : "";  // the owner lets in the phone showing it
}

/** What the table waits for from this seat, first on its phone, in a few words; `mine`: the
 * table's wait is this seat's (then the board does not say it a second time). */
function yoursText(s) {
  const me = MY_SEAT;
  // the daemon's wait; a table without one (a test's) says whose turn it is by `to_act`
  const w = s.waiting ?? (["play", "drawn", "extra"].includes(s.phase) && !(s.owed ?? []).length
    ? { kind: s.phase === "play" ? "turn" : "other", seat: s.to_act } : { kind: "other", seat: s.to_act });
  const playPhase = ["play", "drawn", "extra"].includes(s.phase) && !(s.owed ?? []).length;
  const say = (text, mine = false) => ({ text, mine });
  if (s.uno_exposed === me) return say(t("page.phone.uno_now"));
  if (w.seat === me) {
    if (w.kind === "turn") {
      if (s.hand_counts[me] === 2 && Array.isArray(s.uno_armed) && !s.uno_armed.includes(me)) return say(t("page.phone.turn_uno"), true);
      const pad = padText(s);  // a card pad: tap the card there (or a chip, a seat's button)
      if (pad) return say(s.pad.wants === "card" ? t("page.phone.turn_pad") : pad, true);
      return say(t("page.phone.turn"), true);
    }
    if (w.kind === "press" && w.until_cards) return say(t("page.phone.press_until"), true);
    if (w.kind === "press") {
      const count = w.presses ?? w.count ?? 1;
      return say(t(count === 1 ? "page.phone.press_one" : "page.phone.press", { count }), true);
    }
    return say(t("page.phone.yours", { what: waitingText(s) }), true);
  }
  if (playPhase && s.hand_counts[me] === 2 && Array.isArray(s.uno_armed) && !s.uno_armed.includes(me)) {
    return say(t("page.phone.uno"));
  }
  return say(t("page.phone.nothing"));
}

// ---------------------------------------------------------------- round and match ends

const roundOverWords = (s, r) => t("page.end.round_over", { round: r.round, seat: shortName(s, r.winner) });

function roundOverText(s, w) {
  const next = w.pause_s ? t("page.end.next_in", { seconds: w.pause_s }) : t("page.end.tap_next");
  return `${roundOverWords(s, w)} — ${next}`;
}

/** The round just over (`round_end`) or the match's end (`match-over` with `rounds`). */
function renderEnds(s) {
  const el = $("#ends");
  const r = s.round_end;
  const over = s.waiting?.kind === "match-over" && (s.rounds ?? []).length > 0;
  el.hidden = !r && !over;
  if (r) draw(el, renderRoundEnd(s, r));
  else if (over) draw(el, renderMatchEnd(s));
  else draw(el);
}

/** The round's end: who went out, what each hand left gave, what each seat scored, totals. */
function renderRoundEnd(s, r) {
  const takes = (s.options?.scoring ?? "winner_takes") === "winner_takes";
  const won = r.points.reduce((sum, p) => sum + p, 0);
  const winner = shortName(s, r.winner);
  const rows = r.points.map((p, seat) => {
    const out = seat === r.winner;
    const gave = out ? t("page.end.went_out") : t(takes ? "page.end.gave_to" : "page.end.kept", { points: p, seat: winner });
    const scored = takes ? (out ? won : 0) : p;
    return h("tr", { class: out ? "winner" : "", "data-seat": seat },
      h("td", { class: "name" }, shortName(s, seat)), h("td", { class: "hand" }, gave),
      h("td", { class: "points" }, scored ? `+${scored}` : "–"), h("td", { class: "total" }, String(r.scores[seat])));
  });
  return h("div", { class: "panel", id: "round-end" },
    h("h2", {}, roundOverWords(s, r)),
    h("p", { class: "how", id: "round-how" }, takes ? t("page.end.takes", { seat: winner, points: won }) : t("page.end.own_cards")),
    h("table", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("page.end.hand")), h("th", {}, t("page.end.scored")),
      h("th", {}, t("page.end.total"))), rows),
    h("button", { type: "button", id: "next-round", class: "primary", onclick: () => send("/api/next-round", {}) },
      t("page.end.next_round")));
}

function renderMatchEnd(s) {
  const winners = (s.winners ?? []).map((w) => shortName(s, w)).join(", ");
  const legend = Array.from({ length: s.seats }, (_, seat) => h("span", { class: `key s${seat % 6}` },
    `● ${shortName(s, seat)} ${s.rounds.at(-1).scores[seat]}`));
  return h("div", { class: "panel", id: "match-end" }, h("h2", {}, t("page.end.match_won", { seats: winners })), scoreChart(s),
    h("div", { class: "legend" }, legend),
    h("button", { type: "button", id: "new-match", class: "primary", onclick: () => $("#open-setup").click() },
      t("page.end.new_match")));
}

/** A line per seat through its total after each round, from 0 before the first: a line
 * even after one round. The height runs to the target score (or the highest total above
 * it), with its line and a few labelled grid lines, so the totals read against the goal. */
function scoreChart(s) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = (tag, attrs, ...kids) => {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    el.append(...kids);
    return el;
  };
  const rounds = s.rounds;
  const W = 600, H = 220, left = 48, right = 16, pad = 20, bottom = 28;
  const target = s.options?.target_score ?? 0;
  const top = Math.max(1, target, ...rounds.flatMap((r) => r.scores));
  const x = (i) => left + (i * (W - left - right)) / rounds.length;  // i = 0: before the first round
  const y = (v) => H - bottom - (v * (H - bottom - pad)) / top;
  const grid = [];
  for (const v of [0, Math.round(top / 2), top]) {
    grid.push(svg("line", { x1: left, y1: y(v), x2: W - right, y2: y(v), class: v === target ? "goal" : "grid" }),
      svg("text", { x: left - 6, y: y(v) + 5, "text-anchor": "end" }, String(v)));
  }
  const lines = [];
  for (let seat = 0; seat < s.seats; seat++) {
    const pts = [[x(0), y(0)], ...rounds.map((r, i) => [x(i + 1), y(r.scores[seat])])];
    lines.push(svg("polyline", { class: `line s${seat % 6}`, points: pts.map((p) => p.join(",")).join(" "), fill: "none" }),
      ...rounds.map((r, i) => svg("circle", { class: `point s${seat % 6}`, cx: x(i + 1), cy: y(r.scores[seat]), r: 6,
        "data-seat": seat, "data-round": r.round }, svg("title", {}, `${shortName(s, seat)}: ${r.scores[seat]}`))));
  }
  const labels = [0, ...rounds.map((r) => r.round)].map((n, i) => svg("text", { x: x(i), y: H - 6, "text-anchor": "middle" }, String(n)));
  return svg("svg", { id: "score-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("page.end.chart") },
    ...grid, svg("line", { x1: left, y1: y(0), x2: W - right, y2: y(0), class: "axis" }), ...labels, ...lines);
}

// ---------------------------------------------------------------- the last plays, what the cards do

/** The last five plays (the daemon's `recent`, newest first): a small card and who played
 * it, the whole sentence in its title, so nobody misses the +4 that hit them. */
function renderRecent(s) {
  const plays = s.recent ?? [];
  draw($("#recent"), plays.map((p, i) => {
    const name = shortName(s, p.seat);
    const target = typeof p.target === "number" && p.target >= 0 ? shortName(s, p.target) : null;
    const played = target === null ? t("page.recent.play", { seat: name, card: cardTitle(p.card) })
      : t("page.recent.at", { seat: name, card: cardTitle(p.card), target });
    const way = WAY_WORDS[p.way] ? t(WAY_WORDS[p.way]) : "";
    const said = way ? t("page.recent.way", { said: played, way }) : played;
    return h("li", { class: `play${i === 0 ? " newest" : ""}`, "data-recent": i, "data-seat": p.seat, title: said },
      cardEl(p.card, { title: said }), h("span", { class: "num" }, p.seat + 1),
      h("span", { class: "who", title: said }, target === null ? name : `${name} → ${target}`),
      way ? h("span", { class: "way", "data-way": p.way, title: said }, way) : "");
  }));
}

/** What each card of this edition does (its rule in uno_core.tables.KINDS, through
 * GET /api/editions) and, with towers, what each tower protects against. */
function helpSheet() {
  const s = ui.state;
  const ed = ui.catalog?.editions.find((e) => e.name === s?.edition) ?? ui.catalog?.editions[0];
  if (!ed) return { title: t("page.help.title"), content: [h("p", {}, t("page.loading_editions"))] };
  const kindName = (kind) => words.kinds[ed.name]?.[kind] ?? kind;
  const options = { ...Object.fromEntries(Object.entries(ed.options).map(([k, o]) => [k, o.default])),
    ...(s?.edition === ed.name ? s.options : {}) };
  const example = (kind) => ed.deck.find((c) => parseCard(c).kind === kind && !parseCard(c).symbol) ?? ed.deck.find((c) => parseCard(c).kind === kind);
  const cards = Object.entries(ed.kinds).map(([kind, rule]) => {
    const card = example(kind);
    return h("div", { class: "help-row", "data-help-kind": kind }, cardEl(card),
      h("div", { class: "what" }, h("span", { class: "label" }, kindName(kind)),
        h("span", { class: "does" }, kindSentences(kind, rule, card, ed, options).join(" "))));
  });
  if (ed.deck.some((c) => parseCard(c).symbol)) {
    const card = ed.deck.find((c) => parseCard(c).symbol);
    cards.push(h("div", { class: "help-row", "data-help-kind": "symbol" }, cardEl(card),
      h("div", { class: "what" }, h("span", { class: "does" }, t("page.help.symbol")))));
  }
  const towers = Object.entries(ed.protects ?? {}).map(([tower, kind]) => h("div", { class: "help-row", "data-help-tower": tower },
    h("span", { class: `tower t-${towerClass(tower)}` }, tower),
    h("div", { class: "what" }, h("span", { class: "does" }, t("page.help.tower", { kind: kindName(kind) })))));
  return { title: `${t("page.help.title")}: ${t(`edition.${ed.name}`).split(":")[0]}`, content: [
    h("h3", {}, t("page.help.cards")), h("div", { class: "help" }, cards),
    towers.length ? h("h3", {}, t("page.help.towers")) : "", towers.length ? h("div", { class: "help" }, towers) : ""] };
}

/** A card kind's rule in sentences of the screen's language. */
function kindSentences(kind, rule, card, ed, options) {
  const out = [];
  const wild = card ? parseCard(card).colour === "" : false;
  if (kind === "#") return [t("page.help.number")];
  out.push(t(wild ? "page.help.wild" : "page.help.coloured"));
  if (kind === "WC") out.push(t("page.help.custom", { what: t(`option.wild_customizable.${options.wild_customizable}`) }));
  if (rule.off_colour && options.wild_restricted) out.push(t("page.help.off_colour"));
  const who = t(rule.targeted ? "page.help.who.chosen" : rule.draws && !rule.skips && !rule.targeted
    ? (options.all_hit_scope === "others" ? "page.help.who.others" : "page.help.who.all") : "page.help.who.next");
  if (rule.until) out.push(t("page.help.until", { who }));
  else if (rule.draws) {
    const key = ed.launcher ? (rule.draws === 1 ? "page.help.press_one" : "page.help.press_many")
      : (rule.draws === 1 ? "page.help.draw_one" : "page.help.draw_many");
    out.push(t(key, { who, count: rule.draws }));
  }
  if (rule.skips) out.push(t(rule.draws || rule.until ? "page.help.skip_too" : "page.help.skip"));
  if (rule.turns) out.push(t("page.help.turns"));
  if (rule.targeted && !rule.draws) out.push(t("page.help.trade"));
  if (rule.towers) out.push(t(rule.towers === 1 ? "page.help.towers_one" : "page.help.towers_many", { count: rule.towers }));
  if (rule.lays) out.push(t("page.help.lays"));
  if (rule.stacks && options.stack_draws && options.stack_draws !== "off") out.push(t("page.help.stacks"));
  if (rule.challenge && options.wild_draw4_restricted && !options.no_bluff) out.push(t("page.help.challenge"));
  return out;
}
