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

function seatWords(t) {
  return t.seats.map((s) => (s.bot ? `bot ${s.bot}` : s.open ? "open" : s.name)).join(", ");
}

function tableItem(t) {
  const li = el("li");
  const a = el("a", "table-link");
  a.href = `/arlington/t/${t.id}`;
  a.appendChild(el("span", "t-main", `${t.players} seats: ${seatWords(t)}`));
  let sub = `to ${t.target} ${points(t.target)}`;
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

async function create(ev) {
  ev.preventDefault();
  const name = $("name").value.trim();
  if (!name) { $("msg").textContent = "Pick a display name first."; $("name").focus(); return; }
  saveName(name);
  const bots = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  try {
    const t = await request("POST", "/api/arlington/tables", {
      players: bots.length, bots, target: Number($("target").value) || 0, turnSeconds: Number($("timer").value) || 0,
    });
    await request("POST", `/api/arlington/tables/${encodeURIComponent(t.id)}/join`, { name });
    location.href = t.link;
  } catch (e) { $("msg").textContent = e.message; }
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
setInterval(refresh, 5000);
