// Sections 2.6 and 2.7 of docs/fair-dealing.md: the unshuffled decks, card names, and the
// games' dealing plans. Part of the independent JavaScript verifier (see fairspec.js, which
// re-exports everything here). No dependencies.

const RANKS = 'A23456789TJQK';
const SUITS = 'HDCS';

function clip(s) {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

const DECK_RANKS = { standard: RANKS, jokers: RANKS, piquet: 'A789TJQK', italian: 'A234567JQK' };
const DECK_ALIASES = {
  standard: 'standard', 52: 'standard', french: 'standard',
  jokers: 'jokers', 54: 'jokers',
  piquet: 'piquet', 32: 'piquet', skat: 'piquet', hungarian: 'piquet', german: 'piquet',
  italian: 'italian', 40: 'italian',
};
export const MAX_SHOE = 1000;

/** A deck kind as the CLI reads it (`standard`, `jokers`, `piquet`, `italian`, `shoe:K`, aliases) → its canonical name. */
export function parseDeckKind(text) {
  const lower = String(text ?? '').trim().toLowerCase();
  if (DECK_ALIASES[lower]) return DECK_ALIASES[lower];
  const m = /^(?:shoe:?(\w*)|(\w+)-deck)$/.exec(lower);
  if (!m) throw new Error(`unknown deck ${JSON.stringify(String(text))} (standard, jokers, piquet, italian or shoe:K)`);
  const k = m[1] ?? m[2];
  if (!/^[0-9]+$/.test(k) || Number(k) < 1 || Number(k) > MAX_SHOE) {
    throw new Error(`unknown deck ${JSON.stringify(String(text))} (a shoe holds 1 to ${MAX_SHOE} decks)`);
  }
  return `shoe:${Number(k)}`;
}

/** The unshuffled deck of a kind: hearts, diamonds, clubs, spades, each in rank order; jokers last. */
export function deckCards(kind) {
  const name = parseDeckKind(kind);
  const suited = (ranks) => [...SUITS].flatMap((s) => [...ranks].map((r) => r + s));
  if (name.startsWith('shoe:')) {
    const one = suited(RANKS);
    return Array.from({ length: Number(name.slice(5)) }, () => one).flat();
  }
  const cards = suited(DECK_RANKS[name]);
  return name === 'jokers' ? [...cards, 'RJ', 'BJ'] : cards;
}

/** log2 of the number of distinguishable orders of the deck (identical shoe cards count once). */
export function entropyBits(kind) {
  const name = parseDeckKind(kind);
  const log2Factorial = (n) => {
    let sum = 0;
    for (let i = 2; i <= n; i++) sum += Math.log2(i);
    return sum;
  };
  const n = deckCards(name).length;
  return name.startsWith('shoe:') ? log2Factorial(n) - 52 * log2Factorial(Number(name.slice(5))) : log2Factorial(n);
}

const SUIT_ALIASES = { H: 'H', '♥': 'H', '♡': 'H', D: 'D', '♦': 'D', '♢': 'D', C: 'C', '♣': 'C', '♧': 'C', S: 'S', '♠': 'S', '♤': 'S' };
const JOKER_ALIASES = { RJ: 'RJ', JR: 'RJ', JOKER: 'RJ', REDJOKER: 'RJ', BJ: 'BJ', JB: 'BJ', BLACKJOKER: 'BJ' };

/** One card as the CLI reads it (`AS`, `10h`, `Th`, `qd`, `A♠`, `rj`) → its canonical code (`AS`, `TH`, `RJ`). */
export function parseCard(text) {
  const s = String(text ?? '').trim();
  const upper = s.toUpperCase();
  if (JOKER_ALIASES[upper]) return JOKER_ALIASES[upper];
  const chars = [...upper];
  const suit = SUIT_ALIASES[chars.pop()];
  const rankText = chars.join('');
  const rank = rankText === '10' ? 'T' : rankText.length === 1 && RANKS.includes(rankText) ? rankText : null;
  if (!suit || !rank) throw new Error(`unknown card ${JSON.stringify(clip(s))} (write rank then suit, e.g. AS, 10h, qd)`);
  return rank + suit;
}

/** Cards separated by white space or commas, or an array of card texts → canonical codes. */
export function parseCards(input) {
  const list = Array.isArray(input) ? input : String(input ?? '').split(/[\s,]+/).filter(Boolean);
  return list.map(parseCard);
}

// ---------- section 2.7: games and dealing ----------

const GAME_ALIASES = {
  bridge: 'bridge', holdem: 'holdem', "hold'em": 'holdem', texas: 'holdem', 'texas-holdem': 'holdem',
  draw: 'draw', 'five-card-draw': 'draw', poker: 'draw', skat: 'skat', scopa: 'scopa',
};
const GAMES = {
  bridge: { deck: 'standard', players: [4, 4, 4] },
  holdem: { deck: 'standard', players: [2, 22, 6] },
  draw: { deck: 'standard', players: [2, 10, 4] },
  skat: { deck: 'piquet', players: [3, 3, 3] },
  scopa: { deck: 'italian', players: [2, 4, 2] },
};

/** A game as the CLI reads it → its canonical name (`bridge`, `holdem`, `draw`, `skat`, `scopa`). */
export function parseGame(text) {
  const name = GAME_ALIASES[String(text ?? '').trim().toLowerCase()];
  if (!name) throw new Error(`unknown game ${JSON.stringify(String(text))} (bridge, holdem, draw, skat or scopa)`);
  return name;
}

/** The deck a game is played with. */
export function gameDeck(game) {
  return GAMES[parseGame(game)].deck;
}

const numbered = (p) => Array.from({ length: p }, (_, i) => `Player ${i + 1}`);
const rounds = (players, each) => Array.from({ length: each }, () => players.map((_, p) => [p, 1])).flat();

/** The dealing plan: pile names and the packets [pile, count] handed out from the top, in order. */
export function dealPlan(game, players) {
  const name = parseGame(game);
  const [lo, hi, dflt] = GAMES[name].players;
  const p = players === undefined || players === null || players === '' ? dflt : Number(players);
  if (!Number.isInteger(p) || p < lo || p > hi) throw new Error(`${name} is played by ${lo} to ${hi} players, not ${players}`);
  if (name === 'bridge') {
    const piles = ['North', 'East', 'South', 'West'];
    return { piles, packets: rounds(piles, 13) };
  }
  if (name === 'holdem') {
    const piles = [...numbered(p), 'Board', 'Burn'];
    const [board, burn] = [p, p + 1];
    const packets = [...rounds(numbered(p), 2), [burn, 1], [board, 3], [burn, 1], [board, 1], [burn, 1], [board, 1]];
    return { piles, packets };
  }
  if (name === 'draw') return { piles: numbered(p), packets: rounds(numbered(p), 5) };
  if (name === 'skat') {
    const piles = ['Forehand', 'Middlehand', 'Rearhand', 'Skat'];
    const packets = [[0, 3], [1, 3], [2, 3], [3, 2], [0, 4], [1, 4], [2, 4], [0, 3], [1, 3], [2, 3]];
    return { piles, packets };
  }
  return { piles: [...numbered(p), 'Table'], packets: [...rounds(numbered(p), 3), [p, 4]] };
}

/** Hands out `cards` (top first) by the plan: { hands: [{name, cards}], stock }. */
export function dealHands(plan, cards) {
  const needed = plan.packets.reduce((s, [, c]) => s + c, 0);
  if (needed > cards.length) throw new Error(`the deal needs ${needed} cards but the deck holds only ${cards.length}`);
  const hands = plan.piles.map((name) => ({ name, cards: [] }));
  let top = 0;
  for (const [pile, count] of plan.packets) {
    hands[pile].cards.push(...cards.slice(top, top + count));
    top += count;
  }
  return { hands, stock: cards.slice(top) };
}

/** A card's place in fairdeck's card order (rank, then suit, jokers last), used to name the first offending card. */
export function cardOrder(code) {
  if (code === 'RJ') return 52;
  if (code === 'BJ') return 53;
  return RANKS.indexOf(code[0]) * 4 + SUITS.indexOf(code[1]);
}
