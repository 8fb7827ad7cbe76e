// The table page: the player's hand and actions (the connection is in
// connection.js). The server sends views made for this browser
// (docs/api.md, "Arlington tables"), with the events and legal actions
// already in words and the points of each action; the page paces what it
// shows (pace.js).
import { request } from "/shared/api.js";
import { installSprite, setSmallCards } from "/shared/cards.js";
import { el, ruleHref, say, sayError, sayNames, sync } from "./common.js";
import { installSeating, focusAfterJoin, offerSeat } from "./seating.js";
import { redrawAll, renderPlayers, renderPlay, renderLast, renderSheet, cardWordsIn, heldTrick, statusText, winnersText } from "./render.js";
import { Replay } from "./replay.js";
import { GameLog } from "./log.js";
import { Pacer, savedSpeed, installSpeed } from "./pace.js";
import { drawHand, drawActions, turnActions } from "./handview.js";
import { cardsIn, legalFor, handKeys, cardOf, place, restore } from "./hand.js";
import { installKeys } from "./keys.js";
import { installInvite, showCode, followInvite } from "./invite.js";
import { renderEnd, showEnded } from "./end.js";
import { conn, connect, stoppedWords, installConnection, gameShown, actionSent } from "./connection.js";
import { bringTurnIntoView, bringSheetIntoView, bringEndIntoView, bringRefusalIntoView, typing, keepField } from "./onscreen.js";
import { addChat, lastChat, renderChat, installChat, chatAwaiting, enterChat, leaveChat } from "./chat.js";
import { renderHandOver, installHandOver } from "./handover.js";
import { SelectionPreview } from "./preview.js";
import { standIn, installPeers, sending, refused as refusedSent, noteStandIn, noteHistory } from "./standin.js";

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.split("/").pop());
let events = []; // the public event log, as shown
let log = [];    // the words of each event
let last = null; // the last view message shown
let names = [];
let selected = [];   // the selected hand cards' keys (handKeys), in the order tapped
let hinted = "";     // the action the last hint suggested, until the next view
// sentAt is the event count at which this page sent an action, -1 if none
// awaits its answer: the move that is that action shown (takeEvents), a
// refusal, or a dropped connection clears it. While the view drawn is
// still at that count the action buttons are disabled, so a double tap
// sends once. A view past it that is not the action (a stand-in's move
// as the turn's timer ran out) leaves it set: the refusal that follows
// answers it. Left set after its answer, a later refusal of anything
// else was taken for that action's, and withdrew it from the person's
// other windows, which then told it as a bot's move.
let sentAt = -1;
let answerAt = -1; // the same, until the answer arrives (pace.js: it skips the pause)
// turnSeconds is the table's turn timer (0: none), from its summary: on
// the player's turn the page says a bot will play it if they wait too long.
let turnSeconds = 0;
// rated: the table is rated, where the timer runs even with nobody else
// connected (the result is waiting).
let rated = false;
let code = "";             // the table's code, from its summary
// held is the trick last taken, shown complete until the next lead or a
// click; arrive marks what the last shown move put down (animated).
let held = null;
let arrive = null;
let myTurn = false;
// sheetHolds: since the score sheet last opened at the top (a render's
// sheetOpened) the player has neither acted nor closed it, so a turn
// coming does not scroll it away.
let sheetHolds = false;
const openGroups = new Set(); // the action groups the player unfolded
const replay = new Replay(id);
const gameLog = new GameLog($("log"), $("log-filter"));
installPeers(id, () => (last ? last.seat : -1), () => gameLog.render(events, log, standIn, true));
const pacer = new Pacer(show, savedSpeed(), timedTurn);

installSprite();
const narrow = window.matchMedia("(max-width: 600px)");
setSmallCards(narrow.matches);
// The cards' look changes with the width: everything with cards is drawn
// again, not only what changed.
// The focus on a hand card or an action is noted before they go, and
// put back on its new self after (a phone turned sideways lost it).
narrow.addEventListener("change", () => {
  setSmallCards(narrow.matches);
  redrawAll();
  const box = $("hand-box");
  const keep = place(box);
  $("hand").replaceChildren();
  if (last) render();
  restore(box, keep, false);
});

$("record").href = `/api/arlington/tables/${encodeURIComponent(id)}/record`;

