// Pointer input on the table: click, right-click, double-click, drag, and
// touch (tap, double tap, long press, drag); the stock's press. Gestures
// become the page's actions (initInput gives them), which send commands.

import { cardName, rankOf } from "/shared/cards.js";
import { geom } from "./render.js";
import { snapshot, animate } from "./anim.js";
import { pileCards, runLen, countFrom, $, S } from "./state.js";
import { refuse, pointedAt } from "./messages.js";

// The page's actions (drawing in app.js, send in game.js, the rest in
// play.js), given by initInput from app.js.
let render, send, dropOn, cancelPick, clickPile, autoMove, deal;

// initInput takes the page's actions and listens to the pointer on the
// table and the stock.
export function initInput(ctx) {
  ({ render, send, dropOn, cancelPick, clickPile, autoMove, deal } = ctx);
  const tab = $("#tableau");
  document.addEventListener("pointerdown", onAnyPress, { capture: true, passive: true });
  tab.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", (e) => {
    if (press && press.pointerId === e.pointerId) { clearTimeout(press.timer); press = null; }
    if (stockPress && stockPress.pointerId === e.pointerId) stockPress = null;
    if (drag) { clearDrag(); render(); }
  });
  tab.addEventListener("contextmenu", onContextMenu);
  // The Amiga's middle button splits too (no autoscroll on the table).
  tab.addEventListener("mousedown", (e) => { if (e.button === 1) e.preventDefault(); });
  tab.addEventListener("auxclick", (e) => { if (e.button === 1) onContextMenu(e); });
  tab.addEventListener("dblclick", onDoubleClick);
  $("#stock").addEventListener("pointerdown", onStockDown);
  $("#stock").addEventListener("mousedown", onStockMouseDown);
  document.addEventListener("pointerup", onStockUp);
  $("#stock").addEventListener("click", onStockClick);
}

export let drag = null;

function cardAt(e) {
  const c = e.target.closest && e.target.closest("#tableau .card");
  return c ? { el: c, pile: +c.dataset.pile, index: +c.dataset.index } : null;
}

// onAnyPress tells the message box which card the pointer pressed, any
// button: the card, or the pile whose column the press is in (its foot),
// on the table; none off it. A press on the box itself (its ×) changes
// nothing.
function onAnyPress(e) {
  if (e.target.closest && e.target.closest("#toast")) return;
  const c = cardAt(e);
  if (c) { pointedAt(c.pile, c.index); return; }
  const onTable = e.target.closest && e.target.closest("#tableau");
  const k = onTable ? dropTarget(e.clientX, e.clientY) : null;
  pointedAt(typeof k === "number" ? k : null);
}

// A press that neither moves nor (for a finger) lasts is a click or a tap.
// Both are handled when the button or finger lifts, from the pointer
// events, not from the click the browser sends after them: the browser
// drops that click when a redraw replaced the node pressed, and sends a
// tap's click only after its double-tap wait. So play is immediate, and a
// press and release that straddle a redraw (a command's answer arriving)
// still act.
let press = null; // {x, y, t, pointerId, touch, longPress, timer}
let lastTap = { t: 0, pile: -1 };
let lastTouch = { t: 0, x: 0, y: 0 };
const DOUBLE_MS = 500; // the usual double-click time

function onPointerDown(e) {
  if (!e.isPrimary || e.button !== 0 || !S.view) return;
  if (press) clearTimeout(press.timer);
  const touch = e.pointerType !== "mouse";
  press = { x: e.clientX, y: e.clientY, t: Date.now(), pointerId: e.pointerId, touch, longPress: false };
  if (touch) {
    const ps = press;
    ps.timer = setTimeout(() => longPress(ps), 500);
  }
  const c = cardAt(e);
  if (!c || c.el.classList.contains("down")) return;
  drag = { pile: c.pile, index: c.index, x0: e.clientX, y0: e.clientY, started: false, pointerId: e.pointerId };
}

// onClick acts on a click or tap that ended at e, pressed as ps.
function onClick(e, ps) {
  if (ps.touch) lastTouch = { t: Date.now(), x: e.clientX, y: e.clientY };
  const pileEl = e.target.closest && e.target.closest("#tableau .pile");
  const k = pileEl ? +pileEl.dataset.pile : dropTarget(e.clientX, e.clientY);
  if (k === null || k === "completed") { cancelPick(false); return; }
  const c = pileEl ? cardAt(e) : null;
  const split = e.shiftKey || e.altKey;
  const now = Date.now();
  // A click that puts cards down is no first click of a double-click: a
  // pick from that pile right after it (to carry the cards on) is a pick.
  const drop = !!(S.sel && S.sel.pile !== k);
  if (drop) lastDrop = now;
  if (!drop && now - lastTap.t < DOUBLE_MS && lastTap.pile === k) {
    lastTap = { t: 0, pile: -1 };
    doubleClick(k, c, split);
    return;
  }
  lastTap = drop ? { t: 0, pile: -1 } : { t: now, pile: k };
  clickPile(k, c ? c.index : -1, split);
}

