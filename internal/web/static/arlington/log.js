// The whole game's log, grouped by hand: every event in words, kept when
// the next hand is dealt (a hand-ending kill stays readable), rebuilt from
// the server's log after a reload (each connection is sent the whole game
// from event 0), and searchable with a filter box.
import { el } from "./common.js";

export class GameLog {
  constructor(box, filter) {
    this.box = box;
    this.filter = filter;
    this.shown = 0; // events drawn
    this.groups = new Map(); // hand -> its <ol>
    filter.addEventListener("input", () => this.applyFilter());
  }

  // render draws the events the log lacks; a log that changed under what
  // is drawn (a new subscription replaced it) is drawn again from the start.
  render(events, words, standIn, rebuild) {
    // Where the player was reading, looked at before a rebuild empties
    // the box (empty, it reads as scrolled to the end: a player who had
    // scrolled up was sent back down when a move was retold).
    const atEnd = this.box.scrollTop + this.box.clientHeight >= this.box.scrollHeight - 8;
    const top = this.box.scrollTop;
    const again = rebuild || events.length < this.shown;
    if (again) {
      this.box.replaceChildren();
      this.groups.clear();
      this.shown = 0;
    }
    for (let i = this.shown; i < events.length; i++) {
      const e = events[i];
      let ol = this.groups.get(e.hand);
      if (!ol) {
        const sec = el("section", "log-hand");
        sec.hidden = true; // until an event of it shows (below)
        sec.dataset.hand = e.hand;
        sec.appendChild(el("h3", "", `Hand ${e.hand}`));
        ol = el("ol");
        sec.appendChild(ol);
        this.box.appendChild(sec);
        this.groups.set(e.hand, ol);
      }
      const bot = standIn.has(e.n);
      const li = el("li", "ev-" + e.kind + (bot ? " stand-in" : ""), (bot ? "A bot played for you: " : "") + (words[i] || ""));
      li.dataset.n = e.n;
      ol.appendChild(li);
      // A hand of six can pass 99 events: its numbers take a digit more
      // room ("149." lost its 1 at the log's left edge).
      if (ol.children.length === 100) ol.classList.add("long");
      this.match(li);
      // A hand shows once an event of it does: events are only added
      // here, so no other hand's changes (hideEmpty went through every
      // event drawn at each view).
      if (!li.hidden) ol.parentElement.hidden = false;
    }
    this.shown = events.length;
    if (atEnd) this.box.scrollTop = this.box.scrollHeight;
    else if (again) this.box.scrollTop = top;
  }

  match(li) {
    const q = this.filter.value.trim().toLowerCase();
    li.hidden = q !== "" && !li.textContent.toLowerCase().includes(q);
  }

  applyFilter() {
    for (const li of this.box.querySelectorAll("li")) this.match(li);
    this.hideEmpty();
  }

  hideEmpty() {
    for (const ol of this.groups.values()) ol.parentElement.hidden = ![...ol.children].some((li) => !li.hidden);
  }
}
