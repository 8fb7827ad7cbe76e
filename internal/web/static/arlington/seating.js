// Taking and giving up a seat: the join form, Leave the seat before the
// start, Leave the game in play, and where the focus goes once the form is gone.
import { request } from "/shared/api.js";
import { savedName, saveName, sayError } from "./common.js";
import { conn, connect } from "./connection.js";

const $ = (id) => document.getElementById(id);

// joinFocus: the person just took a seat with the join form, which is
// gone, and the focus with it (onto <body>: the next Tab started at the
// page's top). Until a card of their hand has it, a focus left on <body>
// goes to what they can do now: Leave the seat before the start, then
// the hand.
let joinFocus = false;

// installSeating wires the join form and the Leave button of table id;
// hello makes the message that subscribes again (connection.js);
// leaveOffered says whether the view shown offers Leave the game.
export function installSeating(id, hello, leaveOffered) {
  // Leaving before the start opens the seat for someone else; the
  // table's next view shows this page as a spectator again, with the
  // join form.
  // Leaving in play marks the seat away and a bot plays it: the views
  // after it stop the page, offering Come back (connection.js).
  for (const b of [$("leave"), $("leave-game")]) {
    b.addEventListener("click", async () => {
      conn.leaving = true;
      const box = $("leave-game-box");
      box.hidden = true;
      try { await request("POST", `/api/arlington/tables/${encodeURIComponent(id)}/leave`); } catch (e) {
        // Not left: the button comes back, to try again, if the view
        // shown now still offers it (the game may have ended meanwhile,
        // and then there is nothing to leave).
        conn.leaving = false;
        box.hidden = !leaveOffered();
        sayError(e.message);
      }
    });
  }
  $("name").value = savedName();
  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = $("name").value.trim();
    saveName(name);
    try {
      // Set before the answer: the view with the seat may come first.
      joinFocus = true;
      await request("POST", `/api/arlington/tables/${encodeURIComponent(id)}/join`, { name });
      // A Leave pressed once the seat's view came (the game started as
      // the answer was on its way) stopped the page: it stays stopped.
      if (conn.left) return;
      // A new hello resubscribes: the seat's view comes on the same
      // connection. It keeps the person away (keepAway) if they are: a
      // Leave that reached the table before it is not undone.
      if (conn.ws && conn.ws.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify(hello({ keepAway: true })));
      // A page refused as a spectator (offerSeat) has no connection, only
      // a retry planned: it connects now, as the seated person.
      else if (!conn.ws) connect(true);
    } catch (e) { joinFocus = false; sayError(e.message); }
  });
}

// focusAfterJoin, for a page seated and just drawn, places a focus the
// join form took with it (joinFocus).
export function focusAfterJoin() {
  if (!joinFocus) return;
  const f = document.activeElement;
  // A control just hidden (Leave the seat, as the game starts) still
  // holds the focus until the browser notices: it is lost all the same.
  if (f && f !== document.body && f.offsetParent !== null) {
    if (f.id !== "leave") joinFocus = false; // the person put it elsewhere
    return;
  }
  const card = document.querySelector("#hand button");
  const to = card || (!$("seated").hidden ? $("leave") : null);
  if (!to) return;
  // Without scrolling: the page brings the turn and the sheet into view
  // by its own rules (onscreen.js).
  to.focus({ preventScroll: true });
  if (card) joinFocus = false;
}

// offerSeat, for a page refused a spectator place whose refusal says a
// seat is open (seatOpen: its address has the most a table takes, a
// classroom behind one router, or the table is full of spectators),
// shows the join form (open), or hides it when a later refusal says no
// seat is open: taking a seat needs no spectator place, and without a
// view the form would never show. The table's next view, once seated,
// hides it again; a seat taken meanwhile by someone else makes the
// join's answer say so.
export function offerSeat(open) {
  $("join").hidden = !open;
}
