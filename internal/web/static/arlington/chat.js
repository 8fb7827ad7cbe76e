// The table's chat: the lines the page has (the table's last 50), the
// list that shows them and the field that sends a line.
import { el, say } from "./common.js";
import { conn, actionSent } from "./connection.js";
import { usable } from "./hand.js";

const $ = (id) => document.getElementById(id);
const KEEP = 50; // the lines kept: the table keeps as many
let lines = [];

const key = (l) => `${l.n}|${l.at}`;

// lastChat is the number of the last line the page has (undefined: none),
// which a hello names so the server sends only the lines after it.
export function lastChat() {
  return lines.length ? lines[lines.length - 1].n : undefined;
}

// addChat adds the lines the page does not show yet. The hello names
// the last line the page has, so the server sends each line once; a line
// is still its number and time, so that one sent again (a database
// restored from an older backup numbers its lines again) shows once.
// Lines that come while the page is open (fresh) are said, as the list
// shows them (the list is no live region: said here, a line is said
// once), their words as written (no card words in "OK♥"); the
// earlier lines a page opens with are not. The person's own line is not
// said back: its taking was said, "Sent." (ackedLine). seat is the
// page's seat (-1: watching): a seated person's lines are their seat's;
// a spectator's are those with the words they sent.
export function addChat(got, fresh, seat) {
  const seen = new Set(lines.map(key));
  const added = got.filter((l) => !seen.has(key(l)));
  lines = lines.concat(added).slice(-KEEP);
  if (!fresh) return;
  for (const l of added) {
    if (ownLine(l, seat)) continue;
    say(l.seat < 0 ? `${l.name} (watching): ${l.text}` : `${l.name}: ${l.text}`, [l.name, l.text]);
  }
}

// mine is the words of the lines this page sent whose own echo has not
// come yet, the last few: a spectator's line is known by its words
// (spectators have no seat to tell them apart; another spectator's
// identical line at the same moment is taken for one's own, and not
// said). Each is {text, at}: a line whose echo never came (refused after
// the wait, or the connection lost) is forgotten after MINE_MS, so that
// it does not silence another person's same words ("gg") later on.
let mine = [];
const MINE_KEEP = 5;
const MINE_MS = 30000;

// ownLine reports whether l is the page's person's own line.
function ownLine(l, seat) {
  const now = Date.now();
  mine = mine.filter((x) => now - x.at < MINE_MS);
  const i = l.seat === seat ? mine.findIndex((x) => x.text === l.text) : -1;
  if (i >= 0) mine.splice(i, 1);
  return (seat >= 0 && l.seat === seat) || i >= 0;
}

// renderChat draws the lines when they changed. A list the player reads
// at its end follows the newest line; one they scrolled up to read older
// lines stays where it is (the first line in sight at the same place),
// and a "New messages" button over its foot takes them down when pressed,
// as chat programs do. Only the new lines are made, and the oldest
// removed past KEEP: the list was made anew at each line (some 200
// elements with 50 lines kept), and a screen reader reading it, or a
// selection in it, lost its place.
export function renderChat() {
  const box = $("chat");
  const had = box.lastElementChild ? box.lastElementChild.dataset.key : "";
  // The box shows the lines up to had, in order (lines only grows at its
  // end): the lines after it are new. had gone from lines (more than KEEP
  // came at once) leaves none of the box's lines kept.
  const from = had ? lines.findIndex((l) => key(l) === had) + 1 : 0;
  if (from === lines.length) return;
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  const anchor = atEnd ? null : inSight(box);
  if (had && from === 0) box.replaceChildren();
  for (const l of lines.slice(from)) box.appendChild(line(l));
  while (box.children.length > lines.length) box.firstElementChild.remove();
  const now = anchor && [...box.children].find((li) => li.dataset.key === anchor.key);
  if (!now) { toEnd(); return; }
  box.scrollTop += now.getBoundingClientRect().top - box.getBoundingClientRect().top - anchor.off;
  if (box.lastElementChild.dataset.key !== had) $("chat-new").hidden = false;
}

