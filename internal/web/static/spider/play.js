// The player's actions: picking up and dropping, dealing, undo and redo,
// restart, the hint, and finishing a game whose cards are all face up.
// Each becomes a command sent by game.js; drawing lives in app.js, given
// by initPlay.

import { api, ApiError } from "/shared/api.js";
import { cardName } from "/shared/cards.js";
import { pileCards, runLen, plural, countFrom, S } from "./state.js";
import { announce, info, inWords, pretty, refuse, failure } from "./messages.js";
import { confirmBox } from "./dialogs.js";
import { send, queue, CLOSED } from "./game.js";

// The page's drawing, which lives in app.js, given by initPlay.
let render, renderButtons;

export function initPlay(ctx) {
  ({ render, renderButtons } = ctx);
}

// canFinish: every card is face up and the stock is dealt, so nothing is
// left to find out and the rest is mechanical.
export function canFinish(v = S.view) {
  // Every card in sight: none face down, or (open tableau) each face-down
  // card shown veiled (hidden lists them).
  return !!v && !S.gaveUp && !v.won && v.stock === 0 && v.piles.every((p) => p.down === (p.hidden || []).length);
}

// finish plays the rest of a game whose cards are all face up, one action
// for the player: the server's hint for each move (its solver sees every
// card now, so its line wins), each move shown as it is played. It stops
// at a win, a refusal, a position seen before, or when the hint has none.
export async function finish() {
  if (S.finishing || !canFinish()) return;
  S.finishing = true;
  renderButtons();
  const id = S.id;
  try {
    const seen = new Set();
    for (let n = 0; n < 500 && S.id === id && S.view && !S.view.won; n++) {
      const key = JSON.stringify([S.view.piles, S.view.completed]);
      if (seen.has(key)) break;
      seen.add(key);
      let r;
      try {
        r = await api.hint(S.id);
      } catch (e) {
        const busy = hintBusy(e);
        if (busy) info(`Finish stopped, as ${busy}`);
        else failure(e);
        return;
      }
      if (!r.move) {
        info(`Cannot finish from here: ${r.text || "the solver has no move"}`);
        return;
      }
      const moves = S.view.moves;
      await send(r.move);
      if (!S.view || S.view.moves === moves) return; // refused
      // a beat between moves, so the player sees each one
      if (S.settings.animations) await new Promise((res) => setTimeout(res, 160));
    }
  } finally {
    S.finishing = false;
    if (S.view) renderButtons();
  }
}

// ---------- picking and dropping ----------

export function pick(k, count) {
  const p = pileCards(k);
  if (!p.up.length) {
    refuse(`Pile ${k + 1} is empty: there is nothing to pick up.`);
    return;
  }
  const run = runLen(k);
  if (count > run) {
    const code = p.up[p.up.length - count];
    refuse(`The ${cardName(code)} cannot be picked up: only a same-suit run in order at the bottom of a pile moves together.`);
    return;
  }
  S.sel = { pile: k, count };
  S.cursor = k;
  render();
  const n = count || run;
  announce(`Picked up ${n > 1 ? `${plural(n, "card")} from ${cardName(p.up[p.up.length - n])}` : cardName(p.up[p.up.length - 1])} on pile ${k + 1}. Choose a pile to put ${n > 1 ? "them" : "it"} on.`);
}

// dropOn puts the cards picked up on pile k. It returns the move's
// promise, settled once its answer is drawn: the keyboard then shows where
// the cards landed (keys.js).
export function dropOn(k) {
  const s = S.sel;
  if (!s) return;
  if (s.pile === k) { cancelPick(); return; }
  S.cursor = k;
  // Put down now, not at the answer: a second click meanwhile must not
  // send the move again (a card turned up might fit and move too).
  S.sel = null;
  const done = send(`move ${s.pile + 1} ${k + 1}${s.count ? " " + s.count : ""}`);
  render();
  return done;
}

export function cancelPick(say = true) {
  if (!S.sel) return;
  S.sel = null;
  render();
  if (say) announce("Put the cards back.");
}

// clickPile follows the Amiga help: click a pile to take its run, click
// another to put it there; split picks from the chosen card.
export function clickPile(k, index, split) {
  if (!S.view) return;
  if (S.sel && S.sel.pile !== k) { dropOn(k); return; }
  if (split && index >= 0) {
    const p = pileCards(k);
    if (index < p.down) { refuse("Face-down cards cannot be picked up."); return; }
    pick(k, countFrom(k, index));
    return;
  }
  if (S.sel) { cancelPick(); return; }
  S.cursor = k;
  pick(k, 0);
}

