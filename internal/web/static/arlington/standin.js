// Which moves of the player's seat the server's stand-in bot made (the
// turn timer ran out, or the person was away): the log says "A bot played
// for you" of those. The events carry no mark of their own, so the page
// judges: a move of its seat is the player's when this page, or another
// window of this browser at the same table, sent an action at its count.
// Only events that arrive while the page is open are judged: after a
// reload the page cannot tell.

// standIn holds the numbers of the seat's moves judged the stand-in's.
export const standIn = new Set();
// mineFrom is the event count at which this page last sent an action,
// until a move of its seat at or after it arrives (-1: none waiting); it
// outlives a dropped connection, so an action sent just before the drop
// is still known as the player's own.
let mineFrom = -1;
// peerSent holds the event counts at which another window of this browser
// (the same person: up to four may play one seat) sent an action for this
// page's seat at this table, which they tell each other: a move made
// there is the person's, and was told here as "A bot played for you".
// A count stands only until the first move of the seat at or after it,
// whoever made it (noteStandIn), or until the window withdraws it (its
// action refused): a window whose connection dropped, or which closed,
// before its refusal came can claim one move at most. Words about other
// seats (another person in this browser profile) are ignored.
const peerSent = new Set();
const PEERS_MAX = 16; // each count is used up or withdrawn within a round trip: a few at most wait
// seatMoves holds the numbers of the seat's last moves seen, so that a
// word arriving after the move it tells of finds that move.
const seatMoves = [];
const MOVES_MAX = 32;
let peers = null;
let seatOf = () => -1;

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
    if (!d || !Number.isInteger(d.at) || !Number.isInteger(d.seat) || d.seat < 0 || d.seat !== seatOf()) return;
    if (d.refused) { peerSent.delete(d.at); return; }
    // A late word: the seat's first move at or after its count is the
    // one it tells of; if told as the stand-in's, it is the person's.
    const moved = seatMoves.find((n) => n >= d.at);
    if (moved !== undefined) { if (standIn.delete(moved)) retold(); return; }
    if (peerSent.size >= PEERS_MAX) peerSent.delete(Math.min(...peerSent));
    peerSent.add(d.at);
  };
}

// sent: the count and seat of the action this page sent last, to
// withdraw if refused.
let sent = null;

// sending notes an action this page sends for seat at event count at,
// and tells the other windows.
export function sending(at, seat) {
  sent = { seat, at };
  if (peers) peers.postMessage(sent);
  mineFrom = at;
}

// refused forgets the action this page sent (the server refused it), and
// withdraws it from the other windows.
export function refused() {
  mineFrom = -1;
  if (sent && peers) peers.postMessage({ ...sent, refused: true });
  sent = null;
}

// noteStandIn judges the moves of seat among events: the first at or
// after the action this page sent is the player's; so is one at or after
// a count another window told of (the server applies an action at its
// own count, which may be past the one the window showed); any other is
// the stand-in's. Each move uses up every count at or before it, whoever
// made it, so no word lingers to claim a later stand-in's move.
export function noteStandIn(events, seat) {
  for (const e of events) {
    if (e.kind !== "move" || e.seat !== seat) continue;
    seatMoves.push(e.n);
    if (seatMoves.length > MOVES_MAX) seatMoves.shift();
    let told = false;
    for (const at of peerSent) if (at <= e.n) { peerSent.delete(at); told = true; }
    if (mineFrom >= 0 && e.n >= mineFrom) { mineFrom = -1; continue; }
    if (!told) standIn.add(e.n);
  }
}