// line makes the list's item for chat line l.
function line(l) {
  const li = el("li");
  li.dataset.key = key(l);
  // A spectator's line says so: a spectator's name is not checked, so
  // it must not pass for a seated player's.
  // The name and the words each in a <bdi>: a right-to-left name
  // ("אבי") must not pull the words' first digits to its left, nor
  // right-to-left words the name to the line's end.
  const who = el("b");
  who.append(el("bdi", "", l.name), l.seat < 0 ? " (watching): " : ": ");
  li.append(who, el("bdi", "", l.text));
  return li;
}

// inSight is the first line of the list in sight and how far below the
// list's top it lies.
function inSight(box) {
  const top = box.getBoundingClientRect().top;
  for (const li of box.children) {
    const r = li.getBoundingClientRect();
    if (r.bottom > top) return { key: li.dataset.key, off: r.top - top };
  }
  return null;
}

// toEnd shows the newest line, the "New messages" button gone.
function toEnd() {
  const box = $("chat");
  box.scrollTop = box.scrollHeight;
  $("chat-new").hidden = true;
}

// The line sent and not yet answered: {text, ref, ws, timer} (null:
// none). The field keeps it until the server takes it: a refused line
// is still there to send again. Each line carries a ref of its own,
// which the server's answer to it (an "ack", or an "error" whatever its
// kind) gives back, so the page ends the wait on its own line's answer
// and on no other: another spectator's identical line, echoed to all,
// is not this one's.
let pending = null;
let sent = 0; // the refs this page gave: its lines, numbered

// late is the last line whose wait ran out ({text, ref, ws}, null: none):
// its answer may still come, and then ends what the chat said of it
// (the field emptied if it still holds that line), so the player is not
// left to send it twice. Only the last is kept: the page's memory of
// lines stays bounded.
let late = null;
const NO_ANSWER = "No answer from the server yet: your message is kept; if it is not in the chat, press Send again.";

// WAIT is how long the page awaits an answer before it gives the line
// back to the player, saying none came yet. The server answers a line
// once it has stored it: at once mostly, but up to 20 s when its store
// is slow (the write, then after a refused write a reread, 10 s each),
// and more behind another command of the table. So a silence past WAIT
// is not taken for a dead connection (the quiet check, wake.js, finds
// those): the line is kept (late), and its answer coming later still
// ends what the chat said of it (ackedLine, refusedLine).
const WAIT = 10000;

// cleaned is a line as the server keeps it: control and format
// characters made spaces, the ends trimmed (table.cleanChat).
export const cleaned = (t) => t.replace(/[\p{Cc}\p{Cf}]/gu, " ").trim();

// settle ends the wait for the line sent: said (if any) goes by the
// chat field, where the player just pressed Send (a field at the
// window's foot would leave it out of sight).
function settle(said) {
  clearTimeout(pending.timer);
  pending = null;
  $("chat-msg").textContent = said;
  if (said) $("chat-msg").scrollIntoView({ block: "nearest" });
}

// ackedLine takes the server's "ack" of the line sent: the field is
// emptied, unless the player already typed something else there.
function ackedLine(m) {
  if (late && m.ref && m.ref === late.ref) {
    if (cleaned($("chat-text").value) === late.text) $("chat-text").value = "";
    if ($("chat-msg").textContent === NO_ANSWER) $("chat-msg").textContent = "";
    late = null;
    say("Sent.");
    return;
  }
  if (!pending || !m.ref || m.ref !== pending.ref) return;
  if (cleaned($("chat-text").value) === pending.text) $("chat-text").value = "";
  settle("");
  say("Sent.");
}

