// The public rules the page checks before it sends anything: card notation, and the
// matching check and a card's choices from the rules GET /api/editions gives
// (uno_core.page_rules, made from the engine's tables: `setCatalog`). The daemon stays the
// authority; this only spares a round trip for plays everyone can see are wrong.

export const COLOURS = ["R", "G", "B", "Y"];
export const COLOUR_NAMES = { R: "red", G: "green", B: "blue", Y: "yellow" };
// a shape per colour, so that colour is never the only cue
export const COLOUR_SHAPES = { R: "▲", G: "●", B: "■", Y: "◆" };
export const TOWERS = ["U", "N", "O", "!"];

const COLOURED_KINDS = ["+1", "+2", "S", "R", "T2", "H2", "DA", "TH"];
const WILD_KINDS = ["W", "W+4", "WT1", "WH4", "WAA", "WC", "WHF", "WAH", "WX"];
export const KIND_NAMES = {
  "#": "number", "+1": "Draw 1", "+2": "Draw 2", S: "Skip", R: "Reverse",
  T2: "Take-2-Towers", H2: "Hit 2", DA: "Discard All", TH: "Trade Hands",
  W: "Wild", "W+4": "Wild Draw 4", WT1: "Wild Take-1-Tower", WH4: "Wild Hit 4",
  WAA: "Wild Attack-Attack", WC: "Wild Customizable", WHF: "Wild Hit Fire",
  WAH: "Wild All Hit", WX: "Wild Extreme Move",
};
// by edition: its rules from GET /api/editions (`rules`), the fitting cards as Sets
const RULES = new Map();

/** Take the editions' rules from GET /api/editions' answer (until then nothing is refused
 * here: the daemon judges every play). */
export function setCatalog(catalog) {
  for (const ed of catalog?.editions ?? []) {
    const fits = {};
    for (const [top, byColour] of Object.entries(ed.rules.fits)) {
      fits[top] = Object.fromEntries(Object.entries(byColour).map(([c, cards]) => [c, new Set(cards)]));
    }
    RULES.set(ed.name, { ...ed.rules, fits });
  }
}

/** Parse the compact notation ("R7", "G3!", "B+2", "W+4") into {text, colour, kind, number, symbol}. */
export function parseCard(text) {
  if (WILD_KINDS.includes(text)) return { text, colour: "", kind: text, number: -1, symbol: "" };
  const colour = text[0];
  const rest = text.slice(1);
  if (!COLOURS.includes(colour)) throw new Error(`not a card: ${text}`);
  if (/^[0-9]/.test(rest)) {
    const symbol = rest.slice(1);
    if (symbol && !TOWERS.includes(symbol)) throw new Error(`not a card: ${text}`);
    return { text, colour, kind: "#", number: Number(rest[0]), symbol };
  }
  if (COLOURED_KINDS.includes(rest)) return { text, colour, kind: rest, number: -1, symbol: "" };
  throw new Error(`not a card: ${text}`);
}

/** Short face of a card for a button: "7", "+2", "⊘" (a power symbol is drawn beside it as
 * a tower, never as a letter after the digit: "7O" read as 70). */
export function face(card) {
  const c = typeof card === "string" ? parseCard(card) : card;
  if (c.kind === "#") return String(c.number);
  if (c.kind === "+1" || c.kind === "+2" || c.kind === "W+4") return c.kind.replace("W", "");
  return { S: "⊘", R: "⇄" }[c.kind] ?? c.kind.replace(/^W(?=.)/, "");
}

/** "red 7 (U)", "blue Draw 2", "Wild Draw 4": words a person reads. */
export function cardName(text) {
  const c = parseCard(text);
  if (c.kind === "#") return `${COLOUR_NAMES[c.colour]} ${c.number}${c.symbol ? ` with tower ${c.symbol}` : ""}`;
  return c.colour ? `${COLOUR_NAMES[c.colour]} ${KIND_NAMES[c.kind]}` : KIND_NAMES[c.kind];
}

// The words of the page's language (firmware/words/messages.py via GET /api/messages), set by the
// page with `setWords`: `t(key, args)` a message, `card(text)` a card's name as the edition's
// sheet says it, `kind(code)` a card kind's name, `colour(letter)` a colour as a word.
// Until then (or for a script that loads only this module) the English names below.
const say = {
  t: (key, args = {}) => `${key} ${JSON.stringify(args)}`,
  card: (text) => cardName(text),
  kind: (code) => KIND_NAMES[code],
  colour: (letter) => COLOUR_NAMES[letter] ?? letter,
  name: (name) => name,
};
export function setWords(words) { Object.assign(say, words); }

