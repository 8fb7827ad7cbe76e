// Messages: the message box, the screen reader's live region, refused
// moves (a box when verbose, else a beep) and what a command did.

import { ApiError } from "/shared/api.js";
import { cardName, cardText, signCode, suitName } from "/shared/cards.js";
import { beep } from "/shared/sound.js";
import { plural, dealsLeft, $, S } from "./state.js";

let toastTimer = 0;
// toastGame is the game shown when the box's message came (S.id then):
// a message about one game is no longer true once another starts.
let toastGame = null;
// toastPlay: the box's message is a command's refusal or failure, or a
// hint, which a later command played makes untrue (succeeded).
let toastPlay = false;
export function announce(text) {
  const live = $("#live");
  live.textContent = "";
  // A fresh text node after a tick makes screen readers repeat equal messages.
  setTimeout(() => { live.textContent = text; }, 30);
}

function toast(text, kind = "info", ms = 4500, { play = false } = {}) {
  const t = $("#toast");
  // A modal dialog dims the page and makes it inert: while one is open the
  // box goes into it, so it shows above the backdrop and its × works.
  const host = document.querySelector("dialog[open]") || document.body;
  if (t.parentElement !== host) host.appendChild(t);
  t.className = kind;
  t.querySelector(".msg").textContent = text;
  t.hidden = false;
  toastGame = S.id;
  toastPlay = play;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, ms);
  placeMessage();
}

// A shown message box must not hide what the player is using: it sits at
// the window's foot, above the analysis panel while that shows (not over
// the panel's buttons), and --msg-room says how far up from the window's
// foot it reaches, which an open menu keeps clear of (style.css). The
// hooks (messageShown) keep the keyboard's place and a menu's focused item
// in sight when a message comes. The pointer's card (pointedAt) is kept
// clear by moving the box instead: the page never scrolls for a pointer.
const shownHooks = [];
let watching = false;

export function messageShown(fn) { shownHooks.push(fn); }

// pointed is the card the player last pressed on the table (pile, index;
// index -1 for the pile's foot, or an empty pile's place), while the
// pointer leads: the keys moving the cursor or playing a command on its
// pile, or a press off the table, end it (null). A refusal answers that
// press, and the pressed card may lie at the window's foot, where the box
// shows: the box then shows at the window's top instead, below the bar.
let pointed = null;
let atTop = false; // the box shows at the window's top (placeMessage)

export function pointedAt(k, index = -1) {
  pointed = k === null ? null : { pile: k, index };
  // The player turned elsewhere (the keys, the toolbar): a box at the top
  // goes back to the foot, where the keys keep their place clear of it
  // and a menu ends above it.
  if (!pointed && atTop) { atTop = false; placeMessage(false); }
}

// pointedBox is the pointed card's place in the window (an empty pile's
// outline), or null. Measured from the layout (offsetTop), not the card's
// box: when a drag is refused, its card is still drawn where it was let
// go as the message comes, and then flies back to this place.
function pointedBox() {
  if (!pointed) return null;
  const pile = document.getElementById(`pile-${pointed.pile}`);
  if (!pile) return null;
  const box = pile.getBoundingClientRect();
  const c = pile.children[pointed.index] || pile.lastElementChild;
  if (!c) return box;
  const left = box.left + pile.clientLeft + c.offsetLeft, top = box.top + pile.clientTop + c.offsetTop;
  return { left, top, right: left + c.offsetWidth, bottom: top + c.offsetHeight };
}

function overlaps(a, b) {
  return a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
}

// messageBox is the message box's place in the window while it shows on
// the page (not in a dialog), else null.
export function messageBox() {
  const t = $("#toast");
  return !t.hidden && t.parentElement === document.body ? t.getBoundingClientRect() : null;
}

// placeMessage places the box at the window's foot, or at its top while
// it would lie over the pointed card there (and not at the top) and no
// menu is open: a menu drops from the bar, and ends above a box at the
// foot. fresh: a new message, which decides the side again; a message
// already showing keeps its side while it changes size.
export function placeMessage(fresh = true) {
  const t = $("#toast"), panel = $("#analysis");
  if (!watching) {
    // The box's and the panel's sizes change with their text, the window
    // and their showing or not: each change places the box again.
    watching = true;
    new ResizeObserver(() => placeMessage(false)).observe(t);
    if (panel) new ResizeObserver(() => placeMessage(false)).observe(panel);
  }
  const onPage = t.parentElement === document.body;
  const under = onPage && panel && !panel.hidden ? Math.ceil(panel.getBoundingClientRect().height) : 0;
  const menu = document.querySelector('[role="menu"]:not([hidden])');
  const top = `${Math.ceil($("#bar").getBoundingClientRect().bottom) + 8}px`;
  const put = (high) => {
    const bottom = high ? "auto" : under ? `${under + 8}px` : "";
    if (t.style.bottom !== bottom) t.style.bottom = bottom;
    if (t.style.top !== (high ? top : "")) t.style.top = high ? top : "";
  };
  if (fresh || menu || !onPage) atTop = false;
  put(atTop);
  let box = messageBox();
  const card = box && fresh && !menu ? pointedBox() : null;
  if (card && overlaps(card, box)) {
    put(true);
    box = messageBox();
    atTop = !overlaps(card, box);
    if (!atTop) { put(false); box = messageBox(); }
  }
  const room = box && !atTop ? Math.max(0, Math.ceil(innerHeight - box.top)) : 0;
  document.documentElement.style.setProperty("--msg-room", `${room}px`);
  if (box) shownHooks.forEach((fn) => fn(box));
}

