// The Spider / Arachnid page. The server owns the game: this page shows the
// view it is sent, turns the player's gestures into commands ("move 3 7 2",
// "deal", "auto 4", ...) and shows the server's answer, or its refusal.

import { api, ApiError, playTime } from "/shared/api.js";
import { installSprite, cardSVG, cardName, suitName, rankOf, suitOf, parseCard } from "/shared/cards.js";
import { geom, layout, renderStock, renderCompleted, renderTableau } from "./render.js";
import { snapshot, animate } from "./anim.js";
import { scoreChart, winRateChart } from "./charts.js";
import { beep, playEffect, played } from "/shared/sound.js";
import { cascade, stop as stopCascade, celebrating } from "./celebrate.js";
import { initAnalysis, analyse, analyseSaveButton, reviewing } from "./analysis.js";

const $ = (sel) => document.querySelector(sel);
const GAME_KEY = "cardtable.spider.game";
const SETTINGS_KEY = "cardtable.spider.settings";

const reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

const DEFAULTS = {
  verbose: true,
  animations: !reducedMotion,
  hideAreas: false,
  fourColor: false,
  sound: false,
  cheat: "none",
  // Completed suits go at once, as in Microsoft's Spider; the New game
  // dialog keeps the choice.
  newGame: { variant: "arachnid", suits: 4, open: false, relaxed: false, autoRemove: true, winnable: false },
};

const S = {
  id: null,
  view: null,
  sel: null, // {pile, count}: count 0 = the whole run (the server fits the longest part)
  cursor: 0,
  settings: structuredClone(DEFAULTS),
  hint: null, // {pile, count, to} or {stock: true}
  located: [], // [{pile, index}]
  endShown: "",
  chain: Promise.resolve(),
  pending: 0,
  hover: null, // {pile, index} under the mouse, for the T key
  celebration: null, // a promise while the win celebration plays
  finishing: false, // the Finish button is playing the rest
  gaveUp: false, // the player gave this game up for its analysis
};

// ---------- small helpers ----------

function pileCards(k, v = S.view) {
  const p = v.piles[k];
  return { down: p.down, up: p.up, hidden: p.hidden || [], len: p.down + p.up.length };
}

// runLen is the length of the same-suit descending run at the bottom of pile k.
function runLen(k, v = S.view) {
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

function isCompleteRun(k, v = S.view) {
  const up = v.piles[k].up;
  return runLen(k, v) >= 13 && rankOf(up[up.length - 13]) === 13;
}

function plural(n, one, many = one + "s") { return `${n} ${n === 1 ? one : many}`; }

function dealsLeft(v = S.view) { return Math.floor(v.stock / 10); }

function variantLabel(v) {
  return `${v.variant === "spider" ? "Spider" : "Arachnid"} · ${plural(v.suits, "suit")}` +
    (v.open ? " · open" : "") + (v.relaxed ? " · relaxed" : "");
}

function dialogOpen() { return !!document.querySelector("dialog[open]"); }

// ---------- messages ----------

let toastTimer = 0;
function announce(text) {
  const live = $("#live");
  live.textContent = "";
  // A fresh text node after a tick makes screen readers repeat equal messages.
  setTimeout(() => { live.textContent = text; }, 30);
}

function toast(text, kind = "info", ms = 4500) {
  const t = $("#toast");
  t.className = kind;
  t.querySelector(".msg").textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, ms);
}

function info(text, { quiet = false } = {}) {
  if (!quiet) toast(text, "info");
  announce(text);
}

const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

