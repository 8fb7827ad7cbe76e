// Drawing the table from a view message: the players with their sets, the
// trick or set round in play, the last trick, the hand's log and the
// score sheet. table.js owns the state and the hand; this module only
// draws what it is given.
import { cardSVG, cardName, cardText } from "/shared/cards.js";
import { el, points, nameEl, spoken, sync } from "./common.js";

// words is a card as people write it: "7♠", "10♥", "joker".
export const words = cardText;

// cardWordsIn writes the card codes in a server's message as the page
// writes cards: "{7H, 7C, 5H}" becomes "7♥ 7♣ 5♥", a lone "QS" "Q♠".
export function cardWordsIn(text) {
  const code = /^([2-9TJQKA][SHDC]|JK)$/;
  return String(text)
    .replace(/\{([^{}]*)\}/g, (all, inner) => {
      const cs = inner.split(/[\s,]+/).filter(Boolean);
      return cs.length && cs.every((c) => code.test(c)) ? cs.map(words).join(" ") : all;
    })
    .replace(/\b([2-9TJQKA][SHDC]|JK)\b/g, (c) => words(c));
}

// playerScore is a seat's total against the target: "5 of 12 points"
// below it, "16 points (target 12)" once reached ("16 of 12" read oddly).
export function playerScore(total, target) {
  return total < target ? `${total} of ${target} ${points(target)}` : `${total} ${points(total)} (target ${target})`;
}

// cardEl is a card picture: an <svg class="card" data-card> with its name
// for screen readers.
export function cardEl(code, cls = "") {
  const svg = cardSVG(code);
  svg.classList.add("card");
  if (cls) for (const c of cls.split(" ")) svg.classList.add(c);
  svg.dataset.card = code;
  svg.removeAttribute("aria-hidden");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", cardName(code));
  return svg;
}

// group is a row of small cards, labelled with the cards in words.
export function group(cards, cls, label) {
  const g = el("div", cls);
  g.setAttribute("role", "img");
  g.setAttribute("aria-label", spoken(label || cards.map(words).join(" ")));
  for (const c of cards) {
    const svg = cardSVG(c);
    svg.classList.add("card");
    svg.dataset.card = c;
    g.appendChild(svg);
  }
  return g;
}

const SPECTRUM = { aces: "aces", multiples: "of a kind", couples: "a couple", runs: "a run" };
export function spectrumWords(s) { return SPECTRUM[s] || s; }

// drawn holds, for each element drawn only when its content changed (a
// player's box, the trick, the last trick), that content as a key. A view
// that changes nothing there (a chat line, a reconnect, another seat's
// play for most boxes) keeps the elements: made anew at every view they
// cost a phone some 60 to 75 elements at two seats (createElement calls,
// the cards' SVG pictures not counted: docs/arlington-page.md), and a
// screen reader lost its place in them. redrawAll forgets the keys: the cards' look changed
// (setSmallCards), so everything with cards is drawn again.
// look counts those changes: it is part of the keys of a seat's card
// pictures (playerParts), so they are made again too.
let drawn = new WeakMap();
let look = 0;
export function redrawAll() { drawn = new WeakMap(); look++; }
// unchanged reports whether node shows key already, and notes key as
// what it shows otherwise (the caller then draws it).
export function unchanged(node, key) {
  if (drawn.get(node) === key) return true;
  drawn.set(node, key);
  return false;
}

// renderPlayers draws each seat: name, badges, cards in hand, score, the
// cards everyone knows to be in that hand, and its table of sets. A
// seat's box is drawn again only when what it shows changed (seatShown),
// and then only its parts that changed (playerParts): a move changes a
// seat's count of cards and badges, and its sets' card pictures (some
// 100 elements at a table with a few sets down) were made anew with them.
export function renderPlayers(box, m, names, arrive) {
  const had = [...box.children];
  m.seats.forEach((s, i) => {
    const c = seatShown(s, m, names);
    const key = JSON.stringify(c);
    const old = had[i];
    if (old && drawn.get(old) === key) return;
    const p = old || el("div", "player");
    drawn.set(p, key);
    p.dataset.seat = c.seat;
    p.classList.toggle("to-move", c.toMove);
    p.classList.toggle("me", c.me);
    sync(p, playerParts(c, arrive));
    if (!old) box.appendChild(p);
  });
  for (const old of had.slice(m.seats.length)) old.remove();
}

