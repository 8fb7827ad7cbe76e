// The Spider / Arachnid page. The server owns the game: this page shows the
// view it is sent, turns the player's gestures into commands ("move 3 7 2",
// "deal", "auto 4", ...) and shows the server's answer, or its refusal.

import { api, ApiError } from "/shared/api.js";
import { installSprite, cardName } from "/shared/cards.js";
import { geom, layout, renderStock, renderCompleted, renderTableau } from "./render.js";
import { snapshot, animate } from "./anim.js";
import { playEffect, played } from "/shared/sound.js";
import { cascade, stop as stopCascade, celebrating } from "./celebrate.js";
import { initAnalysis, analyse, reviewing } from "./analysis.js";
import { initSaves, saveFile, loadFile, openSaves, submitSave } from "./saves.js";
import { pileCards, runLen, isCompleteRun, plural, dealsLeft, variantLabel, countFrom, $, GAME_KEY, S } from "./state.js";
import { announce, info, pretty, refuse, failure, describe } from "./messages.js";
import { startTimer, openStats, showStats } from "./stats.js";
import { initNewGame, startGame, startFromLink, newGameOptions, openNew, submitNew } from "./newgame.js";
import { initInput, clearDrag, drag } from "./input.js";
import { initKeys, onKey } from "./keys.js";
import { openDialog, confirmBox, closeMenus, toggleMenu } from "./dialogs.js";
import { initTools, openColumn, openLocate, submitLocate, openCheat } from "./tools.js";
import { maybeEnd, endKey } from "./end.js";
import { applySettings, loadSettings, saveSettings } from "./settings.js";

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
  // A game given up for its analysis takes no more commands (docs/analysis.md).
  const closed = S.gaveUp;
  $("#btn-undo").disabled = closed || !v.canUndo;
  $("#btn-redo").disabled = closed || !v.canRedo;
  $("#btn-deal").disabled = closed || v.stock === 0;
  $("#btn-deal").title = closed ? CLOSED : v.stock ? `Deal a row (D): ${plural(dealsLeft(v), "row")} left` : "The stock is empty";
  $("#btn-restart").disabled = closed;
  $("#btn-hint").disabled = closed; // no move to suggest: the game takes none
  $('#menu-game [data-act="restart"]').disabled = closed;
}

// CLOSED says why a game given up for its analysis takes no more moves.
const CLOSED = "This game was given up for its analysis, which showed its hidden cards: it takes no more moves, undo included. Start a new game (New game takes its deal number to play it again).";

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
  if (S.gaveUp) {
    S.sel = null;
    clearDrag();
    render({ anim: "refused" });
    refuse(CLOSED);
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
          if (JSON.stringify(r.view) !== JSON.stringify(S.view) || !!r.gaveUp !== S.gaveUp) {
            S.view = r.view;
            S.gaveUp = !!r.gaveUp; // given up in another tab
            render();
          }
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
  return !!v && !S.gaveUp && !v.won && v.stock === 0 && v.piles.every((p) => p.down === 0);
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
  S.gaveUp = !!e.body.gaveUp; // it may have been given up there
  render();
  document.body.dataset.caughtUp = String(e.body.version);
  info("This game changed in another tab or window: here it is as it stands now.");
  return true;
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
  // Put down now, not at the answer: a second click meanwhile must not
  // send the move again (a card turned up might fit and move too).
  S.sel = null;
  send(`move ${s.pile + 1} ${k + 1}${s.count ? " " + s.count : ""}`);
  render();
}

function cancelPick(say = true) {
  if (!S.sel) return;
  S.sel = null;
  render();
  if (say) announce("Put the cards back.");
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
  if (S.gaveUp) { refuse(CLOSED); return; }
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

// ---------- the end screen's buttons (end.js shows it) ----------

function onEndButton(act) {
  $("#dlg-end").close();
  if (act === "undo") undo();
  else if (act === "restart") { S.sel = null; if (S.gaveUp) playAgain(); else send("restart"); }
  else if (act === "stats") openStats();
  else if (act === "new") openNew();
  else if (act === "analyse") analyse();
}

// playAgain starts a new game of the deal shown, with its options: a game
// given up for its analysis cannot be restarted (docs/analysis.md), and a
// new game of its deal number is how to play it again.
function playAgain() {
  const v = S.view;
  if (!v || !v.deal) return;
  startGame({ ...newGameOptions(v.deal), variant: v.variant, suits: v.suits, open: v.open, relaxed: v.relaxed,
    autoRemove: v.autoRemove, cheat: v.cheat });
}

// ---------- menus and settings ----------

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

function toggleSetting(name) {
  S.settings[name] = !S.settings[name];
  applySettings();
  saveSettings();
  layout();
  render();
  const on = S.settings[name];
  const labels = { verbose: "Verbose messages", animations: "Animations", fourColor: "Four-colour suits", sound: "Sound effects" };
  info(name === "hideAreas" ? `Deal and discard areas ${on ? "hidden" : "shown"}.` : `${labels[name]} ${on ? "on" : "off"}.`);
}

// ---------- start ----------

function bind() {
  initInput({ render, send, dropOn, cancelPick, clickPile, autoMove, deal });
  initKeys({ render, pileLabel, finish, pick, dropOn, cancelPick, clickPile, removeFrom, autoMove, deal, undo, redo, restart, hint });
  initNewGame({ setGame, busy });
  initTools({ render });
  document.addEventListener("keydown", onKey);
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
  initSaves({ queue, setGame });
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
  // The table shows a step of the analysis: keep it. Its game, over,
  // cannot have changed; "Back to the game" shows it again.
  if (reviewing()) return S.chain;
  return queue(async () => {
    try {
      const r = await api.game(S.id);
      S.view = r.view;
      S.gaveUp = !!r.gaveUp; // given up in another tab meanwhile
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
      // A refused link (its error is shown) leaves the game as it was.
      if (await startFromLink(params)) return;
    }
    let id = null;
    try { id = sessionStorage.getItem(GAME_KEY) || localStorage.getItem(GAME_KEY); } catch { id = null; }
    if (id) {
      try {
        const r = await api.game(id);
        // A given-up game's controls are disabled: say why (a stuck
        // one's end screen says it).
        setGame(r, r.gaveUp && !r.view.stuck ? { message: CLOSED } : {});
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
