// Playing-card faces drawn as SVG markup, for the card codes of fairdeck's JSON
// output: rank A 2 3 4 5 6 7 8 9 T J Q K then suit H D C S ("AS", "TD", "2C"),
// and the jokers "RJ" (red) and "BJ" (black). The Italian (40-card) and piquet
// (32-card) decks use the same codes. Everything here is drawn from scratch:
// the four suit shapes are paths and circles of our own, number cards carry
// their pips in the usual layout, court cards and jokers a simple emblem.
// The markup is a string with no ids, so any number of cards can share a page.

const RANK_NAMES = {
  A: 'ace', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven',
  8: 'eight', 9: 'nine', T: 'ten', J: 'jack', Q: 'queen', K: 'king',
};
const SUIT_NAMES = { H: 'hearts', D: 'diamonds', C: 'clubs', S: 'spades' };
const RED = '#c0162c';
const BLACK = '#161616';
const FONT = "font-family=\"'DejaVu Sans','Helvetica Neue',Arial,sans-serif\" font-weight=\"700\"";

// The card is 200 × 280 units (5:7, like a poker card); W is the width in px.
const [CW, CH] = [200, 280];

/** Every card code: the 52 suited cards (suit by suit, ace to king), then RJ and BJ. */
export const CARD_CODES = Object.freeze([
  ...[...'HDCS'].flatMap((s) => [...'A23456789TJQK'].map((r) => r + s)), 'RJ', 'BJ',
]);

function parse(code) {
  if (typeof code !== 'string' || !CARD_CODES.includes(code)) {
    throw new Error(`unknown card code ${JSON.stringify(code)}: expected rank A 2-9 T J Q K then suit H D C S (e.g. "AS", "TD"), or RJ/BJ for the jokers`);
  }
  return code.length === 2 && code[1] !== 'J' ? { rank: code[0], suit: code[1] } : { joker: code };
}

/** The card's English name: "ace of spades", "ten of hearts", "red joker". Throws for an unknown code. */
export function cardName(code) {
  const c = parse(code);
  if (c.joker) return c.joker === 'RJ' ? 'red joker' : 'black joker';
  return `${RANK_NAMES[c.rank]} of ${SUIT_NAMES[c.suit]}`;
}

/** Whether the card is printed in red (hearts, diamonds, the red joker). Throws for an unknown code. */
export function isRed(code) {
  const c = parse(code);
  return c.joker ? c.joker === 'RJ' : c.suit === 'H' || c.suit === 'D';
}

// ---------- the four suits, each in a box from -50 to 50 ----------

const SUIT_SHAPES = {
  H: '<path d="M0 46C-9 33-48 10-48-17C-48-36-35-47-22-47C-11-47-3-40 0-30C3-40 11-47 22-47C35-47 48-36 48-17C48 10 9 33 0 46Z"/>',
  D: '<path d="M0-50C10-30 22-15 38 0C22 15 10 30 0 50C-10 30-22 15-38 0C-22-15-10-30 0-50Z"/>',
  S: '<path d="M0-50C-8-34-48-12-48 12C-48 30-34 38-22 38C-13 38-6 34-2 28C-3 38-8 45-16 50H16C8 45 3 38 2 28C6 34 13 38 22 38C34 38 48 30 48 12C48-12 8-34 0-50Z"/>',
  C: '<circle cx="0" cy="-25" r="22"/><circle cx="-24" cy="11" r="22"/><circle cx="24" cy="11" r="22"/>'
    + '<path d="M-6 2H6C6 24 10 40 18 50H-18C-10 40-6 24-6 2Z"/>',
};

const num = (v) => Number(v.toFixed(2));

/** One suit symbol of `size` units centred at (x, y), upside down when `flip`. */
function pip(suit, x, y, size, flip = false) {
  const turn = flip ? ' rotate(180)' : '';
  return `<g transform="translate(${num(x)} ${num(y)}) scale(${num(size / 100)})${turn}">${SUIT_SHAPES[suit]}</g>`;
}

// ---------- number cards: pips as on real cards ----------