// refusedLine takes the refusal of a chat line (true: the chat says
// it, with what to do; the line stays in the field); a refusal without
// a ref (an action's) is the page's. Only chat lines carry refs, so one
// answering a line the player has replaced since (or whose wait ran
// out) is said by the chat too, as an earlier message not sent.
function refusedLine(m) {
  if (!m.ref) return false;
  const why = m.error || "refused";
  if (late && m.ref === late.ref) late = null;
  if (!pending || m.ref !== pending.ref) {
    $("chat-msg").textContent = `An earlier message was not sent: ${why}.`;
    $("chat-msg").scrollIntoView({ block: "nearest" });
    return true;
  }
  const i = mine.findLastIndex((x) => x.text === pending.text); // refused: no echo comes
  if (i >= 0) mine.splice(i, 1);
  settle(m.class === "too_many" ?
    `Not sent: ${why}, then press Send again (your message is kept).` :
    m.class === "bad_request" ?
      `Not sent: ${why}. Your message is kept: change it and press Send again.` :
      `Not sent: ${why}. Your message is kept: press Send again.`);
  return true;
}

// lostLine ends the wait when the connection the line went on closed:
// the line may or may not have reached the table, so the player reads
// the chat before sending it again.
function lostLine(ws) {
  if (!pending || pending.ws !== ws) return;
  settle("The connection was lost before your message was answered: it is kept; if it is not in the chat, press Send again.");
}

// chatAwaiting says whether a line sent on the connection open now
// awaits its answer (its wait here run out or not): the server stores a
// line before it answers, and reads a ping sent after it only then, so
// the connection's checks (wake.js) are held back meanwhile.
export function chatAwaiting() {
  const ws = conn.ws;
  return !!ws && ((pending !== null && pending.ws === ws) || (late !== null && late.ws === ws));
}

// installChat sends the field's line on Send (or Enter), the list taken
// to its end where the line will show; "New messages" takes it there
// too, and so does the player scrolling down to the end.
export function installChat() {
  const said = el("p", "msg chat-msg");
  said.id = "chat-msg";
  said.setAttribute("role", "alert");
  $("chat-form").after(said);
  conn.chat = { refused: refusedLine, acked: ackedLine, lost: lostLine };
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const t = cleaned($("chat-text").value);
    if (!t || !conn.ws || conn.ws.readyState !== WebSocket.OPEN) return;
    if (pending && pending.ws === conn.ws && pending.text === t) return; // sent: its answer is awaited
    if (pending) clearTimeout(pending.timer);
    const ref = String(++sent);
    const timer = setTimeout(() => {
      if (!pending || pending.ref !== ref) return;
      late = { text: t, ref, ws: pending.ws };
      settle(NO_ANSWER);
    }, WAIT);
    pending = { text: t, ref, ws: conn.ws, timer };
    mine = mine.concat({ text: t, at: Date.now() }).slice(-MINE_KEEP);
    said.textContent = "";
    conn.ws.send(JSON.stringify({ type: "chat", text: t, ref }));
    actionSent();
    toEnd();
  });
  // Pressed from the keyboard, the button goes as it is pressed: the
  // focus goes to the list (to read on with the arrows) rather than
  // falling to the page's top.
  $("chat-new").addEventListener("click", () => {
    const had = document.activeElement === $("chat-new");
    toEnd();
    if (had) $("chat").focus({ preventScroll: true });
  });
  $("chat").addEventListener("scroll", () => {
    const box = $("chat");
    if (box.scrollTop + box.clientHeight >= box.scrollHeight - 4) $("chat-new").hidden = true;
  });
}

// chatFrom is where the keyboard's focus was when C went to the chat:
// Escape in the chat's field goes back there (else to the hand).
let chatFrom = null;

// enterChat (the key C) opens the chat and puts the focus in its field.
export function enterChat() {
  const f = document.activeElement;
  const box = document.getElementById("chat-box");
  chatFrom = f && f !== document.body && !box.contains(f) ? f : null;
  box.open = true;
  document.getElementById("chat-text").focus();
}

// leaveChat (Escape in the chat's field) takes the focus back to where C
// came from, else to the hand's first card; the words typed stay.
export function leaveChat() {
  const to = usable(chatFrom) ? chatFrom : document.querySelector("#hand button");
  chatFrom = null;
  if (usable(to)) to.focus();
}
