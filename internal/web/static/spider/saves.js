// Saving and opening games: to a file and from one, and the Game menu's
// Saved games dialog (a save's Analyse action is analysis.js's).

import { api } from "/shared/api.js";
import { dateTime } from "/shared/dates.js";
import { $, S, plural, variantLabel } from "./state.js";
import { info, failure } from "./messages.js";
import { openDialog, confirmBox } from "./dialogs.js";
import { analyseSaveButton } from "./analysis.js";

let host = null; // {queue, setGame}: app.js's, which owns the game on the page

export function initSaves(h) { host = h; }

export function saveFile() {
  if (!S.id) return;
  const a = document.createElement("a");
  a.href = api.saveURL(S.id);
  a.download = `spider-${S.view.deal || "custom"}-${S.view.moves}.txt`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  info("Saving the game to a file.");
}

// The most a save file can be: the server takes 2 MiB (docs/api.md; the
// longest game's file is 1.3 MB). A larger file is refused here, by its
// size and in the player's words, before it is read and sent.
const maxSaveFile = 2 << 20;

export function loadFile(file) {
  if (!file) return;
  return host.queue(async () => {
    if (file.size > maxSaveFile) {
      // Rounded up: a file just over the limit must not read "2.0 MB".
      const mb = (Math.ceil(file.size / (1 << 20) * 10) / 10).toFixed(1);
      failure(new Error(`Could not load ${file.name}: it is ${mb} MB, and a save file is 2 MB at most.`));
      return;
    }
    // Read strictly: file.text() would turn each byte that is not UTF-8
    // into a 3-byte stand-in, so a picture under the limit grew past it
    // and the player read the server's "request body too large".
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
    } catch {
      failure(new Error(`Could not load ${file.name}: it is not text, so not a save file.`));
      return;
    }
    try {
      const r = await api.load(text, S.id);
      host.setGame(r);
      info(`Loaded ${file.name}: ${r.view.deal ? "deal #" + r.view.deal : "custom deal"}, ${plural(r.view.moves, "move")} played.`);
    } catch (e) {
      failure(new Error(`Could not load ${file.name}: ${e.message}`));
    }
  });
}

// ---------- saved games (the Game menu's Saved games dialog) ----------

export async function openSaves() {
  openDialog("#dlg-saves");
  const name = $("#save-name");
  if (!name.value && S.view) name.value = `${S.view.variant} ${S.view.deal || "custom"}`;
  await refreshSaves();
}

// refreshes counts the list's refreshes: only the latest one draws, so an
// answer overtaken by a newer request never puts back an older list.
let refreshes = 0;

async function refreshSaves() {
  const box = $("#saves-list");
  const mine = ++refreshes;
  // aria-busy: the list is being replaced (tests wait for it to clear).
  box.setAttribute("aria-busy", "true");
  try {
    const r = await api.saves();
    if (mine !== refreshes) return;
    const saves = r.saves || [];
    if (!saves.length) { box.innerHTML = `<p class="help">No saved games yet.</p>`; return; }
    const t = document.createElement("table");
    t.innerHTML = `<thead><tr><th>Name</th><th>Game</th><th>Moves</th><th>Score</th><th>Saved</th><th></th></tr></thead>`;
    const tb = document.createElement("tbody");
    for (const s of saves) {
      const tr = document.createElement("tr");
      const when = s.updated ? new Date(s.updated) : null;
      // A damaged save cannot be opened: its row offers only Delete.
      const game = s.damaged ? "damaged on the server: it cannot be opened"
        : `${variantLabel({ variant: s.variant, suits: s.suits })} · ${s.deal ? "#" + s.deal : "custom deal"}`;
      const cells = [s.damaged ? `${s.name} (damaged)` : s.gaveUp ? `${s.name} (given up)` : s.name, game,
        s.moves ?? "", s.score ?? "",
        when ? dateTime(when) : ""];
      // The labels name the cells where a phone stacks them without the
      // header row (style.css).
      const labels = ["", "Game", "Moves", "Score", "Saved"];
      cells.forEach((c, i) => {
        const td = document.createElement("td");
        td.textContent = c;
        if (labels[i]) td.dataset.label = labels[i];
        tr.appendChild(td);
      });
      const acts = document.createElement("td");
      acts.className = "acts";
      const open = document.createElement("button");
      open.type = "button";
      open.textContent = "Open";
      open.setAttribute("aria-label", `Open ${s.name}`);
      open.addEventListener("click", () => openSave(s.name));
      const del = document.createElement("button");
      del.type = "button";
      del.textContent = "Delete";
      del.setAttribute("aria-label", `Delete ${s.name}`);
      del.addEventListener("click", async () => {
        // A save deleted is gone for good: a slip of the mouse must not do it.
        if (!await confirmBox(`Delete “${s.name}”?`, "The saved game is removed for good.", "Delete")) return;
        try { await api.deleteSave(s.name); info(`Deleted ${s.name}.`); } catch (e) { failure(e); }
        refreshSaves();
      });
      if (s.damaged) acts.append(del);
      else acts.append(open, " ", analyseSaveButton(s), " ", del);
      tr.appendChild(acts);
      tb.appendChild(tr);
    }
    t.appendChild(tb);
    box.replaceChildren(t);
  } catch (e) {
    if (mine === refreshes) box.textContent = `Saved games are not available: ${e.message}`;
  } finally {
    if (mine === refreshes) box.setAttribute("aria-busy", "false");
  }
}

async function openSave(name) {
  await host.queue(async () => {
    const r = await api.openSave(name, S.id);
    host.setGame(r);
    $("#dlg-saves").close();
    info(r.message ? `Opened ${name}: ${r.message}.` : `Opened ${name}.`);
  });
}

export async function submitSave(e) {
  e.preventDefault();
  // The server takes a new save's name in composed form (NFC) only, so
  // that "café" typed either way is one save: the page composes it.
  const typed = $("#save-name").value.trim().normalize("NFC");
  if (!typed || !S.id) return;
  try {
    // Saving again under a name is how a game's progress is kept, so a
    // save of this very game (the server knows it: sameGame) is replaced
    // at once; any other, even of the same deal, only once the player
    // says so. A save that looks the same is the same: one stored before
    // names were composed is found by its composed form and saved over
    // by its own name, never twinned by a composed one.
    const saves = (await api.saves(S.id)).saves || [];
    const old = saves.find((x) => x.name === typed) || saves.find((x) => x.name.normalize("NFC") === typed);
    const name = old ? old.name : typed;
    if (old && !old.sameGame) {
      const what = old.damaged ? "a damaged save" : `${variantLabel({ variant: old.variant, suits: old.suits })} · ${old.deal ? "#" + old.deal : "custom deal"}, ${plural(old.moves, "move")}`;
      if (!await confirmBox(`Replace “${name}”?`, `“${name}” holds another game (${what}). Saving this one under its name replaces it for good.`, "Replace")) return;
    }
    await api.putSave(name, S.id);
    info(`Saved as “${name}”.`);
  } catch (err) {
    failure(err);
  }
  refreshSaves();
}