// hideMessage closes the box (a later answer made its message untrue).
function hideMessage() {
  clearTimeout(toastTimer);
  $("#toast").hidden = true;
}

// succeeded is called when a command was played: a refusal or failure
// of a command still shown answered an earlier one, and a later one went
// through, so it is no longer news; a hint was about the position before.
// Any other message stays: news (an info message) is still true, and so
// is a failed save, delete or analysis, which a move does not undo
// (docs/page.md, "Messages").
export function succeeded() {
  if (!$("#toast").hidden && toastPlay) hideMessage();
}

// gameChanged is called when the page shows another game: a message
// about the game before (a refusal, "this game was given up…") is no
// longer true. One that came with no game shown (a link the server
// refused, as the page starts) stays.
export function gameChanged() {
  if (toastGame !== null && toastGame !== S.id) hideMessage();
}

// say is the spoken text, when it differs from the written one; play:
// true when the message is about the position shown (a hint), so that a
// command played closes it (succeeded).
export function info(text, { quiet = false, say = text, play = false } = {}) {
  if (!quiet) toast(text, "info", undefined, { play });
  announce(say);
}

// pretty turns the engine's wording into the page's: "illegal move: 7H goes
// only on ..." becomes "Illegal move: 7♥ goes only on ...".
export function pretty(text) {
  const t = String(text).replace(/\b([A2-9TJQK]|10)([CDHS])\b/g, (_, r, s) => cardText((r === "10" ? "T" : r) + s));
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// inWords turns cards written with suit signs ("the 7♥", "10♠") into
// names ("the seven of hearts"), for the screen reader, as every other
// announcement names them.
export function inWords(text) {
  return String(text).replace(/(10|[A2-9JQK])([♣♦♥♠])/g, (_, r, s) => cardName(signCode(r, s)));
}

// spoken turns card codes into names for the screen reader.
function spoken(text) {
  return String(text).replace(/\b([A2-9TJQK])([CDHS])\b/g, (m) => cardName(m));
}

// refuse reports an illegal move: a message box when verbose, else a short sound.
export function refuse(raw) {
  const text = pretty(raw);
  document.body.dataset.lastError = text;
  if (S.settings.verbose) {
    toast(text, "error", 6000, { play: true });
  } else {
    beep();
  }
  announce(spoken(raw));
}

// failure reports an error; box: false when the caller shows it itself;
// play: true when it is a command's (succeeded closes it).
export function failure(e, { box = true, play = false } = {}) {
  const text = pretty(e instanceof ApiError ? e.message : String(e && e.message || e));
  document.body.dataset.lastError = text;
  if (box) toast(text, "error", 7000, { play });
  announce(text);
}

// describe says what a command did, for the live region.
export function describe(cmd, move, a, b) {
  const m = (move || cmd).trim().split(/\s+/);
  let text = "";
  if (m[0] === "move") {
    const f = +m[1] - 1, t = +m[2] - 1;
    // The cards that left pile f (those put on pile t may have gone on,
    // as a completed suit removed at once). The server's move names its
    // count; without one, what pile t gained, never less than one card
    // (a removal can leave it shorter than before).
    const n = +m[3] || Math.max(1, b.piles[t].up.length - a.piles[t].up.length);
    const moved = a.piles[f].up.slice(-n);
    const first = moved[0];
    const onto = a.piles[t].up.length ? `onto ${cardName(a.piles[t].up[a.piles[t].up.length - 1])}` : "into the empty pile";
    text = `Moved ${first ? cardName(first) : "cards"}${n > 1 ? ` and ${plural(n - 1, "card")} below it` : ""} from pile ${f + 1} to pile ${t + 1}, ${onto}.`;
  } else if (m[0] === "deal") {
    text = `Dealt a row. ${dealsLeft(b) ? plural(dealsLeft(b), "row") + " left" : "The stock is empty"}.`;
  } else if (m[0] === "remove") {
    text = `Removed a complete suit of ${suitName(b.completed[b.completed.length - 1] || "")}.`;
  } else if (m[0] === "undo") text = "Took back a move.";
  else if (m[0] === "redo") text = "Played the move again.";
  else if (m[0] === "restart") text = "Restarted the deal.";
  for (let k = 0; k < 10; k++) {
    if (b.piles[k].down < a.piles[k].down && b.piles[k].up.length) {
      const turned = b.piles[k].up[0];
      text += ` Pile ${k + 1} turned up ${cardName(turned)}.`;
    }
  }
  if (b.completed.length > a.completed.length && m[0] !== "remove") {
    text += ` Removed a complete suit of ${suitName(b.completed[b.completed.length - 1])}.`;
  }
  if (text) announce(text);
}
