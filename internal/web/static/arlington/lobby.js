import { request } from "/shared/api.js";
import { savedName, saveName, el, points } from "./common.js";
import "/shared/keys.js"; // no form sent by the Enter that ends a composition

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
  timerDefault();
}

// timerDefault names in the turn timer's first choice what "default"
// gives the table as it is set now, as the server decides it (a timer
// with a bot at the table or when rated, none otherwise): the whole rule
// in the choice ran past its box on a phone, and is said under it.
function timerDefault() {
  const list = $("timer"), o = list.options[0], rated = $("rated").checked;
  const timed = rated || [...$("seats").querySelectorAll("select")].some((s) => s.value !== "");
  o.text = `default (${timed ? o.dataset.on : "off"})`;
  // A rated table needs a timer (the server refuses one without): "off"
  // is not offered while Rated is ticked.
  const off = list.querySelector('option[value="-1"]');
  off.disabled = rated;
  if (rated && list.value === "-1") list.value = "0";
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
  // People, not connections: the seated who are here (a seat's present),
  // and those watching without a seat, each once however many windows.
  const here = t.seats.filter((s) => s.present).length;
  if (here) sub += ` · ${here} ${here === 1 ? "player" : "players"} here`;
  if (t.spectators) sub += ` · ${t.spectators} watching`;
  a.appendChild(el("span", "t-sub", sub));
  li.appendChild(a);
  return li;
}

// A refresh on its way is waited for (on a slow connection a reply could
// come after a later one's and put older lists, or an older failure, back
// on the page), unless it has stalled for STALL_MS (a connection left half
// open by a laptop's sleep would stop the lists for good): then another
// goes, and a reply older than one shown is dropped.
let asked = 0, shownReply = 0, onWayAt = 0;
const STALL_MS = 15000;

async function refresh() {
  if (onWayAt && Date.now() - onWayAt < STALL_MS) return;
  const n = ++asked;
  onWayAt = Date.now();
  try {
    const l = await request("GET", "/api/arlington/tables");
    if (n < shownReply) return;
    shownReply = n;
    levels = l.levels; defaultLevel = l.defaultLevel;
    const open = $("open-tables"), play = $("play-tables"), over = $("over-tables");
    for (const list of [open, play, over]) list.replaceChildren();
    // A finished game is no table in play: it has its own list (its
    // table stays open for the result and the replay until it closes).
    for (const t of l.tables) (t.status === "over" ? over : t.openSeats > 0 ? open : play).appendChild(tableItem(t));
    for (const list of [open, play, over]) if (!list.children.length) list.appendChild(el("li", "none", "none"));
    say($("lists-msg"), "");
  } catch (e) {
    if (n < shownReply) return;
    shownReply = n;
    say($("lists-msg"), `The lists could not be updated (${e.message}); they are tried again every few seconds.`);
  } finally {
    if (n === asked) onWayAt = 0;
  }
}

// say sets m's words only when they change: the lists' message is a
// status, which a screen reader reads again at each change, and the
// refresh that fails keeps failing every few seconds.
function say(m, text) {
  if (m.textContent !== text) m.textContent = text;
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
  } catch { /* kept as it was: tried again in 30 s */ }
}

// unjoined is the table made for a join the server then refused (a name
// someone else has): the next try with the same settings joins it rather
// than making another, each of which would count against the creator's
// tables until it closed idle.
let unjoined = null; // {settings (JSON), table}

// tell shows a refusal of Create and sit by the button, where the person
// just pressed (role alert: it is said at once). A button pressed at the
// window's foot leaves the words below it out of sight: the page then
// moves up just enough to show them, the button still in sight above.
function tell(text) {
  const m = $("msg");
  m.textContent = text;
  m.scrollIntoView({ block: "nearest" });
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// refusal is the server's reason with what to do about it. A limit of
// tables (429) is lifted by a table ending, not by pressing again at
// once: the person's own tables when they count against it (theirs, from
// their address, the places kept for people with none), else anyone's.
function refusal(e) {
  const text = capital(e.message).replace(/([^.!?])$/, "$1.");
  if (e.status !== 429) return text;
  if (/you have \d+ tables|from your address|no table open/.test(e.message)) {
    return `${text} Sit at one of your tables (“your seat” in the lists below) or finish one, then make another.`;
  }
  if (/^too many tables/.test(e.message)) return `${text} Join a table with open seats below, or try again when a table has ended.`;
  return `${text} Wait a moment, then press Create and sit again.`;
}

async function create(ev) {
  ev.preventDefault();
  $("msg").textContent = "";
  const name = $("name").value.trim();
  if (!name) {
    // Said by the button, where the person looks; the field at the
    // page's top takes the focus without scrolling the page away from it.
    tell("Pick a display name first: type it in Display name at the top of the page, then press Create and sit.");
    $("name").focus({ preventScroll: true });
    return;
  }
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
    tell(refusal(e));
  }
}

// A table's code (told by a friend) leads to its page.
async function byCode(ev) {
  ev.preventDefault();
  const code = $("code").value.trim();
  try {
    const t = await request("GET", `/api/arlington/code/${encodeURIComponent(code)}`);
    location.href = t.link;
  } catch (e) { $("code-msg").textContent = capital(e.message); }
}

$("code-form").addEventListener("submit", byCode);
$("name").value = savedName();
$("name").addEventListener("change", () => saveName($("name").value.trim()));
$("players").addEventListener("change", seatRows);
$("seats").addEventListener("change", timerDefault);
$("rated").addEventListener("change", timerDefault);
$("create").addEventListener("submit", create);
seatRows();
refresh().then(seatRows);
board();
setInterval(refresh, 5000);
setInterval(board, 30000);
