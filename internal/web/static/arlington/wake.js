// The table page's checks of a connection that may be dead without
// saying so: after the machine slept, when the page is shown again,
// when the network goes and comes back, and when the page has heard
// nothing for a while (connection.js owns the
// connection; installWake gives these checks what they need of it).

// Waking. A laptop that slept, or a network that changed under the page,
// leaves a socket that looks open and is dead: the page found out only
// when it sent something, or once the server's ping (which a page's
// script does not see) had ended it. So when the page may have been
// asleep (it is shown again, the network is back, or its clock jumped
// past a tick it missed) it checks: it sends a ping, which the server
// answers with a pong (a hello would resubscribe: the others would see
// the person leave and come back, and the turn timer start again), and
// with no answer within PROBE_MS it drops that socket and connects anew
// (the usual waits follow a failed attempt). At most one check every
// CHECK_EVERY_MS: no storm of pings or reconnects. The clock is the
// wall clock (Date.now): a monotonic one may stand still while the
// machine sleeps. A hidden page does not look at it: its timers are
// held back (once a minute in Chrome), so every look would seem late;
// being shown again is checked on its own.
const TICK_MS = 5000;          // the clock's look
const SLEPT_MS = 15000;        // a look this late: the machine slept
const PROBE_MS = 3000;         // the wait for the ping's answer
const CHECK_EVERY_MS = 10000;  // the least time between two checks
let probe = 0;       // the check under way: its timer (0: none)
let checkedAt = -Infinity;
// c is what the checks need of the connection (installWake): conn, its
// state; setConn(...parts), its line; reconnect(), an attempt planned
// started now; awaiting(), an action or a chat line sent awaits its
// answer.
let c = null;
// quiet: the check is the quiet one (held back while an answer is
// awaited; the others are not).
function checkAlive(quiet = false) {
  const { conn } = c;
  if (!conn.ws) { c.reconnect(); return; }
  const ws = conn.ws;
  const now = Date.now();
  if (ws.readyState !== WebSocket.OPEN || probe || Math.abs(now - checkedAt) < CHECK_EVERY_MS) return;
  if (quiet && awaitingAnswer()) { due = true; return; }
  due = false;
  checkedAt = now;
  ws.send(JSON.stringify({ type: "ping" }));
  probe = setTimeout(() => {
    probe = 0;
    if (conn.ws !== ws) return;
    // Dead: ended as a lost network ends it, and its late close (if
    // ever) is not this page's business any more.
    const ended = ws.onclose;
    ws.onopen = ws.onmessage = ws.onclose = null;
    ws.close();
    ended({ code: 1006, reason: "" });
  }, PROBE_MS);
}
// answered ends a check: anything heard on the socket (or its end) does.
export function answered() {
  clearTimeout(probe);
  probe = 0;
  due = false;
  heardAt = Date.now();
  const { conn } = c;
  if (netDown && conn.ws && conn.ws.readyState === WebSocket.OPEN) { netDown = false; c.setConn("connected"); }
}

// Quiet. A server that stops without closing anything (its process
// paused, its machine gone) leaves the page's socket open and silent:
// the table, taken over by another server, played on while the page
// waited, until a proxy's read timeout (nginx's 60 s) or for good. So a
// shown page that has heard nothing for QUIET_MS checks as on waking (a
// table waiting on a person thinking sends nothing: one ping each
// QUIET_MS, answered by a pong).
const QUIET_MS = 20000;
let heardAt = Date.now();
// An action or a chat line awaiting its answer holds the quiet check
// back: the server reads a connection's messages in order,
// so a ping sent behind one whose database write is slow (seconds, on a
// loaded database) is answered only after it, past PROBE_MS, and the
// check would drop a live connection. Up to ANSWER_MS from the last
// sending: what the server may spend before it answers. An action's
// own store work is up to 30 s (three writes or reads of at most 10 s
// each, each one's wait for a database connection, up to 5 s, within
// its 10 s: the move, then after a refused write the reread of the
// moves, then at a game's end the finish with its ratings), behind at
// most one command the table is busy with (another person's chat line
// or a seat taken: 30 s at most): 60 s. A chat line's is less (its write and a reread, 20 s).
// Silence past it is a server gone. A check held back is made once
// nothing awaits any more, unless the page heard the socket meanwhile.
// The checks on waking, on being shown again and on the network's
// return are not held back (decision): a sleep or a network change is
// what leaves a socket dead with an action unanswered, and held back
// they left such a page waiting a minute (saying "offline" with the
// network back) where it reconnected in 3 s; a live socket behind a slow
// write may be dropped by them, and the view its reconnection brings
// shows what became of the action.
const ANSWER_MS = 60000;
let actionAt = -Infinity;
let due = false; // a check held back by an answer awaited
// actionSent notes that the page sent an action or a chat line (the
// page's awaiting hook then says whether its answer is still awaited).
export function actionSent() { actionAt = Date.now(); }
// awaitingAnswer says whether something sent awaits its answer, within
// ANSWER_MS.
function awaitingAnswer() { return c.awaiting() && Date.now() - actionAt < ANSWER_MS; }

// The network gone. A phone out of its network's reach keeps a socket
// that looks open: nothing arrives and nothing is refused, so the page
// went on saying "connected" and showing the turn as it was, while the
// table moved on and the turn timer ran on the person. So when the
// browser says the network is gone ("offline") the line says so; once it
// is back ("online") the check above asks the socket (a ping), not held
// back by an earlier check (the network's return after a loss lifts the
// gap between checks; its going does not, so a page shown again while
// offline does not drop its socket for a ping nobody could answer, and
// an "online" with no "offline" before it is a wake like any): the line
// says "connected" again on its answer, or the page reconnects. A page
// reconnecting (its line says so already) or stopped (away, left,
// replaced) keeps its line.
let netDown = false;
let lost = false; // "offline" heard, and no "online" since
function wentOffline() {
  lost = true;
  const { conn } = c;
  if (!conn.ws || conn.ws.readyState !== WebSocket.OPEN || conn.away || conn.left || conn.replaced || conn.gone) return;
  netDown = true;
  c.setConn("offline: waiting for the network…");
}
function cameOnline() {
  if (lost) checkedAt = -Infinity;
  lost = false;
  checkAlive();
}
// netBack forgets the network's loss: a connection opened, closed or let
// go of has its own line.
export function netBack() { netDown = false; }

// installWake starts the checks: c is { conn, setConn, reconnect,
// awaiting }, awaiting() saying whether an action or a chat line sent
// awaits its answer.
export function installWake(hooks) {
  c = hooks;
  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", cameOnline);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) checkAlive(); });
  let tick = Date.now();
  setInterval(() => {
    const now = Date.now();
    const { conn } = c;
    const quiet = conn.ws && conn.ws.readyState === WebSocket.OPEN && now - heardAt > QUIET_MS;
    const slept = now - tick > SLEPT_MS;
    if (!document.hidden && (slept || quiet || due)) checkAlive(!slept);
    tick = now;
  }, TICK_MS);
}
