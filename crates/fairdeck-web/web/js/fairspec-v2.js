// Version 2 of docs/fair-dealing.md (sections 8–11), written from the specification: the
// table manifest's bytes, the room's and the seats' commitments, the deal key over every
// seat's seed, the dealing layouts of section 9, and the check of a whole transcript.
// Uses the version 1 building blocks of fairspec.js (ChaCha20 words, bounded draw, shuffle,
// unshuffled decks). No dependencies.

import { WordStream, deckCards, durstenfeld, sha256, toHex } from './fairspec.js';
import { DocumentError, checkRecordForm, parseStrict, textProblem } from './fairspec-json.js';

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

const PILE_NAMES = ['Board', 'Burn', 'Skat', 'Table'];
const BRIDGE_SEATS = ['North', 'East', 'South', 'West'];

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
  if (!Array.isArray(m.seats)) return 'the seats are not a list';
  if (m.game === 'bridge' && m.seats.join() !== BRIDGE_SEATS.join()) return `a bridge table's seats are ${BRIDGE_SEATS.join(', ')}`;
  for (const n of [m.table, ...m.seats]) if (textProblem(n)) return `name ${JSON.stringify(n)} ${textProblem(n)}`;
  if (m.seats.some((n) => PILE_NAMES.includes(n))) return `a seat has the name of a pile (${PILE_NAMES.join(', ')})`;
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

const hexBytes = (hex) => Uint8Array.from(hex.match(/../g), (b) => parseInt(b, 16));
const isHex64 = (h) => typeof h === 'string' && /^[0-9a-fA-F]{64}$/.test(h);

/** Section 8.6: the bytes the seat lock hashes (C and every c_i as 32 raw bytes). */
export function lockMessage(m, commitment, seatCommitments) {
  return concat(domain(m, 'lock'), hexBytes(commitment), lp(manifestBytes(m)), u64be(seatCommitments.length),
    ...seatCommitments.map(hexBytes));
}

/** Section 8.6: L = SHA-256(lp(D_lock) ‖ C ‖ lp(M) ‖ u64_be(P) ‖ c_0 ‖ … ‖ c_{P−1}), as hex; null when a commitment is missing. */
export async function seatLock(m, commitment, seatCommitments) {
  if (![commitment, ...seatCommitments].every(isHex64)) return null;
  return toHex(await sha256(lockMessage(m, commitment, seatCommitments)));
}

/** Section 8.7: {phase, seats} of the seats that failed, or null. */
async function voidOf(m, seats) {
  const uncommitted = seats.filter((s) => s.commitment === null || s.commitment === undefined || s.commitment === '').map((s) => s.name);
  if (uncommitted.length) return { phase: 'commit', seats: uncommitted };
  const late = [];
  for (const [i, s] of seats.entries()) {
    if (typeof s.seed !== 'string' || await seatCommitment(m, i, s.seed) !== String(s.commitment).toLowerCase()) late.push(s.name);
  }
  return late.length ? { phase: 'reveal', seats: late } : null;
}