// The connection (connection.js); what it asks of this page.
installConnection({
  id,
  hello,
  showError,
  view(m) {
    // Chat lines are shown as they come, not after the plays queued
    // before them (at the page's pace a line waited 20 s behind the
    // bots' plays, the sender's own included); show adds none twice.
    if (m.chat && m.chat.length) { addChat(m.chat, last !== null, m.seat); renderChat(); }
    // The answer to the player's own action is shown at once: the pause
    // after the play before it would only make the page feel slow.
    if (answerAt >= 0 && m.view && m.view.eventCount > answerAt) { answerAt = -1; pacer.skip(); }
    pacer.push(m);
  },
  dropped() { sentAt = -1; },
  // An action awaits its answer while the view drawn is the one it was
  // sent at (waiting, below).
  awaiting() { return (sentAt >= 0 && !!last && !!last.view && sentAt === last.view.eventCount) || chatAwaiting(); },
  dropSelection,
  ended(r, status) { showEnded(r, !!last, replay, status); },
  redraw() { if (last) render(); },
});
// timedTurn says view m gives this page's player a turn the table's turn
// timer counts (pace.js hurries the plays queued before it). The server
// says whether the timer runs (m.timed): it does not for a person alone
// with bots at a casual table, who keeps the pace they chose.
function timedTurn(m) {
  return !!m.timed && m.seat >= 0 && !!m.view && m.view.toMove === m.seat && !!m.legal && m.legal.length > 0;
}
// dropSelection forgets the selection and its preview (and any preview
// still on its way) of a page that stops playing.
function dropSelection() {
  selected = [];
  hinted = "";
  previews.drop();
  $("preview").textContent = "";
  $("preview").className = "preview";
}
// showError explains a refusal; an illegal action's message names the
// rule it breaks, its cards written as the page writes them.
function showError(m) {
  if (sentAt >= 0) { sentAt = -1; refusedSent(); if (last) renderHand(true); }
  let text = m.error || "refused";
  if (m.class === "illegal") {
    const reason = text.replace(/^.*illegal action: /, "").replace(/ \(rule "[^"]*"\)$/, "");
    text = `Not allowed: ${cardWordsIn(reason)}`;
    if (m.rule) {
      // The rule's name links to its section of the rules page.
      const a = el("a", "rule-link", `rule “${m.rule}”`);
      a.href = ruleHref(m.rule);
      a.target = "_blank";
      a.rel = "noopener";
      $("error").replaceChildren(text + " (", a, ")");
      say(`${text} (rule “${m.rule}”)`);
      bringRefusalIntoView();
      return;
    }
  }
  sayError(text);
  bringRefusalIntoView();
  // A page refused a spectator place has no view to say whether a seat
  // is open: each refusal does, in its seatOpen (never its words, which
  // may change), and a later one without it takes the form away again.
  if (m.class === "too_many" && last === null) offerSeat(!!m.seatOpen);
}

// show draws one view message (the pacer calls it) and says how long to
// pause after it: "trick" after a trick taken, "move" after a play.
function show(m, burst) {
  let fresh = [];
  if (m.view) {
    fresh = takeEvents(m);
    if (fresh === null) return "";
  }
  if (m.chat) addChat(m.chat, last !== null, m.seat);
  names = m.names && m.names.length ? m.names : m.seats.map((s) => `Seat ${s.seat + 1}`);
  sayNames(names);
  // The status line is no live region (it would say every turn twice,
  // with the events): a game that starts while the page is open is said.
  const started = !!m.view && last !== null && !last.view;
  last = m;
  const ownPlay = fresh.some((f) => f.e.kind === "move" && f.e.seat === m.seat);
  // The player's own play (not the stand-in's for them) is the only move
  // that may scroll the page to where the focus went (hand.js restore).
  const byPlayer = fresh.some((f) => f.e.kind === "move" && f.e.seat === m.seat && !standIn.has(f.e.n));
  const drawn = render(byPlayer);
  if (burst && fresh.length > 1) fresh = fresh.slice(-1);
  sayEvents(m, fresh, drawn, started);
  // A seat whose person is away is played by a bot at once: its turns
  // are not said nor brought onto the screen (the page would jump for a
  // move the person does not make).
  const away = m.seat >= 0 && m.seats.some((s) => s.seat === m.seat && s.away);
  // A stopped page (table gone, seat played elsewhere) has no turn here.
  const nowMine = !!(m.view && m.view.toMove === m.seat && m.legal.length) && !away && !stoppedWords();
  // A turn that follows the player's own move is a new one (a set round
  // they ended, a card added to a set): said too, or a player who hears
  // their move and nothing after it waits for a turn they already have.
  if (nowMine && (!myTurn || ownPlay)) say("Your turn.");
  bringOnScreen(drawn, nowMine && (!myTurn || byPlayer), away || typing());
  myTurn = nowMine;
  if (fresh.some((f) => f.e.kind === "take")) return "trick";
  return fresh.some((f) => f.e.kind === "move") ? "move" : "";
}

// takeEvents adds view message m's events (and their words) to the
// page's and returns those new to it, each with its words (none on the
// first view: a page opened mid-game does not retell it), or null when
// the view leaves a gap (the connection is then started again).
function takeEvents(m) {
  const v = m.view;
  // The log is the same for everyone and eventsFrom numbers it: a view
  // may repeat events this page has (a new hello crossed updates still
  // on their way, as after taking a seat), which it replaces; only a
  // gap means events were missed.
  if (v.eventsFrom > events.length) { // a gap: start again with a full view
    events = []; log = [];
    document.body.dataset.resyncs = String(+(document.body.dataset.resyncs || 0) + 1);
    if (conn.ws) { conn.resync = true; conn.ws.close(); }
    return null;
  }
  const had = events.length;
  const first = last === null || !last.view;
  // In place: a view carries what is new (and maybe a few events
  // repeated), so taking it costs that much, not the whole game's log.
  events.length = v.eventsFrom;
  for (const e of v.events) events.push(e);
  log.length = v.eventsFrom;
  for (const w of m.log || []) log.push(w);
  // The seat's moves the page loads with (on its first view, after a gap,
  // or on taking the seat) are noted once, unjudged; every later view's
  // are judged. Noted again at every view, past MOVES_MAX of the seat's
  // moves they pushed the judged ones out as loaded, and a late word of
  // another window then left its move the stand-in's.
  if (m.seat >= 0 && (had === 0 || !last || last.seat !== m.seat)) noteHistory(events, m.seat);
  else if (m.seat >= 0 && noteStandIn(events.slice(had), m.seat)) sentAt = -1; // the action answered
  if (last && last.view && v.eventCount !== last.view.eventCount) { hinted = ""; $("error").textContent = ""; }
  const fresh = first ? [] : events.slice(had).map((e, i) => ({ e, words: log[had + i] }));
  followTrick(fresh, v);
  return fresh;
}

// sayEvents says what view message m brought: the game's start, its new
// events (a stand-in's play for the player named as such) and, after the
// plays that ended it, the result, once (its box is no live region: its
// buttons, drawn anew, were said again).
function sayEvents(m, fresh, drawn, started) {
  if (started) say("The game has started.");
  for (const f of fresh) say((standIn.has(f.e.n) ? "A bot played for you: " : "") + f.words);
  if (drawn.ended) say(winnersText(m.view, names));
}

// bringOnScreen moves the page to what a view drew that the player needs:
// the score sheet that just opened at the top comes onto the screen (in
// a short window it was above the window's top) and holds it until the
// player acts or closes it: their turn is said meanwhile, and comes into
// view when they close the sheet. Else a turn is brought onto the screen
// (turnNews) when it comes, and again while it lasts when the player's
// own play was shown (a set laid, new actions). Besides, only a focus
// moved by the player's own doing (hand.js restore) and the game's end
// move the page, so a player who scrolled up to read stays there while
// others (or a stand-in for them) play. None of this, the game's end
// included, scrolls while still: the player types (chat, the log's Find:
// the field would slide away under their fingers) or is away (a stand-in
// plays; they are not looking at the turn). The result is still shown
// and said.
function bringOnScreen(drawn, turnNews, still) {
  if (drawn.ended && !still) bringEndIntoView();
  // The last card played leaves the keyboard's focus on <body>, and no
  // deal comes to take it back (hand.js): it goes to "Watch the replay".
  if (drawn.ended && document.activeElement === document.body) $("btn-replay").focus({ preventScroll: still });
  if (drawn.sheetOpened) { sheetHolds = true; if (!still) bringSheetIntoView(); }
  else if (turnNews && !sheetHolds && !still) bringTurnIntoView();
}

// followTrick keeps the completed trick (until the next lead) and notes
// what the newest move put down, for its animation.
function followTrick(fresh, v) {
  arrive = null;
  for (const { e } of fresh) {
    if (e.kind === "take") held = heldTrick(events, e);
    if (e.kind !== "move") continue;
    const verb = e.action.split(" ")[0];
    if (verb !== "play" && verb !== "pass") held = null; // a new lead (or a set answered, a kill)
    if (verb === "lead" || verb === "play") arrive = { trick: true };
    else if (verb === "set") arrive = { seat: e.seat, index: (v.tables[e.seat] || []).length - 1 };
    else if (verb === "add" || verb === "pickup") {
      const [s, i] = e.action.split(" ").pop().split("/").map(Number);
      arrive = { seat: s, index: i };
    }
  }
  if (v.toMove < 0) held = null;
}

// hello is the message that (re)subscribes: the events and the chat
// lines the page has, so the server sends only what comes after.
function hello(more) {
  const m = { type: "hello", since: events.length ? events.length : -1, ...more };
  const c = lastChat();
  if (c !== undefined) m.chat = c;
  return m;
}

// follow: this redraw answers the player's own doing, so a focus it
// moves is scrolled into view (hand.js restore). It says what it drew
// for the first time, for show to bring onto the screen: sheetOpened,
// the score sheet opened at the top, pushing the hand down
// (renderHandOver); ended, the game's result (renderEnd). Only a view
// with new events draws either, and only show draws those: a redraw of
// the same view says false to both.
function render(follow) {
  const putBack = keepField();
  const m = last;
  const v = m.view;
  // A seat held for this person (a rematch) is theirs to take even when
  // no seat is open to anyone else.
  $("join").hidden = !(m.seat < 0 && (m.held || m.seats.some((s) => s.open)));
  $("seated").hidden = !(m.seat >= 0 && !v); // before the start a seat can be given up
  // In play the person may leave too: the stand-in plays their seat
  // until they come back (connection.js follows the Leave). The page
  // offered no way to, but closing it, and the others waited out the
  // turn timer at each of their turns, or for good with none.
  $("leave-game-box").hidden = !leaveOffered();
  renderPlayers($("players"), m, names, arrive);
  gameShown(!!v && v.toMove < 0);
  $("status").textContent = statusText(m, names, stoppedWords(), code);
  followInvite(!!v, m.seats.some((s) => s.open));
  renderPlay($("play"), v, names, held, arrive);
  renderLast($("last"), v, events, names, held);
  renderHand(follow);
  if (m.seat >= 0) focusAfterJoin();
  gameLog.render(events, log, standIn, false);
  renderSheet($("sheet"), v, names);
  const drawn = { sheetOpened: renderHandOver(v, events, names), ended: renderEnd(v, last, names, id, replay) };
  renderChat();
  putBack();
  return drawn;
}

// leaveOffered: the view shown is of a game in play at this person's
// seat, which they have not left nor are leaving. A game over has
// nothing to leave.
function leaveOffered() {
  const m = last, v = m && m.view;
  return !!(m && m.seat >= 0 && v && v.toMove >= 0 && !stoppedWords() && !conn.away && !conn.leaving);
}

const selCards = () => selected.map(cardOf);

// renderHand draws the hand and the actions of the last view. Each is
// drawn only as far as it changed: a card still in the hand keeps its
// button (its marks brought up to date), and the actions are drawn
// again only when what they show changed (drawActions). A view that
// changes neither (a chat line, a reconnect, most of the others' plays
// for the hand) leaves the focused card or action the very element it
// was: drawn anew, a screen reader announced it again, and a phone made
// some 60 to 75 elements for nothing (at two seats, with the players and
// the trick; createElement calls, the cards' SVG pictures not counted).
function renderHand(follow) {
  const m = last;
  const v = m.view;
  const box = $("hand-box");
  const keep = place(box);
  const hand = $("hand");
  const acts = $("actions");
  box.classList.toggle("empty", !v || m.seat < 0 || (!v.hand.length && v.toMove !== m.seat));
  if (!v || m.seat < 0) {
    $("preview").textContent = "";
    hand.replaceChildren();
    drawActions(acts, "none", () => sync(acts, []));
    return;
  }
  const keys = handKeys(v.hand);
  selected = selected.filter((k) => keys.includes(k));
  const mine = v.toMove === m.seat && m.legal.length > 0;
  const stopped = !!stoppedWords();
  const waiting = sentAt === v.eventCount || stopped;
  // Highlighted: the cards that, with those selected, some legal action uses.
  const usable = new Set();
  for (const x of legalFor(m, selCards())) for (const c of x.cards) usable.add(c);
  const hintCards = hinted ? cardsIn(hinted) : [];
  drawHand(hand, v.hand, keys, (key, c) => ({
    legal: mine && usable.has(c), selected: selected.includes(key), hinted: hintCards.includes(c),
    // A stopped page's cards are shown but not selectable: a selection
    // would ask for previews of a table it no longer plays.
    stopped,
  }), toggle);
  if (!mine) {
    const wait = v.toMove < 0 ? "" : `Waiting for ${names[v.toMove]}…`;
    drawActions(acts, JSON.stringify(["wait", wait]), () => sync(acts, [{ key: "wait " + wait, make: () => el("span", "small", wait) }]));
    restore(box, keep, follow);
    return;
  }
  const shownKey = JSON.stringify([m.legal, m.legalWords, m.legalPoints, names, m.seat, v.phase, selected, hinted, waiting, stopped, turnSeconds, rated]);
  drawActions(acts, shownKey, () => turnActions(acts, { m, v, stopped, waiting, selected, cards: selCards(), hinted, names,
    openGroups, turnSeconds, rated, hint, clear: clearSelection, act }));
  restore(box, keep, follow);
}

function toggle(c) {
  if (stoppedWords()) { sayStopped(); return; }
  const i = selected.indexOf(c);
  if (i >= 0) selected.splice(i, 1); else selected.push(c);
  $("error").textContent = "";
  renderHand(true);
  preview();
}

function clearSelection() {
  selected = [];
  renderHand(true);
  preview();
}

// preview asks what the current selection does (preview.js).
const previews = new SelectionPreview(id, () => ({ last, cards: selCards(), stopped: !!stoppedWords() }), (text) => say(text));
const preview = () => previews.ask();

// sayStopped answers a stopped page's card or Hint (by key, or a click
// that beat the redraw) with why it does not play.
function sayStopped() {
  sayError(stoppedSentence());
}
// stoppedSentence is why a stopped page does not play, as a sentence.
function stoppedSentence() {
  const w = stoppedWords();
  return w.charAt(0).toUpperCase() + w.slice(1) + ".";
}

async function hint() {
  if (stoppedWords()) { sayStopped(); return; }
  $("error").textContent = "";
  try {
    const h = await request("GET", `/api/arlington/tables/${encodeURIComponent(id)}/hint`);
    hinted = h.action;
    selected = [];
    renderHand(true);
    $("preview").className = "preview";
    $("preview").textContent = `Hint (${h.bot} bot): ${h.words || h.action}`;
    say($("preview").textContent);
  } catch (e) { sayError(e.message); }
}

function act(a) {
  $("error").textContent = "";
  if (conn.ws && conn.ws.readyState === WebSocket.OPEN) {
    sending(last.view.eventCount, last.seat, a);
    conn.ws.send(JSON.stringify({ type: "action", action: a }));
    actionSent();
    sheetHolds = false;
    sentAt = answerAt = last.view.eventCount;
    selected = [];
    previews.drop(); // a preview still on its way is of the selection just sent: dropped
    $("preview").textContent = "";
    renderHand(true);
  } else if (stoppedWords()) sayStopped();
  else sayError("Not connected: reconnecting, try again in a moment.");
}

// playSelection plays what the selected cards make: the one action that
// plays exactly them, or (several spectra) the first of those to choose
// from, or the try button's guess.
function playSelection() {
  if (!last || !selected.length) return;
  const exact = [...document.querySelectorAll("#actions button.match:not(:disabled)")];
  if (exact.length === 1) exact[0].click();
  else if (exact.length > 1) { exact[0].focus(); say(`Choose: ${exact.map((b) => b.getAttribute("aria-label")).join("; or ")}.`); }
  else if ($("btn-try") && !$("btn-try").disabled) $("btn-try").click();
}

installChat();
// Closing the sheet brings the player's turn (if it is) onto the screen:
// while the sheet was open it stayed where the sheet put it.
installHandOver(() => { sheetHolds = false; if (myTurn) bringTurnIntoView(); });
// A click on the completed trick clears it (and ends the pause after it).
$("play").addEventListener("click", () => {
  if (!held) return;
  held = null;
  if (last) render(true);
  pacer.skip();
});
installSeating(id, hello, leaveOffered);

installSpeed(pacer);

installKeys({
  pass: () => { const b = document.querySelector('#actions button[data-action="pass"]:not(:disabled)'); if (b) b.click(); },
  play: playSelection,
  hint: () => { if (stoppedWords()) { sayStopped(); return; } const b = $("btn-hint"); if (b) b.click(); },
  chat: enterChat,
  leaveChat,
  clear: () => { if (selected.length) clearSelection(); },
});

installInvite(id);
connect();
request("GET", `/api/arlington/tables/${encodeURIComponent(id)}`).then((t) => {
  turnSeconds = Math.max(0, t.turnSeconds || 0);
  rated = t.rated === true;
  showCode(t.code);
  code = t.code || "";
  if (last) { $("status").textContent = statusText(last, names, stoppedWords(), code); renderHand(); }
}).catch(() => { /* the page plays on without the timer's note and the code */ });
