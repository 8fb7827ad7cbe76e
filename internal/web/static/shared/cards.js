// Cards drawn as SVG: one <symbol> per card face and one for the back, built
// once into a hidden sprite; every card on the table is a small <svg> that
// <use>s its symbol, so cards stay crisp at any size and the DOM stays light.

const SVGNS = "http://www.w3.org/2000/svg";

export const RANKS = "A23456789TJQK";
export const SUITS = "CDHS";
const RANK_NAMES = ["ace", "two", "three", "four", "five", "six", "seven",
  "eight", "nine", "ten", "jack", "queen", "king"];
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_LABEL = { T: "10" };
const FONT = "system-ui, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

// Suit shapes in a 100x100 box.
const SUIT_SHAPES = {
  H: `<path d="M50 90C22 68 4 50 4 30 4 15 16 4 30 4c9 0 16 5 20 13 4-8 11-13 20-13 14 0 26 11 26 26 0 20-18 38-46 60z"/>`,
  D: `<path d="M50 2 88 50 50 98 12 50z"/>`,
  // The spade's point is sharp and its foot broad and flat, so it cannot
  // pass for a heart (round lobes, no foot).
  S: `<path d="M50 2C60 22 94 38 94 61c0 13-10 22-22 22-8 0-14-3-18-8 0 8 5 15 14 21H36c9-6 14-13 14-21-4 5-10 8-18 8C20 83 6 74 6 61 6 38 40 22 50 2z"/>`,
  C: `<circle cx="50" cy="27" r="21"/><circle cx="26" cy="60" r="21"/><circle cx="74" cy="60" r="21"/><path d="M44 40h12v20H44z"/><path d="M48 58c0 16-3 29-10 40h24c-7-11-10-24-10-40z"/>`,
};

// Pip positions for 2-10: column (0 left, 1 middle, 2 right) and row 0..1.
const PIPS = {
  2: [[1, 0], [1, 1]],
  3: [[1, 0], [1, .5], [1, 1]],
  4: [[0, 0], [2, 0], [0, 1], [2, 1]],
  5: [[0, 0], [2, 0], [1, .5], [0, 1], [2, 1]],
  6: [[0, 0], [2, 0], [0, .5], [2, .5], [0, 1], [2, 1]],
  7: [[0, 0], [2, 0], [1, .25], [0, .5], [2, .5], [0, 1], [2, 1]],
  8: [[0, 0], [2, 0], [1, .25], [0, .5], [2, .5], [1, .75], [0, 1], [2, 1]],
  9: [[0, 0], [2, 0], [0, 1 / 3], [2, 1 / 3], [1, .5], [0, 2 / 3], [2, 2 / 3], [0, 1], [2, 1]],
  10: [[0, 0], [2, 0], [1, 1 / 6], [0, 1 / 3], [2, 1 / 3], [0, 2 / 3], [2, 2 / 3], [1, 5 / 6], [0, 1], [2, 1]],
};

// JOKER is a joker's code, as card.Card.String writes it (Arlington plays
// with two; all jokers are alike). A joker has no rank (0) and no suit ("").
export const JOKER = "JK";
export function isJoker(code) { return code === JOKER; }
export function rankOf(code) { return isJoker(code) ? 0 : RANKS.indexOf(code[0]) + 1; }
export function suitOf(code) { return isJoker(code) ? "" : code[1]; }
export function isRed(code) { return !isJoker(code) && (code[1] === "H" || code[1] === "D"); }

// cardName is the spoken name, as card.Card.Name gives it: "queen of hearts".
export function cardName(code) {
  if (isJoker(code)) return "joker";
  const r = rankOf(code);
  if (r < 1 || !SUIT_NAMES[code[1]]) return code;
  return `${RANK_NAMES[r - 1]} of ${SUIT_NAMES[code[1]]}`;
}
export function suitName(s) { return SUIT_NAMES[s] || s; }

// SUIT_SIGNS are the suits' signs, as both pages write cards for people
// ("7♠", "10♥"): the one table of them; SIGN_SUITS is its reverse.
export const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SIGN_SUITS = Object.fromEntries(Object.entries(SUIT_SIGNS).map(([s, g]) => [g, s]));

// cardText is a card as people write it: "7♠", "10♥", "joker" ("?" for
// a suit that is none of the four).
export function cardText(code) {
  if (isJoker(code)) return "joker";
  return (code[0] === "T" ? "10" : code[0]) + (SUIT_SIGNS[code[1]] || "?");
}

// signSuit is the suit letter of a sign ("♠" is "S"; "?" for none).
export function signSuit(sign) { return SIGN_SUITS[sign] || "?"; }