// pretty turns the engine's wording into the page's: "illegal move: 7H goes
// only on ..." becomes "Illegal move: 7♥ goes only on ...".
function pretty(text) {
  const t = String(text).replace(/\b([A2-9TJQK]|10)([CDHS])\b/g, (_, r, s) => `${r === "T" ? "10" : r}${SUIT_SYMBOL[s]}`);
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// spoken turns card codes into names for the screen reader.
function spoken(text) {
  return String(text).replace(/\b([A2-9TJQK])([CDHS])\b/g, (m) => cardName(m));
}

// refuse reports an illegal move: a message box when verbose, else a short sound.
function refuse(raw) {
  const text = pretty(raw);
  document.body.dataset.lastError = text;
  if (S.settings.verbose) {
    toast(text, "error", 6000);
  } else {
    beep();
  }
  announce(spoken(raw));
}

function failure(e) {
  const text = pretty(e instanceof ApiError ? e.message : String(e && e.message || e));
  document.body.dataset.lastError = text;
  toast(text, "error", 7000);
  announce(text);
}

// ---------- rendering (render.js draws the table) ----------

function render({ anim = null } = {}) {
  const v = S.view;
  if (!v) return;
  const before = anim && S.settings.animations ? snapshot(S) : null;
  renderStatus();
  renderStock(S);
  renderCompleted(S, !!(S.sel && isCompleteRun(S.sel.pile)));
  renderTableau(S, { selCount, pileLabel, drag });
  renderButtons();
  if (before) animate(S, before, anim);
  maybeEnd();
}

function renderStatus() {
  const v = S.view;
  $("#st-deal").textContent = v.deal ? `Deal #${v.deal}` : "Custom deal";
  $("#st-kind").textContent = variantLabel(v);
  $("#st-score").textContent = v.score;
  $("#st-moves").textContent = v.moves;
  const sc = $("#st-score").parentElement;
  sc.title = v.breakdown.cheated ? "Cheating detected: the score is halved" :
    v.breakdown.stopped ? "Scoring has stopped (undo, restart or load in Spider)" : "";
  $("#st-note").textContent = v.breakdown.cheated ? "(halved)" : v.breakdown.stopped ? "(frozen)" : "";
  document.title = `${v.won ? "Won · " : ""}${v.deal ? "#" + v.deal + " · " : ""}${variantLabel(v)} · cardtable`;
}

function renderButtons() {
  const v = S.view;
  const fin = $("#btn-finish");
  const can = canFinish();
  if (can && fin.hidden) announce("Every card is face up: Finish (F) plays the rest.");
  fin.hidden = !can;
  document.body.classList.toggle("can-finish", can);
  fin.disabled = S.finishing;
  $("#btn-undo").disabled = !v.canUndo;
  $("#btn-redo").disabled = !v.canRedo;
  $("#btn-deal").disabled = v.stock === 0;
  $("#btn-deal").title = v.stock ? `Deal a row (D): ${plural(dealsLeft(v), "row")} left` : "The stock is empty";
}

function pileLabel(k) {
  const v = S.view, p = pileCards(k);
  let s = `Pile ${k + 1}`;
  if (p.len === 0) return s + ": empty";
  const parts = [];
  if (p.down) {
    if (p.hidden.length) parts.push(`${p.down} covered: ${p.hidden.map(cardName).join(", ")}`);
    else parts.push(`${p.down} face down`);
  }
  if (p.up.length) parts.push(`face up: ${p.up.map(cardName).join(", ")}`);
  s += ": " + parts.join("; ");
  const run = runLen(k, v);
  if (run > 1) s += `. Run of ${run}`;
  if (S.sel && S.sel.pile === k) s += `. Picked up ${plural(selCount(), "card")}`;
  return s;
}

function selCount() {
  if (!S.sel) return 0;
  return S.sel.count || runLen(S.sel.pile);
}

// ---------- the game on the server ----------

// ended: the game's end screen is not wanted (an analysis shows it).
function setGame(r, { message, ended = false } = {}) {
  const changed = r.id !== S.id;
  S.id = r.id;
  S.gaveUp = !!r.gaveUp;
  try {
    sessionStorage.setItem(GAME_KEY, r.id);
    localStorage.setItem(GAME_KEY, r.id);
  } catch { /* storage may be off; the game still plays */ }
  if (changed) {
    S.sel = null; S.hint = null; S.located = []; S.endShown = ended ? endKey(r.view) : "";
  }
  S.view = r.view;
  render();
  if (message) info(message);
}

function busy(delta) {
  S.pending += delta;
  document.body.dataset.busy = S.pending > 0 ? "1" : "0";
}

// queue runs fn after every earlier request, so fast play keeps its order.
function queue(fn) {
  busy(1);
  S.chain = S.chain.then(fn).catch(failure).finally(() => busy(-1));
  return S.chain;
}

// timings holds how long the latest commands took, request to redrawn
// table, in milliseconds (the browser tests report them).
const timings = [];
window.cardtableTimings = timings;
window.cardtableSounds = played; // the effects played, for the tests

// send plays one command on the server and shows the result or the refusal.
function send(cmd, { anim = "move" } = {}) {
  if (reviewing()) {
    info("The table shows the analysis: close it (Back to the game) to play.");
    clearDrag();
    return S.chain;
  }
  return queue(async () => {
    if (!S.id) return;
    const before = S.view;
    S.hint = null;
    S.located = [];
    try {
      const t0 = performance.now();
      const r = await api.command(S.id, cmd);
      S.sel = null;
      S.view = r.view;
      effects(before, r.view);
      if (r.view.won && !before.won) celebrate();
      render({ anim }); // dragged cards fly on from where they were let go
      clearDrag();
      timings.push(performance.now() - t0);
      if (timings.length > 200) timings.shift();
      describe(cmd, r.move, before, r.view);
    } catch (e) {
      if (behind(e)) return;
      if (e instanceof ApiError && (e.status === 422 || e.status === 409)) {
        S.sel = null;
        render({ anim: "refused" });
        clearDrag();
        refuse(e.message);
        // Another tab may have played this game meanwhile: catch up.
        try {
          const r = await api.game(S.id);
          if (JSON.stringify(r.view) !== JSON.stringify(S.view)) { S.view = r.view; render(); }
        } catch { /* keep what is shown */ }
        return;
      }
      clearDrag();
      render();
      if (e instanceof ApiError && e.status === 404) {
        failure(new Error("This game is no longer on the server. Start a new game."));
        return;
      }
      throw e;
    }
  });
}

// effects plays the sound for what a command did, when sounds are on.
function effects(a, b) {
  if (!S.settings.sound) return;
  if (b.won && !a.won) playEffect("win");
  else if (b.completed.length > a.completed.length) playEffect("complete");
  else if (b.stock < a.stock) playEffect("deal");
  else if (b.moves !== a.moves) playEffect("move");
}

// celebrate starts the win cascade once the last suit has flown to the
// completed area; not with animations off or reduced motion asked for.
function celebrate() {
  const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (!S.settings.animations || reduce) return;
  const id = S.id;
  const p = new Promise((res) => setTimeout(res, 360)).then(() => {
    if (S.id !== id || !S.view || !S.view.won || S.settings.hideAreas) return;
    return cascade(S.view.completed, $("#completed").getBoundingClientRect(), geom.tw, geom.th);
  });
  S.celebration = p;
  p.finally(() => { if (S.celebration === p) S.celebration = null; });
}

// canFinish: every card is face up and the stock is dealt, so nothing is
// left to find out and the rest is mechanical.
function canFinish(v = S.view) {
  return !!v && !v.won && v.stock === 0 && v.piles.every((p) => p.down === 0);
}

// finish plays the rest of a game whose cards are all face up, one action
// for the player: the server's hint for each move (its solver sees every
// card now, so its line wins), each move shown as it is played. It stops
// at a win, a refusal, a position seen before, or when the hint has none.
async function finish() {
  if (S.finishing || !canFinish()) return;
  S.finishing = true;
  renderButtons();
  const id = S.id;
  try {
    const seen = new Set();
    for (let n = 0; n < 500 && S.id === id && S.view && !S.view.won; n++) {
      const key = JSON.stringify([S.view.piles, S.view.completed]);
      if (seen.has(key)) break;
      seen.add(key);
      let r;
      try {
        r = await api.hint(S.id);
      } catch (e) {
        failure(e);
        return;
      }
      if (!r.move) {
        info(`Cannot finish from here: ${r.text || "the solver has no move"}`);
        return;
      }
      const moves = S.view.moves;
      await send(r.move);
      if (!S.view || S.view.moves === moves) return; // refused
      // a beat between moves, so the player sees each one
      if (S.settings.animations) await new Promise((res) => setTimeout(res, 160));
    }
  } finally {
    S.finishing = false;
    if (S.view) renderButtons();
  }
}

// behind catches up after a command refused for being behind its game
// (another tab played it meanwhile): the refusal carries the game as it
// stands, which is shown, and the player is told why nothing happened.
function behind(e) {
  if (!(e instanceof ApiError) || e.status !== 409 || !e.body || !e.body.view || e.body.id !== S.id) return false;
  S.sel = null;
  S.hint = null;
  clearDrag();
  S.view = e.body.view;
  render();
  document.body.dataset.caughtUp = String(e.body.version);
  info("This game changed in another tab or window: here it is as it stands now.");
  return true;
}

// ---------- the game timer ----------

// formatTime writes a play time: m:ss, or h:mm:ss from an hour.
function formatTime(ms) {
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

// tickTimer shows the game's play time, running as the server counts it
// (a pause counts up to two minutes; a finished game's clock stands).
function tickTimer() {
  const el = $("#st-time");
  const t = S.id && playTime(S.id);
  if (!el || !t) return;
  el.textContent = formatTime(t.ms);
  el.dataset.running = t.running ? "1" : "0";
}

function startTimer() {
  tickTimer();
  setInterval(tickTimer, 500);
}

// timeStats are the statistics panel's play-time lines.
function timeStats(g) {
  const has = g.timedWins > 0;
  return [["Best time", has ? formatTime(g.bestTime) : "–"], ["Average time", has ? formatTime(g.averageTime) : "–"]];
}

// describe says what a command did, for the live region.
function describe(cmd, move, a, b) {
  const m = (move || cmd).trim().split(/\s+/);
  let text = "";
  if (m[0] === "move") {
    const f = +m[1] - 1, t = +m[2] - 1;
    const moved = b.piles[t].up.slice(a.piles[t].up.length);
    const n = moved.length || +m[3] || 1;
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

async function startGame(opts) {
  busy(1);
  try {
    const r = await api.newGame(opts, S.id);
    setGame(r, { message: r.message });
    announce(`New game: ${r.view.deal ? "deal " + r.view.deal : "custom deal"}, ${variantLabel(r.view)}.`);
    return true;
  } catch (e) {
    failure(e);
    return false;
  } finally {
    busy(-1);
  }
}

// linkOptions are the options of the game a link starts (?deal=N, ?new,
// with variant, suits and cheat if named). A link to a deal names the game
// by itself: what it leaves out is the default, never the player's settings
// (an open tableau, relaxed dealing, winnable deals), so it deals the same
// game for everyone. ?new without a deal is "a new game as I like them":
// the player's settings, the link's parameters over them. The settings
// themselves are left as they are.
function linkOptions(params) {
  const deal = (params.get("deal") || "").trim().replace(/^#/, "");
  const o = deal ? { ...DEFAULTS.newGame, cheat: DEFAULTS.cheat, deal } : newGameOptions("");
  if (params.get("variant")) o.variant = params.get("variant");
  if (params.get("suits")) o.suits = +params.get("suits");
  if (params.get("cheat")) o.cheat = params.get("cheat");
  return o;
}

// startFromLink starts the game a link names, leaving the game this browser
// was playing: the server counts that one as lost if it had moves and was
// not won, as the new-game dialog does.
async function startFromLink(params) {
  let previous = null;
  try { previous = sessionStorage.getItem(GAME_KEY) || localStorage.getItem(GAME_KEY); } catch { previous = null; }
  busy(1);
  try {
    const r = await api.newGame(linkOptions(params), previous);
    setGame(r, { message: r.message });
    announce(`New game: ${r.view.deal ? "deal " + r.view.deal : "custom deal"}, ${variantLabel(r.view)}.`);
  } catch (e) {
    failure(e);
  } finally {
    busy(-1);
  }
}

function newGameOptions(deal) {
  const n = S.settings.newGame;
  const o = { variant: n.variant, suits: +n.suits, open: !!n.open, relaxed: !!n.relaxed, autoRemove: !!n.autoRemove, cheat: S.settings.cheat, winnable: !!n.winnable };
  if (deal) o.deal = String(deal);
  return o;
}

// ---------- picking and dropping ----------

function pick(k, count) {
  const p = pileCards(k);
  if (!p.up.length) {
    refuse(`Pile ${k + 1} is empty: there is nothing to pick up.`);
    return;
  }
  const run = runLen(k);
  if (count > run) {
    const code = p.up[p.up.length - count];
    refuse(`The ${cardName(code)} cannot be picked up: only a same-suit run in order at the bottom of a pile moves together.`);
    return;
  }
  S.sel = { pile: k, count };
  S.cursor = k;
  render();
  const n = count || run;
  announce(`Picked up ${n > 1 ? `${plural(n, "card")} from ${cardName(p.up[p.up.length - n])}` : cardName(p.up[p.up.length - 1])} on pile ${k + 1}. Choose a pile to put ${n > 1 ? "them" : "it"} on.`);
}

function dropOn(k) {
  const s = S.sel;
  if (!s) return;
  if (s.pile === k) { cancelPick(); return; }
  S.cursor = k;
  send(`move ${s.pile + 1} ${k + 1}${s.count ? " " + s.count : ""}`);
}

function cancelPick(say = true) {
  if (!S.sel) return;
  S.sel = null;
  render();
  if (say) announce("Put the cards back.");
}

function countFrom(k, index) {
  return pileCards(k).len - index;
}

// clickPile follows the Amiga help: click a pile to take its run, click
// another to put it there; split picks from the chosen card.
function clickPile(k, index, split) {
  if (!S.view) return;
  if (S.sel && S.sel.pile !== k) { dropOn(k); return; }
  if (split && index >= 0) {
    const p = pileCards(k);
    if (index < p.down) { refuse("Face-down cards cannot be picked up."); return; }
    pick(k, countFrom(k, index));
    return;
  }
  if (S.sel) { cancelPick(); return; }
  S.cursor = k;
  pick(k, 0);
}

function removeFrom(k) { send(`remove ${k + 1}`); }

function autoMove(k, count) {
  S.sel = null;
  if (!pileCards(k).up.length) { refuse(`Pile ${k + 1} is empty: there is nothing to move.`); render(); return; }
  send(`auto ${k + 1}${count ? " " + count : ""}`);
}

function deal() {
  S.sel = null;
  send("deal");
}

// ---------- pointer: click, right-click, double-click, drag ----------

let drag = null;

function cardAt(e) {
  const c = e.target.closest && e.target.closest("#tableau .card");
  return c ? { el: c, pile: +c.dataset.pile, index: +c.dataset.index } : null;
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
  if (now - lastTap.t < DOUBLE_MS && lastTap.pile === k) {
    lastTap = { t: 0, pile: -1 };
    doubleClick(k, c, split);
    return;
  }
  lastTap = { t: now, pile: k };
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

function clearDrag() {
  if (!drag) return;
  drag = null;
  $("#drag-layer").replaceChildren();
  document.querySelectorAll(".dragging-src").forEach((el) => el.classList.remove("dragging-src"));
}

// The stock deals on the release of a press that began on it, for the same
// reason: a deal answered meanwhile redraws the stock under the pointer.
let stockPress = null;

function onStockDown(e) {
  if (!e.isPrimary || e.button !== 0) return;
  stockPress = { pointerId: e.pointerId };
}

function onStockUp(e) {
  const ps = stockPress;
  if (!ps || ps.pointerId !== e.pointerId) return;
  stockPress = null;
  const r = $("#stock").getBoundingClientRect();
  const slack = 6; // a finger that slid a little off the stock still deals
  if (e.clientX < r.left - slack || e.clientX > r.right + slack || e.clientY < r.top - slack || e.clientY > r.bottom + slack) return;
  if (S.view) deal();
}

function onStockClick(e) {
  // Mouse and finger deal on release (onStockUp); this is the keyboard's
  // Enter or Space on the focused stock.
  if (e.pointerType === "mouse" || e.pointerType === "touch" || e.pointerType === "pen" || e.detail > 0) return;
  if (S.view) deal();
}

let lastDouble = 0;

function doubleClick(k, c, split) {
  lastDouble = Date.now();
  S.sel = null;
  if (c && split && !c.el.classList.contains("down")) autoMove(k, countFrom(k, c.index));
  else autoMove(k, 0);
}

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
  splitAt(+pileEl.dataset.pile, c ? c.index : -1);
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
  if (Date.now() - lastDouble < 700 || tapClick(e)) return; // the pointer handler did it
  doubleClick(+pileEl.dataset.pile, cardAt(e), e.shiftKey || e.altKey);
}

// ---------- keyboard ----------

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
    else dropOn(k);
  } else {
    pick(k, 0);
  }
}

function splitKey() {
  if (S.hover && !S.sel) {
    clickPile(S.hover.pile, S.hover.index, true);
    return;
  }
  if (S.hover && S.sel && S.sel.pile !== S.hover.pile) {
    dropOn(S.hover.pile);
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

function onKey(e) {
  if (celebrating()) { e.preventDefault(); stopCascade(); return; }
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (dialogOpen()) return;
  if (menuOpen()) { menuKey(e); return; }
  const key = e.key;
  const lower = key.length === 1 ? key.toLowerCase() : key;
  if (e.ctrlKey || e.metaKey) {
    if (lower === "z" && !e.shiftKey) { e.preventDefault(); undo(); }
    else if ((lower === "z" && e.shiftKey) || lower === "y") { e.preventDefault(); redo(); }
    return;
  }
  if (e.altKey) return;
  if (t && t.tagName === "BUTTON" && (key === "Enter" || key === " ")) return;
  let handled = true;
  if (/^[0-9]$/.test(key)) setCursor(key === "0" ? 9 : +key - 1);
  else if (key === "ArrowLeft") setCursor(S.cursor - 1);
  else if (key === "ArrowRight") setCursor(S.cursor + 1);
  else if (key === "Home") setCursor(0);
  else if (key === "End") setCursor(9);
  else if (key === "ArrowUp") growPick(1);
  else if (key === "ArrowDown") growPick(-1);
  else if (key === "Enter" || key === " ") enter();
  else if (key === "Escape") cancelPick();
  else if (lower === "t") splitKey();
  else if (lower === "a") autoMove(S.cursor, S.sel && S.sel.pile === S.cursor ? S.sel.count : 0);
  else if (lower === "x") removeFrom(S.cursor);
  else if (lower === "d") deal();
  else if (lower === "u") undo();
  else if (lower === "y") redo();
  else if (lower === "h") hint();
  else if (lower === "f") finish();
  else if (lower === "n") openNew();
  else if (lower === "r") restart();
  else if (lower === "c") speakColumn(S.cursor);
  else if (lower === "l") openLocate();
  else if (lower === "s") speakStatus();
  else if (key === "?") openDialog("#dlg-keys");
  else handled = false;
  if (handled) e.preventDefault();
}

function speakStatus() {
  const v = S.view;
  const text = `${v.deal ? "Deal " + v.deal : "Custom deal"}, ${variantLabel(v)}. Score ${v.score}, ${plural(v.moves, "move")}. ` +
    `${dealsLeft(v) ? plural(dealsLeft(v), "row") + " left to deal" : "Stock empty"}. ${v.completed.length ? plural(v.completed.length, "suit") + " completed" : "No suits completed"}.`;
  info(text, { quiet: true });
}

// ---------- commands from buttons and menus ----------

function undo() { S.sel = null; send("undo", { anim: "undo" }); }
function redo() { S.sel = null; send("redo"); }

async function restart() {
  const v = S.view;
  if (!v) return;
  if (v.moves > 0 && !v.won) {
    const spider = v.variant === "spider";
    const ok = await confirmBox("Restart this deal?",
      `Every move of this game is taken back${spider ? " and scoring stops, as with undo" : v.cheat !== "none" ? "; with cheat detection on this counts as undoing them" : ""}.`, "Restart");
    if (!ok) return;
  }
  S.sel = null;
  await send("restart");
}

function hint() {
  return queue(async () => {
    if (!S.id) return;
    let r;
    try {
      r = await api.hint(S.id);
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 501)) {
        info(e.status === 501 ? pretty(e.message).replace(/([^.!?])$/, "$1.") : "Hints are not available on this server yet.");
        return;
      }
      throw e;
    }
    S.hint = parseHint(r.move || "");
    render();
    const text = r.text || (r.move ? `Try: ${r.move}` : "No move to suggest.");
    info(text);
    const at = S.hint;
    setTimeout(() => { if (S.hint === at) { S.hint = null; render(); } }, 6000);
  });
}

function parseHint(move) {
  const m = move.trim().split(/\s+/);
  if (m[0] === "move") {
    const f = +m[1] - 1, t = +m[2] - 1;
    const n = +m[3] || runLen(f);
    return { pile: f, count: n, to: t };
  }
  if (m[0] === "remove") return { pile: +m[1] - 1, count: 13, to: null };
  if (m[0] === "auto") return { pile: +m[1] - 1, count: +m[2] || runLen(+m[1] - 1), to: null };
  if (m[0] === "deal") return { stock: true, pile: null, count: 0 };
  return null;
}

function saveFile() {
  if (!S.id) return;
  const a = document.createElement("a");
  a.href = api.saveURL(S.id);
  a.download = `spider-${S.view.deal || "custom"}-${S.view.moves}.txt`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  info("Saving the game to a file.");
}

function loadFile(file) {
  if (!file) return;
  return queue(async () => {
    const text = await file.text();
    try {
      const r = await api.load(text, S.id);
      setGame(r);
      info(`Loaded ${file.name}: ${r.view.deal ? "deal #" + r.view.deal : "custom deal"}, ${plural(r.view.moves, "move")} played.`);
    } catch (e) {
      failure(new Error(`Could not load ${file.name}: ${e.message}`));
    }
  });
}

// ---------- dialogs ----------

function openDialog(sel) {
  closeMenus();
  const d = $(sel);
  if (!d.open) {
    d.showModal();
    // Opening focuses the first button, which in a long dialog (the help)
    // is at its foot and scrolls it there: a dialog opens at its top.
    d.scrollTop = 0;
  }
  return d;
}

function confirmBox(title, text, yes = "OK") {
  const d = $("#dlg-confirm");
  $("#dlg-confirm-title").textContent = title;
  $("#confirm-text").textContent = text;
  $("#confirm-yes").textContent = yes;
  d.returnValue = "";
  openDialog("#dlg-confirm");
  return new Promise((resolve) => {
    d.addEventListener("close", () => resolve(d.returnValue === "yes"), { once: true });
  });
}

function openNew() {
  const f = $("#form-new");
  const n = S.settings.newGame;
  f.deal.value = "";
  f.variant.value = n.variant;
  f.suits.value = String(n.suits);
  f.open.checked = !!n.open;
  f.relaxed.checked = !!n.relaxed;
  f.autoRemove.checked = !!n.autoRemove;
  f.winnable.checked = !!n.winnable;
  f.cheat.value = S.settings.cheat;
  openDialog("#dlg-new");
  f.deal.focus();
}

async function submitNew(e) {
  e.preventDefault();
  const f = $("#form-new");
  const deal = f.deal.value.trim().replace(/^#/, "");
  if (deal && !/^[0-9]+$/.test(deal)) {
    f.deal.setCustomValidity("A deal number is a whole number from 1 up.");
    f.deal.reportValidity();
    return;
  }
  f.deal.setCustomValidity("");
  S.settings.newGame = {
    variant: f.variant.value, suits: +f.suits.value, open: f.open.checked, relaxed: f.relaxed.checked,
    autoRemove: f.autoRemove.checked, winnable: f.winnable.checked,
  };
  S.settings.cheat = f.cheat.value;
  saveSettings();
  if (await startGame(newGameOptions(deal))) $("#dlg-new").close();
}

async function openSaves() {
  openDialog("#dlg-saves");
  const name = $("#save-name");
  if (!name.value && S.view) name.value = `${S.view.variant} ${S.view.deal || "custom"}`;
  await refreshSaves();
}

async function refreshSaves() {
  const box = $("#saves-list");
  try {
    const r = await api.saves();
    const saves = r.saves || [];
    if (!saves.length) { box.innerHTML = `<p class="help">No saved games yet.</p>`; return; }
    const t = document.createElement("table");
    t.innerHTML = `<thead><tr><th>Name</th><th>Game</th><th>Moves</th><th>Score</th><th>Saved</th><th></th></tr></thead>`;
    const tb = document.createElement("tbody");
    for (const s of saves) {
      const tr = document.createElement("tr");
      const when = s.updated ? new Date(s.updated) : null;
      const cells = [s.gaveUp ? `${s.name} (given up)` : s.name, `${s.variant || ""} ${s.suits ? s.suits + "♠" : ""} ${s.deal ? "#" + s.deal : ""}`.trim(), s.moves ?? "", s.score ?? "",
        when && !isNaN(when) ? when.toLocaleString() : ""];
      for (const c of cells) {
        const td = document.createElement("td");
        td.textContent = c;
        tr.appendChild(td);
      }
      const acts = document.createElement("td");
      acts.className = "acts";
      const open = document.createElement("button");
      open.type = "button";
      open.textContent = "Open";
      open.setAttribute("aria-label", `Open ${s.name}`);
      open.addEventListener("click", () => openSave(s.name));
      const del = document.createElement("button");
      del.type = "button";
      del.textContent = "Delete";
      del.setAttribute("aria-label", `Delete ${s.name}`);
      del.addEventListener("click", async () => {
        try { await api.deleteSave(s.name); info(`Deleted ${s.name}.`); } catch (e) { failure(e); }
        refreshSaves();
      });
      acts.append(open, " ", analyseSaveButton(s), " ", del);
      tr.appendChild(acts);
      tb.appendChild(tr);
    }
    t.appendChild(tb);
    box.replaceChildren(t);
  } catch (e) {
    box.textContent = `Saved games are not available: ${e.message}`;
  }
}

async function openSave(name) {
  await queue(async () => {
    const r = await api.openSave(name, S.id);
    setGame(r);
    $("#dlg-saves").close();
    info(r.message ? `Opened ${name}: ${r.message}.` : `Opened ${name}.`);
  });
}

async function submitSave(e) {
  e.preventDefault();
  const name = $("#save-name").value.trim();
  if (!name || !S.id) return;
  try {
    await api.putSave(name, S.id);
    info(`Saved as “${name}”.`);
  } catch (err) {
    failure(err);
  }
  refreshSaves();
}

let statsData = null;

async function openStats() {
  openDialog("#dlg-stats");
  const sel = $("#stats-group");
  try {
    statsData = (await api.stats()).groups || [];
  } catch (e) {
    $("#stats-numbers").innerHTML = "";
    $("#stats-charts").textContent = `Statistics are not available: ${e.message}`;
    return;
  }
  const prev = sel.value;
  sel.replaceChildren();
  statsData.forEach((g, i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = `${g.variant === "spider" ? "Spider" : "Arachnid"}, ${plural(g.suits, "suit")}`;
    sel.appendChild(o);
  });
  let idx = statsData.findIndex((g) => S.view && g.variant === S.view.variant && g.suits === S.view.suits);
  if (prev && statsData[+prev] && sel.dataset.touched) idx = +prev;
  if (idx < 0) idx = 0;
  sel.value = String(idx);
  showStats();
}

function showStats() {
  const g = statsData && statsData[+$("#stats-group").value];
  const nums = $("#stats-numbers"), charts = $("#stats-charts");
  if (!g) {
    nums.innerHTML = "";
    charts.innerHTML = `<p class="help">No games recorded yet. Finish or leave a game and it counts here.</p>`;
    return;
  }
  const rate = g.winRate != null ? g.winRate : (g.played ? g.won / g.played : 0);
  const pct = rate <= 1 ? Math.round(rate * 1000) / 10 : Math.round(rate * 10) / 10;
  const items = [["Played", g.played], ["Won", g.won], ["Win rate", `${pct}%`], ["Current streak", g.currentStreak],
    ["Longest streak", g.longestStreak], ["Best score", g.bestScore], ...timeStats(g)];
  nums.replaceChildren(...items.map(([k, v]) => {
    const d = document.createElement("div");
    d.innerHTML = `<dt></dt><dd></dd>`;
    d.firstChild.textContent = k;
    d.lastChild.textContent = v ?? "–";
    d.dataset.stat = k.toLowerCase().replace(/ /g, "-");
    return d;
  }));
  const hist = g.history || [];
  charts.innerHTML = `<p class="chart-title">Score of each game</p>${scoreChart(hist)}<p class="chart-title">Win rate over time</p>${winRateChart(hist)}`;
}

function openColumn(k = S.cursor) {
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

async function speakColumn(k) {
  try {
    const r = await api.column(S.id, k + 1);
    const cs = r.cards || [];
    info(`Pile ${k + 1}: ${cs.length ? cs.map(cardName).join(", ") : "no visible cards"}.`, { quiet: true });
  } catch (e) {
    failure(e);
  }
}

function openLocate() {
  openDialog("#dlg-locate");
  $("#locate-text").textContent = "";
  $("#locate-card").select();
}

function parseCardName(text) {
  const c = parseCard(text);
  if (c) return c;
  const m = String(text).toLowerCase().match(/^\s*(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|[2-9]|10)\s+(?:of\s+)?(clubs?|diamonds?|hearts?|spades?)\s*$/);
  if (!m) return "";
  const ranks = { ace: "A", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9", ten: "T", jack: "J", queen: "Q", king: "K", 10: "T" };
  return (ranks[m[1]] || m[1]) + m[2][0].toUpperCase();
}

async function submitLocate(e) {
  e.preventDefault();
  const raw = $("#locate-card").value;
  const code = parseCardName(raw);
  const out = $("#locate-text");
  if (!code) { out.textContent = `“${raw}” is not a card: try QH, 10S or queen of hearts.`; return; }
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

function openCheat() {
  const f = $("#form-cheat");
  f.cheat.value = S.settings.cheat;
  $("#cheat-current").textContent = S.view ? `This game: ${S.view.variant === "spider" ? "Spider scoring stops at the first undo instead" : { none: "no detection", newcards: "new cards only", full: "full detection" }[S.view.cheat] || S.view.cheat}${S.view.breakdown.cheated ? " (cheating detected: the score is halved)" : ""}.` : "";
  openDialog("#dlg-cheat");
}

// ---------- end of game ----------

function endKey(v) { return `${S.id}:${v.moves}:${v.won}:${v.stuck}:${v.completed.length}`; }

function maybeEnd() {
  const v = S.view;
  // data-over: whether the view drawn ends the game (tests read it).
  document.body.dataset.over = v && (v.won || v.stuck || S.gaveUp) ? "1" : "0";
  if (!v || !(v.won || v.stuck) || reviewing()) return;
  const key = endKey(v);
  if (S.endShown === key) return;
  S.endShown = key;
  // After the celebration, if one plays (a click or key cuts it short).
  const wait = S.celebration || new Promise((res) => setTimeout(res, S.settings.animations ? 380 : 0));
  wait.then(() => showEnd(v));
}

function showEnd(v) {
  // not over a newer state, nor over a dialog the player has opened
  if (v !== S.view || dialogOpen() || reviewing()) return;
  $("#dlg-end-title").textContent = v.won ? "You won!" : "No moves left";
  const b = v.breakdown;
  $("#end-text").textContent = v.won ?
    `${v.deal ? `Deal #${v.deal} is` : "This position is"} solved in ${plural(v.moves, "move")}.` :
    `No move is left that changes anything${v.stock ? "" : ", and the stock is empty"}. ${v.canUndo ? "Undo to try another way, play the deal again, or start a new game." : "Play the deal again or start a new game."}`;
  const rows = [
    ["Cards turned up (10 each)", b.turned],
    ["Piles with no face-down cards (15 each)", b.columns],
    ["Same-suit builds (2 each)", b.builds],
    ["Complete suits (50 each)", b.complete],
  ];
  if (b.standingWin) rows.push(["Suits left standing beyond three (2 each)", b.standingWin]);
  rows.push(["Total", b.total]);
  if (b.cheated) rows.push(["Cheating detected: halved", b.counted]);
  if (b.stopped) rows.push(["Scoring stopped at (undo, restart or load)", b.counted]);
  if (b.cheated || b.stopped) rows.push(["Score", b.counted]);
  const t = $("#end-breakdown");
  t.replaceChildren(...rows.map(([k, val], i) => {
    const tr = document.createElement("tr");
    if (k === "Total" || i === rows.length - 1) tr.className = "total";
    tr.innerHTML = "<td></td><td></td>";
    tr.firstChild.textContent = k;
    tr.lastChild.textContent = val;
    return tr;
  }));
  $('#end-buttons [data-end="undo"]').hidden = v.won || !v.canUndo;
  $('#end-buttons [data-end="restart"]').textContent = v.deal ? "Play this deal again" : "Play this position again";
  openDialog("#dlg-end");
  announce(`${v.won ? "You won" : "No moves left"}. Score ${v.score}.`);
}

function onEndButton(act) {
  $("#dlg-end").close();
  if (act === "undo") undo();
  else if (act === "restart") { S.sel = null; send("restart"); }
  else if (act === "stats") openStats();
  else if (act === "new") openNew();
  else if (act === "analyse") analyse();
}

// ---------- menus ----------

function menuOpen() { return document.querySelector('[role="menu"]:not([hidden])'); }

function closeMenus() {
  document.querySelectorAll('[role="menu"]').forEach((m) => { m.hidden = true; });
  document.querySelectorAll("[aria-haspopup]").forEach((b) => b.setAttribute("aria-expanded", "false"));
}

function toggleMenu(btn) {
  const m = document.getElementById(btn.getAttribute("aria-controls"));
  const open = m.hidden;
  closeMenus();
  if (open) {
    m.hidden = false;
    btn.setAttribute("aria-expanded", "true");
    m.querySelector("button").focus();
  }
}

function menuKey(e) {
  const m = menuOpen();
  const items = [...m.querySelectorAll("button")];
  const i = items.indexOf(document.activeElement);
  if (e.key === "Escape") {
    e.preventDefault();
    closeMenus();
    document.querySelector(`[aria-controls="${m.id}"]`).focus();
  } else if (e.key === "ArrowDown") { e.preventDefault(); items[(i + 1) % items.length].focus(); }
  else if (e.key === "ArrowUp") { e.preventDefault(); items[(i - 1 + items.length) % items.length].focus(); }
  else if (e.key === "Home") { e.preventDefault(); items[0].focus(); }
  else if (e.key === "End") { e.preventDefault(); items[items.length - 1].focus(); }
  else if (e.key === "Tab") closeMenus();
}

function menuAction(act) {
  closeMenus();
  switch (act) {
    case "new": openNew(); break;
    case "restart": restart(); break;
    case "save-file": saveFile(); break;
    case "load-file": $("#file-input").value = ""; $("#file-input").click(); break;
    case "saves": openSaves(); break;
    case "stats": openStats(); break;
    case "analyse": analyse(); break;
    case "keys": openDialog("#dlg-keys"); break;
    case "column": openColumn(); break;
    case "locate": openLocate(); break;
    case "cheat": openCheat(); break;
  }
}

// ---------- settings ----------

function applySettings() {
  const s = S.settings;
  document.body.classList.toggle("hide-areas", !!s.hideAreas);
  document.documentElement.classList.toggle("four-color", !!s.fourColor);
  document.querySelectorAll("[data-set]").forEach((b) => b.setAttribute("aria-checked", s[b.dataset.set] ? "true" : "false"));
}

function mergeSettings(src) {
  const out = structuredClone(DEFAULTS);
  if (!src || typeof src !== "object") return out;
  for (const k of Object.keys(DEFAULTS)) {
    if (k === "newGame") Object.assign(out.newGame, typeof src.newGame === "object" ? src.newGame : {});
    else if (src[k] !== undefined && typeof src[k] === typeof DEFAULTS[k]) out[k] = src[k];
  }
  return out;
}

async function loadSettings() {
  let s = null;
  try {
    s = await api.settings();
  } catch { /* the server keeps none: fall back */ }
  if (!s || !Object.keys(s).length) {
    try { s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "null"); } catch { s = null; }
  }
  S.settings = mergeSettings(s);
}

function saveSettings() {
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings)); } catch { /* private mode */ }
  api.putSettings(S.settings).catch(() => { /* localStorage keeps them */ });
}

function toggleSetting(name) {
  S.settings[name] = !S.settings[name];
  applySettings();
  saveSettings();
  layout();
  render();
  const labels = { hideAreas: "Deal and discard areas hidden", verbose: "Verbose messages", animations: "Animations", fourColor: "Four-colour suits", sound: "Sound effects" };
  info(`${labels[name]} ${name === "hideAreas" ? (S.settings[name] ? "" : "shown") : S.settings[name] ? "on" : "off"}`.replace(/hidden $/, "hidden") + ".");
}

// ---------- start ----------

function bind() {
  const tab = $("#tableau");
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
  document.addEventListener("keydown", onKey);
  $("#stock").addEventListener("pointerdown", onStockDown);
  document.addEventListener("pointerup", onStockUp);
  $("#stock").addEventListener("click", onStockClick);
  $("#completed").addEventListener("click", () => {
    if (S.sel) { const k = S.sel.pile; S.sel = null; removeFrom(k); }
    else info("Pick up a complete suit, king to ace, then click here (or drag it here) to remove it.");
  });
  $("#btn-new").addEventListener("click", openNew);
  $("#btn-restart").addEventListener("click", restart);
  $("#btn-undo").addEventListener("click", undo);
  $("#btn-redo").addEventListener("click", redo);
  $("#btn-hint").addEventListener("click", hint);
  $("#btn-deal").addEventListener("click", deal);
  $("#btn-finish").addEventListener("click", finish);
  // A click or tap anywhere cuts the win celebration short.
  document.addEventListener("pointerdown", () => { if (celebrating()) stopCascade(); }, true);
  document.querySelectorAll("[aria-haspopup]").forEach((b) => b.addEventListener("click", (e) => { e.stopPropagation(); toggleMenu(b); }));
  document.querySelectorAll("[data-act]").forEach((b) => b.addEventListener("click", () => menuAction(b.dataset.act)));
  document.querySelectorAll("[data-set]").forEach((b) => b.addEventListener("click", () => { closeMenus(); toggleSetting(b.dataset.set); }));
  document.addEventListener("click", (e) => { if (!e.target.closest(".menu")) closeMenus(); });
  document.querySelectorAll("[data-close]").forEach((b) => b.addEventListener("click", () => b.closest("dialog").close()));
  initAnalysis({ S, render, info, announce, confirmBox, queue, failure, setGame });
  document.querySelectorAll("[data-end]").forEach((b) => b.addEventListener("click", () => onEndButton(b.dataset.end)));
  $("#form-new").addEventListener("submit", submitNew);
  $("#form-save").addEventListener("submit", submitSave);
  $("#form-locate").addEventListener("submit", submitLocate);
  $("#form-cheat").addEventListener("submit", () => {
    S.settings.cheat = $("#form-cheat").cheat.value;
    saveSettings();
    info(`Cheat detection for new games: ${S.settings.cheat}.`);
  });
  $("#stats-group").addEventListener("change", () => { $("#stats-group").dataset.touched = "1"; showStats(); });
  $("#file-input").addEventListener("change", (e) => loadFile(e.target.files[0]));
  $("#toast .close").addEventListener("click", () => { $("#toast").hidden = true; });
  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { layout(); render(); }, 60);
  });
  document.addEventListener("visibilitychange", () => {
    // another tab may have played this game: show the server's state
    if (document.visibilityState === "visible" && S.id) refresh();
  });
}

function refresh() {
  return queue(async () => {
    try {
      const r = await api.game(S.id);
      S.view = r.view;
      render();
    } catch { /* keep what is shown */ }
  });
}

async function main() {
  installSprite();
  layout();
  bind();
  startTimer();
  busy(1);
  try {
    await loadSettings();
    applySettings();
    const params = new URLSearchParams(location.search);
    if (params.get("deal") || params.get("new") !== null) {
      history.replaceState(null, "", location.pathname);
      await startFromLink(params);
      return;
    }
    let id = null;
    try { id = sessionStorage.getItem(GAME_KEY) || localStorage.getItem(GAME_KEY); } catch { id = null; }
    if (id) {
      try {
        const r = await api.game(id);
        setGame(r);
        return;
      } catch { /* gone: start a new one */ }
    }
    await startGame(newGameOptions(""));
  } finally {
    busy(-1);
    document.body.dataset.readyMs = String(Math.round(performance.now()));
    document.body.dataset.ready = "1";
  }
}

main();
