// The keyboard: the help's keys for piles, picking up, splitting and the
// commands (docs/page.md, "Moving cards").

import { stop as stopCascade, celebrating } from "./celebrate.js";
import { reveal } from "./render.js";
import { runLen, pileCards, plural, dealsLeft, variantLabel, dialogOpen, windowsScore, shownScore, $, S } from "./state.js";
import { announce, info, refuse, messageShown, pointedAt } from "./messages.js";
import { openNew } from "./newgame.js";
import { openDialog, menuOpen, menuKey } from "./dialogs.js";
import { speakColumn, openLocate } from "./tools.js";
import { shortcutKey } from "/shared/keys.js";

// The page's actions (render and pileLabel in app.js, the rest in
// play.js), given by initKeys from app.js.
let render, pileLabel, finish, pick, dropOn, cancelPick, clickPile, removeFrom, autoMove, deal, undo, redo, restart, hint;

// keyed: the keys moved the cursor last, no pointer nor wheel since. A
// message that comes then (a refused drop, a hint) could lie over the
// cursor's pile at the window's foot: the pile is shown above it. This is
// not played()'s rule (the cursor drawn), on purpose: after the wheel or
// Page Down the cursor is still drawn, and a key the player presses then
// acts on its pile, so the page follows; a message is no act of the
// player's, and scrolling for it would undo where they scrolled to.
let keyed = false;

export function initKeys(ctx) {
  ({ render, pileLabel, finish, pick, dropOn, cancelPick, clickPile, removeFrom, autoMove, deal, undo, redo, restart, hint } = ctx);
  for (const ev of ["pointerdown", "wheel", "touchstart"]) {
    document.addEventListener(ev, () => { keyed = false; }, { capture: true, passive: true });
  }
  messageShown(() => { if (keyed && S.view) show(); });
}

function setCursor(k) {
  S.cursor = (k + 10) % 10;
  const tab = $("#tableau");
  if (document.activeElement !== tab) tab.focus({ preventScroll: true });
  render();
  announce(pileLabel(S.cursor));
}

function enter() {
  const k = S.cursor;
  if (S.sel) {
    if (S.sel.pile === k) cancelPick();
    else dropShown(k);
  } else {
    pick(k, 0);
  }
}

// dropShown puts the cards picked up on pile k and, once the move is
// played, shows where they landed: the pile may have grown past the
// window's bottom.
function dropShown(k) {
  const before = pileCards(k).len;
  const done = dropOn(k);
  if (!done) return;
  done.then(() => {
    if (S.view && S.cursor === k && !S.sel) reveal(k, Math.max(0, pileCards(k).len - before));
  });
}

// show brings the cursor's pile into view after a key moved the cursor or
// changed what is picked up: its foot card, or the cards picked up on it.
// Only the keyboard scrolls: a pointer is already where the player looks.
function show() {
  const sel = S.view && S.sel && S.sel.pile === S.cursor ? (S.sel.count || runLen(S.cursor)) : 0;
  reveal(S.cursor, sel);
}

// The cursor is drawn while the tableau has the keyboard's focus
// (style.css): a bar over the cursor pile's top and one under its foot card.
function cursorShown() { return $("#tableau").matches(":focus-visible"); }

// played shows the cursor's pile once the command a key sent (deal, undo,
// redo, auto-move, remove) is drawn: the pile may have grown past the
// window's foot or shrunk under the bar. Only while the cursor is drawn:
// a player who clicked or tapped off the table (which hides it), then
// presses U, is looking where they pointed, not at a pile marked nowhere.
// (A click on the table keeps the focus there: the browser draws the
// cursor again at the next key, before this runs, and the page follows.)
// The keys lead then: a message box at the window's top (moved there for
// a card the pointer pressed) goes back to the foot, which reveal keeps
// the pile's foot above; at the top it would cover a foot that reveal
// brings up to just below the bar.
function played(done) {
  if (!done || !cursorShown()) return;
  pointedAt(null);
  const k = S.cursor;
  done.then(() => { if (S.view && S.cursor === k) show(); });
}

