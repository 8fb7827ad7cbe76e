// The Score, card back and table dialog: the score shown (Arachnid or
// Windows Spider), the card back and the table's colour. A choice shows
// at once and is saved with the other settings.

import { $, CHOICES, S } from "./state.js";
import { changeSettings } from "./settings.js";
import { openDialog } from "./dialogs.js";
import { announce } from "./messages.js";

const NAMES = { arachnid: "Arachnid score", windows: "Windows Spider score" };

export function openLooks() {
  const f = $("#form-looks");
  for (const k of Object.keys(CHOICES)) f[k].value = S.settings[k];
  openDialog("#dlg-looks");
}

// showLooks shows the settings in the dialog, if it is open, when
// another tab changed them.
export function showLooks() {
  if (!$("#dlg-looks").open) return;
  const f = $("#form-looks");
  for (const k of Object.keys(CHOICES)) f[k].value = S.settings[k];
}

// bindLooks makes each choice take effect as it is made; render redraws
// the status bar for the score.
export function bindLooks(render) {
  $("#form-looks").addEventListener("change", (e) => {
    const k = e.target.name;
    if (!CHOICES[k] || !CHOICES[k].includes(e.target.value)) return;
    const v = e.target.value;
    changeSettings((s) => { s[k] = v; });
    render();
    if (k === "scoring") announce(`Showing the ${NAMES[e.target.value]}.`);
  });
}