// seatShown is what a seat's box shows, as plain data: what decides
// whether it is drawn again.
function seatShown(s, m, names) {
  const v = m.view;
  const over = !!v && (v.winners || []).length > 0;
  const badges = [];
  if (v && v.dealer === s.seat) badges.push("dealer");
  if (v && v.toMove >= 0 && v.lead === s.seat) badges.push(v.phase === "lead" ? "has the lead" : "led");
  if (v && v.toMove === s.seat) badges.push("to play");
  if (s.open) badges.push("open seat");
  if (s.reserved) badges.push("held for a rematch");
  else if (s.away) badges.push("away: a bot plays");
  else if (!s.bot && !s.open && !s.present) badges.push("not connected");
  if (s.rating) badges.push(`rating ${s.rating}`);
  // A rated game's end, once drawn: how much it moved the rating (the
  // server's figure for this game alone), which the new number did not say.
  if (over && s.rating && s.ratingChange) badges.push(`${s.ratingChange > 0 ? "+" : "−"}${Math.abs(s.ratingChange)} this game`);
  const c = { seat: s.seat, name: names[s.seat], me: s.seat === m.seat, toMove: !!v && v.toMove === s.seat, badges, play: null };
  if (v) {
    const known = (v.known || [])[s.seat] || [];
    c.play = {
      count: `${v.handSizes[s.seat]} card${v.handSizes[s.seat] === 1 ? "" : "s"}`,
      score: playerScore(v.totals[s.seat], v.target),
      known: known.length && s.seat !== m.seat ? known : [],
      sets: (v.tables[s.seat] || []).map((ts) => ({ cards: ts.cards, active: !!ts.active,
        label: `${ts.cards.map(words).join(" ")}: ${ts.spectra.map(spectrumWords).join(" or ")}, ${ts.points} ${points(ts.points)}${ts.active ? " (the active set)" : ""}` })),
    };
  }
  return c;
}

// playerParts is the sync entries (common.js) of a seat's box showing c
// (seatShown), each keyed by what it shows; arrive marks the set the
// last move put down.
function playerParts(c, arrive) {
  const parts = [{ key: JSON.stringify(["head", c.name, c.me, c.badges]), make: () => {
    const head = el("div", "p-head");
    // The name on one line (cut with an ellipsis if it must be), "(you)"
    // always whole after it.
    const who = el("span", "p-who");
    who.appendChild(nameEl("span", "p-name", c.name));
    if (c.me) who.appendChild(el("span", "p-you", "(you)"));
    head.appendChild(who);
    for (const b of c.badges) head.appendChild(el("span", "badge", b));
    return head;
  } }];
  if (!c.play) return parts;
  const play = c.play;
  parts.push({ key: JSON.stringify(["line", play.count, play.score]), make: () => {
    const line = el("div", "p-line");
    line.appendChild(el("span", "p-count", play.count));
    line.appendChild(el("span", "p-score", play.score));
    return line;
  } });
  if (play.known.length) {
    parts.push({ key: JSON.stringify(["known", look, play.known]), make: () => {
      const k = el("div", "p-known");
      k.appendChild(el("span", "small", "known in hand: "));
      k.appendChild(group(play.known, "set known", `known in hand: ${play.known.map(words).join(" ")}`));
      return k;
    } });
  }
  // The set just put down changed the sets, so they are drawn with it
  // marked; the mark is no part of their key (drawn again without it a
  // view later, they would be made twice).
  const fresh = arrive && arrive.seat === c.seat ? arrive.index : -1;
  parts.push({ key: JSON.stringify(["sets", look, play.sets]), make: () => {
    const sets = el("div", "sets");
    play.sets.forEach((ts, i) => {
      const g = group(ts.cards, "set" + (ts.active ? " active" : "") + (fresh === i ? " arrive" : ""), ts.label);
      g.title = ts.label;
      sets.appendChild(g);
    });
    return sets;
  } });
  return parts;
}

