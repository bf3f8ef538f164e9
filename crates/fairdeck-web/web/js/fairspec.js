// An independent JavaScript implementation of docs/fair-dealing.md (version 1).
//
// One module on purpose (over 400 lines): the page and the node tests import a
// single self-contained verifier that can be read next to the specification.
//
// Written from the specification, not from fairdeck's Rust code: SHA-256 and
// HMAC-SHA256 come from WebCrypto (`globalThis.crypto.subtle`, in browsers and
// Node 20 alike); the ChaCha20 block function (RFC 8439), the word stream, the
// bounded draw (Lemire 2019) and Durstenfeld's shuffle are written here, with
// 32-bit integer operations for ChaCha20 and BigInt for the 64-bit words.
// No dependencies. Every function that takes user input throws an Error with a
// one-line message naming the bad field.

import {
  cardOrder, dealHands, dealPlan, deckCards, entropyBits, gameDeck, parseCards, parseDeckKind, parseGame,
} from './fairspec-decks.js';

export * from './fairspec-decks.js';

const DOMAIN_TAG = 'fairdeck-fair-v1';
const TWO_64 = 1n << 64n;
const MASK_64 = TWO_64 - 1n;

const subtle = () => {
  const s = globalThis.crypto && globalThis.crypto.subtle;
  if (!s) throw new Error('WebCrypto (crypto.subtle) is not available: open the page over http://127.0.0.1 or https');
  return s;
};

// ---------- bytes and hex ----------

/** Bytes as lowercase hex. */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Exactly 64 hex digits (either case, surrounding white space ignored) as 32 bytes. */
export function parseHex32(text, what = 'value') {
  if (text instanceof Uint8Array) {
    if (text.length !== 32) throw new Error(`the ${what} must be 32 bytes, got ${text.length}`);
    return text;
  }
  const t = String(text ?? '').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(t)) {
    const why = /^[0-9a-fA-F]*$/.test(t) ? `${t.length} digits` : 'a character that is not a hex digit';
    throw new Error(`the ${what} must be 64 hex digits, got ${why}: ${JSON.stringify(clip(String(text ?? '')))}`);
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(t.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function clip(s) {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** A nonce (number, bigint or decimal text) as a BigInt in [0, 2^64). */
export function parseNonce(value) {
  let n;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`the nonce must be a whole number 0 to 18446744073709551615, got ${value} (pass large nonces as text)`);
    n = BigInt(value);
  } else {
    const t = String(value ?? '').trim();
    if (!/^[0-9]+$/.test(t)) throw new Error(`the nonce must be a whole number 0 to 18446744073709551615, got ${JSON.stringify(clip(t))}`);
    n = BigInt(t);
  }
  if (n < 0n || n > MASK_64) throw new Error(`the nonce must be a whole number 0 to 18446744073709551615, got ${n}`);
  return n;
}

function u64be(n) {
  const out = new Uint8Array(8);
  for (let i = 7; i >= 0; i--) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// ---------- section 2.1 and 2.2: commitment and deal key ----------

/** SHA-256 of bytes, as bytes. */
export async function sha256(bytes) {
  return new Uint8Array(await subtle().digest('SHA-256', bytes));
}

/** The commitment C = SHA-256(S) of a secret (64 hex digits or 32 bytes), as 64 hex digits. */
export async function commitment(secretHex) {
  return toHex(await sha256(parseHex32(secretHex, 'server secret')));
}

/** The message HMAC signs: tag ‖ u64_be(len(T)) ‖ T ‖ u64_be(N). */
export function derivationMessage(clientSeed, nonce) {
  if (typeof clientSeed !== 'string') throw new Error('the client seed must be text');
  const seed = new TextEncoder().encode(clientSeed);
  const tag = new TextEncoder().encode(DOMAIN_TAG);
  return concat(tag, u64be(BigInt(seed.length)), seed, u64be(parseNonce(nonce)));
}

/** The deal key K = HMAC-SHA256(S, message), 32 bytes. */
export async function dealKey(secret, clientSeed, nonce) {
  const key = await subtle().importKey('raw', parseHex32(secret, 'server secret'),
    { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle().sign('HMAC', key, derivationMessage(clientSeed, nonce)));
}

// ---------- section 2.3: ChaCha20 (RFC 8439) and the word stream ----------

const rotl = (v, n) => ((v << n) | (v >>> (32 - n))) >>> 0;

function quarterRound(x, a, b, c, d) {
  x[a] = (x[a] + x[b]) >>> 0; x[d] = rotl(x[d] ^ x[a], 16);
  x[c] = (x[c] + x[d]) >>> 0; x[b] = rotl(x[b] ^ x[c], 12);
  x[a] = (x[a] + x[b]) >>> 0; x[d] = rotl(x[d] ^ x[a], 8);
  x[c] = (x[c] + x[d]) >>> 0; x[b] = rotl(x[b] ^ x[c], 7);
}

function littleWords(bytes, count) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: count }, (_, i) => view.getUint32(4 * i, true));
}

