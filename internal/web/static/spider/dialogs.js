// Dialogs and menus: opening a dialog at its top, the confirm box, and
// the toolbar's menus (keyboard included).

import { $ } from "./state.js";
import { messageShown, placeMessage } from "./messages.js";

// A message that comes while a menu is open shortens the menu, which ends
// above it (style.css): the focused item stays in sight.
messageShown(() => {
  const e = document.activeElement, m = menuOpen();
  if (m && e && e.parentElement === m) focusItem(e);
});

export function openDialog(sel) {
  closeMenus();
  const d = $(sel);
  if (!d.open) {
    d.showModal();
    // Opening focuses the first button, which in a long dialog (the help)
    // is at its foot and scrolls it there: a dialog opens at its top.
    d.scrollTop = 0;
  }
  return d;
}

export function confirmBox(title, text, yes = "OK") {
  const d = $("#dlg-confirm");
  $("#dlg-confirm-title").textContent = title;
  $("#confirm-text").textContent = text;
  $("#confirm-yes").textContent = yes;
  d.returnValue = "";
  openDialog("#dlg-confirm");
  return new Promise((resolve) => {
    d.addEventListener("close", () => resolve(d.returnValue === "yes"), { once: true });
  });
}

export function menuOpen() { return document.querySelector('[role="menu"]:not([hidden])'); }

export function closeMenus() {
  document.querySelectorAll('[role="menu"]').forEach((m) => { m.hidden = true; });
  document.querySelectorAll("[aria-haspopup]").forEach((b) => b.setAttribute("aria-expanded", "false"));
}

export function toggleMenu(btn) {
  const m = document.getElementById(btn.getAttribute("aria-controls"));
  const open = m.hidden;
  closeMenus();
  if (open) {
    m.hidden = false;
    btn.setAttribute("aria-expanded", "true");
    focusItem(m.querySelector("button:not(:disabled)"));
    // A message at the window's top would lie over the menu: it goes to
    // the foot, which the menu ends above.
    placeMessage(false);
  }
}

// focusItem focuses the menu item b and scrolls its menu, which scrolls
// in a short window, to show it whole. The browser's own scrolling on
// focus is not used: the bar's controls have a negative scroll margin
// (shared/base.css), so it would leave an item above the menu's top cut
// off, and scroll the page under the bar instead. A menu whose items are
// all disabled has none to focus.
function focusItem(b) {
  if (!b) return;
  b.focus({ preventScroll: true });
  const m = b.parentElement, pad = parseFloat(getComputedStyle(m).paddingTop);
  const top = b.offsetTop - pad, bottom = b.offsetTop + b.offsetHeight + pad;
  if (top < m.scrollTop) m.scrollTop = top;
  else if (bottom > m.scrollTop + m.clientHeight) m.scrollTop = bottom - m.clientHeight;
}

export function menuKey(e) {
  const m = menuOpen();
  // A disabled item (a given-up game's Restart) takes no focus: the
  // arrow keys go past it.
  const items = [...m.querySelectorAll("button:not(:disabled)")];
  // -1 when no item has the focus (a click on the menu's edge took it):
  // Down goes to the first item, Up to the last.
  const i = items.indexOf(document.activeElement);
  if (e.key === "Escape") {
    e.preventDefault();
    closeMenus();
    document.querySelector(`[aria-controls="${m.id}"]`).focus();
  } else if (e.key === "ArrowDown") { e.preventDefault(); focusItem(items[(i + 1) % items.length]); }
  else if (e.key === "ArrowUp") { e.preventDefault(); focusItem(items[(i > 0 ? i : items.length) - 1]); }
  else if (e.key === "Home") { e.preventDefault(); focusItem(items[0]); }
  else if (e.key === "End") { e.preventDefault(); focusItem(items[items.length - 1]); }
  else if (e.key === "Tab") closeMenus();
}
