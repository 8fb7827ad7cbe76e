// The legal actions, grouped by what they do, each with its points as the
// server tells them (legalPoints: the change of every seat's points on
// the tables; the page scores nothing itself).
import { el, points, spoken } from "./common.js";

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
// into box, grouped; open is the set of group ids the player unfolded
// (kept across redraws); onAct plays one. Returns the buttons.
export function renderActions(box, xs, o) {
  const { me, names, open, selecting, hinted, waiting, onAct } = o;
  const byGroup = new Map();
  for (const x of xs) {
    const g = groupOf(x.a);
    if (!byGroup.has(g.id)) byGroup.set(g.id, []);
    byGroup.get(g.id).push(x);
  }
  for (const g of GROUPS) {
    const list = byGroup.get(g.id);
    if (!list) continue;
    const folded = FOLDS.has(g.id) && list.length > FOLD && !selecting && !list.some((x) => x.a === hinted);
    const wrap = el(folded ? "details" : "div", "act-group");
    wrap.dataset.group = g.id;
    const title = g.id === "set" && o.round ? "Answer with a higher set" : g.title;
    const best = bestFor(list, me);
    const head = `${title} (${list.length}${best > 0 ? `, up to +${best} ${points(best)}` : ""})`;
    if (folded) {
      const sum = el("summary", "act-head", head);
      wrap.appendChild(sum);
      wrap.open = open.has(g.id);
      wrap.addEventListener("toggle", () => { if (wrap.open) open.add(g.id); else open.delete(g.id); });
    } else {
      const h = el("h3", "act-head", head);
      h.id = `act-h-${g.id}`;
      wrap.setAttribute("role", "group");
      wrap.setAttribute("aria-labelledby", h.id);
      wrap.appendChild(h);
    }
    const row = el("div", "act-list");
    for (const x of list) {
      const b = el("button", "act" + (selecting && x.exact ? " match" : ""));
      b.type = "button";
      b.dataset.action = x.a;
      const pw = pointsWords(x.delta, me, names);
      const pts = el("span", "pts" + (x.delta && x.delta[me] > 0 ? " gain" : x.delta && x.delta.some((d) => d < 0) ? " hurt" : ""), pw === "no points" ? "0" : pw);
      pts.setAttribute("aria-hidden", "true");
      b.appendChild(pts);
      b.appendChild(el("span", "act-words", x.words));
      b.setAttribute("aria-label", spoken(pw ? `${x.words}: ${pw}` : x.words));
      if (x.a === hinted) b.classList.add("hinted");
      b.disabled = waiting;
      b.addEventListener("click", () => onAct(x.a));
      row.appendChild(b);
    }
    wrap.appendChild(row);
    box.appendChild(wrap);
  }
}