// Columns and rows of the pip field; pips below the middle are drawn upside down.
const [L, M, R] = [68, 100, 132];
const ROW = (f) => 50 + 180 * f;
const PIPS = {
  2: [[M, 0], [M, 1]],
  3: [[M, 0], [M, 0.5], [M, 1]],
  4: [[L, 0], [R, 0], [L, 1], [R, 1]],
  5: [[L, 0], [R, 0], [M, 0.5], [L, 1], [R, 1]],
  6: [[L, 0], [R, 0], [L, 0.5], [R, 0.5], [L, 1], [R, 1]],
  7: [[L, 0], [R, 0], [M, 0.25], [L, 0.5], [R, 0.5], [L, 1], [R, 1]],
  8: [[L, 0], [R, 0], [M, 0.25], [L, 0.5], [R, 0.5], [M, 0.75], [L, 1], [R, 1]],
  9: [[L, 0], [R, 0], [L, 1 / 3], [R, 1 / 3], [M, 0.5], [L, 2 / 3], [R, 2 / 3], [L, 1], [R, 1]],
  10: [[L, 0], [R, 0], [M, 1 / 6], [L, 1 / 3], [R, 1 / 3], [L, 2 / 3], [R, 2 / 3], [M, 5 / 6], [L, 1], [R, 1]],
};

function numberFace(rank, suit) {
  if (rank === 'A') return pip(suit, CW / 2, CH / 2, suit === 'S' ? 96 : 80);
  const count = rank === 'T' ? 10 : Number(rank);
  return PIPS[count].map(([x, f]) => pip(suit, x, ROW(f), 36, f > 0.5)).join('');
}

// ---------- court cards: a framed, double-headed emblem ----------

const EMBLEMS = {
  // A crown with five points.
  K: '<path d="M-30 18V-12L-17 2L-8-20L0-4L8-20L17 2L30-12V18Z"/><rect x="-30" y="12" width="60" height="8"/>',
  // A tiara: two arcs over a band, a jewel in the middle.
  Q: '<path d="M-28 18V0A9.5 9.5 0 0 1-9.5-2A9.5 9.5 0 0 1 9.5-2A9.5 9.5 0 0 1 28 0V18Z"/><rect x="-28" y="12" width="56" height="7"/>',
  // A cap with a feather.
  J: '<path d="M-26 18Q-26-10 0-12Q26-10 26 18Z"/><path d="M8-10Q24-34 36-36Q28-18 16-6Z"/>',
};
const JEWELS = { K: [[-30, -12], [-8, -20], [8, -20], [30, -12]], Q: [[-19, -11], [0, -12], [19, -11]], J: [[0, -12]] };

function courtHalf(rank, suit, color) {
  const jewels = JEWELS[rank].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="4" fill="${color}"/>`).join('');
  const emblem = `<g transform="translate(100 72) scale(1.1)" fill="#e9b824" stroke="${color}" stroke-width="3" stroke-linejoin="round">`
    + `${EMBLEMS[rank]}</g><g transform="translate(100 72) scale(1.1)">${jewels}</g>`;
  const letter = `<text x="100" y="126" text-anchor="middle" font-size="34" fill="${color}" ${FONT}>${rank}</text>`;
  return emblem + letter + pip(suit, 72, 114, 22) + pip(suit, 128, 114, 22);
}

function courtFace(rank, suit, color) {
  const frame = `<rect x="56" y="26" width="88" height="228" rx="6" fill="#fdf4de" stroke="${color}" stroke-width="3"/>`
    + `<path d="M56 140H144" stroke="${color}" stroke-width="2"/>`;
  const half = courtHalf(rank, suit, color);
  return `${frame}${half}<g transform="rotate(180 100 140)">${half}</g>`;
}

// ---------- jokers ----------

const STAR = '<path d="M0-50L12-16L48-15L19 7L29 41L0 21L-29 41L-19 7L-48-15L-12-16Z"/>';
const HAT = '<path d="M-40 32L-36 12Q-42-16-58-30Q-22-22-12 0Q-10-28 0-46Q10-28 12 0Q22-22 58-30Q42-16 36 12L40 32Z"/>';

function jokerFace(color) {
  const bells = [[-58, -30], [0, -46], [58, -30]].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="7"/>`).join('');
  const hat = `<g transform="translate(100 122) scale(1.05)" fill="${color}" stroke="${color}" stroke-width="2">${HAT}${bells}</g>`
    + '<path d="M58 156Q100 174 142 156" fill="none" stroke="#e9b824" stroke-width="6" stroke-linecap="round"/>';
  const word = `<text x="100" y="206" text-anchor="middle" font-size="28" letter-spacing="2" fill="${color}" ${FONT}>JOKER</text>`;
  return hat + word;
}