// signCode is the code of a card written with a sign: rank "7" or "10",
// sign "♠" make "7S", "TS".
export function signCode(rank, sign) {
  return (rank === "10" ? "T" : rank) + signSuit(sign);
}

// parseCard reads "QH", "10h", "hq" (either order, any case) into "QH", or
// returns "" when it is not a card of the four suits (a joker is not:
// Spider has none).
export function parseCard(text) {
  let t = String(text).trim().toUpperCase().replace("10", "T");
  if (t.length !== 2) return "";
  if (SUITS.includes(t[0]) && RANKS.includes(t[1])) t = t[1] + t[0];
  if (!RANKS.includes(t[0]) || !SUITS.includes(t[1])) return "";
  return t;
}

// pip draws a suit sign centred at (cx, cy). Always upright: reversed,
// a spade reads as a heart and a club as a clover leaf.
function pip(s, cx, cy, size) {
  const x = cx - size / 2, y = cy - size / 2;
  return `<use href="#suit-${s}" x="${x}" y="${y}" width="${size}" height="${size}"/>`;
}

// courtFigure is the top half of a court card's picture, original to
// cardtable: a stylised bust in a 140x85 box (the court frame's upper
// half), its robe in the suit's colour with the suit sign on the chest,
// and the headwear telling the rank: the king's crown and beard, the
// queen's tiara and long hair, the jack's cap and feather. Without chest,
// the suit sign is left out, for courtSVG to draw upright in each half.
function courtFigure(r, s, chest = true) {
  let out = "";
  // the robe, shoulders and a trimmed collar
  out += `<path d="M14 85C16 66 28 56 46 53h48c18 3 30 13 32 32z" class="c-robe"/>`;
  out += `<path d="M56 53l14 20 14-20" class="c-trim" stroke-width="3"/>`;
  if (chest) out += chestPip(s, 70, 73, 16);
  if (r === 12) {
    // long hair behind the face
    out += `<path d="M50 58c-6-18-4-40 20-44 24 4 26 26 20 44z" class="c-hair"/>`;
  }
  // the face
  out += `<ellipse cx="70" cy="36" rx="13" ry="16" class="c-skin" stroke-width="2"/>`;
  out += `<path d="M64 33h3M73 33h3" class="c-line" stroke-width="2.5" stroke-linecap="round"/>`;
  out += `<path d="M66 43q4 3 8 0" class="c-line" stroke-width="2" fill="none" stroke-linecap="round"/>`;
  if (r === 13) {
    // beard and crown
    out += `<path d="M57 40c2 14 8 19 13 19s11-5 13-19c-4 5-8 7-13 7s-9-2-13-7z" class="c-hair"/>`;
    out += `<path d="M55 24l-3-20 10 10 8-13 8 13 10-10-3 20z" class="c-gold" stroke-width="2"/>`;
  } else if (r === 12) {
    // tiara
    out += `<path d="M57 23q13-12 26 0l-3 3q-10-7-20 0z" class="c-gold" stroke-width="2"/>`;
    out += `<circle cx="70" cy="12" r="4" class="c-gold" stroke-width="2"/>`;
  } else {
    // cap with a feather
    out += `<path d="M54 27q2-16 16-17 14 1 16 17z" class="c-robe"/>`;
    out += `<path d="M84 16q14-14 22-8-10 0-20 12z" class="c-gold" stroke-width="1.5"/>`;
  }
  return out;
}

// chestPip is the suit sign on a court figure's chest.
function chestPip(s, cx, cy, size) {
  return pip(s, cx, cy, size).replace("<use", `<use class="c-chest"`);
}

// courtSVG is a court card's picture in the frame (x, y, w, h): the
// figure and its mirror image, as on real court cards, so it reads either
// way up; single draws the upper figure only, filling the frame (the
// small faces, where only the top of the body shows).
function courtSVG(r, s, x, y, w, h, single) {
  let out = `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="10" class="c-court" stroke="currentColor" stroke-width="3"/>`;
  if (single) {
    const k = Math.min(w / 140, h / 85);
    const dx = x + (w - 140 * k) / 2, dy = y + h - 85 * k;
    return out + `<g transform="translate(${dx} ${dy}) scale(${k})">${courtFigure(r, s)}</g>`;
  }
  const k = Math.min(w / 140, h / 2 / 85);
  const dx = x + (w - 140 * k) / 2;
  const half = `<g transform="translate(${dx} ${y}) scale(${k})">${courtFigure(r, s, false)}</g>`;
  out += `<clipPath id="court-clip-${r}${s}"><rect x="${x}" y="${y}" width="${w}" height="${h / 2}"/></clipPath>`;
  out += `<g clip-path="url(#court-clip-${r}${s})">${half}</g>`;
  out += `<g transform="rotate(180 ${x + w / 2} ${y + h / 2})" clip-path="url(#court-clip-${r}${s})">${half}</g>`;
  out += `<path d="M${x + 4} ${y + h / 2}H${x + w - 4}" stroke="currentColor" stroke-width="2"/>`;
  // The chest signs go on upright in both halves (pip): the mirrored
  // half's sign turned over made a spade read as a heart with a stalk.
  const cx = dx + 70 * k, cy = y + 73 * k;
  out += chestPip(s, cx, cy, 16 * k) + chestPip(s, 2 * x + w - cx, 2 * y + h - cy, 16 * k);
  return out;
}

