// The Cards menu's look-ups and settings: a pile's cards (column), where
// a card is (locate), and the cheat level for new games.

import { api } from "/shared/api.js";
import { cardSVG, cardName, parseCard, signSuit } from "/shared/cards.js";
import { pileCards, $, S } from "./state.js";
import { announce, info, failure } from "./messages.js";
import { openDialog } from "./dialogs.js";

// The page's actions that live in app.js, given by initTools.
let render;

export function initTools(ctx) {
  ({ render } = ctx);
}

export function openColumn(k = S.cursor) {
  openDialog("#dlg-column");
  const box = $("#column-piles");
  if (!box.children.length) {
    for (let i = 0; i < 10; i++) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = String(i + 1);
      b.setAttribute("aria-label", `Pile ${i + 1}`);
      b.addEventListener("click", () => showColumn(i));
      box.appendChild(b);
    }
  }
  showColumn(k);
}

let columnAsk = 0;

async function showColumn(k) {
  [...$("#column-piles").children].forEach((b, i) => b.setAttribute("aria-pressed", i === k ? "true" : "false"));
  const text = $("#column-text"), cards = $("#column-cards");
  const ask = ++columnAsk; // only the latest question's answer is shown
  try {
    const r = await api.column(S.id, k + 1);
    if (ask !== columnAsk) return;
    const cs = r.cards || [];
    const down = S.view.piles[k].down;
    text.textContent = `Pile ${k + 1}${down && !S.view.open ? ` (${down} face down)` : ""}: ${cs.length ? cs.map(cardName).join(", ") : "no visible cards"}.`;
    cards.replaceChildren(...cs.map((c) => { const s = cardSVG(c); s.setAttribute("role", "img"); s.setAttribute("aria-label", cardName(c)); return s; }));
  } catch (e) {
    if (ask !== columnAsk) return;
    text.textContent = e.message;
    cards.replaceChildren();
  }
}

export async function speakColumn(k) {
  try {
    const r = await api.column(S.id, k + 1);
    const cs = r.cards || [];
    info(`Pile ${k + 1}: ${cs.length ? cs.map(cardName).join(", ") : "no visible cards"}.`, { quiet: true });
  } catch (e) {
    failure(e);
  }
}

export function openLocate() {
  openDialog("#dlg-locate");
  $("#locate-text").textContent = "";
  $("#locate-card").select();
}

// parseCardName reads a card as the player may type it: QH, 10s, the
// page's own signs (Q♦, 10 ♠) or words (queen of diamonds).
function parseCardName(text) {
  // The outlined signs (♤♡♢♧) are read as the filled ones.
  const outlined = { "♤": "♠", "♡": "♥", "♢": "♦", "♧": "♣" };
  const c = parseCard(String(text).replace(/[♠♤♥♡♦♢♣♧]/g, (m) => signSuit(outlined[m] || m)).replace(/\s+/g, ""));
  if (c) return c;
  const m = String(text).toLowerCase().match(/^\s*(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|[2-9]|10)\s+(?:of\s+)?(clubs?|diamonds?|hearts?|spades?)\s*$/);
  if (!m) return "";
  const ranks = { ace: "A", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9", ten: "T", jack: "J", queen: "Q", king: "K", 10: "T" };
  return (ranks[m[1]] || m[1]) + m[2][0].toUpperCase();
}

export async function submitLocate(e) {
  e.preventDefault();
  const raw = $("#locate-card").value;
  const code = parseCardName(raw);
  const out = $("#locate-text");
  if (!code) { out.textContent = `“${raw}” is not a card: try QH, 10♠ or queen of hearts.`; return; }
  try {
    const r = await api.locate(S.id, code);
    const locs = r.locations || [];
    S.located = locs.map((l) => ({ pile: l.pile - 1, index: l.index }));
    render();
    const where = locs.map((l) => `pile ${l.pile} (card ${l.index + 1} of ${pileCards(l.pile - 1).len})`);
    let text = locs.length ? `${cap(cardName(code))}: ${where.join(" and ")}.` : `No ${cardName(code)} is visible.`;
    if (r.completed) text += ` ${r.completed} in a completed suit.`;
    out.textContent = text;
    announce(text);
    const at = S.located;
    setTimeout(() => { if (S.located === at) { S.located = []; render(); } }, 6000);
  } catch (err) {
    out.textContent = err.message;
  }
}

function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

export function openCheat() {
  const f = $("#form-cheat");
  f.cheat.value = S.settings.cheat;
  $("#cheat-current").textContent = S.view ? `This game: ${S.view.variant === "spider" ? "Spider scoring stops at the first undo instead" : { none: "no detection", newcards: "new cards only", full: "full detection" }[S.view.cheat] || S.view.cheat}${S.view.breakdown.cheated ? " (cheating detected: the score is halved)" : ""}.` : "";
  openDialog("#dlg-cheat");
}
