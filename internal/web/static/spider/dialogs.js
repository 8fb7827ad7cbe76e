// Dialogs and menus: opening a dialog at its top, the confirm box, and
// the toolbar's menus (keyboard included).

import { $ } from "./state.js";

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
    m.querySelector("button").focus();
  }
}

export function menuKey(e) {
  const m = menuOpen();
  const items = [...m.querySelectorAll("button")];
  const i = items.indexOf(document.activeElement);
  if (e.key === "Escape") {
    e.preventDefault();
    closeMenus();
    document.querySelector(`[aria-controls="${m.id}"]`).focus();
  } else if (e.key === "ArrowDown") { e.preventDefault(); items[(i + 1) % items.length].focus(); }
  else if (e.key === "ArrowUp") { e.preventDefault(); items[(i - 1 + items.length) % items.length].focus(); }
  else if (e.key === "Home") { e.preventDefault(); items[0].focus(); }
  else if (e.key === "End") { e.preventDefault(); items[items.length - 1].focus(); }
  else if (e.key === "Tab") closeMenus();
}
