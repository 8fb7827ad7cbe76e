// The table page's connection: one WebSocket to the table, opened again
// after a drop, and the states in which the page stops playing (the seat
// taken over by another window, the table gone, the person left).
import { savedName, el, say } from "./common.js";
import { answered, netBack, installWake } from "./wake.js";
export { actionSent } from "./wake.js";

const $ = (id) => document.getElementById(id);

// setConn shows the connection's state in the bar (#conn, no live
// region: #say is the page's one) and says it when it changed, but for
// "connecting…", which each attempt shows for a moment: a page retrying
// says "reconnecting…" once, not with every attempt.
let connSaid = "";
function setConn(...parts) {
  $("conn").replaceChildren(...parts);
  const text = parts.filter((x) => typeof x === "string").join("").trim(); // its words; its button or link is read where it is
  if (text === "connecting…" || text === connSaid) return;
  connSaid = text;
  say(text);
}

// The connection. A dropped one is tried again soon (at most about 2 s
// apart, with jitter so a restarted server is not hit by every page at
// once) and at once when the page is shown again or the network returns.
const RETRY_MAX = 2000;
const ASK_MS = 3000; // the wait for the table's address
// OPEN_MS bounds a socket's opening: a proxy or a server that takes the
// connection and never answers it (overloaded, half gone) left the page
// saying "connecting…" for good, since the browser sets no limit of its
// own. Past it the attempt counts as failed, the line says the server
// does not answer, and the page tries again as after any failed attempt.
const OPEN_MS = 10000;
const NO_ANSWER = "no answer from the server: trying again…";
let retry = 250;
// The next attempt has one owner at a time: planned is true from a drop
// the page follows up until that attempt starts (connect), whether it
// waits for its timer (retryTimer) or for the table's address to answer
// first. Waking ("online", the page shown) while an attempt is planned
// starts it at once; an address check's answer then counts only if no
// attempt started since it was asked (attempts), so it cannot plan a
// second one while the first runs. body's data-next says which:
// "wait", "ask" or "" (none planned).
let retryTimer = 0;
let planned = false;
let attempts = 0;
function plan(next) {
  planned = next !== "";
  document.body.dataset.next = next;
}
// down is what the connection line says while the page reconnects, from
// how the last connection ended: kept through the failed attempts after
// it. alive: that ending said the table lives on (1012: it moves to
// another server, or its server restarts), so a failed attempt does not
// ask the table's address (below); fails counts the failed attempts since.
let down = "";
let alive = false;
let fails = 0;
// conn is the state the table page reads: conn.ws is the open (or opening)
// socket, null between connections.
export const conn = {
  ws: null,
  replaced: false, // closed as replaced by a newer connection to the seat: not reconnecting
  gone: false,     // the table is no longer live: not reconnecting
  ended: null,     // a gone table's finished game (GET .../ended), if it has one
  leaving: false,  // the player pressed Leave: the table's answer to it is awaited in the views
  left: false,     // the player left the game in play from this page: not reconnecting
  away: false,     // connected, this page's seat marked away: the person left elsewhere; it watches, offering Come back
  resync: false,   // the page closed its connection itself to start again after missed events (takeEvents)
  // The chat's own look at the messages (chat.js): refused(m) takes a
  // refusal of the line it sent (true: the chat says it, by the chat),
  // acked(m) takes the server's taking of it, lost(ws) ends its wait
  // when the connection it went on closes.
  chat: { refused: () => false, acked: () => {}, lost: () => {} },
};
// page holds what the connection asks of the table page (installConnection).
let page = null;
// keepAway: the next connection's hello asks the table to leave the
// person away if they are marked so (docs/api.md, hello's keepAway): it
// watches rather than brings them back. Set for a connection that must
// not undo a Leave made elsewhere (a stopped window told the person is
// back, the resubscription after joining, a table closed under a page
// watching the person away, a page shown again from the back-forward
// cache); kept through failed attempts, and cleared
// by the first view a connection gets.
let keepAway = false;
// connect opens a connection to the table; keep: its hello says keepAway.
export function connect(keep = false) {
  if (keep) keepAway = true;
  clearTimeout(retryTimer);
  retryTimer = 0;
  plan("");
  attempts++;
  setConn(down || "connecting…");
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = conn.ws = new WebSocket(`${proto}//${location.host}/api/arlington/tables/${encodeURIComponent(page.id)}/ws`);
  // opened: the socket opened (a failed attempt never does); viewed: the
  // table sent this connection a view.
  const state = { opened: false, viewed: false };
  const slow = setTimeout(() => unopened(ws), OPEN_MS);
  ws.onopen = () => { clearTimeout(slow); state.opened = true; opened(ws); };
  ws.onmessage = (ev) => { answered(); heard(ev.data, state); };
  ws.onclose = (ev) => { clearTimeout(slow); answered(); closed(ws, ev, state.opened); };
}
// unopened gives up a socket still opening after OPEN_MS: it ends as a
// refused attempt does, and its late close (if ever) is not this page's
// business any more. The line keeps NO_ANSWER through the attempts
// after it, until one opens.
function unopened(ws) {
  if (conn.ws !== ws || ws.readyState !== WebSocket.CONNECTING) return;
  const ended = ws.onclose;
  ws.onopen = ws.onmessage = ws.onclose = null;
  ws.close();
  down = NO_ANSWER;
  ended({ code: 1006, reason: "" });
}
// opened greets the table on a new connection: its hello subscribes.
function opened(ws) {
  netBack();
  answered();
  down = "";
  alive = false;
  fails = 0;
  // A page watching its person away (Back from the cache, a table
  // closed under it, a resync) connects with keepAway: the table keeps
  // them away, so its first view changes nothing for followAway, and
  // the line keeps the away words and Come back.
  setConn(...(conn.away ? [awayWords(), comeBackButton()] : ["connected"]));
  if ($("error").textContent.startsWith("Not connected")) $("error").textContent = "";
  ws.send(JSON.stringify(page.hello({ name: savedName() || undefined, keepAway: keepAway || undefined })));
}
// heard takes a message from the table.
function heard(data, state) {
  let m;
  try { m = JSON.parse(data); } catch { return; }
  if (m.type === "error") { if (!conn.chat.refused(m)) page.showError(m); }
  else if (m.type === "ack") conn.chat.acked(m);
  else if (m.type === "view") {
    // The wait between attempts starts again once the table answers
    // with a view, not at the socket's opening: a table that refuses
    // the page (too many watchers from its address) opens the socket
    // first, and the page tried again every fraction of a second.
    retry = 250;
    // A view sent before the table had this connection's hello (late:
    // the server subscribed the connection by itself, leaving the person
    // as they were) answers no hello: their seat away in it says nothing
    // of a Leave, and taken so it stopped a page whose hello was to bring
    // them back, when the connection dropped before the hello came. It
    // is drawn, but neither counts as the connection's first view nor is
    // followed for away: the hello's view is.
    if (m.noHello) { page.view(m); return; }
    const first = !state.viewed;
    state.viewed = true;
    // The first view after a keepAway hello says whether the person was
    // back (body's data-back-word, after heardBack's "checking").
    if (first && keepAway) {
      keepAway = false;
      if (document.body.dataset.backWord === "checking") document.body.dataset.backWord = ownAway(m) ? "not back" : "back";
    }
    if (conn.leaving && leftGame(m)) return;
    followAway(m, first);
    page.view(m);
  }
}
// closed follows a connection's end: the page stops (replaced, left,
// away) or tries again, first asking whether the table is gone when the
// ending may mean it.
function closed(ws, ev, wasOpen) {
  conn.chat.lost(ws);
  if (conn.ws !== ws) return; // a socket the page already let go of
  netBack();
  page.dropped(); // an action in flight is answered by the next view, or was lost
  conn.ws = null;
  // The page's own close to start again after missed events (resync).
  const resync = conn.resync;
  conn.resync = false;
  if (conn.left) return; // closed by leftGame: the person left, so the page stays away
  if (ev.code === 1001 && ev.reason.startsWith("replaced")) { stopReplaced(); return; }
  // A page watching the stand-in play for a person who left (another
  // window's Leave) does not connect again by itself: the new
  // connection would mark them back at the table they chose to leave.
  // It stops as the window that sent the Leave did. A table closed
  // under it is followed as on any page.
  if (conn.away && ev.reason !== "table closed" && !resync) { conn.away = false; stopLeft(); return; }
  // A table closed under a page watching the person away, or the page's
  // own close after missed events: the next connection watches as this
  // one did.
  if (conn.away) keepAway = true;
  // 1012: the table moves to another server, or its server restarts
  // (an update); either way it is back in a moment (docs/api.md, "How a
  // connection ends"). A failed attempt says nothing (the browser does
  // not tell why), so the words of the ending before it stay.
  if (wasOpen) {
    alive = ev.code === 1012;
    down = !alive ? "" : ev.reason.startsWith("table moved") ? "table moving to another server: reconnecting…" : "server restarting: reconnecting…";
    fails = 0;
  } else fails++;
  setConn(down || "reconnecting…");
  // A table closed here, or a refused attempt after an ending that said
  // nothing of the table (a lost network, a laptop asleep), may mean the
  // table is gone for good (it closed idle while the laptop slept): the
  // table's address says so with a 404, and then the page stops rather
  // than try for ever. After a 1012 the table lives on, and an attempt
  // is refused while it comes back: only every fifth failed attempt
  // asks (a finished table does not come back after a restart).
  if (wasOpen ? ev.reason === "table closed" : !alive || fails % 5 === 0) askIfGone();
  else retryLater();
}
// stopReplaced stops a page whose seat was opened in another window or
// tab since: coming back would push that one out in turn. Its actions
// are disabled until the player chooses to play here again, which
// replaces the other window as a reload would (and brings back a page
// stopped because the newer connections were dead ones the server
// dropped first).
function stopReplaced() {
  conn.replaced = true;
  const b = el("button", "play-here", "Play here");
  b.type = "button";
  b.id = "play-here";
  b.addEventListener("click", () => playHere(false));
  setConn("playing in another window ", b);
  page.dropSelection();
  page.redraw();
}
// askIfGone asks the table's address whether the table is gone, and
// stops the page (404) or tries again. A stalled answer (a forwarded
// request held up) would stop the attempts: after ASK_MS the page tries
// again as for any answer but 404.
function askIfGone() {
  plan("ask");
  const asked = attempts;
  fetch(`/api/arlington/tables/${encodeURIComponent(page.id)}`, { signal: AbortSignal.timeout(ASK_MS) }).then((r) => r.status === 404, () => false)
    .then((isGone) => {
      if (asked !== attempts || !planned) return; // an attempt started meanwhile, or the page stopped
      if (isGone) tableGone(); else retryLater();
    });
}
// retryLater plans the next connection attempt.
function retryLater() {
  const ms = Math.round(retry / 2 + Math.random() * retry / 2);
  document.body.dataset.retryMs = String(ms);
  plan("wait");
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => { retryTimer = 0; connect(); }, ms);
  retry = Math.min(retry * 2, RETRY_MAX);
}
// tableGone stops the page of a table that is no longer live. A game
// that reached its end (its table closed idle after it, or the server
// restarted since) still has its result, which the page then shows with
// its replay and "Play again" (GET .../ended); a table that never was
// (404) says so, and one closed before its game's end (409) says that.
// Any other answer (a refusal to wait, 429 or 503; a timeout; a lost
// network) says nothing of the table, so the page asks again (askEnded)
// and, if it never hears, says it could not fetch the result.
async function tableGone() {
  conn.gone = true;
  conn.away = false; // no Come back at a gone table
  plan("");
  setConn("the table has closed: fetching its result…");
  const { status, result } = await askEnded();
  conn.ended = result;
  const a = el("a", "", "back to the lobby");
  a.href = "/arlington/";
  const words = conn.ended ? "game over, table closed: " : status === 404 ? "no such table: "
    : status === 409 ? "this table has ended or is gone: " : "could not fetch the result (reload to try again): ";
  setConn(words, a);
  $("error").textContent = "";
  page.dropSelection();
  page.ended(conn.ended, status);
  page.redraw();
}
// ENDED_WAITS are the waits before each asking again for a gone table's
// result: bounded, so a page whose server stays unreachable stops asking
// (five times: about 15 s in all) and says so. A Retry-After the answer
// gives is waited instead, up to ENDED_WAIT_MAX: 25 s in all when each
// answer asks for 5 s (the database out of reach), 150 s at the most.
const ENDED_WAITS = [500, 1000, 2000, 4000, 8000];
const ENDED_WAIT_MAX = 30000;
// askEnded is GET .../ended's status and result (null but for 200),
// asked again while the answer is one that may change by itself: status
// 0 when it never came (or its body was cut).
async function askEnded() {
  for (let i = 0; ; i++) {
    let status = 0;
    let after = null;
    try {
      const r = await fetch(`/api/arlington/tables/${encodeURIComponent(page.id)}/ended`, { signal: AbortSignal.timeout(ASK_MS) });
      status = r.status;
      if (r.ok) return { status, result: await r.json() };
      after = r.headers.get("Retry-After");
    } catch { status = 0; }
    const again = status === 0 || status === 429 || status >= 500;
    if (!again || i >= ENDED_WAITS.length) return { status, result: null };
    const secs = Number(after);
    const ms = after !== null && after !== "" && Number.isFinite(secs) && secs >= 0 ? Math.min(secs * 1000, ENDED_WAIT_MAX) : ENDED_WAITS[i];
    document.body.dataset.endedRetryMs = String(ms);
    await new Promise((done) => setTimeout(done, ms));
  }
}
// leftGame follows a Leave this page sent, in the views after it: a
// seat given up before the start comes back as a spectator's view (done);
// Leave pressed as the game started (the last seat filled while the
// button was still shown) leaves the seat the person's, marked away, with
// a stand-in playing it. The page then stops as the other stopped pages
// do: its next connection (after a dropped one, say) would mark them
// back at the table they chose to leave, and a person alone with bots
// who leaves a casual table has it hold still (nobody connected) rather
// than played out before them. "Come back" is theirs to press.
function leftGame(m) {
  if (m.seat < 0) { conn.leaving = false; return false; }
  if (!ownAway(m)) return false;
  conn.leaving = false;
  stopLeft();
  if (conn.ws) conn.ws.close(1000, "left");
  return true;
}
// awayWords are the connection line's words for a person who left: in
// play a bot plays their seat; once the game is shown over no bot plays
// any more, but the leave still counts (a rematch holds no seat for a
// person who left: docs/tables.md, "Rematch"), and Come back clears it.
function awayWords() {
  return shownOver ? "game over; you left this table, so a rematch holds no seat for you " : "you left this table: a bot plays your seat ";
}
// shownOver: the view the page shows is of a game over (gameShown).
let shownOver = false;
// gameShown tells the connection whether the view the page now shows
// (paced: it may be behind the last one received) is of a game over, so
// the words of a person who left do not speak of the end before the
// page shows it.
export function gameShown(over) {
  if (over === shownOver) return;
  shownOver = over;
  // A gone table's words (tableGone) stay: no Come back to a closed
  // table; nor to a page another window replaced (its Play here stays).
  if ((conn.left || conn.away) && !conn.gone && !conn.replaced) setConn(awayWords(), comeBackButton());
}
// stopLeft stops the page of a person who left the game in play: no
// reconnecting, its actions disabled, and "Come back".
function stopLeft() {
  conn.left = true;
  clearTimeout(retryTimer);
  retryTimer = 0;
  plan("");
  setConn(awayWords(), comeBackButton());
  page.dropSelection();
  page.redraw();
}
function ownAway(m) { return m.seat >= 0 && m.seats.some((s) => s.seat === m.seat && s.away); }
// followAway follows, on a connected page, its seat marked away: a
// connected person is never marked away but by a Leave, so the person
// left in another window (or through the API, the terminal). The page
// says so and offers "Come back" as the window that sent the Leave does,
// but goes on drawing the views (the stand-in's play): it stays the
// page it was, only not for long if its connection drops (closed).
// Their seat no longer away (they came back anywhere, or acted here)
// makes it a playing page again. A page that finds its seat present on
// its first view (it connected: a reload, Come back, Play here) or no
// longer away (an action here, Come back here) tells the table's other
// windows in this browser, so that one stopped by the Leave plays again.
function followAway(m, first) {
  seat = m.seat;
  const away = ownAway(m);
  if (!away && seat >= 0 && (first || conn.away) && backWord) backWord.postMessage({ back: seat });
  if (away === conn.away) return;
  conn.away = away;
  setConn(...(away ? [awayWords(), comeBackButton()] : ["connected"]));
}
function comeBackButton() {
  const b = el("button", "play-here", "Come back");
  b.type = "button";
  b.id = "come-back";
  b.addEventListener("click", comeBack);
  return b;
}
// comeBack brings the person back from this page: a connected one
// subscribes again (any subscription of theirs is them back; the views
// after it show the seat theirs), a stopped one connects. The view that
// shows the seat present tells their other windows (followAway).
function comeBack() {
  if (conn.away && conn.ws && conn.ws.readyState === WebSocket.OPEN) {
    conn.ws.send(JSON.stringify(page.hello({ name: savedName() || undefined })));
  } else if (conn.left) playHere(false);
}
// heardBack takes another window's word that the person is back at
// seat: a page stopped because they left connects again, with a hello
// that keeps them away if they are (keepAway). The word may be older
// than a Leave (a window connecting as the person pressed it, or a
// Leave pressed again since): the table, in the same step as it takes
// the connection, then leaves them away, and the page shows them away
// with Come back, watching, rather than bring them back at a table they
// chose to leave. Present, it plays as any page. body's data-back-word
// says how the last word went: "checking", then "back" or "not back".
function heardBack(back) {
  if (back !== seat || seat < 0 || !conn.left) return;
  document.body.dataset.backWord = "checking";
  playHere(true);
}
// The seat this page last had (from the views), and the channel on
// which the windows of this table in this browser tell each other that
// the person is back (null without BroadcastChannel).
let seat = -1;
let backWord = null;
// stoppedWords says why a stopped page does not play ("" while it
// does): the status line, a card clicked and the Hint button say it
// rather than ask the server about a table this page no longer plays.
export function stoppedWords() {
  if (conn.ended) return "this game is over and its table has closed";
  if (conn.gone) return "this table has ended or is gone";
  if (conn.replaced) return "playing in another window: press Play here to play in this one";
  if (conn.left) return "you left this table: press Come back to play again";
  return "";
}
// playHere takes the seat back for a page that was replaced, or whose
// person left the game in play (connecting marks them back, but with
// keep: heardBack).
function playHere(keep) {
  if (!conn.replaced && !conn.left) return;
  conn.replaced = false;
  conn.left = false;
  $("error").textContent = "";
  page.redraw();
  keepAway = keep === true; // Come back, Play here: the person chose to play
  connect();
}
function reconnectNow() {
  if (conn.ws || !planned) return;
  connect();
}

