// Animation by FLIP (first, last, invert, play): the page notes where every
// card stood (snapshot), draws the new view, then plays each card that moved
// from its old place to its new one. Cards keep their nodes across a redraw
// (render.js), so a card that stays at its place does not move at all.


export function snapshot(S) {
  const rects = new Map();
  document.querySelectorAll("#tableau .card").forEach((c) => {
    rects.set(`${c.dataset.pile}:${c.dataset.index}`, c.getBoundingClientRect());
  });
  // Cards being dragged start from where the player let go.
  document.querySelectorAll("#drag-layer .card").forEach((c) => {
    rects.set(`${c.dataset.pile}:${c.dataset.index}`, c.getBoundingClientRect());
  });
  const stock = document.querySelector("#stock").getBoundingClientRect();
  return { rects, stock, view: S.view };
}

// sources pairs each card of the new view with where it stood before: cards
// that stay keep their place, and cards that appear are matched to cards of the
// same name that left another pile (a move, undo, redo or auto-move), or come
// from the stock (a deal).
function sources(oldV, newV) {
  const pool = [];
  const added = [];
  for (let k = 0; k < 10; k++) {
    const a = oldV.piles[k], b = newV.piles[k];
    const ao = [...Array(a.down).fill("?"), ...a.up], bo = [...Array(b.down).fill("?"), ...b.up];
    let i = 0;
    while (i < ao.length && i < bo.length && ao[i] === bo[i] && ao[i] !== "?") i++;
    if (i < ao.length && i < bo.length && ao[i] === "?" && bo[i] === "?") {
      // face-down cards that stay face down keep their place
      while (i < ao.length && i < bo.length && ao[i] === "?" && bo[i] === "?") i++;
    }
    for (let j = i; j < ao.length; j++) pool.push({ code: ao[j], key: `${k}:${j}`, used: false });
    for (let j = i; j < bo.length; j++) added.push({ code: bo[j], key: `${k}:${j}`, pile: k, index: j });
  }
  const pairs = [];
  for (const c of added) {
    const src = pool.find((p) => !p.used && p.code === c.code && c.code !== "?");
    if (src) { src.used = true; pairs.push({ to: c.key, from: src.key }); }
    else pairs.push({ to: c.key, from: null, pile: c.pile });
  }
  return pairs;
}

export function animate(S, before, kind) {
  if (!before.view || !S.view) return;
  const pairs = kind === "refused" ? [] : sources(before.view, S.view);
  const dealt = S.view.stock < before.view.stock;
  let order = 0;
  for (const p of pairs) {
    const el = document.querySelector(`#tableau .card[data-pile="${p.to.split(":")[0]}"][data-index="${p.to.split(":")[1]}"]`);
    if (!el) continue;
    const now = el.getBoundingClientRect();
    let from = p.from ? before.rects.get(p.from) : null;
    let delay = 0;
    if (!from && dealt && !S.settings.hideAreas) { from = before.stock; delay = order++ * 35; }
    if (!from) continue;
    flip(el, from, now, delay);
  }
  // A suit removed: its king flies from the pile to the completed area.
  // The suit's pile is the one that lost the most cards (a remove takes 13;
  // a move that completes a suit removed automatically takes the run it
  // landed on), and the king stood where that pile now ends.
  const nOld = before.view.completed.length, nNew = S.view.completed.length;
  const el = document.querySelector(`#completed svg[data-completed="${nNew - 1}"]`);
  if (nNew === nOld + 1 && el) {
    let best = -1, lost = 0;
    for (let k = 0; k < 10; k++) {
      const a = before.view.piles[k], b = S.view.piles[k];
      const d = (a.down + a.up.length) - (b.down + b.up.length);
      if (d > lost) { lost = d; best = k; }
    }
    const b = best >= 0 ? S.view.piles[best] : null;
    const from = b ? before.rects.get(`${best}:${b.down + b.up.length}`) : null;
    if (from) {
      const to = el.getBoundingClientRect();
      el.style.zIndex = 60;
      el.animate(
        [{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px) scale(${from.width / to.width})`, transformOrigin: "0 0" },
          { transform: "none", transformOrigin: "0 0" }],
        { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" },
      ).onfinish = () => { el.style.zIndex = ""; };
    }
  }
  if (kind === "refused") {
    // a refused drop: the dragged cards fly back
    document.querySelectorAll("#tableau .card").forEach((el) => {
      const from = before.rects.get(`${el.dataset.pile}:${el.dataset.index}`);
      if (from) flip(el, from, el.getBoundingClientRect(), 0);
    });
  }
}

function flip(el, from, to, delay) {
  const dx = from.left - to.left, dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  const dist = Math.hypot(dx, dy);
  el.style.zIndex = 50;
  const a = el.animate(
    [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
    { duration: Math.min(320, 140 + dist * 0.25), delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
  a.onfinish = a.oncancel = () => { el.style.zIndex = ""; };
}
