// The legal actions, grouped by what they do, each with its points as the
// server tells them (legalPoints: the change of every seat's points on
// the tables; the page scores nothing itself).
import { el, points, spoken, sync } from "./common.js";

// GROUPS: each verb of the notation's group, in the order shown.
const GROUPS = [
  { id: "play", verbs: ["play"], title: "Play a card to the trick" },
  { id: "lead", verbs: ["lead"], title: "Lead a card" },
  { id: "set", verbs: ["set"], title: "Lay a set" },
  { id: "add", verbs: ["add", "pickup"], title: "Add to a set" },
  { id: "kill", verbs: ["kill", "s2"], title: "Kill a set with the S2" },
  { id: "pass", verbs: ["pass"], title: "Pass" },
];
// A group of sets or additions of more than this many is folded until
// opened (or a selection narrows it): a hand with a joker offers dozens of
// ways to add a card. Cards to lead or play (eight at most) never fold.
const FOLD = 8;
const FOLDS = new Set(["set", "add"]);

function groupOf(action) {
  const verb = action.split(" ")[0];
  return GROUPS.find((g) => g.verbs.includes(verb)) || GROUPS[0];
}

// pointsWords is an action's points in words for the player in seat me:
// "+4 for you", "Bob −4", "no points".
function pointsWords(delta, me, names) {
  if (!delta) return "";
  const parts = [];
  delta.forEach((d, s) => {
    if (!d) return;
    const n = `${d > 0 ? "+" : "−"}${Math.abs(d)}`;
    parts.push(s === me ? `${n} for you` : `${names[s]} ${n}`);
  });
  return parts.length ? parts.join(", ") : "no points";
}

// bestFor is the most an action of the list gains the player (for a
// folded group's summary).
function bestFor(list, me) {
  return Math.max(...list.map((x) => (x.delta ? x.delta[me] || 0 : 0)));
}

// renderActions draws the offered actions (xs: {a, words, delta, exact})
// into box after the sync entries before (the turn's tools), grouped;
// open is the set of group ids the player unfolded (kept across
// redraws); onAct plays one. A group or a button already drawn is kept
// and brought up to date (common.js's sync): sending an action, a
// selection or a hint changes a few marks, and the box made some 60 to
// 130 elements anew for them, the focused button among them.
export function renderActions(box, xs, o, before = []) {
  const { me, open, selecting, hinted } = o;
  const byGroup = new Map();
  for (const x of xs) {
    const g = groupOf(x.a);
    if (!byGroup.has(g.id)) byGroup.set(g.id, []);
    byGroup.get(g.id).push(x);
  }
  const groups = [];
  for (const g of GROUPS) {
    const list = byGroup.get(g.id);
    if (!list) continue;
    const folded = FOLDS.has(g.id) && list.length > FOLD && !selecting && !list.some((x) => x.a === hinted);
    const title = g.id === "set" && o.round ? "Answer with a higher set" : g.title;
    const best = bestFor(list, me);
    const head = `${title} (${list.length}${best > 0 ? `, up to +${best} ${points(best)}` : ""})`;
    groups.push({
      key: `group ${g.id} ${folded}`,
      make: () => groupEl(g, folded, open),
      update: (wrap) => {
        const h = wrap.firstElementChild;
        if (h.textContent !== head) h.textContent = head;
        sync(wrap.lastElementChild, list.map((x) => actionButton(x, o)));
      },
    });
  }
  sync(box, before.concat(groups));
}

// groupEl is a group's box: a heading (or a folded group's summary) and
// its row of buttons, filled by renderActions.
function groupEl(g, folded, open) {
  const wrap = el(folded ? "details" : "div", "act-group");
  wrap.dataset.group = g.id;
  if (folded) {
    wrap.appendChild(el("summary", "act-head"));
    wrap.open = open.has(g.id);
    wrap.addEventListener("toggle", () => { if (wrap.open) open.add(g.id); else open.delete(g.id); });
  } else {
    const h = el("h3", "act-head");
    h.id = `act-h-${g.id}`;
    wrap.setAttribute("role", "group");
    wrap.setAttribute("aria-labelledby", h.id);
    wrap.appendChild(h);
  }
  wrap.appendChild(el("div", "act-list"));
  return wrap;
}

// actionButton is the sync entry of action x's button: made once for its
// action, words and points; its marks (matching the selection, hinted,
// waiting for an answer) and what a click does brought up to date.
function actionButton(x, o) {
  const { me, names, selecting, hinted, waiting } = o;
  const pw = pointsWords(x.delta, me, names);
  return {
    key: JSON.stringify([x.a, x.words, pw]),
    make: () => {
      const b = el("button", "act");
      b.type = "button";
      b.dataset.action = x.a;
      const pts = el("span", "pts" + (x.delta && x.delta[me] > 0 ? " gain" : x.delta && x.delta.some((d) => d < 0) ? " hurt" : ""), pw === "no points" ? "0" : pw);
      pts.setAttribute("aria-hidden", "true");
      b.appendChild(pts);
      b.appendChild(el("span", "act-words", x.words));
      b.setAttribute("aria-label", spoken(pw ? `${x.words}: ${pw}` : x.words));
      b.addEventListener("click", () => acts.get(b)(x.a));
      return b;
    },
    update: (b) => {
      b.classList.toggle("match", !!(selecting && x.exact));
      b.classList.toggle("hinted", x.a === hinted);
      b.disabled = waiting;
      acts.set(b, o.onAct);
    },
  };
}

// acts holds what a click on each action button does: the latest
// drawing's onAct.
const acts = new WeakMap();