/**
 * The ChaCha20 block function of RFC 8439 section 2.3: 64 keystream bytes for a
 * 32-byte key, a 32-bit block counter and a 12-byte nonce.
 */
export function chacha20Block(key, counter, nonce = new Uint8Array(12)) {
  if (key.length !== 32) throw new Error(`a ChaCha20 key is 32 bytes, got ${key.length}`);
  if (nonce.length !== 12) throw new Error(`a ChaCha20 nonce is 12 bytes, got ${nonce.length}`);
  if (!Number.isInteger(counter) || counter < 0 || counter > 0xffffffff) {
    throw new Error(`the ChaCha20 block counter must be 0 to 2^32-1, got ${counter}`);
  }
  // "expand 32-byte k", then key, counter, nonce.
  const init = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
    ...littleWords(key, 8), counter >>> 0, ...littleWords(nonce, 3)];
  const x = init.slice();
  for (let round = 0; round < 10; round++) {
    quarterRound(x, 0, 4, 8, 12); quarterRound(x, 1, 5, 9, 13);
    quarterRound(x, 2, 6, 10, 14); quarterRound(x, 3, 7, 11, 15);
    quarterRound(x, 0, 5, 10, 15); quarterRound(x, 1, 6, 11, 12);
    quarterRound(x, 2, 7, 8, 13); quarterRound(x, 3, 4, 9, 14);
  }
  const out = new Uint8Array(64);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 16; i++) view.setUint32(4 * i, (x[i] + init[i]) >>> 0, true);
  return out;
}

/** The spec's words w0, w1, …: the keystream of K (nonce 0, counter from 0) as little-endian u64. */
export class WordStream {
  constructor(key) {
    this.key = parseHex32(key, 'deal key');
    this.counter = 0;
    this.words = [];
    this.used = 0;
  }

  /** The next word, a BigInt in [0, 2^64). */
  next() {
    if (this.words.length === 0) {
      const block = chacha20Block(this.key, this.counter++);
      const view = new DataView(block.buffer);
      for (let i = 7; i >= 0; i--) this.words.push(view.getBigUint64(8 * i, true));
    }
    this.used++;
    return this.words.pop();
  }
}

// ---------- sections 2.4 and 2.5: bounded draw and shuffle ----------

/** Draws j uniform in [0, s) for 1 ≤ s < 2^64 by the spec's rejection rule (one word per attempt). */
export function boundedDraw(stream, s) {
  const bound = BigInt(s);
  if (bound < 1n || bound >= TWO_64) throw new Error(`a draw needs 1 <= s < 2^64, got ${s}`);
  const threshold = (TWO_64 - bound) % bound;
  for (;;) {
    const m = stream.next() * bound;
    if ((m & MASK_64) >= threshold) return Number(m >> 64n);
  }
}