// tapClick reports whether a click is the browser's late echo of a tap.
function tapClick(e) {
  if (e.pointerType === "touch" || e.pointerType === "pen") return true;
  return Date.now() - lastTouch.t < 1500 && Math.hypot(e.clientX - lastTouch.x, e.clientY - lastTouch.y) < 30;
}

function onPointerMove(e) {
  const c = cardAt(e);
  S.hover = c ? { pile: c.pile, index: c.index } : null;
  if (press && e.pointerId === press.pointerId) {
    if (press.longPress) return; // a held finger picked up; no drag now
    if (Math.hypot(e.clientX - press.x, e.clientY - press.y) > 10) clearTimeout(press.timer);
  }
  if (!drag || e.pointerId !== drag.pointerId) return;
  if (!drag.started) {
    if (Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < 6) return;
    const count = countFrom(drag.pile, drag.index);
    if (count > runLen(drag.pile)) {
      const code = pileCards(drag.pile).up[pileCards(drag.pile).len - count - pileCards(drag.pile).down];
      drag = null;
      refuse(`${code ? "The " + cardName(code) : "That card"} cannot be moved: only a same-suit run in order at the bottom of a pile moves together.`);
      return;
    }
    startDrag(count);
  }
  moveDrag(e.clientX, e.clientY);
}

function startDrag(count) {
  drag.started = true;
  drag.count = count;
  S.sel = null;
  render();
  const layer = $("#drag-layer");
  layer.replaceChildren();
  drag.items = [];
  document.querySelectorAll(`#tableau .card[data-pile="${drag.pile}"]`).forEach((el) => {
    if (+el.dataset.index < drag.index) return;
    const r = el.getBoundingClientRect();
    const g = el.cloneNode(true);
    g.classList.remove("selected", "hint-src", "located", "dragging-src");
    g.style.left = `${r.left}px`;
    g.style.top = `${r.top}px`;
    layer.appendChild(g);
    drag.items.push({ g, left: r.left, top: r.top });
  });
  $("#completed").classList.toggle("can-drop", count === 13 && rankOf(pileCards(drag.pile).up[pileCards(drag.pile).up.length - 13]) === 13);
}

function moveDrag(x, y) {
  const dx = x - drag.x0, dy = y - drag.y0;
  for (const it of drag.items) it.g.style.transform = `translate(${dx}px, ${dy}px)`;
  const t = dropTarget(x, y);
  document.querySelectorAll(".drop-ok").forEach((el) => el.classList.remove("drop-ok"));
  if (t === "completed") $("#completed").classList.add("drop-ok");
  else if (t !== null && t !== drag.pile) $(`#pile-${t}`).classList.add("drop-ok");
}

// dropTarget finds where a drop at (x, y) lands: the completed area, or the
// pile whose column is nearest, so a drop need not hit a card exactly.
function dropTarget(x, y) {
  const comp = $("#completed").getBoundingClientRect();
  if (!S.settings.hideAreas && x >= comp.left - 10 && x <= comp.right + 10 && y >= comp.top - 10 && y <= comp.bottom + 10) return "completed";
  const tab = $("#tableau").getBoundingClientRect();
  if (y < tab.top - geom.ch * 0.5) return null;
  let best = null, bestD = Infinity;
  for (let k = 0; k < 10; k++) {
    const r = $(`#pile-${k}`).getBoundingClientRect();
    const d = x < r.left ? r.left - x : x > r.right ? x - r.right : 0;
    if (d < bestD) { best = k; bestD = d; }
  }
  return bestD <= geom.gap + geom.cw * 0.5 ? best : null;
}

function onPointerUp(e) {
  const ps = press && press.pointerId === e.pointerId ? press : null;
  if (ps) { clearTimeout(ps.timer); press = null; }
  const d = drag && e.pointerId === drag.pointerId ? drag : null;
  if (!d || !d.started) {
    if (d) drag = null;
    if (!ps || ps.longPress || !S.view) return;
    if (Math.hypot(e.clientX - ps.x, e.clientY - ps.y) > 10) return; // a drag that never started
    if (ps.touch && Date.now() - ps.t > 600) return; // a long press
    onClick(e, ps);
    return;
  }
  document.querySelectorAll(".drop-ok").forEach((el) => el.classList.remove("drop-ok"));
  $("#completed").classList.remove("can-drop");
  const t = dropTarget(e.clientX, e.clientY);
  if (t === "completed") {
    send(`remove ${d.pile + 1}`);
  } else if (t !== null && t !== d.pile) {
    S.cursor = t;
    send(`move ${d.pile + 1} ${t + 1} ${d.count}`);
  } else {
    // dropped nowhere: the cards go back
    const before = snapshot(S);
    clearDrag();
    render();
    if (S.settings.animations) animate(S, before, "refused");
  }
}

export function clearDrag() {
  if (!drag) return;
  drag = null;
  $("#drag-layer").replaceChildren();
  document.querySelectorAll(".dragging-src").forEach((el) => el.classList.remove("dragging-src"));
}

