// The analysis of a game that is over (docs/analysis.md "The page"): the
// server solves every position of the game with the hidden cards known
// and says where it was lost. This module shows its timeline and steps
// through the winning line from the last winnable move, card by card, on
// the table (a review: no command is sent meanwhile).

import { api, ApiError } from "/shared/api.js";
import { pretty } from "./messages.js";

const $ = (sel) => document.querySelector(sel);

const WORDS = { winnable: "winnable", lost: "lost", unknown: "unknown" };

// A is the analysis shown: {res, i} (i: the step shown, -1: the game as
// it stands) or null.
let A = null;
let host = null; // {S, render, info, announce, confirmBox, queue, failure, setGame, closedWhy}

export function initAnalysis(h) {
  host = h;
  $("#an-goto").addEventListener("click", () => show(0));
  $("#an-back").addEventListener("click", () => show(A.i - 1, "undo"));
  $("#an-fwd").addEventListener("click", () => show(A.i + 1, "move"));
  $("#an-close").addEventListener("click", close);
}

// reviewing reports whether the table shows a position of the analysis
// rather than the game: commands wait until it is closed.
export function reviewing() { return !!A && A.i >= 0; }

function over(S) { return S.view && (S.view.won || S.view.stuck || S.gaveUp); }

// analyse asks for the analysis of the game shown; a game still in play is
// given up first, once the player agrees.
export async function analyse() {
  const { S, confirmBox } = host;
  if (!S.id) return;
  const giveUp = !over(S);
  // A stuck game could still take moves back to play the line the
  // analysis shows: the analysis closes it too (docs/analysis.md).
  const stuck = !giveUp && !S.view.won && !S.gaveUp;
  const ok = await confirmBox(giveUp ? "Give up and analyse?" : "Analyse this game?",
    "The analysis looks at the hidden cards (the face-down cards and the stock) to find the last move " +
    "after which this game could still be won, and a winning line from there. " +
    (giveUp ? "So the game ends here: it counts as lost in the statistics, and no more moves can be made in it, undo included." :
      stuck ? "No moves are left, so it counts as lost in the statistics; the analysis makes that final: " +
        "the game takes no more moves after it, undo included." :
      S.gaveUp ? "This game was given up already: it stays lost in the statistics." :
      "The game is won: it stays won as it is."),
    giveUp ? "Give up and analyse" : "Analyse");
  if (!ok) return;
  await request(() => api.analysis(S.id, giveUp), (res) => {
    S.gaveUp = !!res.game.gaveUp;
    S.view = res.game.view;
  });
}

// analyseSaveButton is the saved-games list's Analyse action for save s
// (an entry of GET /api/saves).
export function analyseSaveButton(s) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = "Analyse";
  b.setAttribute("aria-label", `Analyse ${s.name}`);
  b.addEventListener("click", () => analyseSave(s));
  return b;
}

// analyseSave analyses a named save, once the player agrees: the server
// opens it as a new game, given up unless it is won, which the page then
// shows (the game left counts as when another is opened). The save stays.
async function analyseSave(s) {
  const { S, confirmBox, setGame } = host;
  const ok = await confirmBox(`Analyse “${s.name}”?`,
    "The analysis opens this saved game and looks at its hidden cards (the face-down cards and the stock) " +
    "to find the last move after which it could still be won, and a winning line from there. " +
    (s.gaveUp ? "This game was given up already: it stays lost in the statistics." :
      "So the game ends there: unless it was won, it counts as lost in the statistics (a stuck one too), " +
      "for good, and no more moves can be made in it, undo included, nor in a game of it you have open. " +
      "The save stays, but a win from it will no longer count."),
    "Analyse");
  if (!ok) return;
  $("#dlg-saves").close();
  await request(async () => {
    try {
      return await api.analyseSave(s.name, true, S.id);
    } catch (e) {
      // The save was opened (given up) before the analysis failed: show
      // that game, which can be analysed again from the Game menu.
      if (e instanceof ApiError && e.body && e.body.game) setGame(e.body.game, { ended: true });
      throw e;
    }
  }, (res) => setGame(res.game, { ended: true }));
}

// request runs call, the analysis request, in the page's queue; show puts
// the answer's game on the page before the panel opens.
async function request(call, show) {
  const { info, queue, failure } = host;
  info("Analysing the game: this takes a few seconds, 20 at most…");
  document.body.dataset.analysing = "1";
  await queue(async () => {
    try {
      const res = await call();
      show(res);
      open(res);
    } catch (e) {
      if (e instanceof ApiError && e.status === 503 && /^another analysis is (running|waiting)/.test(e.message)) {
        // Busy, not broken: said as news. Any other 503 (a database
        // replaced, a save that kept meeting changes) is an error.
        info(pretty(e.message));
        return;
      }
      failure(e);
    } finally {
      document.body.dataset.analysing = "0";
    }
  });
}

