// The score sheet after each hand, at the top of the table page, until
// the player closes it: the next hand starts at once, so the sheet does
// not wait for anyone.
import { renderSheet } from "./render.js";

const $ = (id) => document.getElementById(id);

// seen is the number of the last score event the sheet opened for (null:
// no view yet).
let seen = null;

// renderHandOver draws the sheet for view v (events: the public log as
// shown, names: the seats' names) and reports whether it opened just now.
// It opens for a hand scored while the page is open, or on arrival
// before the next hand's first play.
export function renderHandOver(v, events, names) {
  const box = $("hand-over");
  const scored = lastScore(events);
  if (!v) return false;
  if (seen === null) { // arriving: only a hand just scored counts
    seen = !scored ? -1 : events[events.length - 1].kind === "deal" ? scored.n - 1 : scored.n;
  }
  if (v.toMove < 0 || !scored) { box.hidden = true; return false; }
  let opened = false;
  if (scored.n > seen) {
    // Each hand's new scores come onto the screen, not only a sheet
    // that was closed: playing on does not close it, so from the second
    // hand on it stood open above the window's top.
    opened = true;
    box.hidden = false;
    seen = scored.n;
    $("sheet-box").open = true;
  }
  if (box.hidden) return opened;
  const best = Math.max(...scored.scores);
  $("ho-title").textContent = `Hand ${scored.hand} is scored: ` + scored.scores.map((p, i) => `${names[i]} ${p}`).join(", ") +
    (best > 0 ? "." : "; no one scored.");
  renderSheet($("ho-sheet"), v, names);
  return opened;
}

// lastScore is the last score event of events, looked for from the end:
// at most a hand back, where a search from the start went through the
// whole game at each view.
function lastScore(events) {
  for (let i = events.length - 1; i >= 0; i--) if (events[i].kind === "score") return events[i];
  return undefined;
}

// installHandOver closes the sheet on its Close button, then calls
// closed (the table brings the player's turn onto the screen).
export function installHandOver(closed) {
  $("ho-close").addEventListener("click", () => { $("hand-over").hidden = true; closed(); });
}