/** Sections 8.6 and 10: the transcript's lock, the recorded lock and the count of deals played. */
async function checkLockAndPlayed(t, m, lock, out, checked) {
  const computed = await seatLock(m, t.commitment, t.seats.map((s) => s.commitment));
  const v21 = t.version === '2.1';
  const commitVoid = t.void && t.void.phase === 'commit';
  if (t.lock != null && (computed === null || String(t.lock).toLowerCase() !== computed)) out.push({ kind: 'lock', message: `the seats' commitments give the lock ${computed}, the transcript states ${t.lock}` });
  else if (t.lock == null && v21 && !commitVoid) out.push({ kind: 'lock', message: 'a version 2.1 transcript carries the seat lock; this one has none' });
  if (lock) {
    checked.push('the seat lock of the seats\' commitments against the one recorded before the reveals');
    if (computed === null || computed !== String(lock).trim().toLowerCase()) out.push({ kind: 'published-lock', message: `the seats' commitments give the lock ${computed}, the one recorded before the reveals is ${lock}: a commitment was replaced after the lock` });
  }
  const count = BigInt(m.last) - BigInt(m.first) + 1n;
  const playedOk = (p) => (typeof p === 'number' && Number.isInteger(p) && p >= 0) || typeof p === 'bigint';
  if ((t.played == null && v21) || (t.played != null && !(playedOk(t.played) && BigInt(t.played) <= count))) out.push({ kind: 'played', message: `deals played: ${t.played} of ${count}` });
  return computed;
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

/**
 * Missing, extra, repeated and out-of-order deals; returns the deals to compare. Deal numbers are
 * BigInts: a JS number stops counting at 2^53 (n + 1 === n there), which hung the page.
 */
function dealRange(m, deals, out) {
  const [first, last] = [BigInt(m.first), BigInt(m.last)];
  const seen = new Set();
  const keep = [];
  let previous = null;
  for (const d of Array.isArray(deals) ? deals : []) {
    const n = BigInt(d.nonce);
    if (n < first || n > last) out.push({ kind: 'extra-deal', message: `deal ${n} is outside the manifest's deals ${first}-${last}` });
    else if (seen.has(n)) out.push({ kind: 'duplicate-deal', message: `deal ${n} appears twice` });
    else {
      if (previous !== null && n < previous) out.push({ kind: 'deal-order', message: `deal ${n} comes after deal ${previous}` });
      previous = n;
      seen.add(n);
      keep.push(d);
    }
  }
  const missing = [];
  for (let n = first; n <= last; n++) if (!seen.has(n)) missing.push(n);
  if (missing.length) out.push({ kind: 'missing-deal', message: `${missing.length} deal(s) of the manifest are missing: ${missing.slice(0, 20).join(', ')}` });
  return keep;
}

/**
 * Section 11: checks a version 2 or 2.1 transcript, or a void record (an object or JSON text).
 * `published` is the commitment published before play and `lock` the seat lock recorded before
 * the reveals, each given separately — never taken from the transcript.
 * Returns { verdict: 'valid' | 'partial' | 'self-consistent-only' | 'void' | 'invalid', version,
 * commitment, lock, checked, unchecked, differences }. 'valid' needs both the commitment and the
 * lock (the player's own seed and the deal numbers it was shown are compared by the player);
 * 'partial' names what was not checked.
 */
export async function verifyTranscript(input, published, lock) {
  const out = [];
  const checked = [];
  let computedLock = null;
  let t = null;
  try {
    t = typeof input === 'string' ? parseStrict(input) : input;
    checkRecordForm(t);
  } catch (e) {
    if (!(e instanceof DocumentError)) throw e;
    const version = t && (t.version === 2 || t.version === '2.1') ? t.version : null;
    return { verdict: 'invalid', version, commitment: null, lock: null, checked: ['the document\'s form (refused: nothing else was checked)'], unchecked: [], differences: [{ kind: 'document', message: `the document breaks the reading rules (section 10.1): ${e.message}` }] };
  }
  const done = (commitment = null) => {
    const pub = published ? String(published).trim().toLowerCase() : '';
    const unchecked = [];
    if (!pub) unchecked.push('the commitment published before play');
    if (!lock) unchecked.push('the seat lock recorded before the reveals');
    let verdict = out.length ? 'invalid' : (!pub ? 'self-consistent-only' : (lock ? 'valid' : 'partial'));
    if (!out.length && pub && pub !== commitment) verdict = 'invalid';
    if (verdict !== 'invalid' && t && t.void) verdict = 'void';
    return { verdict, version: t && t.version, commitment, lock: computedLock, checked, unchecked, differences: out };
  };
  const m = t && t.manifest;
  const problem = t && (t.version === 2 || t.version === '2.1') ? manifestProblem(m) : 'not a version 2 or 2.1 transcript';
  if (problem) return out.push({ kind: 'manifest', message: problem }), done();
  checked.push(`the manifest: table ${JSON.stringify(m.table)}, ${m.game}, ${m.deck} deck, seats ${m.seats.join(', ')}, deals ${m.first}-${m.last}`);
  const seats = Array.isArray(t.seats) ? t.seats : [];
  if (seats.map((s) => s.name).join('\u0000') !== m.seats.join('\u0000')) return out.push({ kind: 'seats', message: "the seats are not the manifest's" }), done();
  computedLock = await checkLockAndPlayed({ ...t, seats }, m, lock, out, checked);
  if (t.void) return checkVoid(t, m, seats, published, out, checked, done);
  for (const [i, s] of seats.entries()) {
    if (typeof s.seed !== 'string') out.push({ kind: 'missing-reveal', message: `seat ${JSON.stringify(s.name)} did not reveal its seed: the table is void` });
    else if (await seatCommitment(m, i, s.seed) !== String(s.commitment).toLowerCase()) out.push({ kind: 'seat-commitment', message: `seat ${JSON.stringify(s.name)}'s seed does not match its commitment` });
  }
  checked.push(`${seats.length} seat seed(s) against their commitments`);
  if (out.some((d) => d.kind === 'missing-reveal')) return done();
  const room = await checkRoom(t, m, published, out, checked);
  if (!room) return done();
  const { secret, computed } = room;
  const seeds = seats.map((s) => s.seed);
  const deals = dealRange(m, t.deals, out);
  for (const d of deals) {
    const cards = durstenfeld(deckCards(m.deck), new WordStream(await dealKeyV2(m, secret, seeds, d.nonce)));
    compareDeal(m, cards, d, out);
  }
  checked.push(`${deals.length} deal(s): the whole range in order; every hand, community card, burn, kitty, the stock, the deck line, dealer and vulnerability`);
  return done(computed);
}

/** The secret against the transcript's commitment and the published one. */
async function checkRoom(t, m, published, out, checked) {
  if (!/^[0-9a-fA-F]{64}$/.test(t.server_secret ?? '')) return out.push({ kind: 'secret', message: 'the server secret is missing (not yet revealed) or not 64 hex digits' }), null;
  const secret = hexBytes(t.server_secret);
  const computed = await roomCommitment(m, secret);
  if (computed !== String(t.commitment).toLowerCase()) out.push({ kind: 'commitment', message: `the secret and the manifest give ${computed}, the transcript states ${t.commitment}` });
  if (published && computed !== String(published).trim().toLowerCase()) out.push({ kind: 'published-commitment', message: `the secret and the manifest give ${computed}, the one published before play is ${published}` });
  checked.push(published ? 'the room commitment against the secret, the manifest and the published commitment' : 'the room commitment against the secret and the manifest (not against a published one: none given)');
  return { secret, computed };
}

/** Section 8.7: a void record names the seats that failed and deals nothing. */
async function checkVoid(t, m, seats, published, out, checked, done) {
  const shown = await voidOf(m, seats);
  const said = t.void;
  const same = shown && shown.phase === said.phase && shown.seats.join('\u0000') === (said.seats || []).join('\u0000');
  if (!same) out.push({ kind: 'void', message: `the void record says ${JSON.stringify(said)}, the seats show ${JSON.stringify(shown)}` });
  if (said.phase === 'commit' && seats.some((s) => typeof s.seed === 'string')) out.push({ kind: 'void', message: 'a seed shown before every seat committed' });
  if ((t.deals || []).length || t.played) out.push({ kind: 'void', message: 'a void table deals nothing' });
  checked.push(`the void record: the ${said.phase} phase, seat(s) ${(said.seats || []).join(', ')}`);
  const room = await checkRoom(t, m, published, out, checked);
  return done(room && room.computed);
}
