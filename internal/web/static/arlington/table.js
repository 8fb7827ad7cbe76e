import { request, savedName, saveName, el } from "./common.js";
import { cardEl } from "./card.js";

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.split("/").pop());
let ws = null;
let events = []; // the public event log, as received
let last = null; // the last view message
let chat = [];
let selected = new Set();
let retry = 500;

$("record").href = `/api/arlington/tables/${encodeURIComponent(id)}/record`;

function nameOf(seat) {
  if (!last) return `seat ${seat + 1}`;
  const s = last.seats[seat] || {};
  return s.name || (s.bot ? `bot ${s.bot} (${seat + 1})` : `seat ${seat + 1}`);
}

function cardsOf(set) { return Array.isArray(set) ? set : typeof set === "string" ? set.split(/[ ,{}]+/).filter(Boolean) : []; }

// describe puts one event in words.
function describe(e) {
  switch (e.kind) {
    case "deal": return `Hand ${e.hand}: ${nameOf(e.seat)} deals.`;
    case "move": {
      let s = `${nameOf(e.seat)}: ${e.action}`;
      if (e.to_hand) s += ` (takes ${cardsOf(e.to_hand).join(" ")} into hand)`;
      if (e.to_grave) s += ` (${cardsOf(e.to_grave).join(" ")} to the graveyard)`;
      return s;
    }
    case "take": return `${nameOf(e.seat)} takes the trick` + (e.to_hand ? `: ${cardsOf(e.to_hand).join(" ")} into hand` : "") + ".";
    case "score": return `Hand scored: ${(e.scores || []).join(", ")}.`;
  }
  return JSON.stringify(e);
}

function connect() {
  $("conn").textContent = "connecting…";
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/api/arlington/tables/${encodeURIComponent(id)}/ws`);
  ws.onopen = () => {
    retry = 500;
    $("conn").textContent = "connected";
    ws.send(JSON.stringify({ type: "hello", since: events.length ? events.length : -1, name: savedName() || undefined }));
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    if (m.type === "error") { $("error").textContent = m.error + (m.rule ? ` (rule: ${m.rule})` : ""); return; }
    if (m.type === "view") onView(m);
  };
  ws.onclose = () => {
    $("conn").textContent = "reconnecting…";
    ws = null;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function onView(m) {
  if (m.view) {
    const v = m.view;
    if (v.events_from === 0) events = v.events.slice();
    else if (v.events_from === events.length) events = events.concat(v.events);
    else { events = []; if (ws) ws.close(); } // a gap: start again with a full view
  }
  if (m.chat) chat = chat.concat(m.chat).slice(-50);
  if (m.view && last && last.view && m.view.event_count !== last.view.event_count) hinted = "";
  last = m;
  render();
}

function render() {
  const m = last;
  $("join").hidden = !(m.seat < 0 && m.seats.some((s) => s.open));
  const v = m.view;
  const players = $("players");
  players.replaceChildren();
  for (const s of m.seats) {
    const box = el("div", "player");
    if (v && v.to_move === s.seat) box.classList.add("to-move");
    if (s.seat === m.seat) box.classList.add("me");
    const flags = [s.open ? "open" : "", s.away ? "away (a bot plays)" : "", v && v.lead === s.seat ? "has the lead" : ""].filter(Boolean).join(", ");
    box.appendChild(el("h3", "", `${nameOf(s.seat)}${s.seat === m.seat ? " (you)" : ""}`));
    if (v) {
      box.appendChild(el("div", "", `cards ${v.hand_sizes[s.seat]} · score ${v.totals[s.seat]}/${v.target}${flags ? " · " + flags : ""}`));
      const sets = el("div", "sets");
      (v.tables[s.seat] || []).forEach((ts, i) => {
        const g = el("div", "set" + (ts.active ? " active" : ""));
        g.title = `set ${s.seat}/${i}: ${ts.spectra.join(", ")}, ${ts.points} points`;
        for (const c of ts.cards) g.appendChild(cardEl(c));
        sets.appendChild(g);
      });
      box.appendChild(sets);
    } else box.appendChild(el("div", "", flags || (s.bot ? "bot" : "waiting")));
    players.appendChild(box);
  }
  const status = $("status");
  if (!v) { status.textContent = m.seats.some((s) => s.open) ? "Waiting for players: share this page's address." : "Starting…"; }
  else if (v.to_move < 0) {
    const w = (v.winners || []).map(nameOf).join(" and ");
    status.textContent = `Game over. Winner${(v.winners || []).length > 1 ? "s" : ""}: ${w}. Final scores ${v.totals.join(", ")}.`;
  } else {
    status.textContent = `Hand ${v.hand_number} · ${v.phase} · ${v.to_move === m.seat ? "your turn" : nameOf(v.to_move) + " to play"}`;
  }
  renderPlay(v);
  renderHand(m);
  renderLog(v);
  renderChat();
}

function renderPlay(v) {
  const play = $("play");
  play.replaceChildren();
  if (!v) return;
  if (v.trick && v.trick.length) {
    play.appendChild(el("span", "", "Trick:"));
    for (const t of v.trick) { const c = cardEl(t.card); c.setAttribute("aria-label", `${t.card} by ${nameOf(t.seat)}`); play.appendChild(c); }
  } else if (v.round) {
    play.appendChild(el("span", "", `Set round (${v.round.spectrum}), led by ${nameOf(v.round.leader)}; active set: ${nameOf(v.round.owner)}'s.`));
  }
  // The last trick stays shown until the next play.
  const lastBox = $("last");
  lastBox.replaceChildren();
  const take = [...events].reverse().find((e) => e.kind === "take" || e.kind === "move");
  if (take && take.kind === "take" && !(v.trick && v.trick.length)) {
    lastBox.appendChild(el("span", "", `${nameOf(take.seat)} took the last trick` + (take.to_hand ? "; into hand:" : ".")));
    for (const c of cardsOf(take.to_hand)) lastBox.appendChild(cardEl(c));
  }
}

