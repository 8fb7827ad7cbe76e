// The preview of a selection on the table page: what the selected cards
// do, asked of the server at each card picked.
import { request } from "/shared/api.js";
import { setWords } from "./render.js";
import { legalFor } from "./hand.js";

const $ = (id) => document.getElementById(id);

// SelectionPreview shows in #preview what the selection does. state() is
// the page's: its last view message, the selected cards and whether the
// page has stopped playing. Only the answer to the latest asking is
// shown; drop forgets any still on its way.
export class SelectionPreview {
  // say tells a screen reader each preview (the box is no live region:
  // the page's one voice says it, its cards in words).
  constructor(id, state, say) {
    this.id = id;
    this.state = state;
    this.say = say;
    this.seq = 0;
  }

  drop() { this.seq++; }

  async ask() {
    const box = $("preview");
    const seq = ++this.seq;
    const { last, cards, stopped } = this.state();
    if (!cards.length || stopped) { box.textContent = ""; box.className = "preview"; return; }
    try {
      // On the player's turn the server is asked at this table, and says
      // what the selection does in the phase of play (a card in a trick is
      // no set; only a lead leads); the words are the engine's.
      const v = last.view;
      const turn = v.toMove === last.seat;
      const p = await request("POST", turn ? `/api/arlington/tables/${encodeURIComponent(this.id)}/preview` : "/api/arlington/preview", { cards });
      if (seq !== this.seq) return; // a later selection's answer wins
      // The server's words write cards as the page does ("7♠"), and say
      // names seats ("JK's set"): they are shown as they come, since
      // rewriting card codes in them would turn a player named "JK" into
      // a joker.
      if (p.say) {
        // Marked as a warning only when no action plays the selection; a
        // card that is a set alone (an ace, the 2♥, a joker), told when
        // leading what else it can do, keeps the look of a set.
        const now = this.state(); // as it stands when the answer comes
        const plays = legalFor(now.last, now.cards).some((x) => x.exact);
        box.className = "preview" + (!plays ? " bad" : p.legal && v.phase === "lead" ? " ok" : "");
        box.textContent = p.say;
      } else if (p.legal) {
        box.className = "preview ok";
        box.textContent = setWords(p.as, !turn || v.phase === "lead");
      } else {
        box.className = "preview bad";
        box.textContent = p.why;
      }
    } catch (e) {
      // A refusal (too many previews, say) looks like one, not like the
      // previous preview it replaces.
      if (seq === this.seq) { box.className = "preview bad"; box.textContent = e.message; }
    }
    if (seq === this.seq) this.say(box.textContent);
  }
}
