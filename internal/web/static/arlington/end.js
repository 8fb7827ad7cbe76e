// The game's end on the table page: who won, "Watch the replay" and the
// rematch ("Play again").
import { request, ApiError } from "/shared/api.js";
import { el, say, sayError } from "./common.js";
import { winnersText, renderSheet } from "./render.js";

const $ = (id) => document.getElementById(id);

// renderEnd shows the result once the game in view v is over (last is the
// view message, names the seats' names, id the table's, replay the
// page's replay), and hides it otherwise. It reports whether the result
// was drawn just now (the game ended, or the page arrived at its end):
// the table then brings it onto the screen (onscreen.js bringEndIntoView),
// unless the player is typing or away.
export function renderEnd(v, last, names, id, replay) {
  const box = $("winners");
  const over = v && v.toMove < 0;
  box.hidden = !over;
  if (!over) return false;
  const first = !box.querySelector("#btn-replay");
  if (first) { // drawn once (keeps focus on the button)
    box.replaceChildren(el("p", "win-text", winnersText(v, names)));
    const b = el("button", "primary", "Watch the replay");
    b.type = "button";
    b.id = "btn-replay";
    b.addEventListener("click", () => replay.open(b));
    box.appendChild(b);
    $("sheet-box").open = true;
  }
  renderRematch(box, last, id);
  return first;
}

// current is the latest view message renderRematch was given: the
// button, made once, joins under the seat's name as it stands when clicked.
let current = null;

// renderRematch offers a seated person the same seats again: "Play again"
// makes the rematch table (or finds it, once someone has), seats them there
// and goes to it; once it exists every seated page says so.
function renderRematch(box, last, id) {
  current = last;
  let b = $("btn-rematch");
  if (!last || last.seat < 0) { if (b) b.remove(); watchRematch(box, last); return; }
  if (last.rematchClosed) { rematchClosed(box); return; }
  if (!b) {
    b = el("button", "", "");
    b.type = "button";
    b.id = "btn-rematch";
    b.addEventListener("click", async () => {
      b.disabled = true;
      try {
        const t = await request("POST", `/api/arlington/tables/${encodeURIComponent(id)}/rematch`);
        // seat -1: the rematch table runs on another server and holds a
        // seat for this person there, which only a join takes.
        if (t.seat < 0) await request("POST", `/api/arlington/tables/${encodeURIComponent(t.id)}/join`, { name: current.seats[current.seat].name });
        location.assign(t.link);
      } catch (e) {
        // 404: the rematch has closed since (it ran on another server,
        // so this page was not told); joining it cannot work.
        if (e instanceof ApiError && e.status === 404) { rematchClosed(box); return; }
        sayError(e.message);
        b.disabled = false;
      }
    });
    box.appendChild(b);
  }
  const text = last.rematch ? "Rematch ready: join" : "Play again";
  // Another player made the rematch while this page showed "Play again":
  // said once (the result is no live region), the button's new words too.
  if (last.rematch && b.textContent === "Play again") say("The rematch is ready: “Rematch ready: join” takes you to it.");
  if (b.textContent !== text) b.textContent = text;
  b.classList.toggle("primary", !!last.rematch);
}

// watchRematch offers a spectator the rematch's table once the players
// made it ("Watch the rematch"), said once as it comes; a page watching
// the end had nothing to follow the same people to their next game.
function watchRematch(box, last) {
  let a = $("watch-rematch");
  if (!last || !last.rematch || last.rematchClosed) { if (a) a.remove(); return; }
  const href = `/arlington/t/${encodeURIComponent(last.rematch)}`;
  if (!a) {
    a = el("a", "", "Watch the rematch");
    a.id = "watch-rematch";
    box.appendChild(a);
    say("The players started a rematch: “Watch the rematch” takes you to it.");
  }
  if (a.getAttribute("href") !== href) a.href = href;
}

// showEnded stops the page of a table that is no longer live: nobody
// plays or chats there any more, so what asks for either goes. r is its
// finished game's result (GET .../ended), or null for a table with none
// (status is that answer's HTTP status: 404, no such table). A page that
// had the game's views (drawn, so true) keeps drawing its end from them;
// a page opened since (after a restart, or once the table closed idle)
// draws it from r: the result, "Watch the replay", the score sheet and,
// for a person who played there, "Play again"; a page with neither shows
// only why, with the way back to the lobby.
export function showEnded(r, drawn, replay, status) {
  $("chat-form").hidden = true;
  for (const id of ["join", "seated", "invite-box"]) $(id).hidden = true;
  if (drawn) { // its end stays drawn from the views; a closed rematch goes
    if (r && r.rematchClosed && $("btn-rematch")) rematchClosed($("winners"));
    return;
  }
  for (const id of ["hand-box", "log-box", "chat-box", "keys-box"]) $(id).hidden = true;
  if (!r) { showNoTable(status); return; }
  $("status").textContent = "Game over. This table has closed; the replay shows the whole game.";
  const box = $("winners");
  box.hidden = false;
  box.replaceChildren(el("p", "win-text", winnersText(r, r.names)));
  const b = el("button", "primary", "Watch the replay");
  b.type = "button";
  b.id = "btn-replay";
  b.addEventListener("click", () => replay.open(b));
  box.appendChild(b);
  renderSheet($("sheet"), r, r.names);
  $("sheet-box").open = true;
  if (r.rematchClosed) { // made once, closed since: nobody can join it
    if (r.seat >= 0) rematchClosed(box);
    return;
  }
  // The rematch button as the live page has it, over the seats' names as
  // the stored game has them.
  const seats = r.names.map((n, i) => ({ seat: i, name: i === r.seat ? r.name : n }));
  renderRematch(box, { seat: r.seat, seats, rematch: r.rematch || "" }, r.id);
}

// rematchClosed puts in box, instead of the rematch button, that the
// rematch table has closed, with the way to the lobby for a new table.
// A page that offered the rematch says so, once; one opened since shows
// it with the rest of the result.
function rematchClosed(box) {
  const b = $("btn-rematch");
  if (b) b.remove();
  if ($("rematch-closed")) return;
  const words = "The rematch table has closed. For another game, start a new table in the lobby.";
  box.appendChild(toLobby("rematch-closed", words));
  if (b) say(words);
}

// showNoTable leaves on the page of a table with no result only why, and
// the way back to the lobby: no empty hand, plays, chat or record.
function showNoTable(status) {
  document.querySelector(".side").hidden = true;
  for (const id of ["players", "play", "last", "winners"]) $(id).hidden = true;
  const words = status === 404
    ? "There is no table at this link. Check the link, or start or join a table in the lobby."
    : status === 409 ? "This table has closed without a finished game to show. Start or join a table in the lobby."
      : "Could not fetch this table's result: reload the page to try again, or go to the lobby.";
  $("status").replaceChildren(toLobby("no-table", words));
}

// toLobby is a paragraph of words (id: its id) followed by a link to the
// lobby.
function toLobby(id, words) {
  const p = el("p", "", words + " ");
  p.id = id;
  const a = el("a", "", "Back to the lobby");
  a.href = "/arlington/";
  p.appendChild(a);
  return p;
}
