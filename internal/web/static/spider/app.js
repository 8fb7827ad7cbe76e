// The Spider / Arachnid page. The server owns the game: this page shows the
// view it is sent, turns the player's gestures into commands ("move 3 7 2",
// "deal", "auto 4", ...) and shows the server's answer, or its refusal.

import { api } from "/shared/api.js";
import { installSprite, cardName } from "/shared/cards.js";
import { layout, renderStock, renderCompleted, renderTableau } from "./render.js";
import { snapshot, animate } from "./anim.js";
import { stop as stopCascade, celebrating } from "./celebrate.js";
import { initAnalysis, analyse } from "./analysis.js";
import { initSaves, saveFile, loadFile, openSaves, submitSave } from "./saves.js";
import { pileCards, runLen, isCompleteRun, plural, dealsLeft, variantLabel, shownScore, windowsScore, measure, busy, $, GAME_KEY, S } from "./state.js";
import { openLooks, bindLooks, showLooks } from "./looks.js";
import { announce, info, failure } from "./messages.js";
import { startTimer, openStats, showStats, showTime } from "./stats.js";
import { initNewGame, startGame, startFromLink, newGameOptions, openNew, submitNew } from "./newgame.js";
import { initInput, drag } from "./input.js";
import { initKeys, onKey } from "./keys.js";
import { openDialog, confirmBox, closeMenus, toggleMenu } from "./dialogs.js";
import { initTools, openColumn, openLocate, submitLocate, openCheat } from "./tools.js";
import { maybeEnd } from "./end.js";
import { applySettings, loadSettings, changeSettings, initSettings } from "./settings.js";
import { initGame, CLOSED, setGame, queue, send, refresh } from "./game.js";
import { initPlay, canFinish, finish, pick, dropOn, cancelPick, clickPile, removeFrom, autoMove, deal, undo, redo, restart, hint } from "./play.js";

// ---------- rendering (render.js draws the table) ----------

function render({ anim = null } = {}) {
  const v = S.view;
  if (!v) return;
  const t0 = performance.now();
  const before = anim && S.settings.animations ? snapshot(S) : null;
  renderStatus();
  renderStock(S);
  renderCompleted(S, !!(S.sel && isCompleteRun(S.sel.pile)));
  renderTableau(S, { selCount, pileLabel, drag });
  renderButtons();
  if (before) animate(S, before, anim);
  maybeEnd();
  noteRender(performance.now() - t0);
}

// noteRender notes how long a redraw took (ms, the script's part: the DOM
// updated and the layout it reads), window.cardtableRenderTimes when the
// tab asked for measurements (docs/page.md, "A long game on a slow phone").
const noteRender = measure("cardtableRenderTimes");

function renderStatus() {
  const v = S.view;
  $("#st-deal").textContent = v.deal ? `Deal #${v.deal}` : "Custom deal";
  $("#st-kind").textContent = variantLabel(v);
  $("#st-score").textContent = shownScore(v);
  $("#st-moves").textContent = v.moves;
  showTime();
  const sc = $("#st-score").parentElement;
  const win = windowsScore();
  $("#st-score-label").textContent = win ? "Windows score" : "Score";
  sc.title = win ? "Windows Spider score: 500 to start, one off each action (undo too), 100 for each complete suit" :
    v.breakdown.cheated ? "Cheating detected: the score is halved" :
    v.breakdown.stopped ? "Scoring has stopped (undo, restart or load in Spider)" : "";
  $("#st-note").textContent = win ? "" : v.breakdown.cheated ? "(halved)" : v.breakdown.stopped ? "(frozen)" : "";
  // The page's name first, then the game: "Spider solitaire · #617 · cardtable".
  document.title = `${v.won ? "Won · " : ""}Spider solitaire · ${v.deal ? "#" + v.deal : "custom deal"} · cardtable`;
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
  fitToolbar();
}

// fitToolbar shows the toolbar's buttons as icons alone (class "icons",
// style.css) when their words do not fit the bar: in a window between a
// phone's and a desktop's width (a phone held sideways, 844 px) the Game
// and Cards buttons would lie past the window's right edge, out of reach.
// Measured, not a fixed width: Finish, when it shows, takes room too.
function fitToolbar() {
  const bar = $("#bar"), tb = bar.querySelector(".toolbar");
  bar.classList.remove("icons");
  bar.classList.toggle("icons", tb.scrollWidth > tb.clientWidth);
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
  closeMenu();
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
    case "looks": openLooks(); break;
  }
}

