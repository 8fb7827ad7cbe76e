// The game timer in the status bar and the statistics panel (numbers,
// play times and charts) as the server records them (docs/api.md).

import { api, playTime } from "/shared/api.js";
import { scoreChart, winRateChart } from "./charts.js";
import { plural, $, S } from "./state.js";
import { openDialog } from "./dialogs.js";

// formatTime writes a play time: m:ss, or h:mm:ss from an hour.
function formatTime(ms) {
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

// tickTimer shows the game's play time, running as the server counts it
// (a pause counts up to two minutes; a finished game's clock stands).
// Nothing shows until the game's first answer: a reload showed 0:00 for
// the moment the game took to come. showTime is it, for the page to call
// as soon as a game is drawn.
export function showTime() { tickTimer(); }

function tickTimer() {
  const el = $("#st-time");
  const t = S.id && playTime(S.id);
  if (!el || !t) return;
  el.textContent = formatTime(t.ms);
  el.dataset.running = t.running ? "1" : "0";
}

export function startTimer() {
  tickTimer();
  setInterval(tickTimer, 500);
}

// timeStats are the statistics panel's play-time lines.
function timeStats(g) {
  const has = g.timedWins > 0;
  return [["Best time", has ? formatTime(g.bestTime) : "–"], ["Average time", has ? formatTime(g.averageTime) : "–"]];
}

let statsData = null;

export async function openStats() {
  // The figures shown last time are not shown again while the server's
  // come: a game left since then made them wrong (aria-busy until then).
  const nums = $("#stats-numbers");
  nums.replaceChildren();
  nums.setAttribute("aria-busy", "true");
  $("#stats-charts").textContent = "Loading the statistics…";
  openDialog("#dlg-stats");
  const sel = $("#stats-group");
  try {
    statsData = (await api.stats()).groups || [];
  } catch (e) {
    $("#stats-charts").textContent = `Statistics are not available: ${e.message}`;
    return;
  } finally {
    nums.setAttribute("aria-busy", "false");
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

export function showStats() {
  const g = statsData && statsData[+$("#stats-group").value];
  const nums = $("#stats-numbers"), charts = $("#stats-charts");
  if (!g) {
    nums.innerHTML = "";
    charts.innerHTML = `<p class="help">No games recorded yet. Finish or leave a game and it counts here.</p>`;
    return;
  }
  const rate = g.winRate != null ? g.winRate : (g.played ? g.won / g.played : 0);
  const pct = rate <= 1 ? Math.round(rate * 1000) / 10 : Math.round(rate * 10) / 10;
  // With no game played there is no rate nor best score: "0%" and "0"
  // read as a record of losses.
  const none = !g.played;
  const items = [["Played", g.played], ["Won", g.won], ["Win rate", none ? "–" : `${pct}%`], ["Current streak", g.currentStreak],
    ["Longest streak", g.longestStreak], [S.settings.scoring === "windows" ? "Best score (Arachnid count)" : "Best score", none ? "–" : g.bestScore], ...timeStats(g)];
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
