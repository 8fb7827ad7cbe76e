// The table page's hand and actions box, each drawn only as far as it
// changed (table.js says what to draw): a card still in the hand keeps
// its button, and the actions are drawn again only when what they show
// changed, so the focused card or action stays the very element it was.
import { cardEl, words, unchanged } from "./render.js";
import { el, spoken } from "./common.js";
import { renderActions } from "./actions.js";
import { legalFor, tryAction } from "./hand.js";

// drawActions draws the actions box with draw when what it shows (key)
// changed since it last drew (render.js's unchanged; its redrawAll makes
// the next one draw whatever its key).
export function drawActions(acts, key, draw) {
  if (unchanged(acts, key)) return;
  acts.replaceChildren();
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
  if (t.turnSeconds > 0) {
    const s = t.turnSeconds;
    const d = s < 60 ? `${s} s` : s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
    const when = t.rated ? "this game is rated: " : "if others are waiting, ";
    acts.appendChild(el("p", "small turn-timer", `Turn timer: ${when}after ${d} a bot plays this turn for you.`));
  }
  const tools = el("div", "act-tools");
  const h = el("button", "hint-button", "Hint");
  h.type = "button";
  h.id = "btn-hint";
  h.title = "What the hard bot would play from your seat (key H)";
  h.disabled = stopped;
  h.addEventListener("click", t.hint);
  tools.appendChild(h);
  if (selected.length) {
    const clear = el("button", "", "Clear selection");
    clear.type = "button";
    clear.id = "btn-clear";
    clear.addEventListener("click", t.clear);
    tools.appendChild(clear);
  }
  // A selection no legal action plays as it is may still be tried: the
  // server refuses it and names the rule.
  const all = legalFor(m, cards);
  if (selected.length && !all.some((x) => x.exact)) {
    const b = el("button", "try", `Play ${cards.map(words).join(" ")}`);
    b.type = "button";
    b.id = "btn-try";
    b.setAttribute("aria-label", spoken(b.textContent));
    b.dataset.action = tryAction(v, cards);
    b.disabled = waiting;
    b.addEventListener("click", () => t.act(b.dataset.action));
    tools.appendChild(b);
  }
  acts.appendChild(tools);
  // Every legal action is a button, in words with its points, grouped by
  // what it does; a selection narrows them to those that play the
  // selected cards, the exact ones first.
  const shown = selected.length ? all.filter((x) => x.exact).concat(all.filter((x) => !x.exact)) : all;
  renderActions(acts, shown, { me: m.seat, names: t.names, open: t.openGroups, selecting: selected.length > 0, hinted: t.hinted, waiting,
    round: v.phase === "round", onAct: t.act });
}
