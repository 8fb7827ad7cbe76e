// Drawing the table: the card size for the window, the piles' spacing, and
// the stock, completed suits and tableau drawn from the server's view.
//
// Redraws update the page in place: a card's node stays while the card
// stays at its place in its pile (only its face, classes and position
// change), so a press whose release comes after a redraw still lands on the
// node it started on. Replacing the nodes lost such clicks and taps.

import { setSmallCards, cardSVG, setCardFace, suitName, TALL } from "/shared/cards.js";
import { messageBox } from "./messages.js";

const $ = (sel) => document.querySelector(sel);

export const geom = { base: 80, cw: 80, ch: 112, tw: 64, th: 90, gap: 8, small: false, phone: false, tall: false };

// layout sizes the cards for the window: ten piles across, and cards no
// taller than an eighth of the window.
export function layout() {
  const W = document.documentElement.clientWidth;
  const H = window.innerHeight;
  const gap = Math.round(Math.min(12, Math.max(3, W * 0.008)));
  const pad = W < 600 ? 8 : 24;
  let cw = Math.floor((W - pad - 9 * gap) / 10);
  cw = Math.max(24, Math.min(cw, 110, Math.floor(H * 0.125)));
  const tw = cw < 60 ? cw : Math.round(cw * 0.8);
  const th = Math.round(tw * 1.4);
  geom.base = cw;
  // A phone held upright: the width sets the cards' size and half the
  // screen would stay empty below the piles, so the piles spread out.
  geom.phone = W < 600 && H > W * 1.3;
  Object.assign(geom, { tw, th, gap });
  setCardWidth(cw);
  const r = document.documentElement.style;
  r.setProperty("--tw", tw + "px");
  r.setProperty("--th", th + "px");
  r.setProperty("--gap", gap + "px");
  document.body.dataset.layoutWidth = String(W); // tests wait for it after a resize
}

// The tall faces' height for their width (cards.js): 1.8 against the usual 1.4.
const TALL_RATIO = TALL / 200;

// setCardWidth sets the tableau's card size: tall, a phone's tall faces.
function setCardWidth(cw, tall = false) {
  const ch = Math.round(cw * (tall ? TALL_RATIO : 1.4));
  Object.assign(geom, { cw, ch, small: cw < 64, tall });
  setSmallCards(geom.small);
  const r = document.documentElement.style;
  r.setProperty("--cw", cw + "px");
  r.setProperty("--ch", ch + "px");
}

// minStep is the least vertical step, as a share of the card height, that
// still shows a face-up card's whole index, descenders included (the tail
// of a Q, the hook of a J): cards.js keeps the index within it (taller on
// the big-index small faces, taller still on the tall ones, where the index
// is drawn taller). MIN_DOWN is the least for face-down cards.
export function minStep(small, tall = false) { return tall ? 0.42 : small ? 0.37 : 0.21; }
const MIN_DOWN = 0.05;

// The least card width fitCards narrows to, as a share of the window's:
// narrower than this and the page scrolls instead.
const LEAST_WIDTH = 0.6;

// fitCards narrows the cards when the longest pile would not fit the
// window's height even at the least steps; beyond that the page scrolls
// vertically. Cards big enough for pips stay so: narrowing them into the
// big-index faces would need longer steps, not shorter.
//
// A phone held upright takes the tall faces while the longest pile fits
// them at the least steps (most of a game), else the usual small ones.
function fitCards(v, avail) {
  const base = geom.base;
  let worst = 1, worstTall = 1;
  for (const p of v.piles) {
    const open = (p.hidden || []).length > 0;
    const down = open ? 0 : p.down, up = open ? p.down + p.up.length : p.up.length;
    worst = Math.max(worst, 1 + down * MIN_DOWN + Math.max(0, up - 1) * minStep(base < 64));
    worstTall = Math.max(worstTall, 1 + down * MIN_DOWN + Math.max(0, up - 1) * minStep(true, true));
  }
  if (geom.phone && base < 64 && Math.round(base * TALL_RATIO) * worstTall <= avail) {
    if (base !== geom.cw || !geom.tall) setCardWidth(base, true);
    return;
  }
  const fit = Math.floor(avail / worst / 1.4);
  let least = Math.round(base * LEAST_WIDTH);
  if (base >= 64) least = Math.max(64, least);
  const cw = Math.max(Math.min(least, base), Math.min(base, fit));
  if (cw !== geom.cw || geom.tall) setCardWidth(cw);
}

