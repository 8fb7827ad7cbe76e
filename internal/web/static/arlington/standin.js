// Which moves of the player's seat the server's stand-in bot made (the
// turn timer ran out, or the person was away): the log says "A bot played
// for you" of those. The events carry no mark of their own, so the page
// judges: a move of its seat is the player's when this page, or another
// window of this browser at the same table, sent that action at or
// before its count.
// Only events that arrive while the page is open are judged: after a
// reload the page cannot tell. The seat's moves the page loads with
// (noteHistory) are judged no one's, but they use up the words of other
// windows they answer: a word is not ordered with the server's views, and
// one about a move the page loaded with claimed the next stand-in move
// that was the same action.

// standIn holds the numbers of the seat's moves judged the stand-in's.
export const standIn = new Set();
// mine is the action this page last sent ({ at: its event count, key:
// its action's key, passed: the seat's moves since that were not it }),
// until the move of its seat that is that action arrives (null: none
// waiting); it outlives a dropped connection, so an action sent just
// before the drop is still known as the player's own.
let mine = null;
// claims holds the actions another window of this browser (the same
// person: up to four may play one seat) sent for this page's seat at
// this table, each with the count at which it was sent, which the
// windows tell each other: a move made there is the person's, and was
// told here as "A bot played for you". A claim stands until a move of
// the seat that is its action, at or after its count, uses it up (only
// that claim), until the window withdraws it (its action refused), or
// until two moves of the seat at or after its count were judged the
// stand-in's: while the person is connected the stand-in moves only when
// a turn's timer runs out, so an action still unanswered after two such
// moves was never applied nor refused (its window closed) and claims no
// later move. Moves other windows claimed do not count: one window may
// move the seat several times in a row (a pickup, then an add) while
// another's action is on its way.
// Matching the action, not the count alone, keeps two windows that sent
// on one turn apart: the server applies one there and the other at the
// seat's next turn. Words about other seats (another person in this
// browser profile) are ignored.
const claims = [];
const CLAIMS_MAX = 16; // each is used up or withdrawn within a round trip: a few at most wait
// seatMoves holds the seat's last moves seen ({ n, key, loaded }), so
// that a word arriving after the move it tells of finds that move;
// loaded marks a move the page loaded with, judged no one's, until a
// word uses it up.
const seatMoves = [];
const MOVES_MAX = 32;
// notedSeat is the seat seatMoves are of: a page given another seat
// starts them again.
let notedSeat = -1;
// STALE_AFTER is how many of the seat's moves judged the stand-in's end a
// claim (and the page's own action waiting).
const STALE_AFTER = 2;
let peers = null;
let seatOf = () => -1;

// actionKey is what makes two notations of one action the same: the
// server names a set's spectrum and orders its cards in the event, while
// the page may send a set as the player picked its cards.
function actionKey(a) {
  if (typeof a !== "string") return "";
  const f = a.toLowerCase().trim().split(/\s+/);
  let verb = f.shift() || "";
  if (verb === "2s") verb = "s2";
  const rest = verb === "set" ? f.filter((x) => !SPECTRA.has(x)) : f;
  if (verb === "set") rest.sort();
  return [verb, ...rest].join(" ");
}
const SPECTRA = new Set(["aces", "multiples", "couples", "runs"]);

// takeClaim removes and reports the first claim that is action key at a
// count at or before n.
function takeClaim(key, n) {
  const i = claims.findIndex((c) => c.key === key && c.at <= n);
  if (i < 0) return false;
  claims.splice(i, 1);
  return true;
}