// closeMenu closes the menus after a choice from one. Hidden with its
// menu, the item chosen had the keyboard's focus, which fell to <body>
// (the next Tab began at the page's top): it goes to the menu's button,
// and a dialog the choice opens gives it back there (dialogs.js).
function closeMenu() {
  const m = document.activeElement && document.activeElement.closest('[role="menu"]');
  closeMenus();
  if (m) document.querySelector(`[aria-controls="${m.id}"]`).focus({ preventScroll: true });
}

function toggleSetting(name) {
  const on = !S.settings[name];
  changeSettings((s) => { s[name] = on; });
  layout();
  render();
  const labels = { verbose: "Verbose messages", animations: "Animations", fourColor: "Four-colour suits", sound: "Sound effects" };
  info(name === "hideAreas" ? `Deal and discard areas ${on ? "hidden" : "shown"}.` : `${labels[name]} ${on ? "on" : "off"}.`);
}

// ---------- start ----------

function bind() {
  initGame({ render });
  initPlay({ render, renderButtons });
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
  document.querySelectorAll("[data-set]").forEach((b) => b.addEventListener("click", () => { closeMenu(); toggleSetting(b.dataset.set); }));
  document.addEventListener("click", (e) => { if (!e.target.closest(".menu")) closeMenus(); });
  document.querySelectorAll("[data-close]").forEach((b) => b.addEventListener("click", () => b.closest("dialog").close()));
  initAnalysis({ S, render, info, announce, confirmBox, queue, failure, setGame, closedWhy: CLOSED });
  initSaves({ queue, setGame });
  document.querySelectorAll("[data-end]").forEach((b) => b.addEventListener("click", () => onEndButton(b.dataset.end)));
  $("#form-new").addEventListener("submit", submitNew);
  // A refused deal number's message goes once the number is changed, so
  // that it does not keep the dialog from starting the corrected one.
  $("#new-deal").addEventListener("input", (e) => e.target.setCustomValidity(""));
  $("#form-save").addEventListener("submit", submitSave);
  $("#form-locate").addEventListener("submit", submitLocate);
  $("#form-cheat").addEventListener("submit", () => {
    const cheat = $("#form-cheat").cheat.value;
    changeSettings((s) => { s.cheat = cheat; });
    info(`Cheat detection for new games: ${S.settings.cheat}.`);
  });
  bindLooks(render);
  initSettings({
    changed: () => { showLooks(); layout(); render(); },
    refused: (e, kept) => failure({ message: `Settings not saved: the server refused them (${e.message}).` +
      (kept ? " Showing the settings it keeps." : "") }),
    kept: () => info("Settings changed on another device were kept."),
  });
  $("#stats-group").addEventListener("change", () => { $("#stats-group").dataset.touched = "1"; showStats(); });
  $("#file-input").addEventListener("change", (e) => loadFile(e.target.files[0]));
  $("#toast .close").addEventListener("click", () => { $("#toast").hidden = true; });
  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { layout(); fitToolbar(); render(); }, 60);
  });
  document.addEventListener("visibilitychange", () => {
    // another tab may have played this game: show the server's state
    if (document.visibilityState === "visible" && S.id) refresh();
  });
}


async function main() {
  installSprite();
  layout();
  bind();
  fitToolbar(); // before the first game shows, which may fail to come
  startTimer();
  busy(1);
  try {
    const params = new URLSearchParams(location.search);
    const link = params.get("deal") || params.get("new") !== null;
    let id = null;
    try { id = sessionStorage.getItem(GAME_KEY) || localStorage.getItem(GAME_KEY); } catch { id = null; }
    // The game is asked for with the settings, not after them: on a slow
    // network each round trip is a wait the player sees (docs/page.md).
    const saved = id && !link ? api.game(id).then((r) => ({ r }), (e) => ({ e })) : null;
    await loadSettings();
    applySettings();
    if (link) {
      history.replaceState(null, "", location.pathname);
      // A refused link (its error is shown) leaves the game as it was.
      if (await startFromLink(params)) return;
    }
    if (id) {
      try {
        const got = saved ? await saved : { r: await api.game(id) };
        if (got.e) throw got.e;
        const r = got.r;
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
