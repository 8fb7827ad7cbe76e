// What the Arlington lobby and table pages share beyond /shared/: the
// display name kept in the browser, and a small element builder.

import { cardName, signCode } from "/shared/cards.js";

const NAME_KEY = "arlington.name";
export function savedName() { try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; } }
export function saveName(n) { try { localStorage.setItem(NAME_KEY, n); } catch { /* private mode: not kept */ } }

// points is the word for n points: "1 point", "0 points", "32 points".
export function points(n) { return n === 1 ? "point" : "points"; }

// Cards written with suit symbols ("7♠", "10♥") are shown so but spoken
// in words ("seven of spades"): a screen reader reads "♠" raw as "black
// spade suit", or not at all, and a row of cards as one run of symbols.
// The words are cardName's, of the card's code ("7♠" is "7S", "10♥" "TH":
// signCode).
// A card is a whole token ("7♠", "10♥", "joker"), maybe in brackets or
// before a stop ("7♠:", "(7♠)"): "OK♥" and "A♠vian" are words.
const TOKEN = /^([(\[“"]*)(?:(10|[2-9AJQK])([♠♥♦♣])|(joker))([)\]”",.;:!?]*)$/;

// spoken is text with its cards in words, cards in a row separated by
// commas: "Ann leads the set 7♠ joker 7♥" is "Ann leads the set seven of
// spades, joker, seven of hearts". What keep lists (the players' names,
// a chat line: a name "Ann 7♠" or a line "OK♥") is read as written, but
// for a name that is only cards ("7♠", held from before the server
// refused such names): card words win, else its card went unsaid.
export function spoken(text, keep = []) {
  text = String(text);
  const ks = [...new Set(keep.filter((k) => k && text.includes(k) && !onlyCards(k)))].sort((a, b) => b.length - a.length);
  if (!ks.length) return cardsInWords(text);
  // Whole words only: a name "K" is no part of the card "K♠".
  const re = new RegExp(`(?<![^\\s(“"])(?:${ks.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?![^\\s)”",.;:!?'’])`, "g");
  let out = "", at = 0;
  for (const m of text.matchAll(re)) {
    out += cardsInWords(text.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + cardsInWords(text.slice(at));
}

// onlyCards: every word of k is a card ("7♠", "7♠ 7♥").
function onlyCards(k) { return k.trim().split(/\s+/).every((w) => TOKEN.test(w)); }

// cardsInWords is spoken's work on text holding no kept words.
function cardsInWords(text) {
  const parts = text.split(/(\s+)/); // words at even places, spaces between
  const cards = parts.map((w, i) => (i % 2 === 0 ? TOKEN.exec(w) : null));
  return parts.map((w, i) => {
    const c = cards[i];
    if (!c) return w;
    const [, pre, rank, suit, joker, post] = c;
    const next = cards[i + 2];
    const comma = !post && next && !next[1] ? "," : ""; // the next card follows in the row
    return pre + (joker ? "joker" : cardName(signCode(rank, suit))) + post + comma;
  }).join("");
}

// names are the players' names at the table, which say reads as written
// (table.js keeps them current).
let names = [];
export function sayNames(list) { names = list || []; }

// SAY_KEEP is how many lines #say keeps: a burst (the plays and chat
// lines missed while away, say) is many lines at once, and one removed
// before the screen reader came to it would not be heard.
const SAY_KEEP = 30;

// say tells a screen reader what happened, in the table page's one live
// region, #say (earlier lines stay a while, so one arriving mid-sentence
// is not lost), its cards in words, the players' names and what keep
// lists read as written. The refusal and preview lines people see are
// no live regions: each thing is said once, here.
export function say(text, keep = []) {
  const box = document.getElementById("say");
  if (!text || !box) return;
  box.appendChild(el("p", "", spoken(text, names.concat(keep))));
  while (box.children.length > SAY_KEEP) box.firstElementChild.remove();
}

// sayError shows text on the table page's error line, #error, and says it.
export function sayError(text) {
  document.getElementById("error").textContent = text;
  say(text);
}

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// sync makes parent's children the elements of list, in order. Each
// entry is { key, make, update }: an element already there under the
// same key is kept, else make() makes one; update(e), if given, brings
// either up to date. The elements gone are removed first and a kept one
// moves only when out of order, so a focused control that stays is
// never taken out of the page (which drops the focus) nor announced
// again. The one holding the focus never moves (moving an element in
// the page takes it out and back, and Chrome drops the focus): the
// others are placed around it.
const syncKeys = new WeakMap();
export function sync(parent, list) {
  const keys = new Set(list.map((x) => x.key));
  const have = new Map();
  for (const c of [...parent.children]) {
    const k = syncKeys.get(c);
    if (keys.has(k) && !have.has(k)) have.set(k, c); else c.remove();
  }
  const els = list.map((x) => {
    let e = have.get(x.key);
    if (!e) {
      e = x.make();
      syncKeys.set(e, x.key);
    }
    if (x.update) x.update(e);
    return e;
  });
  const f = document.activeElement;
  const pin = els.findIndex((e) => e.parentNode === parent && e.contains(f));
  if (pin < 0) { place(parent, els, parent.firstElementChild); return; }
  place(parent, els.slice(0, pin), parent.firstElementChild);
  place(parent, els.slice(pin + 1), els[pin].nextElementSibling);
}

// place puts els in order from at on, moving each only when it is not
// already next.
function place(parent, els, at) {
  for (const e of els) {
    if (e === at) at = at.nextElementSibling; else parent.insertBefore(e, at);
  }
}

// nameEl is an element showing a player's name, which the page may cut
// short with an ellipsis where room is short (a phone): the whole name is
// its title (shown on hover) and its text (what a screen reader reads).
export function nameEl(tag, cls, name) {
  const e = el(tag, cls, name);
  e.title = name;
  return e;
}

// ruleHref is the rules page's section for a rule the engine names in a
// refusal ("Leading a Set" -> /arlington/rules#leading-a-set).
export function ruleHref(rule) {
  return "/arlington/rules#" + rule.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

// barBottom is where the page's sticky bar ends in the window: what lies
// above it is hidden.
export function barBottom() {
  const bar = document.querySelector(".bar");
  return bar ? bar.getBoundingClientRect().bottom : 0;
}