// installPeers joins the table's channel between windows; seat says this
// page's seat (-1: none). retold is called when a move already told as
// the stand-in's turns out to be the person's: the word may come after
// the move it tells of (it is not ordered with the server's views).
export function installPeers(id, seat, retold) {
  if (!("BroadcastChannel" in window)) return;
  seatOf = seat;
  peers = new BroadcastChannel(`arlington-sent-${id}`);
  peers.onmessage = (ev) => {
    const d = ev.data;
    if (!d || !Number.isInteger(d.at) || typeof d.action !== "string" || !Number.isInteger(d.seat) || d.seat < 0 || d.seat !== seatOf()) return;
    const key = actionKey(d.action);
    if (d.refused) {
      const i = claims.findIndex((c) => c.key === key && c.at === d.at);
      if (i >= 0) claims.splice(i, 1);
      return;
    }
    // A late word: the seat's first stand-in move at or after its count
    // that is its action is the one it tells of: the person's.
    const moved = seatMoves.find((m) => m.n >= d.at && m.key === key && (standIn.has(m.n) || m.loaded));
    if (moved && moved.loaded) { moved.loaded = false; return; } // told of a move the page loaded with
    if (moved) { standIn.delete(moved.n); retold(); return; }
    if (claims.length >= CLAIMS_MAX) claims.shift();
    claims.push({ at: d.at, key, passed: 0 });
  };
}

// sent: the count, seat and action this page sent last, to withdraw if
// refused.
let sent = null;

// sending notes action (its notation as sent) this page sends for seat
// at event count at, and tells the other windows.
export function sending(at, seat, action) {
  sent = { seat, at, action };
  if (peers) peers.postMessage(sent);
  mine = { at, key: actionKey(action), passed: 0 };
}

// refused forgets the action this page sent (the server refused it), and
// withdraws it from the other windows.
export function refused() {
  mine = null;
  if (sent && peers) peers.postMessage({ ...sent, refused: true });
  sent = null;
}

// noteStandIn judges the moves of seat among events: a move is the
// player's when it is the action this page sent, or one another window
// told of, sent at or before the move's count (the server applies an
// action at its own count, which may be past the one the window showed);
// any other is the stand-in's. A move uses up only the claim it matched.
// It reports whether the action this page sent is among events: its
// answer, which ends the page's wait for it (table.js, sentAt), so that
// no later refusal is taken for its own and withdraws it (refused).
export function noteStandIn(events, seat) {
  let own = false;
  for (const e of events) {
    if (e.kind !== "move" || e.seat !== seat) continue;
    const key = actionKey(e.action);
    noteMove(e.n, key, false);
    if (mine && mine.key === key && e.n >= mine.at) { mine = null; own = true; }
    else if (!takeClaim(key, e.n)) {
      standIn.add(e.n);
      age(e.n);
    }
  }
  return own;
}

// noteHistory notes the moves of seat among events the page loaded with
// (its first view, a full one after a gap, or one that gives it the
// seat; table.js notes them once): not judged, since the page
// did not see them come, but each uses up a word of another window that
// is its action, sent at or before it, and a word coming later finds it.
export function noteHistory(events, seat) {
  // A full view after a gap repeats moves seen and judged already: every
  // one at or below the newest noted is skipped, not only those still in
  // seatMoves, or past MOVES_MAX the older ones came in again, pushed out
  // the newer ones, and those were noted again as loaded (a judged move
  // among them then stayed the stand-in's after its late word).
  if (seat !== notedSeat) { seatMoves.length = 0; notedSeat = seat; }
  const newest = seatMoves.length ? seatMoves[seatMoves.length - 1].n : -1;
  for (const e of events) {
    if (e.kind !== "move" || e.seat !== seat || e.n <= newest) continue;
    const key = actionKey(e.action);
    noteMove(e.n, key, !takeClaim(key, e.n));
  }
}

// noteMove keeps the seat's move n in seatMoves, the last MOVES_MAX.
function noteMove(n, key, loaded) {
  seatMoves.push({ n, key, loaded });
  if (seatMoves.length > MOVES_MAX) seatMoves.shift();
}

// age counts the stand-in's move n against every claim (and mine) sent
// at or before it, and drops those it makes stale (STALE_AFTER).
function age(n) {
  if (mine && n >= mine.at && ++mine.passed >= STALE_AFTER) mine = null;
  for (let i = claims.length - 1; i >= 0; i--) {
    if (claims[i].at <= n && ++claims[i].passed >= STALE_AFTER) claims.splice(i, 1);
  }
}
