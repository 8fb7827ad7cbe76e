// Pacing what the player sees: the server (and its bots) answer in a few
// milliseconds, so a trick would appear and vanish at once. Views are
// shown one at a time, each followed by a pause a person can follow; the
// server stays fast, only this page waits. The speed is the player's
// (kept in the browser); with prefers-reduced-motion it is "instant" until
// the player picks another.

const KEY = "arlington.speed";
// Per speed: the pause after a card or set is played, and after a trick
// is taken (the completed trick stays on the table meanwhile), in ms.
const SPEEDS = {
  slow: { move: 1400, trick: 3200, anim: 450 },
  normal: { move: 800, trick: 1800, anim: 300 },
  fast: { move: 350, trick: 800, anim: 160 },
  instant: { move: 0, trick: 0, anim: 0 },
};

export function savedSpeed() {
  let s = "";
  try { s = localStorage.getItem(KEY) || ""; } catch { /* private mode */ }
  if (SPEEDS[s]) return s;
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "instant" : "normal";
}

function saveSpeed(s) {
  try { localStorage.setItem(KEY, s); } catch { /* private mode: not kept */ }
}

// installSpeed wires the speed select of the table page to pacer: the
// speed is kept in the browser, and the animations follow it (a class on
// <body>).
export function installSpeed(pacer) {
  const select = document.getElementById("speed");
  const apply = () => {
    for (const k of Object.keys(SPEEDS)) document.body.classList.toggle(`speed-${k}`, k === pacer.speed);
  };
  select.value = pacer.speed;
  select.addEventListener("change", () => {
    saveSpeed(select.value);
    pacer.setSpeed(select.value);
    apply();
  });
  apply();
}

// A Pacer shows queued messages one at a time: show(m, burst) draws one
// and says how long to wait before the next ("move", "trick" or "" for
// no pause); with burst it draws it without waiting nor saying each
// play. A backlog (back after a drop, or a tab in the background) is
// shown at once: pacing what the player missed would only hold them up.
// urgent(m) says m gives the player a turn whose clock runs at the
// server: while one waits in the queue, the plays before it show at
// once but the last, which pauses no longer than at the fast speed, so
// the turn shows within a second of its start however many plays came
// before it (twenty lone tricks, each paused as at the fast speed, held
// a 5 s turn back 17.7 s).
export class Pacer {
  constructor(show, speed, urgent = () => false) {
    this.show = show;
    this.speed = speed;
    this.urgent = urgent;
    this.queue = [];
    this.timer = 0;
    this.holding = false;
    this.kind = "move"; // the pause running: "move" or "trick"
    this.until = 0;     // when it ends (performance.now())
  }

  push(m) {
    this.queue.push(m);
    if (!this.holding) { this.pump(); return; }
    if (!this.urgent(m)) return;
    // The pause running was set before this turn came: with plays queued
    // between, it ends now (pump hurries them); else it ends no later
    // than a fast one would.
    if (this.queue.length > 1) this.skip();
    else if (this.until - performance.now() > SPEEDS.fast[this.kind]) this.wait(SPEEDS.fast[this.kind]);
  }

  // wait holds the queue for ms, then shows on.
  wait(ms) {
    clearTimeout(this.timer);
    this.holding = true;
    this.until = performance.now() + ms;
    this.timer = setTimeout(() => { this.holding = false; this.pump(); }, ms);
  }

  // skip ends the current pause (a click on the completed trick).
  skip() {
    if (!this.holding) return;
    clearTimeout(this.timer);
    this.holding = false;
    this.pump();
  }

  setSpeed(s) {
    this.speed = s;
    if (s === "instant") this.skip();
  }

  pump() {
    while (this.queue.length) {
      const m = this.queue.shift();
      // turn: where the first timed turn waits in the queue (-1: none);
      // 0 means m is the last play before it.
      const turn = this.queue.findIndex(this.urgent);
      const burst = this.queue.length > 30 || document.hidden || turn > 0;
      const pause = this.show(m, burst);
      let ms = burst || !pause ? 0 : SPEEDS[this.speed][pause];
      if (ms > 0 && turn === 0) ms = Math.min(ms, SPEEDS.fast[pause]);
      if (ms > 0) {
        this.kind = pause;
        this.wait(ms);
        return;
      }
    }
  }
}