// smallFaceSVG is the face for small cards (phones): a big index, which is
// all that shows when cards overlap, and one big suit.
function smallFaceSVG(code) {
  const r = rankOf(code), s = suitOf(code);
  const label = RANK_LABEL[code[0]] || code[0];
  let out = `<rect x="3" y="3" width="194" height="274" rx="18" class="c-face" stroke-width="5"/>`;
  out += `<g class="c-suit-${s}">`;
  // The index, descenders included, stays within the top 37% (render.js's
  // least step for these faces), so a Q keeps its tail and a J its hook.
  out += `<text x="${label.length > 1 ? 4 : 12}" y="82" font-size="${label.length > 1 ? 84 : 92}" font-weight="700" ${label.length > 1 ? 'letter-spacing="-10"' : ""} font-family="${FONT}">${label}</text>`;
  out += pip(s, 156, 48, 68);
  // The body sits low, so the half of a card that shows in a pile holds
  // only the index.
  if (r > 10) {
    out += courtSVG(r, s, 34, 140, 132, 124, true);
  } else {
    out += pip(s, 100, 206, 104);
  }
  return out + `</g>`;
}

// TALL is the height of the tall faces (200 wide): a phone held upright
// has room below its ten narrow piles, so its cards are taller than the
// usual 1.4 (docs/page.md, "Phones held upright").
export const TALL = 360;

// tallFaceSVG is the face for tall small cards: the small face's index
// drawn 1.4 times taller (the width holds no more), so it reads larger in
// the strip that shows, and one big suit or the court picture below.
function tallFaceSVG(code) {
  const r = rankOf(code), s = suitOf(code);
  const label = RANK_LABEL[code[0]] || code[0];
  let out = `<rect x="3" y="3" width="194" height="${TALL - 6}" rx="18" class="c-face" stroke-width="5"/>`;
  out += `<g class="c-suit-${s}">`;
  // The index, descenders included, stays within the top 42% (render.js's
  // least step for these faces): the text is stretched upwards only.
  out += `<text x="${label.length > 1 ? 4 : 12}" y="82" transform="scale(1 1.4)" font-size="${label.length > 1 ? 84 : 92}" font-weight="700" ${label.length > 1 ? 'letter-spacing="-10"' : ""} font-family="${FONT}">${label}</text>`;
  out += pip(s, 156, 66, 76);
  if (r > 10) {
    out += courtSVG(r, s, 30, 218, 140, 130, true);
  } else {
    out += pip(s, 100, 266, 120);
  }
  return out + `</g>`;
}

// faceSVG is the inside of a 200x280 card face.
function faceSVG(code) {
  const r = rankOf(code), s = suitOf(code);
  const label = RANK_LABEL[code[0]] || code[0];
  let out = `<rect x="2" y="2" width="196" height="276" rx="16" class="c-face" stroke-width="3"/>`;
  out += `<g class="c-suit-${s}">`;
  // The index strip stays visible when cards overlap: rank left, suit right.
  // It stays, descenders included, within the top 21% of the card
  // (render.js's least step), so a Q keeps its tail and a J its hook.
  const fs = label.length > 1 ? 46 : 50;
  out += `<text x="12" y="46" font-size="${fs}" font-weight="700" ${label.length > 1 ? 'letter-spacing="-5"' : ""} font-family="${FONT}">${label}</text>`;
  out += pip(s, 162, 29, 38);
  if (r === 1) {
    out += pip(s, 100, 175, 120);
  } else if (r <= 10) {
    const xs = [60, 100, 140], y0 = 112, y1 = 244;
    for (const [c, f] of PIPS[r]) out += pip(s, xs[c], y0 + f * (y1 - y0), 40);
  } else {
    out += courtSVG(r, s, 30, 84, 140, 182, false);
  }
  out += `</g>`;
  return out;
}

