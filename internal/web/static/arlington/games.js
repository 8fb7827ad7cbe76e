// Your games: the player's finished games (GET /api/arlington/games),
// latest first, each with its scores, its replay (the same replay as the
// table page's) and its record.
import { request } from "/shared/api.js";
import { installSprite } from "/shared/cards.js";
import { el } from "./common.js";
import { Replay } from "./replay.js";

const $ = (id) => document.getElementById(id);
installSprite();
const replay = new Replay("");

// show opens game id's replay from its start; opener is the game's
// Replay button, where Close puts the focus back.
function show(id, opener) {
  Object.assign(replay, { id, steps: [], total: 0, at: 0 });
  replay.open(opener);
}

function item(g) {
  const li = el("li", "game");
  const when = new Date(g.ended).toLocaleString();
  const won = g.winners.includes(g.seat);
  const who = g.winners.map((w) => g.names[w]).join(" and ");
  li.append(el("div", "g-head", `${won ? "You won" : `${who} won`} · to ${g.target} · ${when}`));
  li.append(el("div", "t-sub g-scores", g.names.map((n, i) => `${n}${i === g.seat ? " (you)" : ""} ${g.totals[i]}`).join(" · ")));
  const row = el("div", "row");
  const b = el("button", "", "Replay");
  b.type = "button";
  b.dataset.id = g.id;
  b.addEventListener("click", () => show(g.id, b));
  const rec = el("a", "g-record", "Record");
  rec.href = `/api/arlington/tables/${encodeURIComponent(g.id)}/record`;
  row.append(b, rec);
  li.append(row);
  return li;
}

request("GET", "/api/arlington/games").then((r) => {
  const list = $("games");
  if (!r.games.length) list.replaceChildren(el("li", "none", "No finished game yet: play one from the lobby."));
  else list.replaceChildren(...r.games.map(item));
}).catch((e) => { $("msg").textContent = e.message; });
