// Settings: kept by the server for the player, copied to localStorage.

import { api } from "/shared/api.js";
import { SETTINGS_KEY, DEFAULTS, CHOICES, S, busy } from "./state.js";

export function applySettings() {
  const s = S.settings;
  document.body.classList.toggle("hide-areas", !!s.hideAreas);
  document.documentElement.classList.toggle("four-color", !!s.fourColor);
  applyLooks(s);
  document.querySelectorAll("[data-set]").forEach((b) => b.setAttribute("aria-checked", s[b.dataset.set] ? "true" : "false"));
}

// applyLooks shows settings s's card back and table colour (classes on
// <html>, shared/base.css); the front page's pictures use it too.
export function applyLooks(s) {
  const root = document.documentElement;
  for (const k of ["back", "table"]) {
    for (const c of CHOICES[k]) root.classList.toggle(`${k}-${c}`, s[k] === c && c !== DEFAULTS[k]);
  }
}

// storedLooks applies the looks this browser last saved (localStorage), for
// pages that do not load the settings from the server.
export function storedLooks() {
  try { applyLooks(mergeSettings(JSON.parse(localStorage.getItem(SETTINGS_KEY) || "null"))); } catch { /* none kept */ }
}

// mergeSettings keeps the settings the page knows, each one of its
// allowed values (VALUES, NEW_GAME_CHOICES) or else of its
// default's type (yes or no: every setting of another type has a list
// of its values, and one added needs one), the defaults for the rest:
// the browser's copy stays far below the 16 KiB the server takes.
function mergeSettings(src) {
  const out = structuredClone(DEFAULTS);
  if (!src || typeof src !== "object") return out;
  for (const k of Object.keys(DEFAULTS)) {
    if (k === "newGame") out.newGame = mergeNewGame(src.newGame);
    else if (VALUES[k]) out[k] = VALUES[k].includes(src[k]) ? src[k] : DEFAULTS[k];
    else if (typeof DEFAULTS[k] === "boolean" && typeof src[k] === "boolean") out[k] = src[k];
  }
  if (Number.isInteger(src.rev) && src.rev >= 0 && src.rev <= MAX_REV) out.rev = src.rev;
  return out;
}

// rev is the revision of settings s: their last change's (nextRev), 0
// for settings from before revisions.
const rev = (s) => (s && Number.isInteger(s.rev) ? s.rev : 0);

// withoutRev is settings s as the page knows them, less their revision:
// what a write's answer is compared by.
const withoutRev = (s) => { const { rev: _, ...rest } = mergeSettings(s); return JSON.stringify(rest); };

// MAX_REV is the largest revision the server takes
// (spidergame.MaxRevision).
const MAX_REV = 1e15;

// nextRev is the revision of a change made to settings s: the time in
// ms, or one past s's if that is later (a clock set back, or another
// device's ahead), so that every change is newer than the copy it was
// made to. The server does not store a write older than the one it
// keeps: an older write held up on its way (aborted as its page went,
// but already being stored) cannot undo a newer one, and the last
// change made, in any tab or device, is the one kept.
function nextRev(s) {
  return Math.min(Math.max(Date.now(), rev(s) + 1), MAX_REV);
}

// CHEATS are the cheat detection levels; NEW_GAME_CHOICES the values the
// New game dialog's choices that are not yes or no may take (its form).
const CHEATS = ["none", "newcards", "full"];
// VALUES: every setting with a list of values (the looks' CHOICES are
// the looks form's too, so the cheat levels stand apart from them).
const VALUES = { ...CHOICES, cheat: CHEATS };
const NEW_GAME_CHOICES = { variant: ["arachnid", "spider"], suits: [1, 2, 4] };

// mergeNewGame keeps the New game dialog's known choices, each one of
// its values (NEW_GAME_CHOICES) or a yes or no: a copy carrying more or
// longer (edited by hand, or by an older page) could grow past what the
// server takes, and be refused whole.
function mergeNewGame(src) {
  const out = structuredClone(DEFAULTS.newGame);
  if (!src || typeof src !== "object") return out;
  for (const k of Object.keys(out)) {
    const ok = NEW_GAME_CHOICES[k] ? NEW_GAME_CHOICES[k].includes(src[k]) : typeof src[k] === "boolean";
    if (ok) out[k] = src[k];
  }
  return out;
}

