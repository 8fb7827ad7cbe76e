// The win celebration: the classic cascade. The completed suits' cards
// leave the completed area one after another, king to ace, each thrown
// sideways, falling and bouncing along the bottom of the window until it
// leaves the screen. Web Animations on a few absolutely placed cards: no
// canvas, no inline styles (the page's Content-Security-Policy).

import { cardSVG } from "/shared/cards.js";

const RANKS = "KQJT98765432A";
const GRAVITY = 2600; // px/s²
const BOUNCE = 0.72; // the share of its speed a card keeps at a bounce
const STEPS = 48; // keyframes per card

let running = null; // {layer, anims, done}

// path is the flight of a card from (x, y), thrown at vx, vy px/s, in a
// window w by h, as keyframes and its duration in ms.
function path(x, y, vx, vy, w, h, cw, ch) {
  // Time to leave the window sideways.
  const T = vx > 0 ? (w - x) / vx : (x + cw) / -vx;
  const frames = [];
  let py = y, pvy = vy;
  const dt = T / STEPS;
  for (let i = 0; i <= STEPS; i++) {
    frames.push({ transform: `translate(${(vx * dt * i).toFixed(1)}px, ${(py - y).toFixed(1)}px)` });
    // integrate finely between keyframes so the bounces land on the floor
    for (let j = 0; j < 8; j++) {
      const s = dt / 8;
      pvy += GRAVITY * s;
      py += pvy * s;
      if (py + ch > h) { py = h - ch; pvy = -pvy * BOUNCE; }
    }
  }
  return { frames, ms: T * 1000 };
}

// cascade throws the cards of the completed suits (codes like "S", "H")
// from the completed area at rect from, each suit's from its king's left
// edge in at (the kings are closer than half a card in a narrow area).
// It resolves when the last card is off the screen (about four seconds
// at most), or when stop() ends it early.
export function cascade(suits, from, at, cw, ch) {
  stop();
  const layer = document.querySelector("#celebration");
  const w = window.innerWidth, h = window.innerHeight;
  const cards = [];
  for (const r of RANKS) suits.forEach((s, i) => cards.push({ code: r + s, slot: i }));
  // The whole cascade takes about three seconds, whatever the number of suits.
  const gap = Math.min(70, 2400 / Math.max(1, cards.length));
  const anims = [];
  cards.forEach((c, n) => {
    const el = document.createElement("div");
    el.className = "fly";
    el.appendChild(cardSVG(c.code, { big: true }));
    const x = at[c.slot] ?? from.left + c.slot * cw * 0.5, y = from.top;
    el.style.left = `${x}px`;
    el.style.top = `${y}px`;
    el.style.width = `${cw}px`;
    el.style.height = `${ch}px`;
    layer.prepend(el); // the king on top, as on the completed pile
    // Thrown left or right (more to the right: the completed area is on
    // the left), fast enough to be off the screen within about two seconds.
    const dir = n % 3 === 0 ? -1 : 1;
    const dist = dir > 0 ? w - x : x + cw;
    const vx = dir * Math.max(260 + ((n * 97) % 300), dist / 2.2);
    const vy = -((n * 53) % 500);
    const p = path(x, y, vx, vy, w, h, cw, ch);
    anims.push(el.animate(p.frames, { duration: p.ms, delay: n * gap, fill: "both", easing: "linear" }));
  });
  const done = Promise.all(anims.map((a) => a.finished.catch(() => {}))).then(() => {
    if (running && running.anims === anims) stop();
  });
  running = { layer, anims, done };
  document.body.dataset.celebrating = "1";
  return done;
}

// stop ends the cascade at once and clears it away.
export function stop() {
  if (!running) return;
  const r = running;
  running = null;
  for (const a of r.anims) a.cancel();
  r.layer.replaceChildren();
  document.body.dataset.celebrating = "0";
}

export function celebrating() { return !!running; }