// renderPlay draws the trick in play (each card with who played it), or
// the trick just taken (held: complete, with who took it, until the next
// lead or a click), or the set round. arrive.trick marks the newest card.
export function renderPlay(box, v, names, held, arrive) {
  const trick = v ? (v.trick && v.trick.length ? v.trick : held ? held.cards : []) : [];
  const round = v && !trick.length && v.round ? [v.round, (v.tables[v.round.owner] || []).slice(-1)] : null;
  // What it shows: the trick's cards and names, the taker, or the round
  // (the card just put down shows with it, so arrive needs no key).
  if (unchanged(box, JSON.stringify([!!v, !!(v && v.trick && v.trick.length), trick, held && [held.n, held.seat, held.card], round, trick.length || round ? names : []]))) return;
  box.replaceChildren();
  box.classList.remove("held");
  if (!v) return;
  if (trick.length) {
    const done = !(v.trick && v.trick.length);
    box.appendChild(el("span", "label", done ? `${names[held.seat]} takes the trick with the ${words(held.card)}:` : "Trick:"));
    trick.forEach((t, i) => {
      const f = el("figure", "played" + (done && t.card === held.card && t.seat === held.seat ? " taker" : ""));
      // The card and its player's name move in together.
      if (arrive && arrive.trick && i === trick.length - 1) f.classList.add("arrive");
      f.appendChild(cardEl(t.card));
      f.appendChild(nameEl("figcaption", "", names[t.seat]));
      box.appendChild(f);
    });
    if (done) {
      box.classList.add("held");
      box.dataset.take = held.n;
      const b = el("button", "clear-trick", "Clear the trick");
      b.type = "button";
      box.appendChild(b);
    }
  } else if (v.round) {
    const owner = v.round.owner;
    box.appendChild(el("span", "label", `Set round (${spectrumWords(v.round.spectrum)}), led by ${names[v.round.leader]}; the active set is ${names[owner]}'s:`));
    const tab = v.tables[owner] || [];
    if (tab.length) box.appendChild(group(tab[tab.length - 1].cards, "set active"));
  }
}

// heldTrick is the trick that take (an event of events) took: its cards
// in the order played, who took it with which card. take is among the
// last events: it is looked for from the end.
export function heldTrick(events, take) {
  const cards = [];
  for (let i = events.lastIndexOf(take) - 1; i >= 0; i--) {
    const e = events[i];
    if (e.kind !== "move") break;
    const [verb, card] = e.action.split(" ");
    if (verb !== "play" && verb !== "lead") break;
    cards.unshift({ seat: e.seat, card });
    if (verb === "lead") break;
  }
  return { n: take.n, seat: take.seat, card: cardsOf(take.toGrave)[0] || "", cards };
}

// renderLast draws the last trick taken this hand (until the next trick
// starts): who took it with which card, and the cards that went to their
// hand. Once any of those cards has left that hand (laid in a set, or
// every hand gone to the graveyard at scoring) the line would name cards
// no longer there, so it goes: the view's known cards say which are still
// in the hand. Nothing shows after the game's end.
export function renderLast(box, v, events, names, trickShown) {
  const c = lastShown(v, events, names, trickShown);
  if (unchanged(box, JSON.stringify(c))) return;
  box.replaceChildren();
  if (!c) return;
  box.appendChild(el("span", "label", c.label));
  if (c.got.length) box.appendChild(group(c.got, "set"));
}

