// The rules page: draws each example's cards (data-cards: card codes,
// groups split by "|") with the shared card drawing. The words are in the
// HTML, so the page reads without the script.
import { installSprite, cardSVG, cardName } from "/shared/cards.js";

installSprite();
for (const fig of document.querySelectorAll("figure.ex[data-cards]")) {
  const row = document.createElement("div");
  row.className = "ex-cards";
  for (const group of fig.dataset.cards.split("|")) {
    const set = document.createElement("span");
    set.className = "set";
    const codes = group.trim().split(/\s+/);
    set.setAttribute("role", "img");
    set.setAttribute("aria-label", codes.map(cardName).join(", "));
    for (const code of codes) {
      const svg = cardSVG(code);
      svg.classList.add("card");
      set.append(svg);
    }
    row.append(set);
  }
  fig.prepend(row);
}
