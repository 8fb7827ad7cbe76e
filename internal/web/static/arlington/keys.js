// The table's keys (listed in the page's "Keys" help): P pass, S play the
// selected cards, H hint, C chat (Escape in its field comes back), Escape
// clear the selection, the arrow keys move along the hand (and into it
// from <body>). Keys typed into a field are the field's. A letter is the
// one the key types on the player's layout (shared/keys.js).

import { shortcutKey } from "/shared/keys.js";

export function installKeys(on) {
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
    const t = ev.target;
    // Escape in the chat's field goes back to where C came from (the
    // message typed so far stays): without it a keyboard player tabbed
    // back through the side panel and every action to reach the hand.
    // Not while an input method composes: its Escape cancels the word.
    if (ev.key === "Escape" && t && t.id === "chat-text" && !ev.isComposing && ev.keyCode !== 229) {
      ev.preventDefault();
      on.leaveChat();
      return;
    }
    if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
    if (t && t.closest && t.closest("#replay")) return; // the replay has its own arrow keys
    const k = shortcutKey(ev);
    if (!k) return;
    const run = { p: on.pass, s: on.play, h: on.hint, c: on.chat, Escape: on.clear }[k];
    if (run) { ev.preventDefault(); run(); return; }
    if (k !== "ArrowLeft" && k !== "ArrowRight") return;
    const cards = [...document.querySelectorAll("#hand button")];
    if (t && t.closest && t.closest("#hand")) {
      const i = cards.indexOf(t.closest("button"));
      const to = cards[i + (k === "ArrowLeft" ? -1 : 1)];
      if (to) { ev.preventDefault(); to.focus(); }
    } else if (!t || t === document.body || t === document.documentElement) {
      // Focus on nothing in particular (the page just opened or was
      // reloaded, a rematch's table): the arrows go to the hand, → to its
      // first card and ← to its last, rather than making the player tab
      // past the bar's links to reach it.
      const to = k === "ArrowLeft" ? cards[cards.length - 1] : cards[0];
      if (to) { ev.preventDefault(); to.focus(); }
    }
  });
}