// lastShown is what renderLast shows: the line and the cards that went to
// the taker's hand, or null for nothing.
function lastShown(v, events, names, trickShown) {
  if (!v || v.toMove < 0 || (v.trick && v.trick.length) || trickShown) return null;
  let take = null;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.hand !== v.handNumber || e.kind === "deal") break;
    if (e.kind === "take") { take = e; break; }
    if (e.kind === "move" && /^(lead|play) /.test(e.action)) break;
  }
  if (!take) return null;
  const won = cardsOf(take.toGrave);
  const got = cardsOf(take.toHand);
  const inHand = cardsOf((v.known || [])[take.seat]).slice(); // jokers can be two alike: count them
  for (const c of got) {
    const i = inHand.indexOf(c);
    if (i < 0) return null;
    inHand.splice(i, 1);
  }
  return { label: `${names[take.seat]} took the last trick${won.length ? " with the " + words(won[0]) : ""}` + (got.length ? `; to ${names[take.seat]}'s hand:` : "."), got };
}

function cardsOf(s) { return typeof s === "string" ? s.split(/\s+/).filter(Boolean) : Array.isArray(s) ? s : []; }

// sheetName is a seat's head on the score sheet. A bot is "Bot 2", its
// level in the title and what a screen reader reads: at six seats in the
// side column "Bot 2 (master)" was cut to "Bot …", five columns alike.
function sheetName(name) {
  const bot = /^(Bot \d+) \([a-z]+\)$/.exec(name || "");
  const th = nameEl("th", "", bot ? bot[1] : name);
  if (bot) { th.title = name; th.setAttribute("aria-label", name); }
  return th;
}

// renderSheet is the score sheet: each hand's points, the totals and the
// target. It draws only what changed since it last drew table (sheets):
// the head when the seats' names do, a row per hand scored since (a
// hand's row, once scored, stays as it is), the foot when the totals do.
// Redrawn whole, the sheet cost each view of a long game a row per hand
// played, twice (the side's and the one opened after a hand).
export function renderSheet(table, v, names) {
  if (!v) { table.replaceChildren(); sheets.delete(table); return; }
  let s = sheets.get(table);
  if (!s || s.body.parentNode !== table) {
    s = { head: el("thead"), body: el("tbody"), foot: el("tfoot"), headKey: "", rows: [], footKey: "" };
    table.replaceChildren(s.head, s.body, s.foot);
    sheets.set(table, s);
  }
  const ns = names.slice(0, v.players);
  const headKey = JSON.stringify(ns);
  if (headKey !== s.headKey) {
    s.headKey = headKey;
    const head = el("tr");
    head.appendChild(el("th", "", "Hand"));
    for (const n of ns) head.appendChild(sheetName(n));
    s.head.replaceChildren(head);
  }
  sheetRows(s, v.results || []);
  const footKey = `${v.totals.join(" ")}/${v.target}/${v.players}`;
  if (footKey !== s.footKey) {
    s.footKey = footKey;
    s.foot.replaceChildren(sheetTotal(v.totals), sheetTarget(v));
  }
}

// sheets is what renderSheet last drew in each table it draws: its parts
// and, to tell what changed, their content as keys.
const sheets = new WeakMap();

// sheetRows brings the body of sheet s to results: a row whose hand and
// points are unchanged stays, so a view draws the rows of the hands
// scored since the last (none, most views).
function sheetRows(s, results) {
  results.forEach((r, i) => {
    const key = `${r.hand}:${r.scores.join(" ")}`;
    if (s.rows[i] === key) return;
    const tr = el("tr");
    tr.appendChild(el("td", "", String(r.hand)));
    for (const x of r.scores) tr.appendChild(el("td", "", String(x)));
    if (i < s.rows.length) s.body.replaceChild(tr, s.body.children[i]); else s.body.appendChild(tr);
    s.rows[i] = key;
  });
  while (s.rows.length > results.length) { s.body.lastChild.remove(); s.rows.pop(); }
}

// sheetTotal is the sheet's row of totals, the leader's marked.
function sheetTotal(totals) {
  const tot = el("tr", "total");
  tot.appendChild(el("th", "", "Total"));
  const best = Math.max(...totals);
  totals.forEach((x) => tot.appendChild(el("th", x === best && x > 0 ? "lead" : "", String(x))));
  return tot;
}

