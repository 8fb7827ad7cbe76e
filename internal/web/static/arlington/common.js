// What the Arlington lobby and table pages share beyond /shared/: the
// display name kept in the browser, and a small element builder.

const NAME_KEY = "arlington.name";
export function savedName() { try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; } }
export function saveName(n) { try { localStorage.setItem(NAME_KEY, n); } catch { /* private mode: not kept */ } }

// points is the word for n points: "1 point", "0 points", "32 points".
export function points(n) { return n === 1 ? "point" : "points"; }

// Cards written with suit symbols ("7♠", "10♥") are shown so but spoken
// in words ("seven of spades"): a screen reader reads "♠" raw as "black
// spade suit", or not at all, and a row of cards as one run of symbols.
const RANK_WORDS = { A: "ace", K: "king", Q: "queen", J: "jack", 10: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
const SUIT_WORDS = { "♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs" };
const CARD = /(10|[2-9AJQK])([♠♥♦♣])/g;

// spoken is text with its cards in words, cards in a row separated by
// commas: "Ann leads the set 7♠ 7♥" is "Ann leads the set seven of
// spades, seven of hearts".
export function spoken(text) {
  return String(text).replace(/(?:10|[2-9AJQK])[♠♥♦♣] (?=(?:10|[2-9AJQK])[♠♥♦♣]|joker\b)/g, (c) => c.trimEnd() + ", ")
    .replace(CARD, (_, r, s) => `${RANK_WORDS[r]} of ${SUIT_WORDS[s]}`);
}

// say tells a screen reader what happened, in the table page's one live
// region, #say (the last few lines stay, so one arriving mid-sentence is
// not lost), its cards in words. The refusal and preview lines people see
// are no live regions: each thing is said once, here.
export function say(text) {
  const box = document.getElementById("say");
  if (!text || !box) return;
  box.appendChild(el("p", "", spoken(text)));
  while (box.children.length > 4) box.firstElementChild.remove();
}

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