// pileOffsets returns the vertical step for face-down and face-up cards:
// generous while the pile fits, tighter as it grows.
export function pileOffsets(down, up, avail) {
  const ch = geom.ch;
  let d = ch * (geom.phone ? 0.16 : 0.1);
  // On a phone a face-up card shows 70% of itself, and at least 44 px on
  // the tall faces: a fingertip's target.
  let u = geom.phone ? Math.max(ch * 0.7, geom.tall ? 44 : 0) : ch * (geom.small ? 0.5 : 0.3);
  const need = down * d + Math.max(0, up - 1) * u + ch;
  if (need <= avail) return [d, u];
  // Face-up steps shrink first, to the least that shows the index; then the
  // face-down steps; then the face-up steps again, at their least.
  const room = Math.max(0, avail - ch);
  const umin = ch * minStep(geom.small, geom.tall);
  const steps = Math.max(1, up - 1);
  u = Math.max(umin, (room - down * d) / steps);
  if (down * d + (up - 1) * u <= room) return [d, u];
  const dmax = d;
  d = Math.max(ch * MIN_DOWN, up > 1 ? (room - (up - 1) * umin) / Math.max(1, down) : room / Math.max(1, down));
  d = Math.min(d, dmax);
  u = up > 1 ? Math.max(umin, (room - down * d) / steps) : u;
  return [d, u];
}

// tableauRoom is the height the piles may take without scrolling the page:
// from the tableau's top to the window's bottom, less its own padding.
function tableauRoom(tab) {
  const cs = getComputedStyle(tab);
  const pad = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
  const top = tab.getBoundingClientRect().top + window.scrollY;
  return Math.max(geom.ch * 3, Math.floor(window.innerHeight - top - pad - 1));
}

function dealsLeft(v) { return Math.floor(v.stock / 10); }

function plural(n, one, many = one + "s") { return `${n} ${n === 1 ? one : many}`; }

function setClass(el, cls) {
  if (el.className !== cls) el.className = cls;
}

function setData(el, key, val) {
  if (val === null || val === undefined) {
    if (key in el.dataset) delete el.dataset[key];
  } else if (el.dataset[key] !== String(val)) {
    el.dataset[key] = val;
  }
}

function setPx(el, prop, px) {
  const s = `${Math.round(px)}px`;
  if (el.style[prop] !== s) el.style[prop] = s;
}

// renderStock draws the stock: one card back per row left to deal.
export function renderStock(S) {
  const v = S.view, st = $("#stock");
  const rows = dealsLeft(v);
  const box = st.querySelector(".stock-cards");
  while (box.children.length > rows) box.lastElementChild.remove();
  while (box.children.length < rows) {
    const svg = cardSVG("");
    setPx(svg, "left", box.children.length * 2);
    box.appendChild(svg);
  }
  const count = st.querySelector(".stock-count");
  if (count.textContent !== String(rows)) count.textContent = rows;
  const told = $("#st-rows"); // the status bar's, seen while the stock is hidden
  if (told.textContent !== String(rows)) told.textContent = rows;
  st.classList.toggle("empty", rows === 0);
  st.classList.toggle("hint-src", !!(S.hint && S.hint.stock));
  st.setAttribute("aria-label", rows ? `Stock: ${plural(rows, "row")} left. Deal a row.` : "Stock: empty");
}

// renderCompleted draws the completed suits, each as its king.
export function renderCompleted(S, canDrop) {
  const v = S.view, box = $("#completed");
  let label = box.querySelector(".label");
  if (!v.completed.length && !label) {
    label = document.createElement("span");
    label.className = "label";
    label.textContent = "Completed suits";
    box.prepend(label);
  } else if (v.completed.length && label) {
    label.remove();
  }
  const kings = box.getElementsByTagName("svg"), n = v.completed.length;
  while (kings.length > n) kings[kings.length - 1].remove();
  v.completed.forEach((s, i) => {
    let svg = kings[i];
    if (!svg) {
      svg = cardSVG("K" + s, { big: true });
      svg.dataset.completed = i;
      box.appendChild(svg);
    } else {
      setCardFace(svg, "K" + s, { big: true });
    }
    // Half a card apart, closer where the area is narrower than that
    // needs (a phone beside a long deal number): the kings stay inside
    // it instead of covering the status beside it.
    const left = i === 0 ? "0px" :
      `max(0px, min(calc(var(--tw) * ${i / 2}), calc((100% - var(--tw)) * ${i / (n - 1)})))`;
    if (svg.kingLeft !== left) { svg.style.left = left; svg.kingLeft = left; }
  });
  box.setAttribute("aria-label", v.completed.length ?
    `Completed suits: ${v.completed.map(suitName).join(", ")}` : "Completed suits: none yet");
  box.classList.toggle("can-drop", canDrop);
}

