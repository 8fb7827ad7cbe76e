// Starting games: the New game dialog, links (?deal=N, ?new) and the
// options a new game is started with.

import { api } from "/shared/api.js";
import { variantLabel, $, GAME_KEY, DEFAULTS, S } from "./state.js";
import { announce, failure, pretty } from "./messages.js";
import { openDialog } from "./dialogs.js";
import { changeSettings } from "./settings.js";

// The page's game plumbing (game.js), given by initNewGame from app.js.
let setGame, busy;

export function initNewGame(ctx) {
  ({ setGame, busy } = ctx);
}

// startGame starts a game with opts; inDialog: the New game dialog asked,
// so a refusal is said in it, by the number typed.
export async function startGame(opts, { inDialog = false } = {}) {
  busy(1);
  try {
    const r = await api.newGame(opts, S.id);
    setGame(r, { message: r.message });
    announce(`New game: ${r.view.deal ? "deal " + r.view.deal : "custom deal"}, ${variantLabel(r.view)}.`);
    return true;
  } catch (e) {
    failure(e, { box: !inDialog });
    if (inDialog) {
      $("#new-error").textContent = pretty(e.message);
      $("#new-error").hidden = false;
    }
    return false;
  } finally {
    busy(-1);
  }
}

// linkOptions are the options of the game a link starts (?deal=N, ?new,
// with variant, suits and cheat if named). A link to a deal names the game
// by itself: what it leaves out is the default, never the player's settings
// (an open tableau, relaxed dealing, winnable deals), so it deals the same
// game for everyone. ?new without a deal is "a new game as I like them":
// the player's settings, the link's parameters over them. The settings
// themselves are left as they are.
function linkOptions(params) {
  const deal = (params.get("deal") || "").trim().replace(/^#/, "");
  const o = deal ? { ...DEFAULTS.newGame, cheat: DEFAULTS.cheat, deal } : newGameOptions("");
  if (params.get("variant")) o.variant = params.get("variant");
  if (params.get("suits")) o.suits = +params.get("suits");
  if (params.get("cheat")) o.cheat = params.get("cheat");
  return o;
}

// startFromLink starts the game a link names, leaving the game this browser
// was playing: the server counts that one as lost if it was played since it
// was started or loaded and was not won, as the new-game dialog does. It reports whether it started one:
// a link the server refuses (a bad deal number) leaves nothing, and the
// page then goes on with the game it had (app.js).
export async function startFromLink(params) {
  let previous = null;
  try { previous = sessionStorage.getItem(GAME_KEY) || localStorage.getItem(GAME_KEY); } catch { previous = null; }
  busy(1);
  try {
    const r = await api.newGame(linkOptions(params), previous);
    setGame(r, { message: r.message });
    announce(`New game: ${r.view.deal ? "deal " + r.view.deal : "custom deal"}, ${variantLabel(r.view)}.`);
    return true;
  } catch (e) {
    failure(e);
    return false;
  } finally {
    busy(-1);
  }
}

export function newGameOptions(deal) {
  const n = S.settings.newGame;
  const o = { variant: n.variant, suits: +n.suits, open: !!n.open, relaxed: !!n.relaxed, autoRemove: !!n.autoRemove, cheat: S.settings.cheat, winnable: !!n.winnable };
  if (deal) o.deal = String(deal);
  return o;
}

export function openNew() {
  const f = $("#form-new");
  const n = S.settings.newGame;
  f.deal.value = "";
  f.variant.value = n.variant;
  f.suits.value = String(n.suits);
  f.open.checked = !!n.open;
  f.relaxed.checked = !!n.relaxed;
  f.autoRemove.checked = !!n.autoRemove;
  f.winnable.checked = !!n.winnable;
  f.cheat.value = S.settings.cheat;
  $("#new-error").hidden = true;
  openDialog("#dlg-new");
  f.deal.focus();
}

export async function submitNew(e) {
  e.preventDefault();
  const f = $("#form-new");
  // The number is checked here, not by a pattern on the field: a pattern
  // refuses a number pasted with a space ("#617 ") with the browser's own
  // "Please match the requested format", which says nothing of numbers.
  const deal = f.deal.value.trim().replace(/^#\s*/, "");
  if (deal && !/^[0-9]+$/.test(deal)) {
    f.deal.setCustomValidity(`“${f.deal.value.trim()}” is not a deal number: type a whole number such as 617, or leave it empty for a random deal.`);
    f.deal.reportValidity();
    return;
  }
  f.deal.setCustomValidity("");
  $("#new-error").hidden = true;
  const newGame = {
    variant: f.variant.value, suits: +f.suits.value, open: f.open.checked, relaxed: f.relaxed.checked,
    autoRemove: f.autoRemove.checked, winnable: f.winnable.checked,
  };
  const cheat = f.cheat.value;
  changeSettings((s) => { s.newGame = newGame; s.cheat = cheat; });
  if (await startGame(newGameOptions(deal), { inDialog: true })) $("#dlg-new").close();
}
