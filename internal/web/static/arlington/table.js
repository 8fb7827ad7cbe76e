// The table page: the connection, the player's hand and actions. The
// server sends views made for this browser (docs/api.md, "Arlington
// tables"), with the events and legal actions already in words.
import { request } from "/shared/api.js";
import { installSprite, setSmallCards } from "/shared/cards.js";
import { savedName, saveName, el, points } from "./common.js";
import { cardEl, renderPlayers, renderPlay, renderLast, renderLog, renderSheet, winnersText, words } from "./render.js";
import { Replay } from "./replay.js";

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.split("/").pop());
const CARD = /^([2-9TJQKA][SHDC]|JK)$/i;
let ws = null;
let events = []; // the public event log, as received
let log = [];    // the words of each event
let last = null; // the last view message
let names = [];
let chat = [];
let selected = [];   // the selected hand cards' keys (handKeys), in the order tapped
let hinted = "";     // the action the last hint suggested, until the next view
let handOverSeen = null; // the number of the last score event the sheet opened for (null: no view yet)
// sentAt is the event count at which this page sent an action, -1 if none
// is waiting: until the server answers (a view past that count, or an
// error) the action buttons are disabled, so a double tap sends once.
let sentAt = -1;
// standIn holds the numbers of the events that are moves of this page's
// seat that this page did not send: the server's stand-in bot played them
// (the turn timer ran out, or the person was away), and the log says so.
// mineFrom is the event count at which this page last sent an action,
// until a move of its seat at or after it arrives (-1: none waiting); it
// outlives a dropped connection, so an action sent just before the drop
// is still known as the player's own. Only events that arrive while the
// page is open are judged: after a reload the page cannot tell.
const standIn = new Set();
let mineFrom = -1;
// turnSeconds is the table's turn timer (0: none), from its summary: on
// the player's turn the page says a bot will play it if they wait too long.
let turnSeconds = 0;
let retry = 500;
const replay = new Replay(id);

installSprite();
const narrow = window.matchMedia("(max-width: 600px)");
setSmallCards(narrow.matches);
narrow.addEventListener("change", () => { setSmallCards(narrow.matches); if (last) render(); });