// UNSENT_KEY is set while this browser holds settings the server has
// not taken yet (a change whose write is unanswered, or failed). A page
// loaded meanwhile takes this browser's copy and sends it again: it took
// the server's, and a setting changed just before a reload came back as
// it was (the reload asked for them before the write was done).
const UNSENT_KEY = SETTINGS_KEY + ".unsent";
// unsentHere is the mark where the browser keeps none (private mode, or
// storage that throws): without it a failed write was never sent again.
// storageKeepsNone is set once a write to storage threw (storage full,
// or a private window that reads but keeps nothing): reads would then
// find no mark, or a copy older than this page's (sent, it undid the
// player's change), so this page's own are read from then on.
let unsentHere = false;
let storageKeepsNone = false;

function local() {
  if (storageKeepsNone) return null; // a copy left there is stale
  try { return JSON.parse(localStorage.getItem(SETTINGS_KEY) || "null"); } catch { return null; }
}

function unsent() {
  if (storageKeepsNone) return unsentHere;
  try { return localStorage.getItem(UNSENT_KEY) === "1"; } catch { return unsentHere; }
}

// markUnsent sets or clears the unsent mark, in the browser's storage
// and in this page (unsentHere).
function markUnsent(on) {
  unsentHere = on;
  try {
    if (on) localStorage.setItem(UNSENT_KEY, "1");
    else localStorage.removeItem(UNSENT_KEY);
  } catch { storageKeepsNone = true; }
}

// hooks are the page's (initSettings): changed redraws it for settings
// another tab changed; refused tells the player of a write the server
// refused; kept tells of a write answered with other settings the
// server keeps (another device's). The front page, which only reads the
// looks, sets none.
const hooks = { changed: () => {}, refused: () => {}, kept: () => {} };

// initSettings makes this tab follow the settings the browser's other
// tabs change: each change writes the browser's copy (localStorage),
// and the browser tells the other tabs (the storage event), which show
// it. A tab that kept the settings it loaded wrote them all back at its
// next change, undoing those changed in another tab meanwhile.
export function initSettings({ changed, refused, kept }) {
  hooks.changed = changed;
  hooks.refused = refused;
  hooks.kept = kept;
  window.addEventListener("pagehide", flushSettings);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") flushSettings(); });
  window.addEventListener("storage", (e) => {
    if (e.key !== SETTINGS_KEY || e.newValue === null) return;
    let s;
    try { s = JSON.parse(e.newValue); } catch { return; }
    S.settings = mergeSettings(s);
    applySettings();
    hooks.changed();
  });
}

export async function loadSettings() {
  const mine = local();
  if (mine && unsent()) {
    S.settings = mergeSettings(mine);
    sendSettings();
    return;
  }
  let s = null;
  try {
    s = await api.settings();
  } catch { /* the server keeps none: fall back */ }
  // Another tab changed the settings while they were asked for: its copy
  // is newer than the server's answer, which may predate its write.
  const now = local();
  if (JSON.stringify(now) !== JSON.stringify(mine)) {
    S.settings = mergeSettings(now);
    return;
  }
  if (!s || !Object.keys(s).length) s = mine;
  S.settings = mergeSettings(s);
  // The browser's copy is the server's from now on: a change is made to
  // it (changeSettings), and the front page's picture shows its looks.
  const text = JSON.stringify(S.settings);
  try { if (JSON.stringify(mine) !== text) localStorage.setItem(SETTINGS_KEY, text); } catch { storageKeepsNone = true; }
}

// changeSettings makes the change fn makes to the settings, to the
// browser's newest copy (localStorage) rather than to the one this tab
// shows, which another tab's change may not have reached yet; then
// shows and saves them.
export function changeSettings(fn) {
  const now = local();
  if (now) S.settings = mergeSettings(now);
  fn(S.settings);
  S.settings.rev = nextRev(S.settings);
  applySettings();
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings)); } catch { storageKeepsNone = true; }
  markUnsent(true);
  sendSettings();
}

