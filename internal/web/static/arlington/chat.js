// The table's chat: the lines the page has (the table's last 50), the
// list that shows them and the field that sends a line.
import { el } from "./common.js";
import { conn } from "./connection.js";

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
export function addChat(got) {
  const seen = new Set(lines.map(key));
  lines = lines.concat(got.filter((l) => !seen.has(key(l)))).slice(-KEEP);
}

// renderChat draws the lines when they changed, the list scrolled to the
// newest.
export function renderChat() {
  const box = $("chat");
  if (box.children.length === lines.length && (!lines.length || box.lastElementChild.dataset.key === key(lines[lines.length - 1]))) return;
  box.replaceChildren();
  for (const l of lines) {
    const li = el("li");
    li.dataset.key = key(l);
    // A spectator's line says so: a spectator's name is not checked, so
    // it must not pass for a seated player's.
    li.appendChild(el("b", "", l.seat < 0 ? `${l.name} (watching): ` : `${l.name}: `));
    li.appendChild(document.createTextNode(l.text));
    box.appendChild(li);
  }
  box.scrollTop = box.scrollHeight;
}

// installChat sends the field's line on Send (or Enter).
export function installChat() {
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const t = $("chat-text").value.trim();
    if (t && conn.ws && conn.ws.readyState === WebSocket.OPEN) { conn.ws.send(JSON.stringify({ type: "chat", text: t })); $("chat-text").value = ""; }
  });
}