// renderTableau draws the ten piles. ctx gives what the drawing needs from
// the page: selCount() (cards picked up), pileLabel(k) (the pile's spoken
// label) and drag (cards being dragged, hidden at their place).
export function renderTableau(S, ctx) {
  const v = S.view, tab = $("#tableau");
  const avail = tableauRoom(tab);
  fitCards(v, avail);
  if (tab.children.length !== 10) {
    tab.replaceChildren();
    for (let k = 0; k < 10; k++) {
      const el = document.createElement("div");
      el.className = "pile";
      el.id = `pile-${k}`;
      el.dataset.pile = k;
      el.setAttribute("role", "option");
      tab.appendChild(el);
    }
  }
  const selN = ctx.selCount();
  const drag = ctx.drag;
  for (let k = 0; k < 10; k++) {
    const el = tab.children[k];
    const pv = v.piles[k];
    const hidden = pv.hidden || [];
    const len = pv.down + pv.up.length;
    // In the open variant the covered cards show their faces: space them
    // like face-up cards so their index can be read.
    const open = hidden.length > 0;
    const [dOff, uOff] = open ? pileOffsets(0, len, avail) : pileOffsets(pv.down, pv.up.length, avail);
    const cards = el.children;
    while (cards.length > len) el.lastElementChild.remove();
    let y = 0;
    for (let i = 0; i < len; i++) {
      const down = i < pv.down;
      const code = down ? (hidden[i] || "") : pv.up[i - pv.down];
      let c = cards[i];
      if (!c) {
        c = document.createElement("div");
        c.appendChild(cardSVG(code, { tall: geom.tall }));
        el.appendChild(c);
      } else {
        setCardFace(c.firstChild, code, { tall: geom.tall });
      }
      let cls = "card " + (down ? "down" : "up");
      if (down && code) cls += " covered";
      if (S.sel && S.sel.pile === k && i >= len - selN) cls += " selected";
      if (S.hint && S.hint.pile === k && i >= len - S.hint.count) cls += " hint-src";
      if (S.located.some((l) => l.pile === k && l.index === i)) cls += " located";
      if (drag && drag.started && drag.pile === k && i >= drag.index) cls += " dragging-src";
      setClass(c, cls);
      setData(c, "pile", k);
      setData(c, "index", i);
      setData(c, "card", code || null);
      setPx(c, "top", y);
      if (i < len - 1) y += down && !open ? dOff : uOff;
    }
    setPx(el, "height", y + geom.ch);
    el.classList.toggle("empty", len === 0);
    el.classList.toggle("cursor", S.cursor === k);
    el.classList.toggle("hint-dst", !!(S.hint && S.hint.to === k));
    el.setAttribute("aria-selected", S.sel && S.sel.pile === k ? "true" : "false");
    el.setAttribute("aria-label", ctx.pileLabel(k));
  }
  tab.setAttribute("aria-activedescendant", `pile-${S.cursor}`);
}

// reveal scrolls the page the least that brings pile k's last n cards into
// view (its foot card when n is 0, its place when it is empty): below the
// sticky bar (the page's scroll-padding-top), above the analysis panel
// when it shows, and above a message shown over the pile. Cards too tall
// for the room show from their top, the card the keys just took or let
// go. The keyboard calls it (keys.js): a long pile's foot may lie below
// the window, out of sight. Measured from the layout (offsetTop), not the
// cards' boxes: a move's animation has them translated on their way.
export function reveal(k, n = 0) {
  const pile = document.getElementById(`pile-${k}`);
  if (!pile) return;
  const cards = pile.children, box = pile.getBoundingClientRect(), base = box.top;
  let top = base, bottom = base + geom.ch;
  if (cards.length) {
    const first = cards[Math.max(0, cards.length - Math.max(1, n))], last = cards[cards.length - 1];
    top = base + first.offsetTop;
    bottom = base + last.offsetTop + last.offsetHeight;
  }
  const html = document.documentElement;
  const margin = 8; // the cursor's bar under the foot card, the picked cards' glow
  const high = Math.max(parseFloat(getComputedStyle(html).scrollPaddingTop) || 0, $("#bar").getBoundingClientRect().bottom) + margin;
  const panel = $("#analysis");
  let low = (panel && !panel.hidden ? panel.getBoundingClientRect().top : html.clientHeight) - margin;
  const msg = messageBox();
  if (msg && msg.left < box.right && msg.right > box.left) low = Math.min(low, msg.top - margin);
  let dy = bottom > low ? bottom - low : 0;
  if (top - dy < high) dy = top - high;
  if (dy > 0) makeRoom(dy);
  if (dy) window.scrollBy({ top: dy, behavior: "instant" });
}

// footRoom is room added below the table (#table's padding) when the page
// cannot scroll far enough to show a pile's foot above what lies at the
// window's foot (a message, the analysis panel). It stays while it is in the window, so the table does not
// jump down when the message closes, and shrinks as the page scrolls up
// out of it.
let footRoom = 0;

function setFootRoom(px) {
  footRoom = px;
  document.documentElement.style.setProperty("--foot-room", `${px}px`);
}

// makeRoom lets the page scroll dy px further down.
function makeRoom(dy) {
  const html = document.documentElement;
  const short = Math.ceil(dy - (html.scrollHeight - html.clientHeight - window.scrollY));
  if (short > 0) setFootRoom(footRoom + short);
}

window.addEventListener("scroll", () => {
  if (!footRoom) return;
  const html = document.documentElement;
  const seen = Math.ceil(window.scrollY + html.clientHeight - (html.scrollHeight - footRoom));
  if (seen < footRoom) setFootRoom(Math.max(0, seen));
}, { passive: true });
