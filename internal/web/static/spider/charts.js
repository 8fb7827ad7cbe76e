// SVG charts for the statistics panel: score per game and win rate over
// time. Plain SVG with a viewBox, so they scale with the dialog.

// L leaves room for the y labels at a phone's larger size (style.css).
const W = 600, H = 220, L = 74, R = 12, T = 14, B = 34;

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function frame(title, yTicks, yFmt, n) {
  let s = `<svg viewBox="0 0 ${W} ${H}" class="chart" role="img" aria-label="${esc(title)}">`;
  s += `<title>${esc(title)}</title>`;
  const ih = H - T - B;
  for (const [v, f] of yTicks) {
    const y = T + ih * (1 - f);
    s += `<line x1="${L}" x2="${W - R}" y1="${y}" y2="${y}" class="grid"/>`;
    s += `<text x="${L - 6}" y="${y + 4}" text-anchor="end" class="axis">${esc(yFmt(v))}</text>`;
  }
  // No game, no "game 1" under the empty chart.
  if (n > 0) s += `<text x="${L}" y="${H - 8}" class="axis">game 1</text>`;
  if (n > 1) s += `<text x="${W - R}" y="${H - 8}" text-anchor="end" class="axis">game ${n}</text>`;
  return s;
}

function xAt(i, n) {
  const iw = W - L - R;
  return n <= 1 ? L + iw / 2 : L + (iw * i) / (n - 1);
}

// scoreChart draws each game's score: filled dots for wins, rings for the rest.
export function scoreChart(history) {
  const n = history.length;
  const max = Math.max(1000, ...history.map((h) => h.score || 0));
  const ih = H - T - B;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => [Math.round(max * f), f]);
  let s = frame("Score of each game", ticks, (v) => v, n);
  if (n === 0) return s + `<text x="${W / 2}" y="${H / 2}" text-anchor="middle" class="axis">No games yet</text></svg>`;
  const pts = history.map((h, i) => [xAt(i, n), T + ih * (1 - Math.max(0, h.score || 0) / max)]);
  if (n > 1) s += `<polyline class="line score" points="${pts.map((p) => p.join(",")).join(" ")}"/>`;
  const r = n > 200 ? 2 : n > 60 ? 3 : 4.5;
  history.forEach((h, i) => {
    const [x, y] = pts[i];
    s += `<circle cx="${x}" cy="${y}" r="${r}" class="${h.won ? "dot won" : "dot lost"}"><title>game ${i + 1}: ${h.score}${h.won ? ", won" : ""}</title></circle>`;
  });
  return s + `</svg>`;
}

// winRateChart draws the win rate over all games played so far, after each game.
export function winRateChart(history) {
  const n = history.length;
  const ih = H - T - B;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => [f * 100, f]);
  let s = frame("Win rate over time", ticks, (v) => `${v}%`, n);
  if (n === 0) return s + `<text x="${W / 2}" y="${H / 2}" text-anchor="middle" class="axis">No games yet</text></svg>`;
  let won = 0;
  const pts = history.map((h, i) => {
    if (h.won) won++;
    return [xAt(i, n), T + ih * (1 - won / (i + 1))];
  });
  if (n > 1) {
    s += `<polygon class="area" points="${xAt(0, n)},${T + ih} ${pts.map((p) => p.join(",")).join(" ")} ${xAt(n - 1, n)},${T + ih}"/>`;
    s += `<polyline class="line rate" points="${pts.map((p) => p.join(",")).join(" ")}"/>`;
  } else {
    s += `<circle cx="${pts[0][0]}" cy="${pts[0][1]}" r="4.5" class="${history[0].won ? "dot won" : "dot lost"}"/>`;
  }
  return s + `</svg>`;
}
