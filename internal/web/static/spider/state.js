// The page's state and what it reads from the server's view: the game
// shown (S), the settings' defaults, and the piles' runs. Every module of
// the page shares S; only the server changes the game itself.

import { rankOf, suitOf } from "/shared/cards.js";

export const $ = (sel) => document.querySelector(sel);
export const GAME_KEY = "cardtable.spider.game";
export const SETTINGS_KEY = "cardtable.spider.settings";

const reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export const DEFAULTS = {
  verbose: true,
  animations: !reducedMotion,
  hideAreas: false,
  fourColor: false,
  sound: false,
  cheat: "none",
  // The score shown: "arachnid" (the texts' count) or "windows" (500, one
  // off an action, 100 a suit); the card back and the table's colour.
  scoring: "arachnid",
  back: "blue",
  table: "green",
  // Completed suits go at once, as in Microsoft's Spider; the New game
  // dialog keeps the choice.
  newGame: { variant: "arachnid", suits: 4, open: false, relaxed: false, autoRemove: true, winnable: false },
};

// MEASURE_KEY, set to "1" in a tab's sessionStorage before the page
// loads, asks the page to keep its measurements (measure), for the
// browser tests and for anyone looking into a slow page; otherwise it
// keeps none, as nobody reads them.
export const MEASURE_KEY = "cardtable.measure";
const measuring = (() => { try { return sessionStorage.getItem(MEASURE_KEY) === "1"; } catch { return false; } })();
// MEASURED is how many of each measurement are kept: the last ones.
const MEASURED = 200;

// measure is where the page notes one kind of measurement (ms), kept as
// window[name] when the tab asked (MEASURE_KEY): the last MEASURED, in a
// ring (in no order: readers sort them), so each note costs the same
// however long the game. Not asked, a note does nothing.
export function measure(name) {
  if (!measuring) return () => {};
  const ring = window[name] = [];
  let next = 0;
  return (ms) => { ring[next] = ms; next = (next + 1) % MEASURED; };
}

export const S = {
  id: null,
  view: null,
  sel: null, // {pile, count}: count 0 = the whole run (the server fits the longest part)
  cursor: 0,
  settings: structuredClone(DEFAULTS),
  hint: null, // {pile, count, to} or {stock: true}
  hintCycle: null, // {view, moves, i}: the ranked hints for the view shown
  located: [], // [{pile, index}]
  endShown: "",
  chain: Promise.resolve(),
  pending: 0,
  hover: null, // {pile, index} under the mouse, for the T key
  celebration: null, // a promise while the win celebration plays
  finishing: false, // the Finish button is playing the rest
  gaveUp: false, // the player gave this game up for its analysis
};

// busy counts the page's requests in flight (S.pending): the body's
// data-busy is "1" while any is, the settings' writes included.
export function busy(delta) {
  S.pending += delta;
  document.body.dataset.busy = S.pending > 0 ? "1" : "0";
}

export function pileCards(k, v = S.view) {
  const p = v.piles[k];
  return { down: p.down, up: p.up, hidden: p.hidden || [], len: p.down + p.up.length };
}

// runLen is the length of the same-suit descending run at the bottom of pile k.
export function runLen(k, v = S.view) {
  const up = v.piles[k].up;
  if (!up.length) return 0;
  let n = 1;
  for (let i = up.length - 1; i > 0; i--) {
    const a = up[i - 1], b = up[i];
    if (suitOf(a) !== suitOf(b) || rankOf(a) !== rankOf(b) + 1) break;
    n++;
  }
  return n;
}

export function isCompleteRun(k, v = S.view) {
  const up = v.piles[k].up;
  return runLen(k, v) >= 13 && rankOf(up[up.length - 13]) === 13;
}

// CHOICES are the values each choice setting may take.
export const CHOICES = {
  scoring: ["arachnid", "windows"],
  back: ["blue", "red", "green", "plain"],
  table: ["green", "blue", "grey", "dark"],
};

// windowsScore: the status bar and end screen show the Windows score.
export function windowsScore() { return S.settings.scoring === "windows"; }

// shownScore is the score the player chose to see.
export function shownScore(v = S.view) { return windowsScore() ? v.breakdown.windows : v.score; }

export function plural(n, one, many = one + "s") { return `${n} ${n === 1 ? one : many}`; }

export function dealsLeft(v = S.view) { return Math.floor(v.stock / 10); }

export function variantLabel(v) {
  return `${v.variant === "spider" ? "Spider" : "Arachnid"} · ${plural(v.suits, "suit")}` +
    (v.open ? " · open" : "") + (v.relaxed ? " · relaxed" : "");
}

export function dialogOpen() { return !!document.querySelector("dialog[open]"); }

export function countFrom(k, index) {
  return pileCards(k).len - index;
}
