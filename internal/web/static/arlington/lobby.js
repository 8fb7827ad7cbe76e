import { request } from "/shared/api.js";
import { savedName, saveName, el, points } from "./common.js";

const $ = (id) => document.getElementById(id);
let levels = ["random", "greedy", "easy", "medium", "hard", "expert", "master"];
let defaultLevel = "medium";

function seatRows() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const lab = el("label", "row", `Seat ${i + 1} `);
    const sel = el("select");
    sel.dataset.seat = i;
    sel.appendChild(new Option("a person", ""));
    for (const l of levels) sel.appendChild(new Option(`bot: ${l}`, l));
    sel.value = old[i] ?? (i < 2 ? "" : defaultLevel);
    lab.appendChild(sel);
    box.appendChild(lab);
  }
}

// seatWords names each seat, with its rating when it has one.
function seatWords(t) {
  return t.seats.map((s) => {
    const who = s.bot ? `bot ${s.bot}` : s.open ? "open" : s.name;
    return s.rating ? `${who} (${s.rating})` : who;
  }).join(", ");
}

function tableItem(t) {
  const li = el("li");
  const a = el("a", "table-link");
  a.href = `/arlington/t/${t.id}`;
  a.appendChild(el("span", "t-main", `${t.players} seats: ${seatWords(t)}`));
  let sub = `to ${t.target} ${points(t.target)} · ${t.rated ? "rated" : "casual"}`;
  if (t.status === "over") sub += ` · game over after hand ${t.hand} · final scores ${t.totals.join("-")}`;
  else if (t.started) sub += ` · hand ${t.hand} · scores ${t.totals.join("-")}`;
  if (t.openSeats > 0) sub += ` · ${t.openSeats} open`;
  if (t.yours) sub += " · your seat";
  if (t.watching) sub += ` · ${t.watching} connected`;
  a.appendChild(el("span", "t-sub", sub));
  li.appendChild(a);
  return li;
}

async function refresh() {
  try {
    const l = await request("GET", "/api/arlington/tables");
    levels = l.levels; defaultLevel = l.defaultLevel;
    const open = $("open-tables"), play = $("play-tables");
    open.replaceChildren(); play.replaceChildren();
    for (const t of l.tables) (t.openSeats > 0 ? open : play).appendChild(tableItem(t));
    if (!open.children.length) open.appendChild(el("li", "none", "none"));
    if (!play.children.length) play.appendChild(el("li", "none", "none"));
  } catch (e) { $("msg").textContent = e.message; }
}

// board lists the leaderboard: the best first.
async function board() {
  const list = $("leaderboard");
  try {
    const rows = await request("GET", "/api/arlington/ratings");
    list.replaceChildren();
    for (const r of rows) {
      const who = r.bot ? `bot ${r.name}` : r.name;
      list.appendChild(el("li", "", `${who}: ${r.rating} (${r.games} ${r.games === 1 ? "game" : "games"})`));
    }
    if (!rows.length) list.appendChild(el("li", "none", "no one yet"));
  } catch (e) { $("msg").textContent = e.message; }
}

// unjoined is the table made for a join the server then refused (a name
// someone else has): the next try with the same settings joins it rather
// than making another, each of which would count against the creator's
// tables until it closed idle.
let unjoined = null; // {settings (JSON), table}

async function create(ev) {
  ev.preventDefault();
  const name = $("name").value.trim();
  if (!name) { $("msg").textContent = "Pick a display name first."; $("name").focus(); return; }
  saveName(name);
  const bots = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  const settings = {
    players: bots.length, bots, target: Number($("target").value) || 0, turnSeconds: Number($("timer").value) || 0,
    rated: $("rated").checked,
  };
  const key = JSON.stringify(settings);
  try {
    const t = unjoined?.settings === key ? unjoined.table : await request("POST", "/api/arlington/tables", settings);
    unjoined = { settings: key, table: t };
    await request("POST", `/api/arlington/tables/${encodeURIComponent(t.id)}/join`, { name });
    unjoined = null;
    location.href = t.link;
  } catch (e) {
    // Kept only for a refused name (docs/api.md); a table gone or full
    // meanwhile is not tried again.
    if (!(e.status === 409 && e.message.startsWith("display name taken"))) unjoined = null;
    $("msg").textContent = e.message;
  }
}

// A table's code (told by a friend) leads to its page.
async function byCode(ev) {
  ev.preventDefault();
  const code = $("code").value.trim();
  try {
    const t = await request("GET", `/api/arlington/code/${encodeURIComponent(code)}`);
    location.href = t.link;
  } catch (e) { $("msg").textContent = e.message; }
}

$("code-form").addEventListener("submit", byCode);
$("name").value = savedName();
$("name").addEventListener("change", () => saveName($("name").value.trim()));
$("players").addEventListener("change", seatRows);
$("create").addEventListener("submit", create);
seatRows();
refresh().then(seatRows);
board();
setInterval(refresh, 5000);
setInterval(board, 30000);