function splitKey() {
  if (S.hover && !S.sel) {
    clickPile(S.hover.pile, S.hover.index, true);
    return;
  }
  if (S.hover && S.sel && S.sel.pile !== S.hover.pile) {
    dropShown(S.hover.pile);
    return;
  }
  const k = S.sel ? S.sel.pile : S.cursor;
  const run = runLen(k);
  if (!run) { refuse(`Pile ${k + 1} is empty: there is nothing to pick up.`); return; }
  if (!S.sel) { pick(k, run); return; }
  const n = (S.sel.count || run) - 1;
  pick(k, n >= 1 ? n : run);
}

function growPick(delta) {
  const k = S.sel ? S.sel.pile : S.cursor;
  const run = runLen(k);
  if (!run) return;
  const cur = S.sel ? (S.sel.count || run) : 0;
  const n = Math.max(1, Math.min(run, cur + delta));
  pick(k, n);
}

export function onKey(e) {
  if (celebrating()) { e.preventDefault(); stopCascade(); return; }
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (dialogOpen()) return;
  if (menuOpen()) { menuKey(e); return; }
  // key: the layout's letter or digit (shared/keys.js), "" for typing.
  const key = shortcutKey(e);
  if (!key) return;
  // "?" opens the keys' help with Ctrl and Alt too: that is how Windows
  // reports the AltGr that types it on some layouts (Brazilian AltGr+W).
  if (key === "?" && !e.metaKey) { e.preventDefault(); openDialog("#dlg-keys"); return; }
  // F1, and the Help key of keyboards that have one (the Amiga's opened a
  // program's help), open it too.
  if ((key === "F1" || key === "Help") && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); openDialog("#dlg-keys"); return; }
  if (e.ctrlKey || e.metaKey) {
    if (key === "z" && !e.shiftKey) { e.preventDefault(); played(undo()); }
    else if ((key === "z" && e.shiftKey) || key === "y") { e.preventDefault(); played(redo()); }
    return;
  }
  if (e.altKey) return;
  if (t && t.tagName === "BUTTON" && (key === "Enter" || key === " ")) return;
  // Enter on a focused link (the header's) follows it.
  if (t && t.closest && t.closest("a[href]") && key === "Enter") return;
  // The keys up to T move the cursor or change what is picked up (Escape
  // only when something is): the cursor's pile is shown after them. The
  // commands that change the piles show it once played (played).
  let handled = true, moved = true;
  if (/^[0-9]$/.test(key)) setCursor(key === "0" ? 9 : +key - 1);
  else if (key === "ArrowLeft") setCursor(S.cursor - 1);
  else if (key === "ArrowRight") setCursor(S.cursor + 1);
  else if (key === "Home") setCursor(0);
  else if (key === "End") setCursor(9);
  else if (key === "ArrowUp") growPick(1);
  else if (key === "ArrowDown") growPick(-1);
  else if (key === "Enter" || key === " ") enter();
  else if (key === "Escape") { moved = !!S.sel; cancelPick(); }
  else if (key === "t") splitKey();
  else {
    moved = false;
    if (key === "a") played(autoMove(S.cursor, S.sel && S.sel.pile === S.cursor ? S.sel.count : 0));
    else if (key === "x") played(removeFrom(S.cursor));
    else if (key === "d") played(deal());
    else if (key === "u") played(undo());
    else if (key === "y") played(redo());
    else if (key === "h") hint();
    else if (key === "f") finish();
    else if (key === "n") openNew();
    else if (key === "r") restart();
    else if (key === "c") speakColumn(S.cursor);
    else if (key === "l") openLocate();
    else if (key === "s") speakStatus();
    else handled = false;
  }
  if (handled) e.preventDefault();
  else keyed = false; // the browser's own keys (Tab, Page Down) take the eyes elsewhere
  if (moved) { keyed = true; pointedAt(null); show(); }
}

function speakStatus() {
  const v = S.view;
  const text = `${v.deal ? "Deal " + v.deal : "Custom deal"}, ${variantLabel(v)}. ${windowsScore() ? "Windows score" : "Score"} ${shownScore(v)}, ${plural(v.moves, "move")}. ` +
    `${dealsLeft(v) ? plural(dealsLeft(v), "row") + " left to deal" : "Stock empty"}. ${v.completed.length ? plural(v.completed.length, "suit") + " completed" : "No suits completed"}.`;
  info(text, { quiet: true });
}
