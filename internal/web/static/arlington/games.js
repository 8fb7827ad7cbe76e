// Your games: the player's finished games (GET /api/arlington/games),
// latest first, each with its scores, its replay (the same replay as the
// table page's) and its record.
import { request } from "/shared/api.js";
import { installSprite } from "/shared/cards.js";
import { el } from "./common.js";
import { dateTime } from "/shared/dates.js";
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
  const when = dateTime(g.ended);
  const won = g.winners.includes(g.seat);
  // Each name in a <bdi>: a right-to-left name must not take the score
  // after it to its left ("אבי 12" drawn "12 אבי").
  const head = el("div", "g-head");
  if (won) head.append("You won");
  else g.winners.forEach((w, i) => head.append(i ? " and " : "", el("bdi", "", g.names[w])));
  head.append(`${won ? "" : " won"} · to ${g.target} · ${when}`);
  const scores = el("div", "t-sub g-scores");
  g.names.forEach((n, i) => scores.append(i ? " · " : "", el("bdi", "", n), `${i === g.seat ? " (you)" : ""} ${g.totals[i]}`));
  li.append(head, scores);
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
