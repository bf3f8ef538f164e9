// Version 2 of docs/fair-dealing.md (sections 8–11), written from the specification: the
// table manifest's bytes, the room's and the seats' commitments, the deal key over every
// seat's seed, the dealing layouts of section 9, and the check of a whole transcript.
// Uses the version 1 building blocks of fairspec.js (ChaCha20 words, bounded draw, shuffle,
// unshuffled decks). No dependencies.

import { WordStream, deckCards, durstenfeld, sha256, toHex } from './fairspec.js';

const enc = (text) => new TextEncoder().encode(text);

function u64be(n) {
  const out = new Uint8Array(8);
  let v = BigInt(n);
  for (let i = 7; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
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

/** lp(x) = u64_be(len(x)) ‖ x. */
const lp = (bytes) => concat(u64be(bytes.length), bytes);

const GAMES = {
  bridge: ['standard', 4, 4], holdem: ['standard', 2, 22], draw: ['standard', 2, 10],
  skat: ['piquet', 3, 3], scopa: ['italian', 2, 4], shoe: [null, 1, 22],
};
const FIELDS = ['version', 'table', 'game', 'deck', 'seats', 'first', 'last'];

const badName = (n) => typeof n !== 'string' || n.length === 0 || enc(n).length > 256
  || [...n].some((c) => c.codePointAt(0) < 32 || (c.codePointAt(0) >= 127 && c.codePointAt(0) < 160));

/** Section 8.2's rules: null, or what is wrong with the manifest. */
export function manifestProblem(m) {
  if (!m || typeof m !== 'object') return 'no manifest';
  const keys = Object.keys(m).sort();
  if (keys.join() !== [...FIELDS].sort().join()) return `the manifest's fields are ${keys.join(', ')}, not ${FIELDS.join(', ')}`;
  if (m.version !== 2) return `version ${m.version} is not 2`;
  const rule = GAMES[m.game];
  if (!rule) return `game ${JSON.stringify(m.game)} is not one of ${Object.keys(GAMES).join(', ')}`;
  const shoe = /^shoe:[1-8]$/.test(m.deck);
  if (m.deck !== rule[0] && !(rule[0] === null && shoe)) return `deck ${JSON.stringify(m.deck)} is not the deck of ${m.game}`;
  if (badName(m.table) || !Array.isArray(m.seats) || m.seats.some(badName)) return 'an empty, over-long or control-character name';
  if (m.seats.length < rule[1] || m.seats.length > rule[2]) return `${m.game} is played by ${rule[1]} to ${rule[2]} seats, not ${m.seats.length}`;
  if (new Set(m.seats).size !== m.seats.length) return 'a seat name appears twice';
  const [first, last] = [BigInt(m.first), BigInt(m.last)];
  if (first > last || last - first >= 10000n || (m.game === 'bridge' && first < 1n)) return `the deal range ${m.first}-${m.last}`;
  return null;
}

/** Section 8.2: the manifest's canonical bytes M. */
export function manifestBytes(m) {
  return concat(lp(enc('fairdeck-table')), u64be(m.version), lp(enc(m.table)), lp(enc(m.game)), lp(enc(m.deck)),
    u64be(m.seats.length), ...m.seats.map((s) => lp(enc(s))), u64be(m.first), u64be(m.last));
}

const domain = (m, purpose) => lp(enc(`fairdeck-fair-v2/${m.game}/${m.deck}/${purpose}`));

/** Section 8.3: C = SHA-256(lp(D_room) ‖ S ‖ lp(M)), as hex. */
export async function roomCommitment(m, secret) {
  return toHex(await sha256(concat(domain(m, 'room'), secret, lp(manifestBytes(m)))));
}

/** Section 8.4: c_i = SHA-256(lp(D_seat) ‖ lp(M) ‖ u64_be(i) ‖ lp(T_i)), as hex. */
export async function seatCommitment(m, index, seed) {
  return toHex(await sha256(concat(domain(m, 'seat'), lp(manifestBytes(m)), u64be(index), lp(enc(seed)))));
}

/** Section 8.5: the HMAC message of deal n. */
export function dealMessage(m, seeds, nonce) {
  return concat(domain(m, 'deal'), lp(manifestBytes(m)), u64be(seeds.length), ...seeds.map((s) => lp(enc(s))), u64be(nonce));
}

/** Section 8.5: K_n = HMAC-SHA256(S, message_n). */
export async function dealKeyV2(m, secret, seeds, nonce) {
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle.sign('HMAC', key, dealMessage(m, seeds, nonce)));
}

/** Section 9: the piles [{name, role, cards}] and the stock of a shuffled deck. */
export function layOut(m, cards) {
  const seats = m.seats;
  const p = seats.length;
  const hand = (s, n) => Array.from({ length: n }, (_, k) => cards[s + k * p]);
  const players = (n) => seats.map((name, s) => ({ name, role: 'player', cards: hand(s, n) }));
  if (m.game === 'shoe') return { piles: [], stock: cards };
  if (m.game === 'bridge') return { piles: players(13), stock: [] };
  if (m.game === 'holdem') {
    const b = 2 * p;
    const board = [...cards.slice(b + 1, b + 4), cards[b + 5], cards[b + 7]];
    const burn = [cards[b], cards[b + 4], cards[b + 6]];
    return { piles: [...players(2), { name: 'Board', role: 'board', cards: board }, { name: 'Burn', role: 'burn', cards: burn }], stock: cards.slice(b + 8) };
  }
  if (m.game === 'draw') return { piles: players(5), stock: cards.slice(5 * p) };
  if (m.game === 'scopa') {
    return { piles: [...players(3), { name: 'Table', role: 'board', cards: cards.slice(3 * p, 3 * p + 4) }], stock: cards.slice(3 * p + 4) };
  }
  const packets = [[0, 3], [1, 3], [2, 3], [3, 2], [0, 4], [1, 4], [2, 4], [0, 3], [1, 3], [2, 3]];
  const piles = [...seats.map((name) => ({ name, role: 'player', cards: [] })), { name: 'Skat', role: 'kitty', cards: [] }];
  let top = 0;
  for (const [pile, count] of packets) {
    piles[pile].cards.push(...cards.slice(top, top + count));
    top += count;
  }
  return { piles, stock: [] };
}

const VULNERABLE = 'None NS EW All NS EW All None EW All None NS All None NS EW'.split(' ');

function cardsDiffer(want, have, asSet) {
  const sorted = (c) => [...c].sort().join(' ');
  if (!Array.isArray(have)) return 'missing';
  if (sorted(want) !== sorted(have)) return `has ${have.join(' ') || 'none'}, the derivation gives ${want.join(' ')}`;
  if (!asSet && want.join(' ') !== have.join(' ')) return 'the right cards in another order';
  return null;
}

const KIND_OF_ROLE = { player: 'hand', kitty: 'kitty', burn: 'burn', board: 'community' };

function compareDeal(m, cards, claimed, out) {
  const n = claimed.nonce;
  const { piles, stock } = layOut(m, cards);
  const got = Array.isArray(claimed.piles) ? claimed.piles : [];
  const shape = (ps) => ps.map((x) => `${x.name}/${x.role}`).join(',');
  if (shape(piles) !== shape(got)) out.push({ kind: 'piles', message: `deal ${n}: not the layout's piles` });
  else {
    piles.forEach((want, i) => {
      const why = cardsDiffer(want.cards, got[i].cards, want.role === 'player' || want.role === 'kitty');
      if (why) out.push({ kind: KIND_OF_ROLE[want.role], message: `deal ${n}, ${want.name}: ${why}` });
    });
  }
  const stockWhy = cardsDiffer(stock, claimed.stock, false);
  if (stockWhy) out.push({ kind: 'stock', message: `deal ${n}: ${stockWhy}` });
  if (claimed.deck !== undefined) {
    const deckWhy = cardsDiffer(cards, claimed.deck, false);
    if (deckWhy) out.push({ kind: 'deck', message: `deal ${n}: ${deckWhy}` });
  }
  if (m.game === 'bridge') {
    const k = (BigInt(n) - 1n);
    if (claimed.dealer !== 'NESW'[Number(k % 4n)]) out.push({ kind: 'dealer', message: `deal ${n}: dealer ${claimed.dealer}` });
    if (claimed.vulnerable !== VULNERABLE[Number(k % 16n)]) out.push({ kind: 'vulnerable', message: `deal ${n}: vulnerable ${claimed.vulnerable}` });
  }
}

/** Missing, extra, repeated and out-of-order deals; returns the deals to compare. */
function dealRange(m, deals, out) {
  const seen = new Set();
  const keep = [];
  let previous = null;
  for (const d of Array.isArray(deals) ? deals : []) {
    const n = Number(d.nonce);
    if (!(n >= m.first && n <= m.last)) out.push({ kind: 'extra-deal', message: `deal ${d.nonce} is outside the manifest's deals ${m.first}-${m.last}` });
    else if (seen.has(n)) out.push({ kind: 'duplicate-deal', message: `deal ${n} appears twice` });
    else {
      if (previous !== null && n < previous) out.push({ kind: 'deal-order', message: `deal ${n} comes after deal ${previous}` });
      previous = n;
      seen.add(n);
      keep.push(d);
    }
  }
  const missing = [];
  for (let n = m.first; n <= m.last; n++) if (!seen.has(n)) missing.push(n);
  if (missing.length) out.push({ kind: 'missing-deal', message: `${missing.length} deal(s) of the manifest are missing: ${missing.slice(0, 20).join(', ')}` });
  return keep;
}

/**
 * Section 11: checks a version 2 transcript (an object or JSON text). `published` is the
 * commitment published before play, given separately — never taken from the transcript.
 * Returns { verdict: 'valid' | 'self-consistent-only' | 'invalid', commitment, checked, differences }.
 */
export async function verifyTranscript(input, published) {
  const t = typeof input === 'string' ? JSON.parse(input) : input;
  const out = [];
  const checked = [];
  const done = (commitment = null) => {
    const pub = published ? String(published).trim().toLowerCase() : '';
    let verdict = out.length ? 'invalid' : (pub ? 'valid' : 'self-consistent-only');
    if (!out.length && pub && pub !== commitment) verdict = 'invalid';
    return { verdict, commitment, checked, differences: out };
  };
  const m = t && t.manifest;
  const problem = t && t.version === 2 ? manifestProblem(m) : 'not a version 2 transcript';
  if (problem) return out.push({ kind: 'manifest', message: problem }), done();
  checked.push(`the manifest: table ${JSON.stringify(m.table)}, ${m.game}, ${m.deck} deck, seats ${m.seats.join(', ')}, deals ${m.first}-${m.last}`);
  const seats = Array.isArray(t.seats) ? t.seats : [];
  if (seats.map((s) => s.name).join('\u0000') !== m.seats.join('\u0000')) return out.push({ kind: 'seats', message: "the seats are not the manifest's" }), done();
  for (const [i, s] of seats.entries()) {
    if (typeof s.seed !== 'string') out.push({ kind: 'missing-reveal', message: `seat ${JSON.stringify(s.name)} did not reveal its seed: the table is void` });
    else if (await seatCommitment(m, i, s.seed) !== String(s.commitment).toLowerCase()) out.push({ kind: 'seat-commitment', message: `seat ${JSON.stringify(s.name)}'s seed does not match its commitment` });
  }
  checked.push(`${seats.length} seat seed(s) against their commitments`);
  if (out.some((d) => d.kind === 'missing-reveal')) return done();
  if (!/^[0-9a-fA-F]{64}$/.test(t.server_secret ?? '')) return out.push({ kind: 'secret', message: 'the server secret is missing (not yet revealed) or not 64 hex digits' }), done();
  const secret = Uint8Array.from(t.server_secret.match(/../g), (b) => parseInt(b, 16));
  const computed = await roomCommitment(m, secret);
  if (computed !== String(t.commitment).toLowerCase()) out.push({ kind: 'commitment', message: `the secret and the manifest give ${computed}, the transcript states ${t.commitment}` });
  if (published && computed !== String(published).trim().toLowerCase()) out.push({ kind: 'published-commitment', message: `the secret and the manifest give ${computed}, the one published before play is ${published}` });
  checked.push(published ? 'the room commitment against the secret, the manifest and the published commitment' : 'the room commitment against the secret and the manifest (not against a published one: none given)');
  const seeds = seats.map((s) => s.seed);
  const deals = dealRange(m, t.deals, out);
  for (const d of deals) {
    const cards = durstenfeld(deckCards(m.deck), new WordStream(await dealKeyV2(m, secret, seeds, d.nonce)));
    compareDeal(m, cards, d, out);
  }
  checked.push(`${deals.length} deal(s): the whole range in order; every hand, community card, burn, kitty, the stock, the deck line, dealer and vulnerability`);
  return done(computed);
}