function legalCards(m) {
  const out = new Set();
  for (const a of m.legal) for (const w of a.split(" ").slice(1)) if (/^([2-9TJQKA][SHDC]|JK)$/i.test(w)) out.add(w.toUpperCase());
  return out;
}

function renderHand(m) {
  const hand = $("hand");
  hand.replaceChildren();
  const v = m.view;
  if (!v || m.seat < 0) { $("actions").replaceChildren(); $("preview").textContent = ""; return; }
  const legal = legalCards(m);
  for (const c of v.hand) {
    const e = cardEl(c);
    if (legal.has(c)) e.classList.add("legal");
    if (selected.has(c)) e.classList.add("selected");
    e.setAttribute("tabindex", "0");
    e.addEventListener("click", () => { selected.has(c) ? selected.delete(c) : selected.add(c); renderHand(last); preview(); });
    hand.appendChild(e);
  }
  for (const c of [...selected]) if (!v.hand.includes(c)) selected.delete(c);
  const acts = $("actions");
  acts.replaceChildren();
  if (v.to_move === m.seat && m.legal.length) {
    const h = el("button", "hint-button", "Hint");
    h.type = "button";
    h.title = "What the hard bot would play from your seat";
    h.addEventListener("click", hint);
    acts.appendChild(h);
  }
  const sel = [...selected];
  for (const a of m.legal) {
    const words = a.split(" ");
    const cards = words.filter((w) => /^([2-9TJQKA][SHDC]|JK)$/i.test(w)).map((w) => w.toUpperCase());
    // With cards selected, offer the actions that use exactly those.
    if (sel.length && !(cards.length >= sel.length && sel.every((c) => cards.includes(c)))) continue;
    const b = el("button", sel.length ? "match" : "", a);
    b.type = "button";
    b.dataset.action = a;
    if (a === hinted) b.classList.add("hinted");
    b.addEventListener("click", () => act(a));
    acts.appendChild(b);
  }
}

// hinted is the action the last hint suggested, marked among the buttons
// until the next view.
let hinted = "";

async function hint() {
  $("error").textContent = "";
  try {
    const h = await request("GET", `/api/arlington/tables/${encodeURIComponent(id)}/hint`);
    hinted = h.action;
    selected.clear();
    renderHand(last);
    $("preview").textContent = `Hint (${h.bot} bot): ${h.action}`;
  } catch (e) { $("error").textContent = e.message; }
}

async function preview() {
  const box = $("preview");
  if (!selected.size) { box.textContent = ""; return; }
  try {
    const p = await request("POST", "/api/arlington/preview", { cards: [...selected] });
    box.textContent = p.legal ? `As a set: ${p.spectra.join(" or ")}, ${p.points} points.` : "Not a legal set.";
  } catch (e) { box.textContent = e.message; }
}

function act(a) {
  $("error").textContent = "";
  if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify({ type: "action", action: a })); selected.clear(); }
  else $("error").textContent = "Not connected: reconnecting, try again in a moment.";
}

function renderLog(v) {
  const log = $("log");
  log.replaceChildren();
  const hand = v ? v.hand_number : 0;
  for (const e of events) if (e.hand === hand) log.appendChild(el("li", "", describe(e)));
  log.scrollTop = log.scrollHeight;
  const sheet = $("sheet");
  sheet.replaceChildren();
  if (!v) return;
  const head = el("tr");
  head.appendChild(el("th", "", "Hand"));
  for (let s = 0; s < v.players; s++) head.appendChild(el("th", "", nameOf(s)));
  sheet.appendChild(head);
  for (const r of v.results || []) {
    const tr = el("tr");
    tr.appendChild(el("td", "", String(r.hand)));
    for (const x of r.scores) tr.appendChild(el("td", "", String(x)));
    sheet.appendChild(tr);
  }
  const tot = el("tr");
  tot.appendChild(el("th", "", "Total"));
  for (const x of v.totals) tot.appendChild(el("th", "", String(x)));
  sheet.appendChild(tot);
}

function renderChat() {
  const box = $("chat");
  box.replaceChildren();
  for (const l of chat) box.appendChild(el("li", "", `${l.name}: ${l.text}`));
  box.scrollTop = box.scrollHeight;
}

$("chat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const t = $("chat-text").value.trim();
  if (t && ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify({ type: "chat", text: t })); $("chat-text").value = ""; }
});
$("name").value = savedName();
$("join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = $("name").value.trim();
  saveName(name);
  try {
    await request("POST", `/api/arlington/tables/${encodeURIComponent(id)}/join`, { name });
    // A new hello resubscribes: the seat's view comes on the same connection.
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "hello", since: events.length ? events.length : -1 }));
  } catch (e) { $("error").textContent = e.message; }
});
connect();
