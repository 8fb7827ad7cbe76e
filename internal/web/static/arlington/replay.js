// The replay of a finished game: step forward and back through its steps
// (the deal, then each action with what followed), every hand shown: the
// game is over, so its record with the seed is public. The server sends
// the steps in pages (GET .../replay?from=N) as the player moves on.
import { request } from "/shared/api.js";
import { el, points, nameEl } from "./common.js";
import { group, cardEl, words, spectrumWords } from "./render.js";

const $ = (id) => document.getElementById(id);

// replayBox is the replay's panel, made once: before the element with id
// "say" where the page has one (the table page), else at the end of <main>.
function replayBox() {
  if ($("replay")) return $("replay");
  const box = el("section", "panel replay");
  box.id = "replay";
  box.hidden = true;
  box.setAttribute("aria-labelledby", "h-replay");
  const h = el("h2", "", "Replay");
  h.id = "h-replay";
  const pos = el("p", "rp-pos");
  pos.id = "rp-pos";
  pos.setAttribute("aria-live", "polite");
  const bar = el("div", "replay-bar");
  for (const [id, text, label] of [["rp-first", "Start", "To the start"], ["rp-back", "◀ Back", "Step back"],
    ["rp-next", "Next ▶", "Step forward"], ["rp-last", "End", "To the end"], ["rp-close", "Close", ""]]) {
    const b = el("button", "", text);
    b.type = "button";
    b.id = id;
    if (label) b.setAttribute("aria-label", label);
    bar.append(b);
  }
  const parts = [["ol", "rp-words", "rp-words"], ["div", "rp-trick", "play"], ["div", "rp-seats", "players"]].map(([tag, id, cls]) => {
    const e = el(tag, cls);
    e.id = id;
    return e;
  });
  box.append(h, pos, bar, ...parts);
  const say = $("say");
  if (say) say.before(box);
  else document.querySelector("main").append(box);
  return box;
}

export class Replay {
  constructor(tableID) {
    replayBox();
    this.id = tableID;
    this.steps = [];   // fetched steps by number (sparse)
    this.total = 0;
    this.names = [];
    this.at = 0;
    this.target = 0;
    this.opener = null; // what opened the panel: Close gives it the focus back
    $("rp-first").addEventListener("click", () => this.go(0));
    $("rp-back").addEventListener("click", () => this.go(this.at - 1));
    $("rp-next").addEventListener("click", () => this.go(this.at + 1));
    $("rp-last").addEventListener("click", () => this.go(this.total - 1));
    $("rp-close").addEventListener("click", () => this.close());
    $("replay").addEventListener("keydown", (ev) => {
      if (ev.key === "ArrowRight") { this.go(this.at + 1); ev.preventDefault(); }
      if (ev.key === "ArrowLeft") { this.go(this.at - 1); ev.preventDefault(); }
    });
  }

  // open shows the panel and moves the focus and the page to it at once,
  // answering the click: the steps come after (a fetch), and moving the
  // focus only then took it from wherever the player had gone meanwhile.
  // The focus goes to Next, or Back at the replay's end.
  // opener, the button pressed ("Watch the replay", a game's Replay), is
  // kept for Close to give the focus back to. It comes from the click,
  // not from the focus: Safari, and Firefox on a Mac, do not focus a
  // clicked button, and a replay opened so kept the button that opened
  // the one before (on "Your games", another game's).
  open(opener) {
    this.opener = opener || null;
    $("replay").hidden = false;
    if (!this.total) { // a replay not fetched yet starts at its first step
      $("rp-first").disabled = $("rp-back").disabled = this.at === 0;
      $("rp-next").disabled = $("rp-last").disabled = false;
    }
    ($("rp-next").disabled ? $("rp-back") : $("rp-next")).focus({ preventScroll: true });
    $("replay").scrollIntoView({ block: "start" });
    return this.go(this.at);
  }