// refusedAsBad: the server refused the write for what it carried (a
// body too large, say), so sending it again would be refused again. A
// 408 or 429 (too soon) is worth another try, as a 5xx or a network
// failure (status 0) is.
function refusedAsBad(e) {
  return e && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429;
}

// sendSettings writes the settings to the server, one write at a time
// per page (the server keeps the newer revision whatever the order, but
// a write in flight for each change would load it for nothing). It
// sends this browser's copy (localStorage), the newest of its tabs', or
// this page's where the browser keeps none. A change made
// during a write is sent once it is answered; so is the browser's copy
// when another tab changed it meanwhile: that tab's write may have been
// taken before this one, which then undid it. A write that failed stays
// unsent, and is sent again later (retryLater) and by the next page,
// unless the server refused it as bad (refusedAsBad): sent again it
// would be refused again, on every load. The writes count as the page's
// requests in flight (busy).
let sending = false;
let again = false;
// retryTimer is this tab's one pending retry (schedule).
let retryTimer = 0;
// inflight aborts the write in flight, which flushSettings may replace.
let inflight = null;
function sendSettings(keepalive = false) {
  if (sending) { again = true; return; }
  sending = true;
  busy(1);
  const ctl = new AbortController();
  ctl.keepalive = keepalive;
  inflight = ctl;
  // replaced: flushSettings aborted this write and sent a newer one,
  // whose answer settles the unsent mark and the retries.
  const replaced = () => inflight !== ctl;
  const s = mergeSettings(local() || S.settings);
  const sent = JSON.stringify(s);
  // changedSince: another tab changed the browser's copy since it was sent.
  const changedSince = () => { const now = local(); return !!now && JSON.stringify(mergeSettings(now)) !== sent; };
  api.putSettings(s, { signal: ctl.signal, keepalive }).then((kept) => {
    if (replaced()) return;
    clearTimeout(retryTimer);
    setRetryAt(0);
    if (changedSince()) { markUnsent(true); again = true; }
    else {
      markUnsent(false);
      // The server answers what it keeps, with its revision. Settings
      // other than those sent were not stored: the server keeps another
      // device's, which are the browser's copy from now on, and the
      // player is told. The same settings with another revision (one
      // the server clamped to its clock) were stored.
      if (withoutRev(kept) !== withoutRev(s)) { adopt(kept); hooks.kept(); }
      else if (rev(kept) !== rev(s)) adopt(kept);
    }
  }, (e) => {
    if (replaced()) return;
    if (!refusedAsBad(e)) { retryLater(e); return; } // kept as unsent
    return refused(e, changedSince);
  }).finally(() => {
    busy(-1);
    if (replaced()) return;
    inflight = null;
    sending = false;
    if (again) { again = false; sendSettings(); }
  });
}

// flushSettings sends the browser's copy again, as the page is hidden or
// left, when a write is in flight: the browser cancels it when the page
// goes, and a change made meanwhile waited for its answer, which a page
// gone never reads (both stayed unsent until the next page was loaded).
// The write in flight is aborted, which spares the server storing it;
// one already being stored still lands, and its older revision has the
// server keep the newer copy (docs/page.md, Settings). The new one
// outlives the page (keepalive: the browser does not abort such a write
// as the page goes, and its body, bounded by mergeSettings, is far below
// keepalive's 64 KiB).
// Nothing else is sent: a failed write waits for its retry as the
// server asked (Retry-After), or is sent by the next page.
function flushSettings() {
  // A keepalive write in flight carries the newest copy unless a change
  // waits behind it (again): then that change is sent too, in a write
  // of its own (each is small, far below keepalive's 64 KiB for all the
  // page's requests in flight), and the revision has the server keep
  // the newer whichever lands last.
  if (!sending || (inflight.keepalive && !again)) return;
  again = false;
  if (!inflight.keepalive) inflight.abort();
  inflight = null;
  sending = false;
  sendSettings(true);
}

