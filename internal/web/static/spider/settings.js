// Settings: kept by the server for the player, copied to localStorage.

import { api } from "/shared/api.js";
import { SETTINGS_KEY, DEFAULTS, CHOICES, S } from "./state.js";

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

export async function loadSettings() {
  let s = null;
  try {
    s = await api.settings();
  } catch { /* the server keeps none: fall back */ }
  if (!s || !Object.keys(s).length) {
    try { s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "null"); } catch { s = null; }
  }
  S.settings = mergeSettings(s);
}

export function saveSettings() {
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings)); } catch { /* private mode */ }
  api.putSettings(S.settings).catch(() => { /* localStorage keeps them */ });
}