  // close hides the panel and gives the focus back to what opened it
  // (still on the page and enabled): hidden, the panel's Close took the
  // focus to <body>, and the next Tab started from the page's top. The
  // focus scrolls the button into view where it is off the screen
  // (decision): the player is taken back to where they opened the
  // replay, with the focus where they can see it.
  close() {
    const back = this.opener && this.opener.isConnected && !this.opener.disabled ? this.opener : null;
    this.opener = null;
    $("replay").hidden = true;
    if (back) back.focus();
  }

  async fetch(from) {
    const r = await request("GET", `/api/arlington/tables/${encodeURIComponent(this.id)}/replay?from=${from}`);
    this.total = r.steps;
    this.names = r.names;
    this.target = r.target;
    for (const s of r.page) this.steps[s.n] = s;
  }

  async go(n) {
    try {
      if (!this.total) await this.fetch(0);
      n = Math.max(0, Math.min(n, this.total - 1));
      if (!this.steps[n]) await this.fetch(Math.max(0, n - (n < this.at ? 99 : 0)));
      this.at = n;
      this.draw(this.steps[n]);
    } catch (e) {
      $("rp-words").replaceChildren(el("li", "error", e.message));
    }
  }

  draw(s) {
    const names = this.names;
    $("rp-pos").textContent = `Step ${s.n + 1} of ${this.total} · hand ${s.hand}`;
    const had = document.activeElement;
    $("rp-first").disabled = $("rp-back").disabled = s.n === 0;
    $("rp-next").disabled = $("rp-last").disabled = s.n >= this.total - 1;
    // A button disabled under the focus (Next or End reaching the last
    // step, Back or Start the first) drops it to <body>: the player's
    // place, and the panel's arrow keys, with it. The focus goes to the
    // way still open (Back at the end, Next at the start; Close for a
    // replay of one step), only from a button of the bar, so a step
    // fetched while the player is elsewhere moves nothing.
    if (had && had.disabled && had.parentElement === $("rp-next").parentElement) {
      const to = !$("rp-next").disabled ? "rp-next" : !$("rp-back").disabled ? "rp-back" : "rp-close";
      $(to).focus({ preventScroll: true });
    }
    const w = $("rp-words");
    w.replaceChildren();
    for (const t of s.words || []) w.appendChild(el("li", "", t));
    const trick = $("rp-trick");
    trick.replaceChildren();
    if (s.trick && s.trick.length) {
      trick.appendChild(el("span", "label", "Trick:"));
      for (const t of s.trick) {
        const f = el("figure", "played");
        f.appendChild(cardEl(t.card));
        f.appendChild(nameEl("figcaption", "", names[t.seat]));
        trick.appendChild(f);
      }
    }
    const seats = $("rp-seats");
    seats.replaceChildren();
    s.hands.forEach((hand, i) => {
      const p = el("div", "player" + (s.toMove === i ? " to-move" : ""));
      const head = el("div", "p-head");
      // In a .p-who as at the table: bold, one line, cut short if long.
      const who = el("span", "p-who");
      who.appendChild(nameEl("span", "p-name", names[i]));
      head.appendChild(who);
      head.appendChild(el("span", "badge", `${s.totals[i]} of ${this.target}`));
      if (s.toMove === i) head.appendChild(el("span", "badge", "to play"));
      p.appendChild(head);
      p.appendChild(hand.length ? group(hand, "set rp-hand", `${names[i]}'s hand: ${hand.map(words).join(" ")}`) : el("div", "small", "no cards"));
      const sets = el("div", "sets");
      for (const ts of s.tables[i] || []) {
        const g = group(ts.cards, "set" + (ts.active ? " active" : ""));
        g.title = `${ts.spectra.map(spectrumWords).join(" or ")}, ${ts.points} ${points(ts.points)}`;
        sets.appendChild(g);
      }
      p.appendChild(sets);
      seats.appendChild(p);
    });
  }
}