// removeFrom, autoMove, deal, undo and redo return the command's promise,
// settled once its answer is drawn (keys.js then shows the cursor's pile).
export function removeFrom(k) { return send(`remove ${k + 1}`); }

export function autoMove(k, count) {
  S.sel = null;
  if (!pileCards(k).up.length) { refuse(`Pile ${k + 1} is empty: there is nothing to move.`); render(); return; }
  return send(`auto ${k + 1}${count ? " " + count : ""}`);
}

export function deal() {
  S.sel = null;
  return send("deal");
}

// ---------- commands from buttons and menus ----------

export function undo() { S.sel = null; return send("undo", { anim: "undo" }); }
export function redo() { S.sel = null; return send("redo"); }

export async function restart() {
  const v = S.view;
  if (!v) return;
  if (v.moves > 0 && !v.won) {
    const spider = v.variant === "spider";
    const ok = await confirmBox("Restart this deal?",
      `Every move of this game is taken back${spider ? " and scoring stops, as with undo" : v.cheat !== "none" ? "; with cheat detection on this counts as undoing them" : ""}.`, "Restart");
    if (!ok) return;
  } else if (v.moves === 0 && v.canRedo) {
    // Every move taken back: a restart keeps the deal as it is but ends
    // the way to redo them, as many moves as were played.
    const ok = await confirmBox("Restart this deal?", "The moves you took back can no longer be redone.", "Restart");
    if (!ok) return;
  }
  S.sel = null;
  await send("restart");
}

// hint shows the server's best move; each further press on the same
// position shows the next of its ranked moves, wrapping round, as
// Microsoft's Spider does (docs/page.md "Hint"). Any new view (a move,
// undo, another tab) starts the list again.
export function hint() {
  if (S.gaveUp) { refuse(CLOSED); return; }
  const c = S.hintCycle;
  if (c && c.view === S.view && c.moves.length > 1) {
    c.i = (c.i + 1) % c.moves.length;
    showHint(c.moves[c.i], c.i, c.moves.length);
    return;
  }
  return queue(async () => {
    if (!S.id) return;
    const view = S.view;
    let r;
    try {
      r = await api.hint(S.id);
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 501)) {
        info(e.status === 501 ? pretty(e.message).replace(/([^.!?])$/, "$1.") : "Hints are not available on this server yet.");
        return;
      }
      const busy = hintBusy(e);
      if (busy) {
        info(pretty(busy));
        return;
      }
      throw e;
    }
    const moves = Array.isArray(r.moves) && r.moves.length ? r.moves : [{ move: r.move || "", text: r.text }];
    S.hintCycle = S.view === view ? { view, moves, i: 0 } : null;
    showHint(moves[0], 0, moves.length);
  });
}

// hintBusy is the news for a hint the server was too busy to work out
// (503 with Retry-After), "" for any other failure: busy is no fault of
// the game or the page, so it is said calmly, with when to ask again, not
// shown as an error. The reason is the server's own words when the answer
// carries them ("another hint from your address is still being worked
// out: ..."); a 503 from something in between (a proxy's page) is only
// said to be busy, not taken for another hint of this address.
function hintBusy(e) {
  if (!(e instanceof ApiError) || e.status !== 503 || !e.retryAfter) return "";
  const why = e.body && typeof e.body.error === "string" && e.body.error.trim();
  if (why) return `the hint is busy: ${why.replace(/([^.!?])$/, "$1.")}`;
  return `the hint is busy: the server is too busy to work it out. Try again in ${e.retryAfter} s.`;
}

function showHint(h, i, n) {
  S.hint = parseHint(h.move || "");
  render();
  let text = h.text || (h.move ? `Try: ${h.move}` : "No move to suggest.");
  if (n > 1) text += ` (Hint ${i + 1} of ${n}.)`;
  info(text, { say: inWords(text), play: true });
  const at = S.hint;
  setTimeout(() => { if (S.hint === at) { S.hint = null; render(); } }, 6000);
}

function parseHint(move) {
  const m = move.trim().split(/\s+/);
  if (m[0] === "move") {
    const f = +m[1] - 1, t = +m[2] - 1;
    const n = +m[3] || runLen(f);
    return { pile: f, count: n, to: t };
  }
  if (m[0] === "remove") return { pile: +m[1] - 1, count: 13, to: null };
  if (m[0] === "auto") return { pile: +m[1] - 1, count: +m[2] || runLen(+m[1] - 1), to: null };
  if (m[0] === "deal") return { stock: true, pile: null, count: 0 };
  return null;
}
