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

function mergeSettings(src) {
  const out = structuredClone(DEFAULTS);
  if (!src || typeof src !== "object") return out;
  for (const k of Object.keys(DEFAULTS)) {
    if (k === "newGame") Object.assign(out.newGame, typeof src.newGame === "object" ? src.newGame : {});
    else if (CHOICES[k]) out[k] = CHOICES[k].includes(src[k]) ? src[k] : DEFAULTS[k];
    else if (src[k] !== undefined && typeof src[k] === typeof DEFAULTS[k]) out[k] = src[k];
  }
  return out;
}

// UNSENT_KEY is set while this browser holds settings the server has
// not taken yet (a change whose write is unanswered, or failed). A page
// loaded meanwhile takes this browser's copy and sends it again: it took
// the server's, and a setting changed just before a reload came back as
// it was (the reload asked for them before the write was done).
const UNSENT_KEY = SETTINGS_KEY + ".unsent";

function local() {
  try { return JSON.parse(localStorage.getItem(SETTINGS_KEY) || "null"); } catch { return null; }
}

function unsent() {
  try { return localStorage.getItem(UNSENT_KEY) === "1"; } catch { return false; }
}

export async function loadSettings() {
  const mine = local();
  if (mine && unsent()) {
    S.settings = mergeSettings(mine);
    saveSettings();
    return;
  }
  let s = null;
  try {
    s = await api.settings();
  } catch { /* the server keeps none: fall back */ }
  if (!s || !Object.keys(s).length) s = mine;
  S.settings = mergeSettings(s);
}

export function saveSettings() {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings));
    localStorage.setItem(UNSENT_KEY, "1");
  } catch { /* private mode */ }
  sendSettings();
}

// sendSettings writes the settings to the server, one write at a time
// per page: two in flight may be taken in either order, leaving the
// older. It sends this browser's copy (localStorage), the newest of its
// tabs', or this page's where the browser keeps none. A change made
// during a write is sent once it is answered; so is the browser's copy
// when another tab changed it meanwhile: that tab's write may have been
// taken before this one, which then undid it. The writes count as the
// page's requests in flight (busy).
let sending = false;
let again = false;
function sendSettings() {
  if (sending) { again = true; return; }
  sending = true;
  busy(1);
  const s = mergeSettings(local() || S.settings);
  const sent = JSON.stringify(s);
  api.putSettings(s).then(() => {
    try {
      const now = local();
      if (!now || JSON.stringify(mergeSettings(now)) === sent) localStorage.removeItem(UNSENT_KEY);
      else { localStorage.setItem(UNSENT_KEY, "1"); again = true; }
    } catch { /* private mode */ }
  }, () => { /* kept as unsent: the next page sends them again */ }).finally(() => {
    sending = false;
    if (again) { again = false; sendSettings(); }
    busy(-1);
  });
}