// RETRY_KEY is when the browser's next retry is due (ms since 1970),
// shared by its tabs: one tab sends it, the others wait with it, so
// three tabs holding a failed write send one retry, not three.
// FAILS_KEY counts the browser's writes failed in a row: any tab's
// write taken clears both, so a tab's next failure waits 1 s again, not
// the doubled wait of failures before another tab's success.
const RETRY_KEY = SETTINGS_KEY + ".retryAt";
const FAILS_KEY = SETTINGS_KEY + ".failures";
// fails and retryHere are the count and the time where the browser
// keeps none (private mode): a time of 0 there sent the retry at once,
// again and again.
let fails = 0;
let retryHere = 0;

function retryAt() {
  if (storageKeepsNone) return retryHere;
  try { return +localStorage.getItem(RETRY_KEY) || 0; } catch { return retryHere; }
}

function failures() {
  if (storageKeepsNone) return fails;
  try { return +localStorage.getItem(FAILS_KEY) || 0; } catch { return fails; }
}

// setRetryAt sets the next retry's time; 0, on a write taken, clears it
// and the failures counted.
function setRetryAt(ms) {
  if (!ms) fails = 0;
  retryHere = ms;
  try {
    if (ms) localStorage.setItem(RETRY_KEY, String(ms));
    else { localStorage.removeItem(RETRY_KEY); localStorage.removeItem(FAILS_KEY); }
  } catch { storageKeepsNone = true; }
}

// retryLater sends the unsent settings again after the longer of the
// server's Retry-After and a wait of 1 s doubling at each of the
// browser's failures in a row (FAILS_KEY), up to 5 minutes: a tab kept
// open all day would otherwise hold a change the server never had until
// the next page was loaded, and the Retry-After alone (about 1 s from
// the rate limit's 429; this server's 503s ask for 5 s) had each tab
// write every second for as long as the server could not store them.
function retryLater(e) {
  const ra = e && e.retryAfter > 0 ? e.retryAfter : 0;
  const n = failures();
  const secs = Math.min(Math.max(ra, 2 ** n), 300);
  fails = n + 1;
  try { localStorage.setItem(FAILS_KEY, String(n + 1)); } catch { storageKeepsNone = true; }
  // The latest answer sets the browser's time, the claim's included.
  setRetryAt(Date.now() + secs * 1000);
  schedule();
}

// schedule sets this tab's one pending retry (a new one replaces it) for
// the browser's next retry time. Due, the tab sends it unless the
// server took the settings meanwhile or another tab moved the time on
// (it sent the retry): then it waits for that time.
// A tab that waited for another's time waits a little past it (lag), so
// the one that set it claims it first.
function schedule(lag = 0) {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => {
    if (!unsent()) return;
    if (retryAt() > Date.now()) { schedule(500); return; }
    // Claim this retry for the tab, until its answer says otherwise.
    setRetryAt(Date.now() + Math.min(2 ** failures(), 300) * 1000);
    sendSettings();
  }, Math.max(retryAt() - Date.now(), 0) + lag);
}

// refused handles a write the server refused as bad: the browser's copy
// becomes the settings the server kept, which this tab shows (and so do
// the others, told by the browser), and the player is told once. Left as
// it was, the copy would be sent again with every change, and refused.
// Another tab's change made before the settings come back (changedSince)
// is not undone: the browser's newer copy is sent instead, and may be
// taken.
async function refused(e, changedSince) {
  let kept = null;
  try { kept = await api.settings(); } catch { /* unknown: keep the copy */ }
  if (changedSince()) {
    markUnsent(true);
    again = true;
    return;
  }
  markUnsent(false);
  if (kept) adopt(kept);
  else { applySettings(); hooks.changed(); }
  hooks.refused(e, !!kept);
}

// adopt makes settings kept, the server's, the browser's copy and shows
// them (the other tabs are told by the browser).
function adopt(kept) {
  S.settings = mergeSettings(kept);
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings)); } catch { storageKeepsNone = true; }
  applySettings();
  hooks.changed();
}
