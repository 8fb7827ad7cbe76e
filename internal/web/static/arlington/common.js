// What the Arlington lobby and table pages share beyond /shared/: the
// display name kept in the browser, and a small element builder.

const NAME_KEY = "arlington.name";
export function savedName() { try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; } }
export function saveName(n) { try { localStorage.setItem(NAME_KEY, n); } catch { /* private mode: not kept */ } }

// points is the word for n points: "1 point", "0 points", "32 points".
export function points(n) { return n === 1 ? "point" : "points"; }

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// nameEl is an element showing a player's name, which the page may cut
// short with an ellipsis where room is short (a phone): the whole name is
// its title (shown on hover) and its text (what a screen reader reads).
export function nameEl(tag, cls, name) {
  const e = el(tag, cls, name);
  e.title = name;
  return e;
}

// ruleHref is the rules page's section for a rule the engine names in a
// refusal ("Leading a Set" -> /arlington/rules#leading-a-set).
export function ruleHref(rule) {
  return "/arlington/rules#" + rule.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

// barBottom is where the page's sticky bar ends in the window: what lies
// above it is hidden.
export function barBottom() {
  const bar = document.querySelector(".bar");
  return bar ? bar.getBoundingClientRect().bottom : 0;
}
