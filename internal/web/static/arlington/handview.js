// The table page's hand and actions box, each drawn only as far as it
// changed (table.js says what to draw): a card still in the hand keeps
// its button, and the actions are drawn again only when what they show
// changed, so the focused card or action stays the very element it was.
import { cardEl, words, unchanged } from "./render.js";
import { el, spoken, sync } from "./common.js";
import { renderActions } from "./actions.js";
import { legalFor, tryAction } from "./hand.js";

// drawActions draws the actions box with draw when what it shows (key)
// changed since it last drew (render.js's unchanged; its redrawAll makes
// the next one draw whatever its key). draw brings the box's elements
// up to date (common.js's sync), keeping those that stay.
export function drawActions(acts, key, draw) {
  if (unchanged(acts, key)) return;
  draw();
}

// drawHand brings the hand's buttons to cards (their keys: handKeys),
// each card's marks from marks(key, card); a click on one calls
// toggle(key). A card still in the hand keeps its button, and so the
// keyboard's focus: only the cards gone are removed, the new ones made.
export function drawHand(hand, cards, keys, marks, toggle) {
  const have = new Map();
  for (const b of [...hand.children]) {
    if (keys.includes(b.dataset.key)) have.set(b.dataset.key, b); else b.remove();
  }
  let at = hand.firstChild;
  cards.forEach((c, i) => {
    const b = have.get(keys[i]) || handCard(c, keys[i], toggle);
    if (b === at) at = at.nextSibling; else hand.insertBefore(b, at);
    markCard(b, marks(keys[i], c));
  });
}

// handCard is a hand card's button.
function handCard(c, key, toggle) {
  const b = el("button", "hand-card");
  b.type = "button";
  b.dataset.card = c;
  b.dataset.key = key;
  b.setAttribute("aria-label", spoken(words(c)));
  const svg = cardEl(c);
  svg.setAttribute("aria-hidden", "true");
  b.appendChild(svg);
  b.addEventListener("click", () => toggle(key));
  return b;
}

// markCard shows on hand card b whether some legal action uses it, it is
// selected, hinted, or the page stopped.
function markCard(b, k) {
  const svg = b.firstChild;
  const pressed = k.selected ? "true" : "false";
  if (b.getAttribute("aria-pressed") !== pressed) b.setAttribute("aria-pressed", pressed);
  b.classList.toggle("legal", k.legal);
  svg.classList.toggle("legal", k.legal);
  b.classList.toggle("selected", k.selected);
  b.classList.toggle("hinted", k.hinted);
  svg.classList.toggle("hinted", k.hinted);
  b.disabled = k.stopped;
}

// turnActions draws the actions of the player's turn into acts: the
// timer's note, Hint, Clear selection, the try button, and every legal
// action. t holds the view message (m) and its view (v), the page's
// state (stopped, waiting: an action awaits its answer; selected and
// its cards; hinted; openGroups; turnSeconds, rated) and what the
// buttons do (hint, clear, act).
export function turnActions(acts, t) {
  const { m, v, stopped, waiting, selected, cards } = t;
  const before = [];
  if (t.turnSeconds > 0) {
    const s = t.turnSeconds;
    const d = s < 60 ? `${s} s` : s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
    const when = t.rated ? "this game is rated: " : "if others are waiting, ";
    const text = `Turn timer: ${when}after ${d} a bot plays this turn for you.`;
    before.push({ key: "timer " + text, make: () => el("p", "small turn-timer", text) });
  }
  const tools = [{ key: "hint", make: () => button("hint-button", "Hint", "btn-hint", (b) => { b.title = "What the hard bot would play from your seat (key H)"; }),
    update: (b) => { b.disabled = stopped; clicks.set(b, t.hint); } }];
  if (selected.length) tools.push({ key: "clear", make: () => button("", "Clear selection", "btn-clear"), update: (b) => clicks.set(b, t.clear) });
  // A selection no legal action plays as it is may still be tried: the
  // server refuses it and names the rule.
  const all = legalFor(m, cards);
  if (selected.length && !all.some((x) => x.exact)) {
    const text = `Play ${cards.map(words).join(" ")}`;
    const a = tryAction(v, cards);
    tools.push({ key: "try " + a + " " + text, make: () => button("try", text, "btn-try", (b) => { b.setAttribute("aria-label", spoken(text)); b.dataset.action = a; }),
      update: (b) => { b.disabled = waiting; clicks.set(b, () => t.act(a)); } });
  }
  before.push({ key: "tools", make: () => el("div", "act-tools"), update: (box) => sync(box, tools) });
  // Every legal action is a button, in words with its points, grouped by
  // what it does; a selection narrows them to those that play the
  // selected cards, the exact ones first.
  const shown = selected.length ? all.filter((x) => x.exact).concat(all.filter((x) => !x.exact)) : all;
  renderActions(acts, shown, { me: m.seat, names: t.names, open: t.openGroups, selecting: selected.length > 0, hinted: t.hinted, waiting,
    round: v.phase === "round", onAct: t.act }, before);
}

// clicks holds what a click on each of the turn's tools does: the latest
// drawing's (a button is kept across drawings).
const clicks = new WeakMap();

// button is a tool's button, with its class, words and id; more sets
// the rest.
function button(cls, text, id, more) {
  const b = el("button", cls, text);
  b.type = "button";
  b.id = id;
  if (more) more(b);
  b.addEventListener("click", () => clicks.get(b)());
  return b;
}
