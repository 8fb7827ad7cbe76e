// The table page's connection: one WebSocket to the table, opened again
// after a drop, and the states in which the page stops playing (the seat
// taken over by another window, the table gone, the person left).
import { savedName, el } from "./common.js";

const $ = (id) => document.getElementById(id);

// The connection. A dropped one is tried again soon (at most about 2 s
// apart, with jitter so a restarted server is not hit by every page at
// once) and at once when the page is shown again or the network returns.
let retry = 250;
let retryTimer = 0;
// conn is the state the table page reads: conn.ws is the open (or opening)
// socket, null between connections.
export const conn = {
  ws: null,
  replaced: false, // closed as replaced by a newer connection to the seat: not reconnecting
  gone: false,     // the table no longer exists: not reconnecting
  leaving: false,  // the player pressed Leave: the table's answer to it is awaited in the views
  left: false,     // the player left the game in play from this page: not reconnecting
};
// page holds what the connection asks of the table page (installConnection).
let page = null;
export function connect() {
  retryTimer = 0;
  $("conn").textContent = "connecting…";
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  conn.ws = new WebSocket(`${proto}//${location.host}/api/arlington/tables/${encodeURIComponent(page.id)}/ws`);
  let opened = false;
  conn.ws.onopen = () => {
    opened = true;
    retry = 250;
    $("conn").textContent = "connected";
    if ($("error").textContent.startsWith("Not connected")) $("error").textContent = "";
    conn.ws.send(JSON.stringify(page.hello({ name: savedName() || undefined })));
  };
  conn.ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    if (m.type === "error") page.showError(m);
    else if (m.type === "view") {
      if (conn.leaving && leftGame(m)) return;
      page.view(m);
    }
  };
  conn.ws.onclose = (ev) => {
    page.dropped(); // an action in flight is answered by the next view, or was lost
    conn.ws = null;
    if (conn.left) return; // closed by leftGame: the person left, so the page stays away

    // The seat was opened in another window or tab since: coming back
    // would push that one out in turn, so this page stops here.
    // Its actions are disabled until the player chooses to play here
    // again, which replaces the other window as a reload would (and
    // brings back a page stopped because the newer connections were
    // dead ones the server dropped first).
    if (ev.code === 1001 && ev.reason.startsWith("replaced")) {
      conn.replaced = true;
      const b = el("button", "play-here", "Play here");
      b.type = "button";
      b.id = "play-here";
      b.addEventListener("click", playHere);
      $("conn").replaceChildren("playing in another window ", b);
      page.dropSelection();
      page.redraw();
      return;
    }
    // 1012: the server is restarting (an update); it is back in a moment.
    $("conn").textContent = ev.code === 1012 ? "server restarting: reconnecting…" : "reconnecting…";
    // A refused upgrade (the browser does not say why) or a table closed
    // here may mean the table is gone for good (it closed idle while a
    // laptop slept): the table's address says so with a 404, and then
    // the page stops rather than try for ever.
    if (!opened || ev.reason === "table closed") {
      fetch(`/api/arlington/tables/${encodeURIComponent(page.id)}`).then((r) => r.status === 404, () => false)
        .then((isGone) => { if (isGone) tableGone(); else retryLater(); });
      return;
    }
    retryLater();
  };
}
// retryLater plans the next connection attempt.
function retryLater() {
  const ms = Math.round(retry / 2 + Math.random() * retry / 2);
  document.body.dataset.retryMs = String(ms);
  retryTimer = setTimeout(connect, ms);
  retry = Math.min(retry * 2, 2000);
}
// tableGone stops the page of a table that no longer exists.
function tableGone() {
  conn.gone = true;
  const a = el("a", "", "back to the lobby");
  a.href = "/arlington/";
  $("conn").replaceChildren("this table has ended or is gone: ", a);
  $("error").textContent = "";
  page.dropSelection();
  page.redraw();
}
// leftGame follows a Leave this page sent, in the views after it: a
// seat given up before the start comes back as a spectator's view (done);
// Leave pressed as the game started (the last seat filled while the
// button was still shown) leaves the seat the person's, marked away, with
// a stand-in playing it. The page then stops as the other stopped pages
// do: staying connected would show the person present, and its next
// connection (after a dropped one, say) would mark them back at the table
// they chose to leave. "Come back" is theirs to press.
function leftGame(m) {
  if (m.seat < 0) { conn.leaving = false; return false; }
  if (!m.seats.some((s) => s.seat === m.seat && s.away)) return false;
  conn.leaving = false;
  conn.left = true;
  clearTimeout(retryTimer);
  retryTimer = 0;
  const b = el("button", "play-here", "Come back");
  b.type = "button";
  b.id = "come-back";
  b.addEventListener("click", playHere);
  $("conn").replaceChildren("you left this table: a bot plays your seat ", b);
  page.dropSelection();
  if (conn.ws) conn.ws.close(1000, "left");
  page.redraw();
  return true;
}
// stoppedWords says why a stopped page does not play ("" while it
// does): the status line, a card clicked and the Hint button say it
// rather than ask the server about a table this page no longer plays.
export function stoppedWords() {
  if (conn.gone) return "this table has ended or is gone";
  if (conn.replaced) return "playing in another window: press Play here to play in this one";
  if (conn.left) return "you left this table: press Come back to play again";
  return "";
}
// playHere takes the seat back for a page that was replaced, or whose
// person left the game in play (connecting marks them back).
function playHere() {
  if (!conn.replaced && !conn.left) return;
  conn.replaced = false;
  conn.left = false;
  $("error").textContent = "";
  page.redraw();
  connect();
}
function reconnectNow() {
  if (conn.ws || !retryTimer) return;
  clearTimeout(retryTimer);
  connect();
}

// installConnection gives the connection what it needs of the table page
// and starts following the network and the page's visibility:
//   id: the table's id;
//   hello(more): the message that (re)subscribes;
//   showError(m): shows an error message from the server;
//   view(m): takes a view message (after a Leave's answer is looked for);
//   dropped(): the connection closed, so an action in flight is no longer awaited;
//   dropSelection(): forgets the selection of a page that stops playing;
//   redraw(): draws the last view again, if there is one.
export function installConnection(hooks) {
  page = hooks;
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) reconnectNow(); });
}
