// What a key means to the pages' shortcuts, on any keyboard layout
// (docs/page.md, "Keyboards, languages and names").
//
// A letter shortcut is the letter the key types (event.key), not the
// key's place (event.code): D deals where the D is printed, on AZERTY,
// QWERTZ and Dvorak alike, and Ctrl+Z undoes where the Z is. Only where
// the key types no Latin letter (Russian, Greek, Arabic, Hebrew) does its
// place stand in, as those keyboards print the Latin letter beside their
// own. A key of the digit row chooses its pile whatever it types: on
// AZERTY the digits need Shift, and unshifted the row types & é " ' (.

// shortcutKey is the key a shortcut reads from a keydown: a Latin letter
// in lower case, a digit, another character, a named key ("Enter",
// "ArrowLeft"), or "" when the key belongs to typing, never to a
// shortcut: an input method composing a word (an Enter there ends the
// word), and AltGr, which types a keyboard's third character (ą, @, €).
export function shortcutKey(ev) {
  if (composing(ev) || altGr(ev)) return "";
  const k = ev.key || "";
  if ([...k].length !== 1 || k === "?") return k;
  if (/^[0-9a-z]$/i.test(k)) return k.toLowerCase();
  const m = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(ev.code || "");
  if (m && !(m[1] && /^\p{Script=Latin}$/u.test(k))) return m[1] ? m[1].toLowerCase() : m[2];
  return k;
}

// composing: the key is an input method's (Chinese, Japanese, Korean),
// not the player's command. Chrome and Firefox set isComposing; Safari
// ends the composition before the Enter's keydown, which then only
// carries keyCode 229.
export function composing(ev) { return !!(ev.isComposing || ev.keyCode === 229); }

// altGr: the AltGr key held, which Windows reports as Ctrl and Alt
// together and Linux and macOS as the AltGraph modifier.
function altGr(ev) {
  return (ev.ctrlKey && ev.altKey) || !!(ev.getModifierState && ev.getModifierState("AltGraph"));
}

// Forms are not sent by the Enter that ends a composition: the word
// being written is chosen with it, and a chat line, a name or a save's
// name half written would go. Chrome sends no form on it; Safari does
// (its keydown says 229 only), so the page holds the form back itself.
// The capture listeners run before the forms' own.
let composedEnter = false;
document.addEventListener("keydown", (ev) => { composedEnter = ev.key === "Enter" || ev.keyCode === 229 ? composing(ev) : false; }, true);
document.addEventListener("keyup", () => { composedEnter = false; }, true);
document.addEventListener("submit", (ev) => {
  if (!composedEnter) return;
  composedEnter = false;
  ev.preventDefault();
  ev.stopImmediatePropagation();
}, true);
