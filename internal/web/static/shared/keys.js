// What a key means to the pages' shortcuts, on any keyboard layout
// (docs/page.md, "Keyboards, languages and names").
//
// A letter shortcut is the letter the key types (event.key), not the
// key's place (event.code): D deals where the D is printed, on AZERTY,
// QWERTZ and Dvorak alike, and Ctrl+Z undoes where the Z is. Only where
// the key types a letter of another script (Russian, Greek, Arabic,
// Hebrew) does its place stand in, as those keyboards print the Latin
// letter beside their own; punctuation is itself (Colemak's ; sits where
// US English has P, and is no pass). A key of the digit row chooses its
// pile whatever it types: on AZERTY the digits need Shift, and unshifted
// the row types & é " ' (.

// shortcutKey is the key a shortcut reads from a keydown: a Latin letter
// in lower case, a digit, another character, a named key ("Enter",
// "ArrowLeft"), or "" when the key belongs to typing, never to a
// shortcut: an input method composing a word (an Enter there ends the
// word), and AltGr, which types a keyboard's third character (ą, @, €).
// "?" (the keys' help) is itself even with AltGr, which types it on some
// layouts (Brazilian ABNT's AltGr+W).
export function shortcutKey(ev) {
  const k = ev.key || "";
  if (composing(ev)) return "";
  if (k === "?") return k;
  if (altGr(ev)) return "";
  if ([...k].length !== 1) return k;
  if (/^[0-9a-z]$/i.test(k)) return k.toLowerCase();
  const m = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(ev.code || "");
  if (m && m[2]) return m[2];
  if (m && otherScript(k)) return m[1].toLowerCase();
  return k;
}

// otherScript: a letter of a script other than Latin (в, λ, ש).
function otherScript(k) { return /^\p{L}$/u.test(k) && !/^\p{Script=Latin}$/u.test(k); }

// composing: the key is an input method's (Chinese, Japanese, Korean),
// not the player's command. Chrome and Firefox set isComposing; Safari
// ends the composition before the Enter's keydown, which then only
// carries keyCode 229. (Android's keyboards say 229 for every key, and
// name it "Unidentified": no shortcut is lost there.)
export function composing(ev) { return !!(ev.isComposing || ev.keyCode === 229); }

// altGr: the AltGr key held, which Windows reports as Ctrl and Alt
// together and Linux and macOS as the AltGraph modifier.
function altGr(ev) {
  return (ev.ctrlKey && ev.altKey) || !!(ev.getModifierState && ev.getModifierState("AltGraph"));
}

// Forms are not sent by the Enter that ends a composition: the word
// being written is chosen with it, and a chat line, a name or a save's
// name half written would go. Chrome sends no form on it; Safari does
// (it ends the composition first, and the Enter's keydown says 229
// only), so the page holds the form back itself. Only an Enter within a
// composition or the first key after one is held back: Android's
// keyboards say 229 for every key, with no composition, and their Enter
// sends. The capture listeners run before the forms' own.
let inComposition = false, justEnded = false, composedEnter = false;
document.addEventListener("compositionstart", () => { inComposition = true; }, true);
document.addEventListener("compositionend", () => { inComposition = false; justEnded = true; }, true);
document.addEventListener("keydown", (ev) => {
  const enter = ev.key === "Enter" || ev.keyCode === 229;
  composedEnter = enter && (ev.isComposing || inComposition || (justEnded && ev.keyCode === 229));
  justEnded = false;
}, true);
document.addEventListener("keyup", () => { composedEnter = false; }, true);
document.addEventListener("submit", (ev) => {
  if (!composedEnter) return;
  composedEnter = false;
  ev.preventDefault();
  ev.stopImmediatePropagation();
}, true);