$("record").href = `/api/arlington/tables/${encodeURIComponent(id)}/record`;

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
    if (m.type === "error") showError(m);
    else if (m.type === "view") onView(m);
  };
  ws.onclose = () => {
    sentAt = -1; // an action in flight is answered by the next view, or was lost
    $("conn").textContent = "reconnecting…";
    ws = null;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

// showError explains a refusal; an illegal action's message names the
// rule it breaks.
function showError(m) {
  if (sentAt >= 0) { sentAt = -1; mineFrom = -1; if (last) renderHand(); }
  let text = m.error || "refused";
  if (m.class === "illegal") {
    const reason = text.replace(/^.*illegal action: /, "").replace(/ \(rule "[^"]*"\)$/, "");
    text = `Not allowed: ${reason}` + (m.rule ? ` (rule “${m.rule}”)` : "");
  }
  $("error").textContent = text;
}

function onView(m) {
  if (m.view) {
    const v = m.view;
    // The log is the same for everyone and eventsFrom numbers it: a view
    // may repeat events this page has (a new hello crossed updates still
    // on their way, as after taking a seat), which it replaces; only a
    // gap means events were missed.
    if (v.eventsFrom <= events.length) {
      const had = events.length;
      events = events.slice(0, v.eventsFrom).concat(v.events);
      log = log.slice(0, v.eventsFrom).concat(m.log || []);
      if (had > 0 && m.seat >= 0) noteStandIn(had, m.seat);
    } else { // a gap: start again with a full view
      events = []; log = [];
      document.body.dataset.resyncs = String(+(document.body.dataset.resyncs || 0) + 1);
      if (ws) ws.close();
      return;
    }
    if (last && last.view && v.eventCount !== last.view.eventCount) { hinted = ""; $("error").textContent = ""; }
  }
  if (m.chat) chat = mergeChat(chat, m.chat);
  names = m.names && m.names.length ? m.names : m.seats.map((s) => `Seat ${s.seat + 1}`);
  last = m;
  render();
}

// noteStandIn judges the moves of seat among the events from number from
// on: the first at or after the action this page sent is the player's,
// any other the stand-in's.
function noteStandIn(from, seat) {
  for (const e of events.slice(from)) {
    if (e.kind !== "move" || e.seat !== seat) continue;
    if (mineFrom >= 0 && e.n >= mineFrom) mineFrom = -1;
    else standIn.add(e.n);
  }
}

// mergeChat adds the lines the page does not show yet: every new
// subscription (after taking a seat, or back after a drop) is sent the
// table's recent chat again. A line is its number and time (a server
// restart numbers its chat from 1 again).
function mergeChat(have, got) {
  const key = (l) => `${l.n}|${l.at}`;
  const seen = new Set(have.map(key));
  return have.concat(got.filter((l) => !seen.has(key(l)))).slice(-50);
}

function render() {
  const m = last;
  const v = m.view;
  $("join").hidden = !(m.seat < 0 && m.seats.some((s) => s.open));
  $("seated").hidden = !(m.seat >= 0 && !v); // before the start a seat can be given up
  renderPlayers($("players"), m, names);
  renderStatus(m);
  renderPlay($("play"), v, names);
  renderLast($("last"), v, events, names);
  renderHand();
  renderLog($("log"), v, events, log, standIn);
  renderSheet($("sheet"), v, names);
  renderHandOver(v);
  renderEnd(v);
  renderChat();
}

function renderStatus(m) {
  const v = m.view;
  const status = $("status");
  if (!v) {
    status.textContent = m.seats.some((s) => s.open) ? "Waiting for players: share this page's address." : "Starting…";
    return;
  }
  if (v.toMove < 0) { status.textContent = `Game over after ${v.handNumber} hand${v.handNumber > 1 ? "s" : ""}.`; return; }
  const who = v.toMove === m.seat ? "your turn" : `${names[v.toMove]} to play`;
  let what = "";
  if (v.phase === "lead") what = v.toMove === m.seat ? "you have the lead" : `${names[v.toMove]} has the lead`;
  else if (v.phase === "trick") what = "a trick";
  else if (v.phase === "round") what = "a set round";
  status.textContent = `Hand ${v.handNumber} · to ${v.target} ${points(v.target)} · ${what} · ${who}`;
}

// renderHandOver shows the score sheet after each hand, at the top of
// the page, until the player closes it: the next hand starts at once, so
// the sheet does not wait for anyone. It opens for a hand scored while
// the page is open, or on arrival before the next hand's first play.
function renderHandOver(v) {
  const box = $("hand-over");
  const scored = events.filter((e) => e.kind === "score").pop();
  if (!v) return;
  if (handOverSeen === null) { // arriving: only a hand just scored counts
    handOverSeen = !scored ? -1 : events[events.length - 1].kind === "deal" ? scored.n - 1 : scored.n;
  }
  if (v.toMove < 0 || !scored) { box.hidden = true; return; }
  if (scored.n > handOverSeen) {
    box.hidden = false;
    handOverSeen = scored.n;
    $("sheet-box").open = true;
  }
  if (box.hidden) return;
  const best = Math.max(...scored.scores);
  $("ho-title").textContent = `Hand ${scored.hand} is scored: ` + scored.scores.map((p, i) => `${names[i]} ${p}`).join(", ") +
    (best > 0 ? "." : "; no one scored.");
  renderSheet($("ho-sheet"), v, names);
}

function renderEnd(v) {
  const box = $("winners");
  const over = v && v.toMove < 0;
  box.hidden = !over;
  if (!over) return;
  box.replaceChildren(el("p", "win-text", winnersText(v, names)));
  const b = el("button", "primary", "Watch the replay");
  b.type = "button";
  b.id = "btn-replay";
  b.addEventListener("click", () => replay.open());
  box.appendChild(b);
  $("sheet-box").open = true;
}

// legalFor is the legal actions (with their words) that use every selected
// card; cardsIn the cards an action plays.
function cardsIn(a) { return a.split(" ").slice(1).filter((w) => CARD.test(w)).map((w) => w.toUpperCase()); }
function legalFor(m, sel) {
  const out = [];
  m.legal.forEach((a, i) => {
    const cs = cardsIn(a);
    if (within(sel, cs)) out.push({ a, words: (m.legalWords || [])[i] || a, cards: cs, exact: cs.length === sel.length });
  });
  return out;
}

// within reports whether every card of sel is in cs, counting repeats:
// two jokers need two.
function within(sel, cs) {
  const left = cs.slice();
  for (const c of sel) {
    const i = left.indexOf(c);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

// A hand card's key: its code, or for a joker "JK#k" (the k-th joker in
// the hand): the two jokers are alike but each is tapped on its own.
function handKeys(hand) {
  let k = 0;
  return hand.map((c) => (c === "JK" ? `JK#${k++}` : c));
}
const cardOf = (key) => key.split("#")[0];
const selCards = () => selected.map(cardOf);

function renderHand() {
  const m = last;
  const v = m.view;
  const hand = $("hand");
  hand.replaceChildren();
  const acts = $("actions");
  acts.replaceChildren();
  $("hand-box").classList.toggle("empty", !v || m.seat < 0 || (!v.hand.length && v.toMove !== m.seat));
  if (!v || m.seat < 0) { $("preview").textContent = ""; return; }
  const keys = handKeys(v.hand);
  selected = selected.filter((k) => keys.includes(k));
  const myTurn = v.toMove === m.seat && m.legal.length > 0;
  const waiting = sentAt === v.eventCount;
  // Highlighted: the cards that, with those selected, some legal action uses.
  const usable = new Set();
  for (const x of legalFor(m, selCards())) for (const c of x.cards) usable.add(c);
  const hintCards = hinted ? cardsIn(hinted) : [];
  v.hand.forEach((c, i) => {
    const key = keys[i];
    const b = el("button", "hand-card");
    b.type = "button";
    b.dataset.card = c;
    b.setAttribute("aria-pressed", selected.includes(key) ? "true" : "false");
    b.setAttribute("aria-label", words(c));
    const svg = cardEl(c);
    svg.setAttribute("aria-hidden", "true");
    if (myTurn && usable.has(c)) { b.classList.add("legal"); svg.classList.add("legal"); }
    if (selected.includes(key)) b.classList.add("selected");
    if (hintCards.includes(c)) { b.classList.add("hinted"); svg.classList.add("hinted"); }
    b.appendChild(svg);
    b.addEventListener("click", () => toggle(key));
    hand.appendChild(b);
  });
  if (!myTurn) {
    acts.appendChild(el("span", "small", v.toMove < 0 ? "" : `Waiting for ${names[v.toMove]}…`));
    return;
  }
  if (turnSeconds > 0) {
    const t = turnSeconds < 60 ? `${turnSeconds} s` : turnSeconds % 60 ? `${Math.floor(turnSeconds / 60)} min ${turnSeconds % 60} s` : `${turnSeconds / 60} min`;
    acts.appendChild(el("p", "small turn-timer", `Turn timer: if others are waiting, after ${t} a bot plays this turn for you.`));
  }
  const h = el("button", "hint-button", "Hint");
  h.type = "button";
  h.title = "What the hard bot would play from your seat";
  h.addEventListener("click", hint);
  acts.appendChild(h);
  if (selected.length) {
    const clear = el("button", "", "Clear selection");
    clear.type = "button";
    clear.addEventListener("click", () => { selected = []; renderHand(); preview(); });
    acts.appendChild(clear);
  }
  // Every legal action is a button, in words; a selection narrows them
  // to those that play the selected cards, the exact ones first.
  const all = legalFor(m, selCards());
  const shown = selected.length ? all.filter((x) => x.exact).concat(all.filter((x) => !x.exact)) : all;
  for (const x of shown) {
    const b = el("button", "act" + (selected.length && x.exact ? " match" : ""), x.words);
    b.type = "button";
    b.dataset.action = x.a;
    if (x.a === hinted) b.classList.add("hinted");
    b.disabled = waiting;
    b.addEventListener("click", () => act(x.a));
    acts.appendChild(b);
  }
  // A selection no legal action plays as it is may still be tried: the
  // server refuses it and names the rule.
  if (selected.length && !all.some((x) => x.exact)) {
    const t = el("button", "try", `Play ${selCards().map(words).join(" ")}`);
    t.type = "button";
    t.id = "btn-try";
    t.dataset.action = tryAction(v, selCards());
    t.disabled = waiting;
    t.addEventListener("click", () => act(t.dataset.action));
    acts.appendChild(t);
  }
}

// tryAction is what a player means by playing the selected cards now:
// one card led, else a set. (One card to a trick is always offered, so
// only several come here; sending them as a set has the server refuse it
// with the rule, where sending the first card alone would play it.)
function tryAction(v, sel) {
  if (v.phase === "lead" && sel.length === 1) return `lead ${sel[0]}`;
  return `set ${sel.join(" ")}`;
}

function toggle(c) {
  const i = selected.indexOf(c);
  if (i >= 0) selected.splice(i, 1); else selected.push(c);
  $("error").textContent = "";
  renderHand();
  preview();
}

let previewSeq = 0;
async function preview() {
  const box = $("preview");
  const seq = ++previewSeq;
  if (!selected.length) { box.textContent = ""; box.className = "preview"; return; }
  try {
    const p = await request("POST", "/api/arlington/preview", { cards: selCards() });
    if (seq !== previewSeq) return; // a later selection's answer wins
    if (p.legal) {
      box.className = "preview ok";
      box.textContent = `As a set: ${p.as.map((x) => `${x.words}, ${x.points} ${points(x.points)}`).join(" · or ")}` +
        (p.as.length > 1 ? ". It fits more than one spectrum: choose which when you lead it." : ".");
    } else {
      box.className = "preview bad";
      box.textContent = p.why;
    }
  } catch (e) { if (seq === previewSeq) box.textContent = e.message; }
}

async function hint() {
  $("error").textContent = "";
  try {
    const h = await request("GET", `/api/arlington/tables/${encodeURIComponent(id)}/hint`);
    hinted = h.action;
    selected = [];
    renderHand();
    $("preview").className = "preview";
    $("preview").textContent = `Hint (${h.bot} bot): ${h.words || h.action}`;
  } catch (e) { $("error").textContent = e.message; }
}

function act(a) {
  $("error").textContent = "";
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({ type: "action", action: a }));
    sentAt = mineFrom = last.view.eventCount;
    selected = [];
    $("preview").textContent = "";
    renderHand();
  } else $("error").textContent = "Not connected: reconnecting, try again in a moment.";
}

function renderChat() {
  const box = $("chat");
  box.replaceChildren();
  for (const l of chat) {
    const li = el("li");
    li.appendChild(el("b", "", `${l.name}: `));
    li.appendChild(document.createTextNode(l.text));
    box.appendChild(li);
  }
  box.scrollTop = box.scrollHeight;
}

$("chat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const t = $("chat-text").value.trim();
  if (t && ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify({ type: "chat", text: t })); $("chat-text").value = ""; }
});
// Leaving before the start opens the seat for someone else; the table's
// next view shows this page as a spectator again, with the join form.
$("leave").addEventListener("click", async () => {
  try { await request("POST", `/api/arlington/tables/${encodeURIComponent(id)}/leave`); } catch (e) { $("error").textContent = e.message; }
});
$("ho-close").addEventListener("click", () => { $("hand-over").hidden = true; });
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
request("GET", `/api/arlington/tables/${encodeURIComponent(id)}`).then((t) => {
  turnSeconds = Math.max(0, t.turnSeconds || 0);
  if (last) renderHand();
}).catch(() => { /* the page plays on without the timer's note */ });
