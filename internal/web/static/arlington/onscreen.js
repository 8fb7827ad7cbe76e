// Bringing onto the screen what the player needs to see when it comes:
// their turn (the trick or set in play, the hand, the actions) and the
// score sheet that opens at the page's top after a hand, and the game's
// result. Only these and a focus moved by the player's own doing
// (hand.js, the replay opened) scroll the table page, and these three
// not while the player types or is away (table.js). While the player
// types, the page is scrolled only to keep their field where it was
// (keepField).
import { barBottom } from "./common.js";

const $ = (id) => document.getElementById(id);

// bringTurnIntoView scrolls what the player acts on onto the screen when
// their turn comes (the score sheet opened at the top pushes it below the
// fold on a laptop): the trick or set in play, their hand and the
// actions. When all of it does not fit (a window 390 px high, a phone
// held sideways) the trick or set in play goes just below the bar, the
// hand under it and the actions as far as they fit: aligning the actions'
// foot with the window's hid the trick the player had to answer under
// the bar.
export function bringTurnIntoView() {
  const box = $("hand-box").getBoundingClientRect();
  const play = $("play");
  const from = play.childElementCount ? play.getBoundingClientRect().top : box.top;
  const top = barBottom();
  const foot = window.innerHeight;
  if (from >= top && box.bottom <= foot) return;
  const fits = box.bottom - from <= foot - top;
  window.scrollBy(0, fits && from >= top ? box.bottom - foot : from - top);
}

// bringSheetIntoView shows the score sheet that opened at the page's
// top after a hand (showWithStatus). The keyboard's focus stays where it
// was (on the hand or the actions: the player's keys act there); the
// hand's scores are said in the live region, as every event.
export function bringSheetIntoView() {
  showWithStatus($("hand-over"));
}

// bringEndIntoView shows the game's result with its buttons ("Watch the
// replay", "Play again") when the game ends (showWithStatus): the player
// was further down at their hand, and on a phone or in a short window
// the result lay above the window's top.
export function bringEndIntoView() {
  showWithStatus($("winners"));
}

// showWithStatus scrolls box onto the screen, unless it is wholly there
// already, with the status line above it ("… you have the lead · your
// turn", "Game over after 2 hands.") just below the bar when both fit,
// else box's top: scrolled to box alone, that line sat under the
// translucent bar, its words blurred through it.
function showWithStatus(box) {
  const r = box.getBoundingClientRect();
  const status = $("status").getBoundingClientRect();
  const top = barBottom();
  const foot = window.innerHeight;
  if (r.top >= top && r.bottom <= foot) return;
  window.scrollBy(0, (r.bottom - status.top <= foot - top ? status.top : r.top) - top);
}

// bringRefusalIntoView shows a refusal of the player's own action (its
// line sits below the hand): in a short window the hand's refocused card
// could be at the window's foot and the reason under it, off the screen.
// Nothing moves while the player types, or when the line is in sight.
export function bringRefusalIntoView() {
  const line = $("error");
  const r = line.getBoundingClientRect();
  if (typing() || !line.textContent || (r.top >= barBottom() && r.bottom <= window.innerHeight)) return;
  window.scrollBy(0, r.bottom > window.innerHeight ? r.bottom - window.innerHeight : r.top - barBottom());
}

// typing reports whether the keyboard's focus is in a text field (the
// chat's message, the log's Find): the page then does not scroll by
// itself, which would slide the field away while the player types.
export function typing() {
  const f = document.activeElement;
  if (!f) return false;
  if (f.isContentEditable || f.tagName === "TEXTAREA") return true;
  return f.tagName === "INPUT" && ["text", "search", ""].includes(f.getAttribute("type") || "");
}

// keepField notes where the text field the player types in lies, and
// returns what puts it back there after a redraw: what is drawn above it
// (the log's new lines, the score sheet's rows, the sheet opening at the
// page's top) pushed it down under the caret. Not typing: nothing to keep.
// The page scrolls by whole pixels while what it draws has fractions of
// one, so each putting back leaves up to half a pixel: noted afresh at
// each redraw, the field crept by that much a view (2 px over a hand).
// So the place kept is the one noted when the page last let the scroll
// alone (the same field, the page where the last putting back left it);
// once the player (or the browser) scrolls, the new place is kept.
let kept = null; // { f, top, y }: the field, its top to keep, the page's scroll after the last putting back
export function keepField() {
  if (!typing()) { kept = null; return () => {}; }
  const f = document.activeElement;
  if (!kept || kept.f !== f || kept.y !== window.scrollY) kept = { f, top: f.getBoundingClientRect().top, y: NaN };
  const k = kept;
  return () => {
    if (!f.isConnected || !f.getClientRects().length) { kept = null; return; } // drawn away (the join form once seated)
    const d = Math.round(f.getBoundingClientRect().top - k.top);
    if (d) window.scrollBy(0, d);
    k.y = window.scrollY;
  };
}
