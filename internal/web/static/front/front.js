// The front page: both games with a picture and a line each, and the
// player's open games and tables: the Spider game in progress (the one
// the Spider page would open), the named saves, and the Arlington tables
// where the player holds a seat or that have a seat open.

import { api, request } from "/shared/api.js";
import { installSprite, cardSVG } from "/shared/cards.js";
import { GAME_KEY, plural, variantLabel } from "/spider/state.js";
import { storedLooks } from "/spider/settings.js";

const $ = (id) => document.getElementById(id);
// The lists show this many entries each; the games' own pages have the rest.
const SHOWN = 6;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// CARD_H is a picture card's height in pixels (front.css .pcard);
// INDEX_PART the part of it a big-index face's index takes, a Q's tail
// included (cards.js smallFaceSVG; the Spider page's least step for
// those faces, render.js minStep).
const CARD_H = 78, INDEX_PART = 0.37;

// place puts card code ("" the back) in the picture box at x, y (pixels of
// a 200-wide box), turned by deg.
function place(box, code, x, y, deg = 0) {
  const svg = cardSVG(code, { big: true });
  svg.classList.add("pcard");
  svg.style.left = `${x}px`;
  svg.style.top = `${y}px`;
  if (deg) svg.style.transform = `rotate(${deg}deg)`;
  box.appendChild(svg);
}

function pictures() {
  // The Spider page's chosen card back and table colour, as kept in this browser.
  storedLooks();
  installSprite();
  // Spider: three columns of a tableau, face-down cards under runs.
  const sp = $("pic-spider");
  const cols = [["", "KS", "QS", "JS"], ["", "", "TH", "9H"], ["", "", "7S", "6S", "5S"]];
  // A face-down card shows a thin strip, a face-up one its whole index,
  // as on the Spider page: less cut the queen's tail off, and her Q read
  // as an O.
  const up = Math.ceil(INDEX_PART * CARD_H);
  cols.forEach((col, i) => {
    let y = 4;
    for (const c of col) { place(sp, c, 14 + i * 62, y); y += c ? up : 12; }
  });
  // Arlington: a hand of cards held in a fan.
  const arl = $("pic-arlington");
  ["7H", "7C", "7S", "JK", "QD"].forEach((c, i) => place(arl, c, 30 + i * 26, 22 + Math.abs(i - 2) * 5, (i - 2) * 10));
}

function storedGame() {
  try { return sessionStorage.getItem(GAME_KEY) || localStorage.getItem(GAME_KEY); } catch { return null; }
}

function gameWords(v) {
  return `${variantLabel(v)} · ${v.deal ? "#" + v.deal : "custom deal"}`;
}

function done(list) {
  if (!list.children.length) list.appendChild(el("li", "none", "none"));
  list.setAttribute("aria-busy", "false");
}

// spiderGames lists the game in progress and the named saves.
async function spiderGames() {
  const list = $("spider-games");
  const id = storedGame();
  let current = null;
  if (id) {
    try {
      const r = await api.game(id);
      if (!r.view.won && !r.view.stuck && !r.gaveUp) current = r;
    } catch { /* gone: nothing in progress */ }
  }
  if (current) {
    const li = el("li", "item current");
    const a = el("a", "go", `Continue ${gameWords(current.view)}`);
    a.href = "/spider/";
    li.append(a, el("span", "sub", `in progress · ${plural(current.view.moves, "move")} · score ${current.view.score}`));
    list.appendChild(li);
  }
  let saves = [];
  try { saves = (await api.saves()).saves || []; } catch (e) { $("msg").textContent = `Saved games: ${e.message}`; }
  for (const s of saves.slice(0, SHOWN)) {
    const li = el("li", "item save");
    if (s.damaged) {
      li.append(el("span", "", `“${s.name}”`),
        el("span", "sub", "damaged on the server: delete it in the Spider page's Saved games list"));
      list.appendChild(li);
      continue;
    }
    const b = el("button", "go", `Open “${s.name}”`);
    b.type = "button";
    b.addEventListener("click", () => openSave(s.name, b));
    const sub = `saved · ${gameWords(s)} · ${plural(s.moves ?? 0, "move")}` + (s.gaveUp ? " · given up" : "");
    li.append(b, el("span", "sub", sub));
    list.appendChild(li);
  }
  if (saves.length > SHOWN) {
    list.appendChild(el("li", "more", `and ${saves.length - SHOWN} more in the Spider page's Saved games list`));
  }
  if (!current && !saves.length) {
    const li = el("li", "none");
    const a = el("a", "", "start a game");
    a.href = "/spider/";
    li.append("No game in progress: ", a);
    list.appendChild(li);
  }
  done(list);
}

// openSave opens a named save as a new game (leaving the one in progress,
// as the Spider page's list does) and goes to the Spider page to play it.
async function openSave(name, button) {
  button.disabled = true;
  try {
    const r = await api.openSave(name, storedGame());
    try { sessionStorage.setItem(GAME_KEY, r.id); localStorage.setItem(GAME_KEY, r.id); } catch { /* private mode */ }
    location.href = "/spider/";
  } catch (e) {
    $("msg").textContent = `Could not open “${name}”: ${e.message}`;
    button.disabled = false;
  }
}

function seatWords(t) {
  return t.seats.map((s) => (s.bot ? `bot ${s.bot}` : s.open ? "open" : s.name)).join(", ");
}

function tableItem(t) {
  const li = el("li", "item table");
  const a = el("a", "go", `${t.yours ? "Your table" : "Open table"}: ${t.players} seats`);
  a.href = `/arlington/t/${encodeURIComponent(t.id)}`;
  let sub = seatWords(t);
  if (t.status === "over") sub += " · game over";
  else if (t.started) sub += ` · hand ${t.hand} · scores ${t.totals.join("-")}`;
  else sub += ` · ${t.openSeats} open`;
  li.append(a, el("span", "sub", sub));
  return li;
}

// arlingtonTables lists the tables where the player sits, then those
// with a seat open.
async function arlingtonTables() {
  const list = $("arl-tables");
  try {
    const l = await request("GET", "/api/arlington/tables");
    const mine = l.tables.filter((t) => t.yours);
    const open = l.tables.filter((t) => !t.yours && t.openSeats > 0 && t.status !== "over");
    const shown = [...mine, ...open];
    for (const t of shown.slice(0, SHOWN)) list.appendChild(tableItem(t));
    if (shown.length > SHOWN) list.appendChild(el("li", "more", `and ${shown.length - SHOWN} more in the lobby`));
    if (!shown.length) {
      const li = el("li", "none");
      const a = el("a", "", "open the lobby");
      a.href = "/arlington/";
      li.append("No table yet: ", a, " to start one with people or bots.");
      list.appendChild(li);
    }
  } catch (e) { $("msg").textContent = `Arlington tables: ${e.message}`; }
  done(list);
}

pictures();
Promise.all([spiderGames(), arlingtonTables()]).finally(() => { document.body.dataset.ready = "1"; });