// The back-forward cache. A page left for another (the lobby, a link)
// is kept whole by the browser, its socket open: the table saw the
// person still there, so their turn waited out its timer while they
// were in the lobby, and the others saw them connected. Going into the
// cache (pagehide, persisted) the page closes its connection as a page
// closed does; shown from it again (Back) it connects anew and catches
// up as after any drop. A page stopped (left, replaced, gone) stays
// stopped. Every other connects with keepAway: the person may have left
// while the page was in the cache (Leave in another window, or this
// page's Leave not yet answered when it went), and a plain hello would
// bring them back to the table they left. The table keeps only a Leave
// so: a person away because their turn's timer ran out while the page
// was in the cache comes back (docs/api.md). Away, the page then watches
// and says so, with Come back (followAway), as a page connected at the
// Leave does; present, keepAway changes nothing.
let cached = false;
function intoCache(ev) {
  if (!ev.persisted) return;
  clearTimeout(retryTimer);
  retryTimer = 0;
  plan("");
  cached = !conn.left && !conn.replaced && !conn.gone;
  const ws = conn.ws;
  if (!ws) return;
  conn.ws = null;
  ws.onopen = ws.onmessage = ws.onclose = null;
  answered();
  netBack();
  conn.chat.lost(ws);
  page.dropped();
  ws.close(1000, "page left");
}
function outOfCache(ev) {
  if (!ev.persisted || !cached) return;
  cached = false;
  connect(true);
}

// installConnection gives the connection what it needs of the table page
// and starts following the network and the page's visibility:
//   id: the table's id;
//   hello(more): the message that (re)subscribes;
//   showError(m): shows an error message from the server;
//   view(m): takes a view message (after a Leave's answer is looked for);
//   dropped(): the connection closed, so an action in flight is no longer awaited;
//   awaiting(): whether an action or a chat line sent awaits its answer (actionSent);
//   dropSelection(): forgets the selection of a page that stops playing;
//   ended(r, status): the table is gone; r is its finished game's result, or null
//     (status: the HTTP status of asking for it, 0 for none);
//   redraw(): draws the last view again, if there is one.
export function installConnection(hooks) {
  page = hooks;
  if ("BroadcastChannel" in window) {
    backWord = new BroadcastChannel(`arlington-back-${page.id}`);
    // Another window of this seat found the person back (heardBack).
    backWord.onmessage = (ev) => { if (ev.data) heardBack(ev.data.back); };
  }
  window.addEventListener("pagehide", intoCache);
  window.addEventListener("pageshow", outOfCache);
  installWake({ conn, setConn, reconnect: reconnectNow, awaiting: () => Boolean(page.awaiting && page.awaiting()) });
}