/** Durstenfeld's backward Fisher–Yates, in place: i = n−1 … 1, swap i with draw(i + 1). */
export function durstenfeld(items, stream) {
  for (let i = items.length - 1; i >= 1; i--) {
    const j = boundedDraw(stream, i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** The shuffled deck of one deal, top card first (sections 2.2–2.6). */
export async function shuffledDeck(serverSecret, clientSeed, nonce, deck = 'standard') {
  const cards = deckCards(deck);
  return durstenfeld(cards, new WordStream(await dealKey(serverSecret, clientSeed, nonce)));
}

/**
 * One deal, in the shape of `fairdeck fair deal --format json`: commitment, client_seed,
 * nonce, game, deck, cards, hands, stock, entropy_needed_bits, entropy_key_bits.
 * `game` defaults to bridge and `deck` to the game's deck. A nonce above 2^53 is
 * returned as a BigInt.
 */
export async function deal({ serverSecret, clientSeed, nonce, game = 'bridge', deck, players } = {}) {
  return dealWith({ serverSecret, clientSeed, nonce, game, deck, players }, true);
}

// With `strict` false a plan that needs more cards than the deck holds leaves every card
// in the stock (verification compares the whole deck, so the plan does not enter it).
async function dealWith({ serverSecret, clientSeed, nonce, game, deck, players }, strict) {
  const gameName = parseGame(game ?? 'bridge');
  const kind = parseDeckKind(deck === undefined || deck === null || deck === '' ? gameDeck(gameName) : deck);
  const plan = dealPlan(gameName, players);
  const n = parseNonce(nonce);
  const cards = await shuffledDeck(serverSecret, clientSeed, n, kind);
  const short = !strict && plan.packets.reduce((s, [, c]) => s + c, 0) > cards.length;
  const { hands, stock } = short ? { hands: [], stock: cards.slice() } : dealHands(plan, cards);
  return {
    commitment: await commitment(serverSecret),
    client_seed: clientSeed,
    nonce: n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n,
    game: gameName,
    deck: kind,
    cards,
    hands,
    stock,
    entropy_needed_bits: entropyBits(kind),
    entropy_key_bits: 256,
  };
}

// ---------- section 3: verification ----------

const byCardOrder = (a, b) => cardOrder(a) - cardOrder(b);

function tally(cards) {
  const m = new Map();
  for (const c of cards) m.set(c, (m.get(c) ?? 0) + 1);
  return m;
}

/** The first difference as `fairdeck fair verify` names it, or null: card-count, not-the-deck, order. */
function compareDeck(kind, expected, claimed) {
  if (claimed.length !== expected.length) {
    return { mismatch: 'card-count', message: `the deal has ${claimed.length} cards but a ${kind} deck has ${expected.length}`, places: [] };
  }
  const [want, got] = [tally(expected), tally(claimed)];
  const count = (m, c) => m.get(c) ?? 0;
  const extra = [...got.keys()].sort(byCardOrder).find((c) => count(got, c) > count(want, c));
  const missing = [...want.keys()].sort(byCardOrder).find((c) => count(got, c) < count(want, c));
  const card = extra ?? missing;
  if (card) {
    const message = `the deal is not a ${kind} deck: it shows ${card} ${count(got, card)} times, the deck holds it ${count(want, card)} times`;
    return { mismatch: 'not-the-deck', message, places: [] };
  }
  const places = expected.map((e, i) => i).filter((i) => expected[i] !== claimed[i]);
  if (places.length === 0) return null;
  const [first, total] = [places[0], expected.length];
  const why = places.length * 4 < total ? 'cards were moved after the deal' : 'wrong client seed, nonce or deck, or a different deal';
  const message = `the deal differs from the derived deck at ${places.length} of ${total} places, first at card ${first + 1}: `
    + `${claimed[first]} where the derivation gives ${expected[first]} (${why})`;
  return { mismatch: 'order', message, places };
}

/** Differences between claimed and derived piles ({name, cards}), by name and place. */
function compareHands(derived, claimedHands, claimedStock) {
  const out = [];
  const piles = [...derived.hands, { name: 'stock', cards: derived.stock }];
  const claimedPiles = [...(claimedHands ?? []), ...(claimedStock ? [{ name: 'stock', cards: claimedStock }] : [])];
  for (const pile of claimedPiles) {
    const want = piles.find((p) => p.name === pile.name);
    if (!want) {
      out.push(`hand ${pile.name}: the deal has no such hand`);
      continue;
    }
    const got = pile.cards;
    if (got.length !== want.cards.length) out.push(`hand ${pile.name}: ${got.length} cards where the derivation gives ${want.cards.length}`);
    want.cards.forEach((c, i) => {
      if (i < got.length && got[i] !== c) out.push(`hand ${pile.name}, card ${i + 1}: ${got[i]} where the derivation gives ${c}`);
    });
  }
  if (claimedHands) {
    for (const p of derived.hands) {
      if (!claimedHands.some((h) => h.name === p.name)) out.push(`hand ${p.name}: missing from the claimed deal`);
    }
  }
  return out;
}

const MAX_LISTED_PLACES = 60;

/** One line per differing place, at most MAX_LISTED_PLACES and a count of the rest. */
function placeLines(places, claimed, expected) {
  const lines = places.slice(0, MAX_LISTED_PLACES)
    .map((i) => `card ${i + 1}: ${claimed[i]} where the derivation gives ${expected[i]}`);
  const rest = places.length - MAX_LISTED_PLACES;
  return rest > 0 ? [...lines, `… and ${rest} more places`] : lines;
}

/**
 * Verifies a revealed deal: SHA-256(secret) against the published commitment, then the
 * claimed deck (and, when given, its hands and stock) against the recomputed deal.
 *
 * `deal` is the claimed deck, top card first: text ("5D QS 3C …"), an array of cards, or
 * the object of `fairdeck fair deal --format json` (or `parseDealJson` of it), whose
 * game, deck and hands are then used unless given here.
 *
 * Returns { valid, mismatch, message, differences, expected, computedCommitment }:
 * `mismatch` and `message` are the first failure exactly as `fairdeck fair verify` names it
 * (commitment, card-count, not-the-deck, order; null and a "valid (…)" line that says what was checked); `differences`
 * lists every difference found, one line each: the commitment, each differing place
 * (capped at 60 lines), each differing hand card. Throws on malformed input.
 */
export async function verify({ commitment: published, serverSecret, clientSeed, nonce, game, deck, players, deal: claimed } = {}) {
  const wanted = parseHex32(published, 'commitment');
  const claim = claimed && typeof claimed === 'object' && !Array.isArray(claimed) ? parseDealJson(claimed) : { cards: parseCards(claimed) };
  const gameName = parseGame(game || claim.game || 'bridge');
  const kind = parseDeckKind(deck || claim.deck || gameDeck(gameName));
  const expected = await dealWith({ serverSecret, clientSeed, nonce, game: gameName, deck: kind, players: players ?? claim.players }, false);
  const differences = [];
  let first = null;
  if (expected.commitment !== toHex(wanted)) {
    const message = `the server secret does not match the commitment: its SHA-256 is ${expected.commitment}, the published commitment is ${toHex(wanted)}`;
    first = { mismatch: 'commitment', message };
    differences.push(message);
  }
  const deckDiff = compareDeck(kind, expected.cards, claim.cards);
  if (deckDiff) {
    first ??= deckDiff;
    differences.push(deckDiff.message, ...placeLines(deckDiff.places, claim.cards, expected.cards));
  } else if (claim.hands || claim.stock) {
    const handDiffs = compareHands(expected, claim.hands, claim.stock);
    if (handDiffs.length) first ??= { mismatch: 'hands', message: `the deck is right but the hands are not dealt from it: ${handDiffs[0]}` };
    differences.push(...handDiffs);
  }
  return {
    valid: differences.length === 0,
    mismatch: first ? first.mismatch : null,
    message: first ? `invalid: ${first.message}` : (claim.hands || claim.stock ? VALID_WITH_HANDS : VALID_DECK_LINE),
    differences,
    expected,
    computedCommitment: expected.commitment,
  };
}

/** The verdicts of a matching deal: `fair verify --deal` checks the deck line only. */
export const VALID_DECK_LINE = 'valid (the deck line only: the hands were not checked; verify the transcript for those)';
export const VALID_WITH_HANDS = 'valid (the deck line and every hand and the stock dealt from it)';

const PARSED = Symbol('parsed deal');

/**
 * Reads the text printed by `fairdeck fair deal` (without --format json): its `deck:`,
 * `commitment:` and `client seed: "…", nonce: N` lines, the game and deck of its heading, in the shape of parseDealJson
 * and the number of "Player N" hands (the hands themselves are not read: the text shows them
 * with suit symbols). Returns null when there is no `deck:` line.
 */
export function parseDealText(text) {
  const deck = /^deck:[ \t]*(.*)$/m.exec(text);
  if (!deck) return null;
  const commitmentLine = /^commitment:[ \t]*([0-9a-fA-F]+)[ \t]*$/m.exec(text);
  const heading = /^(bridge|holdem|draw|skat|scopa), (\S+) deck$/m.exec(text);
  const seedLine = /^client seed: ("(?:[^"\\]|\\.)*"), nonce: (\d+)[ \t]*$/m.exec(text);
  let clientSeed;
  try {
    clientSeed = seedLine ? JSON.parse(seedLine[1]) : undefined;
  } catch {
    clientSeed = undefined; // an escape JSON does not share with the CLI's quoting: type the seed
  }
  return {
    [PARSED]: true,
    commitment: commitmentLine?.[1],
    clientSeed,
    nonce: seedLine ? parseNonce(seedLine[2]).toString() : undefined,
    game: heading?.[1],
    deck: heading?.[2],
    players: text.match(/^Player \d+\b/gm)?.length,
    cards: parseCards(deck[1]),
  };
}

/**
 * Reads the JSON printed by `fairdeck fair deal --format json` (text or an already parsed
 * object): { commitment, clientSeed, nonce (decimal text, exact even above 2^53), game, deck,
 * players, cards, hands, stock }, cards in canonical codes. Throws a one-line Error naming
 * the field that is missing or malformed.
 */
export function parseDealJson(input) {
  let obj = input;
  if (typeof input === 'string') {
    // Keep nonces above 2^53 exact: JSON.parse would round them to the nearest double.
    const exact = input.replace(/("nonce"\s*:\s*)(\d+)/, '$1"$2"');
    try {
      obj = JSON.parse(exact);
    } catch (e) {
      throw new Error(`the deal is not valid JSON: ${e.message}`);
    }
  }
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new Error('the deal JSON must be an object, as printed by fairdeck fair deal --format json');
  if (obj[PARSED]) return obj;
  if (!Array.isArray(obj.cards)) throw new Error('the deal JSON has no "cards" list (the deck, top card first)');
  const text = (v, what) => {
    if (v !== undefined && v !== null && typeof v !== 'string') throw new Error(`the deal JSON's "${what}" must be text`);
    return v ?? undefined;
  };
  const hands = obj.hands === undefined ? undefined : parseHandsField(obj.hands);
  return {
    [PARSED]: true,
    commitment: text(obj.commitment, 'commitment'),
    clientSeed: text(obj.client_seed, 'client_seed'),
    nonce: obj.nonce === undefined ? undefined : parseNonce(obj.nonce).toString(),
    game: text(obj.game, 'game'),
    deck: text(obj.deck, 'deck'),
    players: hands ? inferPlayers(hands) : undefined,
    cards: parseCards(obj.cards),
    hands,
    stock: obj.stock === undefined ? undefined : parseCards(obj.stock),
  };
}

function parseHandsField(hands) {
  if (!Array.isArray(hands)) throw new Error('the deal JSON\'s "hands" must be a list');
  return hands.map((h, i) => {
    if (!h || typeof h.name !== 'string' || !Array.isArray(h.cards)) throw new Error(`the deal JSON's hand ${i + 1} needs a "name" and a "cards" list`);
    return { name: h.name, cards: parseCards(h.cards) };
  });
}

// Games with a choice of players name them "Player 1" … "Player P".
function inferPlayers(hands) {
  const p = hands.filter((h) => /^Player \d+$/.test(h.name)).length;
  return p > 0 ? p : undefined;
}
