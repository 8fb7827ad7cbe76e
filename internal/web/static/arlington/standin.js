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
// A count is used up by the move it explains (noteStandIn), or withdrawn
// by the window whose action was refused. Words about other seats
// (another person in this browser profile) are ignored.
const peerSent = new Set();
const PEERS_MAX = 16; // each count is used up or withdrawn within a round trip: a few at most wait
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
    if (standIn.delete(d.at)) { retold(); return; }
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
// after the action this page sent is the player's; else the first at or
// after an action another window told of is the person's too (the server
// applies an action at its own count, which may be past the one the
// window showed), and uses that word up; any other is the stand-in's.
// A word is used up by such a move or withdrawn by its refusal, so none
// lingers to claim a later stand-in's move.
export function noteStandIn(events, seat) {
  for (const e of events) {
    if (e.kind !== "move" || e.seat !== seat) continue;
    if (mineFrom >= 0 && e.n >= mineFrom) { mineFrom = -1; continue; }
    let first = -1;
    for (const at of peerSent) if (at <= e.n && (first < 0 || at < first)) first = at;
    if (first >= 0) peerSent.delete(first);
    else standIn.add(e.n);
  }
}
