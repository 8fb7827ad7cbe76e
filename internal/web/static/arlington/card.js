// A card as a small SVG: rank and suit, or a joker. (The Spider page's
// /js/cards.js draws no joker yet; when the shared module does, the table
// page can switch to it.)
const NS = "http://www.w3.org/2000/svg";
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

function node(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// cardEl draws code ("KS", "TH", "JK"); the element carries data-card.
export function cardEl(code) {
  const svg = node("svg", { viewBox: "0 0 50 70", class: "card", role: "img", "aria-label": code });
  svg.dataset.card = code;
  svg.appendChild(node("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: "#fff", stroke: "#333" }));
  if (code === "JK") {
    svg.appendChild(node("text", { x: 25, y: 32, "text-anchor": "middle", "font-size": 22, fill: "#7a2a9a" }, "★"));
    svg.appendChild(node("text", { x: 25, y: 56, "text-anchor": "middle", "font-size": 12, fill: "#7a2a9a" }, "JOKER"));
    return svg;
  }
  const rank = code[0] === "T" ? "10" : code[0];
  const red = code[1] === "H" || code[1] === "D";
  const color = red ? "#c0182a" : "#111";
  svg.appendChild(node("text", { x: 25, y: 30, "text-anchor": "middle", "font-size": 22, "font-weight": 700, fill: color }, rank));
  svg.appendChild(node("text", { x: 25, y: 58, "text-anchor": "middle", "font-size": 24, fill: color }, SUIT[code[1]] || "?"));
  return svg;
}