// The stock deals on the release of a press that began on it, for the same
// reason: a deal answered meanwhile redraws the stock under the pointer.
let stockPress = null;
// When the stock last dealt on a release. A second release within the
// double-click time is the second click of a double-click, which deals
// once (the Amiga Arachnid's hand deals on a double-click): a habit must
// not deal a second row, whose undo may cost the score.
let lastStockDeal = -Infinity;

function onStockDown(e) {
  if (!e.isPrimary || e.button !== 0) return;
  stockPress = { pointerId: e.pointerId };
}

// The mouse's own count of the press (its detail) marks the second press
// of a double-click as the system's double-click time judges it, however
// late the page sees it: a busy page may get the two presses more than
// the double-click time apart by its own clock.
function onStockMouseDown(e) {
  if (stockPress && e.detail >= 2) stockPress.second = true;
}

function onStockUp(e) {
  const ps = stockPress;
  if (!ps || ps.pointerId !== e.pointerId) return;
  stockPress = null;
  const r = $("#stock").getBoundingClientRect();
  const slack = 6; // a finger that slid a little off the stock still deals
  if (e.clientX < r.left - slack || e.clientX > r.right + slack || e.clientY < r.top - slack || e.clientY > r.bottom + slack) return;
  if (ps.second || e.timeStamp - lastStockDeal < DOUBLE_MS) return;
  lastStockDeal = e.timeStamp;
  if (S.view) deal();
}

function onStockClick(e) {
  // Mouse and finger deal on release (onStockUp); this is the keyboard's
  // Enter or Space on the focused stock.
  if (e.pointerType === "mouse" || e.pointerType === "touch" || e.pointerType === "pen" || e.detail > 0) return;
  if (S.view) deal();
}

let lastDouble = 0;
let lastDrop = 0; // when a click last put cards down (onClick)

function doubleClick(k, c, split) {
  lastDouble = Date.now();
  S.sel = null;
  if (c && split && !c.el.classList.contains("down")) autoMove(k, countFrom(k, c.index));
  else autoMove(k, 0);
}

// The last middle or right click on a card (onContextMenu): when, which
// button, which card; NO_SPLIT when none starts a pair.
const NO_SPLIT = { t: 0, button: -1, pile: -1, index: -1 };
let lastSplit = NO_SPLIT;

function onContextMenu(e) {
  if (!S.view) return;
  const pileEl = e.target.closest(".pile");
  if (!pileEl) return;
  e.preventDefault();
  if (press && press.touch) {
    // a long press: the page's own timer may have handled it already
    if (press.longPress) return;
    press.longPress = true;
    clearTimeout(press.timer);
  }
  const c = cardAt(e);
  const k = +pileEl.dataset.pile;
  // Two clicks of the middle (or the right) button on one card within the
  // double-click time are the Amiga's middle-button double-click: the
  // auto-move from that card (Arachnid.help 1.11). The browser sends no
  // dblclick for these buttons, so the page pairs them itself; a click
  // that puts cards down, or a held finger, starts no pair, and a click
  // on another card (or with the other button) picks up afresh.
  const now = Date.now();
  const hold = !!(press && press.touch);
  const drop = !!(S.sel && S.sel.pile !== k);
  const last = lastSplit;
  lastSplit = hold || drop || !c ? NO_SPLIT : { t: now, button: e.button, pile: k, index: c.index };
  if (lastSplit !== NO_SPLIT && now - last.t < DOUBLE_MS && last.button === e.button && last.pile === k && last.index === c.index &&
      !c.el.classList.contains("down")) {
    lastSplit = NO_SPLIT;
    doubleClick(k, c, true);
    return;
  }
  splitAt(k, c ? c.index : -1);
}

// splitAt is the right-click, middle-click and long press on card index of
// pile k: pick up from that card, or put what is picked up on pile k.
function splitAt(k, index) {
  if (S.sel && S.sel.pile !== k) { dropOn(k); return; }
  if (index < 0) return;
  clickPile(k, index, true);
}

// longPress fires when a touch stays still for half a second. Not every
// browser turns a long press into a contextmenu event (Safari does not), so
// the page times it itself.
function longPress(ps) {
  if (press !== ps || ps.longPress || (drag && drag.started)) return;
  ps.longPress = true;
  const el = document.elementFromPoint(ps.x, ps.y);
  const c = el && el.closest("#tableau .card");
  const pileEl = el && el.closest("#tableau .pile");
  if (!pileEl) return;
  if (navigator.vibrate) navigator.vibrate(15);
  splitAt(+pileEl.dataset.pile, c ? +c.dataset.index : -1);
}

function onDoubleClick(e) {
  if (!S.view) return;
  const pileEl = e.target.closest(".pile");
  if (!pileEl) return;
  e.preventDefault();
  // The pointer handler did it, or the pair's first click put cards down.
  if (Date.now() - lastDouble < 700 || Date.now() - lastDrop < 700 || tapClick(e)) return;
  doubleClick(+pileEl.dataset.pile, cardAt(e), e.shiftKey || e.altKey);
}
