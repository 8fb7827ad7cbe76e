import { request, savedName, saveName, el } from "./common.js";

const $ = (id) => document.getElementById(id);
let levels = ["random", "greedy", "easy", "medium", "hard", "expert"];
let defaultLevel = "medium";

function seatRows() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const lab = el("label", "", `Seat ${i + 1} `);
    const sel = el("select");
    sel.dataset.seat = i;
    sel.appendChild(new Option("a person", ""));
    for (const l of levels) sel.appendChild(new Option(`bot: ${l}`, l));
    sel.value = old[i] ?? (i < 2 ? "" : defaultLevel);
    lab.appendChild(sel);
    box.appendChild(lab);
  }
}

function describe(t) {
  const seats = t.seats.map((s) => (s.bot ? `bot ${s.bot}` : s.open ? "open" : s.name)).join(", ");
  return `${t.players} seats (${seats}) · to ${t.target}` + (t.started ? ` · hand ${t.hand} · ${t.totals.join("-")}` : "");
}

async function refresh() {
  try {
    const l = await request("GET", "/api/arlington/tables");
    levels = l.levels; defaultLevel = l.default_level;
    const open = $("open-tables"), play = $("play-tables");
    open.replaceChildren(); play.replaceChildren();
    for (const t of l.tables) {
      const li = el("li");
      const a = el("a", "", describe(t));
      a.href = `/arlington/t/${t.id}`;
      li.appendChild(a);
      (t.open_seats > 0 ? open : play).appendChild(li);
    }
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
      players: bots.length, bots, target: Number($("target").value) || 0, turn_seconds: Number($("timer").value) || 0,
    });
    await request("POST", `/api/arlington/tables/${t.id}/join`, { name });
    location.href = t.link;
  } catch (e) { $("msg").textContent = e.message; }
}

$("name").value = savedName();
$("name").addEventListener("change", () => saveName($("name").value.trim()));
$("players").addEventListener("change", seatRows);
$("create").addEventListener("submit", create);
seatRows();
refresh().then(seatRows);
setInterval(refresh, 5000);
