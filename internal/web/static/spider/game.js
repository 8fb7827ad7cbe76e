// The game on the server: commands sent in order (queue) with the page
// marked busy meanwhile, the answer or the refusal shown, catching up
// when another tab played the game, the sounds for what a command did and
// the win cascade. Drawing lives in app.js, given by initGame.

import { api, ApiError } from "/shared/api.js";
import { geom } from "./render.js";
import { playEffect, played } from "/shared/sound.js";
import { cascade } from "./celebrate.js";
import { reviewing } from "./analysis.js";
import { busy, measure, $, GAME_KEY, S } from "./state.js";
import { info, refuse, failure, describe, succeeded, gameChanged } from "./messages.js";
import { clearDrag } from "./input.js";
import { endKey } from "./end.js";

// The page's drawing, which lives in app.js, given by initGame.
let render;

export function initGame(ctx) {
  ({ render } = ctx);
}

// CLOSED says why a game given up for its analysis takes no more moves.
export const CLOSED = "This game was given up for its analysis, which showed its hidden cards: it takes no more moves, undo included. Start a new game (New game takes its deal number to play it again).";

// ended: the game's end screen is not wanted (an analysis shows it).
export function setGame(r, { message, ended = false } = {}) {
  const changed = r.id !== S.id;
  S.id = r.id;
  S.gaveUp = !!r.gaveUp;
  try {
    sessionStorage.setItem(GAME_KEY, r.id);
    localStorage.setItem(GAME_KEY, r.id);
  } catch { /* storage may be off; the game still plays */ }
  if (changed) {
    S.sel = null; S.hint = null; S.located = []; S.endShown = ended ? endKey(r.view) : "";
    gameChanged();
  }
  S.view = r.view;
  render();
  if (message) info(message);
}

// queue runs fn after every earlier request, so fast play keeps its order.
export function queue(fn) {
  busy(1);
  S.chain = S.chain.then(fn).catch(failure).finally(() => busy(-1));
  return S.chain;
}

// noteTiming notes how long a command took, request to redrawn table
// (window.cardtableTimings when measuring: the browser tests report them).
const noteTiming = measure("cardtableTimings");
window.cardtableSounds = played; // the effects played, for the tests

// send plays one command on the server and shows the result or the refusal.
export function send(cmd, { anim = "move" } = {}) {
  if (reviewing()) {
    info("The table shows the analysis: close it (Back to the game) to play.");
    clearDrag();
    return S.chain;
  }
  if (S.gaveUp) {
    S.sel = null;
    clearDrag();
    render({ anim: "refused" });
    refuse(CLOSED);
    return S.chain;
  }
  return queue(async () => {
    if (!S.id) return;
    const before = S.view;
    S.hint = null;
    S.located = [];
    try {
      const t0 = performance.now();
      const r = await api.command(S.id, cmd);
      S.sel = null;
      S.view = r.view;
      succeeded();
      effects(before, r.view);
      if (r.view.won && !before.won) celebrate();
      render({ anim }); // dragged cards fly on from where they were let go
      clearDrag();
      noteTiming(performance.now() - t0);
      describe(cmd, r.move, before, r.view);
      scoreMarked(before, r.view);
    } catch (e) {
      if (behind(e)) return;
      if (e instanceof ApiError && (e.status === 422 || e.status === 409)) {
        S.sel = null;
        render({ anim: "refused" });
        clearDrag();
        refuse(e.message);
        // Another tab may have played this game meanwhile: catch up.
        try {
          const r = await api.game(S.id);
          if (JSON.stringify(r.view) !== JSON.stringify(S.view) || !!r.gaveUp !== S.gaveUp) {
            S.view = r.view;
            S.gaveUp = !!r.gaveUp; // given up in another tab
            render();
          }
        } catch { /* keep what is shown */ }
        return;
      }
      clearDrag();
      render();
      if (e instanceof ApiError && e.status === 404) {
        failure(new Error("This game is no longer on the server. Start a new game."));
        return;
      }
      failure(e, { play: true }); // the command failed (the network, the server): one played later says otherwise
    }
  });
}

// scoreMarked says so when a command halved the score (Arachnid's cheat
// detection) or stopped it (Spider): the status bar's "(halved)" or
// "(frozen)" alone is easily missed, and the player should know what the
// undo cost at the moment it cost it.
function scoreMarked(a, b) {
  if (b.breakdown.cheated && !a.breakdown.cheated) {
    // With the tableau open no card is face down, so only a deal shows a
    // new card (spider/game.go, step.reveals).
    const level = b.cheat === "full" ? "full detection: any undo or restart counts"
      : b.open ? "new cards only: with the tableau open, taking back a deal counts"
      : "new cards only: taking back a move that turned a card up, or a deal, counts";
    info(`Cheating detected (${level}): this game's score is halved from now on.`);
  } else if (b.breakdown.stopped && !a.breakdown.stopped) {
    info(`Scoring stopped: in Spider an undo or a restart ends this game's scoring, and the score it records stays at ${b.breakdown.counted}.`);
  }
}

// effects plays the sound for what a command did, when sounds are on.
function effects(a, b) {
  if (!S.settings.sound) return;
  if (b.won && !a.won) playEffect("win");
  else if (b.completed.length > a.completed.length) playEffect("complete");
  else if (b.stock < a.stock) playEffect("deal");
  else if (b.moves !== a.moves) playEffect("move");
}

// celebrate starts the win cascade once the last suit has flown to the
// completed area; not with animations off or reduced motion asked for.
function celebrate() {
  const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (!S.settings.animations || reduce) return;
  const id = S.id;
  const p = new Promise((res) => setTimeout(res, 360)).then(() => {
    if (S.id !== id || !S.view || !S.view.won || S.settings.hideAreas) return;
    // Each suit's cards leave from where its king is drawn.
    const at = [...$("#completed").querySelectorAll("svg")].map((k) => k.getBoundingClientRect().left);
    return cascade(S.view.completed, $("#completed").getBoundingClientRect(), at, geom.tw, geom.th);
  });
  S.celebration = p;
  p.finally(() => { if (S.celebration === p) S.celebration = null; });
}

// behind catches up after a command refused for being behind its game
// (another tab played it meanwhile): the refusal carries the game as it
// stands, which is shown, and the player is told why nothing happened.
function behind(e) {
  if (!(e instanceof ApiError) || e.status !== 409 || !e.body || !e.body.view || e.body.id !== S.id) return false;
  S.sel = null;
  S.hint = null;
  clearDrag();
  S.view = e.body.view;
  S.gaveUp = !!e.body.gaveUp; // it may have been given up there
  render();
  document.body.dataset.caughtUp = String(e.body.version);
  info("This game changed in another tab or window: here it is as it stands now.");
  return true;
}

export function refresh() {
  // The table shows a step of the analysis: keep it. Its game, over,
  // cannot have changed; "Back to the game" shows it again.
  if (reviewing()) return S.chain;
  return queue(async () => {
    try {
      const r = await api.game(S.id);
      S.view = r.view;
      S.gaveUp = !!r.gaveUp; // given up in another tab meanwhile
      render();
    } catch { /* keep what is shown */ }
  });
}
