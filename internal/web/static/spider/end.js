// The end screen: when a game is won or stuck, the score broken down.

import { reviewing } from "./analysis.js";
import { plural, dialogOpen, windowsScore, shownScore, $, S } from "./state.js";
import { announce } from "./messages.js";
import { openDialog } from "./dialogs.js";

export function endKey(v) { return `${S.id}:${v.moves}:${v.won}:${v.stuck}:${v.completed.length}`; }

export function maybeEnd() {
  const v = S.view;
  // data-over: whether the view drawn ends the game (tests read it).
  document.body.dataset.over = v && (v.won || v.stuck || S.gaveUp) ? "1" : "0";
  if (!v || !(v.won || v.stuck) || reviewing()) return;
  const key = endKey(v);
  if (S.endShown === key) return;
  S.endShown = key;
  // After the celebration, if one plays (a click or key cuts it short).
  const wait = S.celebration || new Promise((res) => setTimeout(res, S.settings.animations ? 380 : 0));
  wait.then(() => showEnd(v));
}

function showEnd(v) {
  // not over a newer state, nor over a dialog the player has opened
  if (v !== S.view || dialogOpen() || reviewing()) return;
  $("#dlg-end-title").textContent = v.won ? "You won!" : "No moves left";
  const b = v.breakdown;
  $("#end-text").textContent = v.won ?
    `${v.deal ? `Deal #${v.deal} is` : "This position is"} solved in ${plural(v.moves, "move")}.` :
    `No move is left that changes anything${v.stock ? "" : ", and the stock is empty"}. ${next(v)}`;
  const rows = [
    ["Cards turned up (10 each)", b.turned],
    ["Piles with no face-down cards (15 each)", b.columns],
    ["Same-suit builds (2 each)", b.builds],
    ["Complete suits (50 each)", b.complete],
  ];
  if (b.standingWin) rows.push(["Suits left standing beyond three (2 each)", b.standingWin]);
  rows.push(["Total", b.total]);
  if (b.cheated) rows.push(["Cheating detected: halved", b.counted]);
  if (b.stopped) rows.push(["Scoring stopped at (undo, restart or load)", b.counted]);
  if (b.cheated || b.stopped) rows.push(["Score", b.counted]);
  if (windowsScore()) rows.push(["Windows Spider score (500, one off an action, 100 a suit)", b.windows]);
  const t = $("#end-breakdown");
  t.replaceChildren(...rows.map(([k, val], i) => {
    const tr = document.createElement("tr");
    if (k === "Total" || i === rows.length - 1) tr.className = "total";
    tr.innerHTML = "<td></td><td></td>";
    tr.firstChild.textContent = k;
    tr.lastChild.textContent = val;
    return tr;
  }));
  // A game closed by its analysis takes no undo nor restart: its deal is
  // played again as a new game (app.js), a custom position not at all.
  $('#end-buttons [data-end="undo"]').hidden = v.won || !v.canUndo || S.gaveUp;
  $('#end-buttons [data-end="restart"]').hidden = S.gaveUp && !v.deal;
  $('#end-buttons [data-end="restart"]').textContent = v.deal ? "Play this deal again" : "Play this position again";
  openDialog("#dlg-end");
  announce(`${v.won ? "You won" : "No moves left"}. ${windowsScore() ? "Windows score" : "Score"} ${shownScore(v)}.`);
}

// next says what the player can do after a game ends stuck.
function next(v) {
  if (S.gaveUp) {
    return "This game was analysed, so it takes no more moves, undo included. " +
      (v.deal ? "Play the deal again as a new game, or start another one." : "Start a new game.");
  }
  return v.canUndo ? "Undo to try another way, play the deal again, or start a new game." : "Play the deal again or start a new game.";
}