// ---------- corner indices ----------

function index(rankText, suit, color) {
  const ten = rankText === '10' ? ' textLength="42" lengthAdjust="spacingAndGlyphs"' : '';
  const rank = `<text x="26" y="52" text-anchor="middle" font-size="50" fill="${color}" ${FONT}${ten}>${rankText}</text>`;
  const mark = suit ? pip(suit, 26, 76, 30) : `<g transform="translate(28 40) scale(0.4)">${STAR}</g>`;
  return `<g fill="${color}">${rank}${mark}</g>`;
}

function corners(rankText, suit, color) {
  const one = index(rankText, suit, color);
  return `${one}<g transform="rotate(180 100 140)">${one}</g>`;
}

// ---------- the SVG element ----------

function checkWidth(width) {
  if (width === undefined || width === null) return 100;
  if (typeof width !== 'number' || !Number.isFinite(width) || width <= 0) {
    throw new Error(`the card width must be a positive number of pixels, got ${JSON.stringify(width)}`);
  }
  return width;
}

function svg(width, attrs, label, body) {
  const h = num((width * CH) / CW);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CW} ${CH}" width="${num(width)}" height="${h}" `
    + `role="img" aria-label="${label}" ${attrs}><title>${label}</title>`
    + `<rect x="2" y="2" width="${CW - 4}" height="${CH - 4}" rx="14" fill="#fff" stroke="#9a9a9a" stroke-width="3"/>`
    + `${body}</svg>`;
}

/**
 * The SVG markup of one card face, `width` px wide (default 100) and 1.4 times as high.
 * The element has role="img", an aria-label such as "ace of spades", a <title> with the
 * same text, data-card with the code, and class "card card-red" or "card card-black".
 * Throws an Error for anything but a code of CARD_CODES or a bad width.
 */
export function cardSvg(code, { width } = {}) {
  const c = parse(code);
  const w = checkWidth(width);
  const red = isRed(code);
  const color = red ? RED : BLACK;
  const attrs = `class="card ${red ? 'card-red' : 'card-black'}" data-card="${code}"`;
  if (c.joker) return svg(w, attrs, cardName(code), corners('', null, color) + jokerFace(color));
  const face = 'JQK'.includes(c.rank) ? courtFace(c.rank, c.suit, color) : numberFace(c.rank, c.suit);
  const rankText = c.rank === 'T' ? '10' : c.rank;
  return svg(w, attrs, cardName(code), `<g fill="${color}">${face}</g>${corners(rankText, c.suit, color)}`);
}

// A lattice of diagonal lines clipped by hand to the back's inner panel (no ids needed).
function lattice(x0, y0, x1, y1, step) {
  const lines = [];
  for (let c = x0 - (y1 - y0); c <= x1; c += step) {
    // Line x - y = c - y0 (falling to the right) and its mirror image.
    const [ax, ay] = c < x0 ? [x0, y0 + (x0 - c)] : [c, y0];
    const bx = Math.min(x1, c + (y1 - y0));
    const by = ay + (bx - ax);
    lines.push(`M${num(ax)} ${num(ay)}L${num(bx)} ${num(by)}`, `M${num(x0 + x1 - ax)} ${num(ay)}L${num(x0 + x1 - bx)} ${num(by)}`);
  }
  return `<path d="${lines.join('')}" stroke="#8fb0e8" stroke-width="2.5" fill="none"/>`;
}

/** The SVG markup of a card back, `width` px wide (default 100): role="img", aria-label "card back", data-card="back". */
export function cardBack({ width } = {}) {
  const w = checkWidth(width);
  const panel = '<rect x="16" y="16" width="168" height="248" rx="8" fill="#1d3f8f"/>';
  const medallion = '<ellipse cx="100" cy="140" rx="42" ry="58" fill="#1d3f8f" stroke="#fff" stroke-width="5"/>'
    + `<g fill="#fff">${pip('S', 100, 116, 30)}${pip('H', 100, 164, 30, true)}</g>`;
  const body = panel + lattice(16, 16, 184, 264, 16) + medallion
    + '<rect x="16" y="16" width="168" height="248" rx="8" fill="none" stroke="#fff" stroke-width="4"/>';
  return svg(w, 'class="card card-back" data-card="back"', 'card back', body);
}
