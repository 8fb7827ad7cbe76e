// What the hand and the actions need beyond drawing: which legal actions
// use the selected cards, the hand cards' keys, and keeping the keyboard's
// place when they are drawn again.

const CARD = /^([2-9TJQKA][SHDC]|JK)$/i;

// cardsIn is the cards an action plays.
export function cardsIn(a) { return a.split(" ").slice(1).filter((w) => CARD.test(w)).map((w) => w.toUpperCase()); }

// tryAction is what a player means by playing the selected cards sel
// now, in view v: one card led, else a set. (One card to a trick is
// always offered, so only several come here; sending them as a set has
// the server refuse it with the rule, where sending the first card alone
// would play it.)
export function tryAction(v, sel) {
  if (v.phase === "lead" && sel.length === 1) return `lead ${sel[0]}`;
  return `set ${sel.join(" ")}`;
}

// legalFor is the legal actions (with their words and points) that use
// every selected card.
export function legalFor(m, sel) {
  const out = [];
  m.legal.forEach((a, i) => {
    const cs = cardsIn(a);
    if (within(sel, cs)) {
      out.push({ a, words: (m.legalWords || [])[i] || a, delta: (m.legalPoints || [])[i], cards: cs, exact: cs.length === sel.length });
    }
  });
  return out;
}

// within reports whether every card of sel is in cs, counting repeats:
// two jokers need two.
function within(sel, cs) {
  const left = cs.slice();
  for (const c of sel) {
    const i = left.indexOf(c);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

// A hand card's key: its code, or for a joker "JK#k" (the k-th joker in
// the hand): the two jokers are alike but each is tapped on its own.
export function handKeys(hand) {
  let k = 0;
  return hand.map((c) => (c === "JK" ? `JK#${k++}` : c));
}
export const cardOf = (key) => key.split("#")[0];

// Focus across a redraw: a hand card or the actions drawn anew (the hand
// or the actions changed) would drop the keyboard's place onto <body>. place()
// notes where focus is (a hand card by key, an action by notation or id,
// with its position); restore() puts it back on the same control, or the
// next sensible one: the control now at that position, the first action,
// the first card.
//
// A redraw that leaves nothing to focus (the hand played out, the hand
// over) would drop the focus onto <body>, and the player's next Tab
// started again from the page's top: the place is kept (lost) and the
// focus goes back to the hand at the next redraw that has one (the next
// deal), unless the player put it somewhere else in the meantime.
let lost = null;

export function place(box) {
  const f = document.activeElement;
  if (!f || !box.contains(f)) {
    if (lost && (!f || f === document.body)) return lost;
    lost = null;
    return null;
  }
  lost = null;
  const list = [...box.querySelectorAll(f.closest("#hand") ? "#hand button" : "#actions button")];
  return { hand: !!f.closest("#hand"), key: f.dataset.key || "", action: f.dataset.action || "", id: f.id || "", at: list.indexOf(f) };
}

// usable says whether the keyboard's focus can go to control b: on the
// page, enabled and shown.
export const usable = (b) => !!b && b.isConnected && !b.disabled && b.offsetParent !== null;

// restore's follow says the redraw answers the player's own doing (an action sent,
// a card tapped, a key): a focus moved to another control is then
// scrolled into view. For anything else (the others' plays, a stand-in's
// play for the player when their clock ran out or they left) the focus
// moves without scrolling: the page jumped back down to the hand for a
// move the player did not make, while they had scrolled up to read.
export function restore(box, p, follow) {
  if (!p) return;
  const hand = [...box.querySelectorAll("#hand button")];
  const acts = [...box.querySelectorAll("#actions button")].filter(usable);
  let to = p.hand ? hand.find((b) => b.dataset.key === p.key) :
    acts.find((b) => (p.action && b.dataset.action === p.action) || (p.id && b.id === p.id));
  const same = !!to;
  if (!to && p.hand) to = hand[Math.min(p.at, hand.length - 1)];
  if (!to && !p.hand) to = acts[Math.min(p.at, acts.length - 1)] || acts.find((b) => b.dataset.action) || hand[0];
  if (!usable(to)) {
    if (!box.contains(document.activeElement)) lost = p;
    return;
  }
  if (document.activeElement === to) return;
  to.focus({ preventScroll: true });
  // Focus moved to another control by the player's own doing (the action
  // just sent is disabled, a card left the hand): shown, as any move of
  // focus is. Back on the same control the page stays put, so a player
  // reading elsewhere is not pulled back. Once the focus went to the
  // hand's first card while the page showed the foot of the actions, out
  // of sight above the window.
  if (!same && follow) to.scrollIntoView({ block: "nearest" });
}