// sheetTarget is the sheet's row saying the target and when it ends the
// game.
function sheetTarget(v) {
  const tg = el("tr", "target");
  tg.appendChild(el("td", "", "Target"));
  const cell = el("td", "", `${v.target}: the game ends after the hand in which someone reaches it`);
  cell.colSpan = v.players;
  tg.appendChild(cell);
  return tg;
}

// listNames joins names as a sentence does: "Ann", "Ann and Bob",
// "Ann, Bob and Cleo".
function listNames(ns) {
  return ns.length > 1 ? `${ns.slice(0, -1).join(", ")} and ${ns[ns.length - 1]}` : ns[0];
}

// statusText is the line under the bar: whose turn, which phase, the
// target. stopped (the page no longer plays: its table is gone, or the
// seat is played in another window) takes the place of whose turn it
// is: the page cannot play that turn, so it must not claim it. code is
// the table's code (empty until the page has it), named while seats wait
// for players, since the line asks to share it.
export function statusText(m, names, stopped = "", code = "") {
  const v = m.view;
  if (!v) {
    const held = m.seats.filter((s) => s.reserved);
    if (held.length && !m.seats.some((s) => s.open)) {
      // Said to whoever reads it: the seated were told to take a seat
      // they had, the one it is held for (m.held) is asked to take it.
      if (m.held) return "Your seat is held for this rematch: take it to play.";
      return `Waiting for ${listNames(held.map((s) => s.name || `Seat ${s.seat + 1}`))} to take ${held.length > 1 ? "their seats" : "the seat"} held for this rematch.`;
    }
    const open = m.seats.filter((s) => s.open).length;
    if (!open) return "Starting…";
    // A visitor is asked to sit, not to share a table they have no seat
    // at: the line told them to send its address to others.
    if (m.seat < 0) return `Waiting for players: ${open === 1 ? "a seat is" : `${open} seats are`} open; press Take a seat to play, or watch.`;
    return code ? `Waiting for players: share this page's address or its code, ${code} (both under Invite a friend).` : "Waiting for players: share this page's address or its code.";
  }
  if (v.toMove < 0) return `Game over after ${v.handNumber} hand${v.handNumber > 1 ? "s" : ""}.`;
  if (stopped) return `Hand ${v.handNumber} · to ${v.target} ${points(v.target)} · ${stopped}`;
  const who = v.toMove === m.seat ? "your turn" : `${names[v.toMove]} to play`;
  let what = "";
  if (v.phase === "lead") what = v.toMove === m.seat ? "you have the lead" : `${names[v.toMove]} has the lead`;
  else if (v.phase === "trick") what = "a trick";
  else if (v.phase === "round") what = "a set round";
  return `Hand ${v.handNumber} · to ${v.target} ${points(v.target)} · ${what} · ${who}`;
}

// winnersText announces the end: one winner, or a shared win.
export function winnersText(v, names) {
  const w = v.winners || [];
  const who = w.map((s) => names[s]);
  const list = who.length > 1 ? who.slice(0, -1).join(", ") + " and " + who[who.length - 1] : who[0];
  const pts = w.length ? v.totals[w[0]] : 0;
  return w.length > 1 ? `Game over: ${list} share the win with ${pts} ${points(pts)}.` : `Game over: ${list} wins with ${pts} ${points(pts)}.`;
}

// setWords is the preview of a legal set: its spectra and points. A set
// that fits several spectra scores, on a table, in whichever gives it the
// most, whatever it was led as (the rules' Scoring section): so its points
// are said once, as the best, and the spectrum to choose only decides
// what it answers. lead says the player may lead it now.
export function setWords(as, lead) {
  if (as.length === 1) return `As a set: ${as[0].words}, ${as[0].points} ${points(as[0].points)}.`;
  const best = as.reduce((b, x) => (x.points > b.points ? x : b));
  const names = as.map((x) => x.words);
  const list = names.slice(0, -1).join(", ") + " or " + names[names.length - 1];
  return `As a set: ${list}; it scores ${best.points} ${points(best.points)} whichever it is led as (as ${best.words}).` +
    (lead ? " Choose the spectrum when you lead it: it decides which sets answer it." : "");
}