/** A seat with its 1-based number, in the page's words: "Ben (seat 2)", "Seat 3". */
export function seatName(state, seat) {
  const name = state?.names?.[seat];  // "" for a seat without a name
  return name ? say.t("page.seat", { name: say.name(name), number: seat + 1 }) : say.t("page.seat_unnamed", { number: seat + 1 });
}

/** The kind `card` plays as at this table (a Wild Customizable's: the option's). */
function effectiveKind(rules, state, card) {
  if (card.kind !== "WC") return card.kind;
  return rules?.custom_kinds[state.options?.wild_customizable ?? "wild"] ?? card.kind;
}

/** The rules of the state's edition, or undefined before the catalogue came. */
const rulesOf = (state) => RULES.get(state.edition);

/** Whether `text` may go on the current top card and colour (the engine's match table). */
export function matchReason(state, text) {
  const card = parseCard(text);
  const rules = rulesOf(state);
  const top = state.top ? parseCard(state.top) : null;
  const fits = rules?.fits[state.top]?.[state.colour];
  if (!top || !fits || fits.has(text)) return null;
  if (card.kind === rules.forbids[state.top]) {
    return say.t("page.why.symbol", { kind: say.kind(card.kind), top: say.card(top.text) });
  }
  return say.t("page.why.neither", { card: say.card(text), colour: say.colour(state.colour), top: say.card(top.text) });
}

/** Why `text` does not fit, in the few words a player reads from a metre away
 * ("blue 3 does not fit: needs red or a 5"), or null when it fits. */
export function fitReason(state, text) {
  const reason = matchReason(state, text);
  const top = reason === null ? null : parseCard(state.top);
  if (reason === null || parseCard(text).kind === rulesOf(state).forbids[state.top]) return reason;  // a power symbol says its own
  const args = { card: say.card(text), colour: say.colour(state.colour) };
  if (!top.colour) return say.t("page.why.fit_colour", args);
  // on a coloured card, its number or action fits too (a wild fits always)
  const same = top.kind === "#" ? String(top.number) : say.kind(top.kind);
  return say.t(same.startsWith("8") ? "page.why.fit_or_an" : "page.why.fit_or_a", { ...args, same });
}

// the waits in which a seat lays a card (firmware/waits.py: PHASE_WAITS of play, drawn, extra)
const PLAY_WAITS = new Set(["turn", "play-drawn", "extra-play"]);

/** Whether no card may be laid now because the table deals with something else first: the
 * launcher ejecting, a deal, a press owed, a tower to carry, a pause (the daemon answers 409). */
export function playBlocked(state) {
  if (state.paused) return true;
  if (state.waiting) return !PLAY_WAITS.has(state.waiting.kind);
  return (state.owed ?? []).length > 0 || !["play", "drawn", "extra"].includes(state.phase);
}

/** Why `seat` cannot declare a play now (public facts only), or null. */
export function turnReason(state, seat) {
  if (state.paused) return say.t("page.why.paused");
  if (!["play", "drawn", "extra"].includes(state.phase)) return say.t("page.why.phase", { phase: state.phase });
  if ((state.owed ?? []).length) return say.t("page.why.owed");
  if (state.to_act !== seat) return say.t("page.why.turn", { seat: seatName(state, state.to_act), other: seatName(state, seat) });
  return null;
}

/** What a declared card needs besides itself: colour, target seat, towers, laid cards. */
export function needs(state, seat, text) {
  const card = parseCard(text);
  const rules = rulesOf(state);
  const rule = rules?.kinds[effectiveKind(rules, state, card)];
  let towers = 0;
  let free = [];
  // seven_zero: a 7 names the seat its player swaps hands with (also as the last card,
  // like a Trade Hands: the play's form does not depend on the hand)
  const swap = Boolean(state.options?.seven_zero) && card.kind === "#" && card.number === 7;
  if (state.towers && rule?.towers) {
    free = TOWERS.filter((t) => state.towers[t] !== seat);
    towers = Math.min(rule.towers, free.length);
  }
  return {
    colour: card.colour === "",
    target: Boolean(rule?.targeted) || swap,
    swap,
    towers,
    freeTowers: free,
    laid: rule?.lays ? card.colour : "",
  };
}

/** The distinct cards of an edition's deck, in deck order (from GET /api/editions). */
export function cardsOfColour(deck, colour) {
  return deck.filter((t) => (colour === "W" ? t.startsWith("W") : t[0] === colour && !t.startsWith("W")));
}