// verdictText says where the game was lost and how sure that is: exact
// when a proven winnable move is next to a proven lost one, otherwise
// the band of moves the analysis could not decide (docs/analysis.md).
function verdictText(res) {
  const k = res.lastWinnable;
  if (res.points.every((p) => p.result === "winnable")) {
    return res.line.length ? `The game could still be won at its last move: a winning line takes ${res.line.length} more moves.` :
      "Every position of this game was winnable, and it was won.";
  }
  const lostAt = res.points.findIndex((p) => p.result === "lost");
  const within = res.limitSeconds ? `within ${res.limitSeconds} s` : "within its limits";
  let s;
  if (res.exact) {
    if (k === null) return "This deal could not be won: its opening is proven lost (exact).";
    s = `Lost at move ${lostAt} (exact): the game could still be won ${k === 0 ? "at the start" : `after move ${k}`} (highlighted), ` +
      `and from move ${lostAt} no line wins. `;
  } else {
    const b = res.band;
    const open = b.from === b.to ? `move ${b.from} is unknown` : `moves ${b.from} to ${b.to} are unknown`;
    const start = k === null || k === 0;
    const where = lostAt < 0 ? `after ${start ? "the start" : `move ${k}`}, if at all` :
      start ? `between the start and move ${lostAt}` : `between moves ${k} and ${lostAt}`;
    s = `Lost somewhere ${where}: the analysis could not decide ${within} (${open}). `;
    if (k === null) return s + "No position of this game could be shown winnable.";
    s += `The game could still be won ${k === 0 ? "at the start" : `after move ${k}`} (highlighted). `;
  }
  return s + `A winning line from there takes ${res.line.length} moves.`;
}

// ranges says the timeline in words: "winnable: moves 0-12; lost: 13-45".
function ranges(points) {
  const parts = [];
  for (let i = 0; i < points.length;) {
    let j = i;
    while (j + 1 < points.length && points[j + 1].result === points[i].result) j++;
    parts.push(`${WORDS[points[i].result]}: ${i === j ? `move ${i}` : `moves ${i} to ${j}`}`);
    i = j + 1;
  }
  return parts.join("; ");
}

function open(res) {
  A = { res, i: -1 };
  const panel = $("#analysis");
  $("#an-summary").textContent = verdictText(res);
  $("#an-ranges").textContent = `Move 0 is the start. After each move, ${ranges(res.points)}.`;
  const tl = $("#an-timeline");
  tl.replaceChildren(...res.points.map((p) => {
    const m = document.createElement("span");
    m.className = `pt ${p.result}` + (p.move === res.lastWinnable ? " last" : "");
    m.title = `After move ${p.move}: ${WORDS[p.result]}`;
    m.setAttribute("role", "listitem");
    m.setAttribute("aria-label", m.title);
    return m;
  }));
  const steps = res.steps.length > 1;
  $("#an-goto").hidden = !steps;
  // Still winnable at its last move, the game is already there: "Go to
  // move 34" at move 34 read as a place elsewhere.
  $("#an-goto").textContent = res.lastWinnable === res.points.length - 1 ? "Show the winning line" :
    res.lastWinnable === 0 ? "Go to the start" : `Go to move ${res.lastWinnable}`;
  $("#an-step").textContent = "";
  // The "Analysing…" message is done with.
  $("#toast").hidden = true;
  document.body.classList.add("analysis-open");
  panel.hidden = false;
  buttons();
  host.render();
  host.announce($("#an-summary").textContent);
  (steps ? $("#an-goto") : $("#an-close")).focus();
}

function buttons() {
  const n = A.res.steps.length;
  $("#an-back").hidden = $("#an-fwd").hidden = A.i < 0;
  $("#an-back").disabled = A.i <= 0;
  $("#an-fwd").disabled = A.i >= n - 1;
  document.body.dataset.review = A.i >= 0 ? String(A.i) : "";
}

// show puts step i of the line on the table.
function show(i, anim = null) {
  const { S, render, announce } = host;
  const steps = A.res.steps;
  if (i < 0 || i >= steps.length) return;
  if (A.i < 0) A.game = S.view;
  A.i = i;
  S.sel = null; S.hint = null; S.located = [];
  S.view = steps[i];
  render({ anim });
  const k = A.res.lastWinnable;
  const line = A.res.line;
  let text = i === 0 ? `After move ${k} of the game, every card shown. Forward plays the winning line, ${line.length} moves.` :
    `Winning line, move ${i} of ${line.length}: ${A.res.lineText[i - 1] || line[i - 1]}`;
  if (i === steps.length - 1 && steps[i].won) text += " The game is won.";
  $("#an-step").textContent = text;
  buttons();
  announce(text);
}

// close leaves the analysis and shows the game as it stands again.
function close() {
  if (!A) return;
  const { S, render } = host;
  if (A.i >= 0 && A.game) S.view = A.game;
  A = null;
  $("#analysis").hidden = true;
  document.body.classList.remove("analysis-open");
  document.body.dataset.review = "";
  render();
  // The game shown again takes no moves: say why, as a page loaded on
  // it does, rather than leave every control disabled unexplained (a
  // stuck game's end screen says it).
  if (S.gaveUp && S.view && !S.view.stuck) host.info(host.closedWhy);
}