// jokerSVG is the joker's face, big or small: a star and the word, so it
// reads as a joker even where only its index strip shows.
function jokerSVG(small) {
  const font = `font-weight="700" font-family="system-ui, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"`;
  let out = `<rect x="2" y="2" width="196" height="276" rx="16" class="c-face" stroke-width="${small ? 5 : 3}"/>`;
  out += `<g class="c-joker">`;
  out += small
    ? `<text x="12" y="88" font-size="84" ${font}>JK</text>`
    : `<text x="12" y="57" font-size="46" ${font}>JOKER</text>`;
  out += `<path d="M100 118l16 36 39 4-29 26 8 38-34-20-34 20 8-38-29-26 39-4z"/>`;
  return out + `</g>`;
}

function backSVG(h = 280) {
  return `<rect x="2" y="2" width="196" height="${h - 4}" rx="16" class="c-back" stroke-width="3"/>` +
    `<rect x="14" y="14" width="172" height="${h - 28}" rx="8" fill="url(#back-pattern)" class="c-back-in" stroke-width="3"/>`;
}

// installSprite adds the hidden SVG holding every symbol to the document.
export function installSprite(doc = document) {
  if (doc.getElementById("card-sprite")) return;
  let defs = `<pattern id="back-pattern" width="24" height="24" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="24" height="24" class="c-back-a"/><rect width="12" height="12" class="c-back-b"/><rect x="12" y="12" width="12" height="12" class="c-back-b"/></pattern>`;
  for (const s of SUITS) defs += `<symbol id="suit-${s}" viewBox="0 0 100 100">${SUIT_SHAPES[s]}</symbol>`;
  for (const s of SUITS) {
    for (const r of RANKS) {
      defs += `<symbol id="card-${r}${s}" viewBox="0 0 200 280">${faceSVG(r + s)}</symbol>`;
      defs += `<symbol id="cardsm-${r}${s}" viewBox="0 0 200 280">${smallFaceSVG(r + s)}</symbol>`;
      defs += `<symbol id="cardtl-${r}${s}" viewBox="0 0 200 ${TALL}">${tallFaceSVG(r + s)}</symbol>`;
    }
  }
  defs += `<symbol id="card-${JOKER}" viewBox="0 0 200 280">${jokerSVG(false)}</symbol>`;
  defs += `<symbol id="cardsm-${JOKER}" viewBox="0 0 200 280">${jokerSVG(true)}</symbol>`;
  defs += `<symbol id="card-back" viewBox="0 0 200 280">${backSVG()}</symbol>`;
  defs += `<symbol id="cardtl-back" viewBox="0 0 200 ${TALL}">${backSVG(TALL)}</symbol>`;
  const div = doc.createElement("div");
  div.innerHTML = `<svg id="card-sprite" xmlns="${SVGNS}" width="0" height="0" aria-hidden="true"><defs>${defs}</defs></svg>`;
  doc.body.prepend(div.firstChild);
}

let small = false;

// setSmallCards chooses the big-index faces, for cards too small for pips.
export function setSmallCards(on) { small = !!on; }

// cardHref is the sprite symbol that shows code ("KS", "JK") or the back
// (""); tall asks for the tall faces (no joker has one: a tall joker is
// drawn as a small one).
function cardHref(code, big, tall) {
  if (tall && code !== JOKER) return `#cardtl-${code || "back"}`;
  return code ? `#${small || big || tall ? "cardsm" : "card"}-${code}` : "#card-back";
}

function viewBox(code, tall) {
  return `0 0 200 ${tall && code !== JOKER ? TALL : 280}`;
}

// cardSVG returns an <svg> element showing code ("KS", "JK") or the back ("");
// big asks for the big-index face whatever the card size, tall for the tall
// faces (200x360, for a phone's tableau).
export function cardSVG(code, { big = false, tall = false, doc = document } = {}) {
  const svg = doc.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", viewBox(code, tall));
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = doc.createElementNS(SVGNS, "use");
  use.setAttribute("href", cardHref(code, big, tall));
  svg.appendChild(use);
  return svg;
}

// setCardFace makes an <svg> from cardSVG show code instead, in place: a
// page that keeps its card nodes across redraws keeps the node under a
// pointer that is pressed, so the press and its release meet on one node.
export function setCardFace(svg, code, { big = false, tall = false } = {}) {
  const use = svg.firstChild;
  const href = cardHref(code, big, tall);
  if (use.getAttribute("href") !== href) use.setAttribute("href", href);
  const box = viewBox(code, tall);
  if (svg.getAttribute("viewBox") !== box) svg.setAttribute("viewBox", box);
}
