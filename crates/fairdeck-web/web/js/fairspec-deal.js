// A version 1 deal document — what `fairdeck fair deal --format json` prints — checked as
// `fairdeck fair verify DEAL.json --server-secret S --commitment C` checks it
// (docs/fair-dealing.md sections 3, 10.1 and 11): read strictly, the deal's own commitment and
// the published one against the secret, then every hand and kitty as a set of cards, the
// community cards, burns, the stock and the deck line card by card, each difference named by
// its kind. Same checks, same kinds, same verdicts as the CLI. No dependencies.

import { DocumentError, parseStrict } from './fairspec-json.js';
import { commitment, dealHands, dealPlan, parseDeckKind, parseGame, parseHex32, shuffledDeck, toHex } from './fairspec.js';

const fail = (why) => { throw new DocumentError(why); };
const CARD = /^(?:[A2-9TJQK][HDCS]|RJ|BJ)$/;
const REQUIRED = ['commitment', 'client_seed', 'nonce', 'game', 'deck', 'cards', 'hands', 'stock'];
const OPTIONAL = ['entropy_needed_bits', 'entropy_key_bits'];

function cardList(v, path) {
  if (!Array.isArray(v)) fail(`${path}: an array was expected`);
  v.forEach((c, i) => (typeof c === 'string' && CARD.test(c)) || fail(`${path}[${i}]: ${JSON.stringify(c)} is not a card as the specification writes it`));
  return v;
}

/** Section 10.1 for a version 1 deal: throws a DocumentError naming the broken rule. */
export function checkDealForm(d) {
  if (!d || typeof d !== 'object' || Array.isArray(d)) fail('the deal is not a JSON object');
  for (const k of Object.keys(d)) if (!REQUIRED.includes(k) && !OPTIONAL.includes(k)) fail(`the deal: unknown field ${JSON.stringify(k)}`);
  for (const k of REQUIRED) if (!(k in d)) fail(`the deal: the field ${JSON.stringify(k)} is missing`);
  if (typeof d.commitment !== 'string' || !/^[0-9a-f]{64}$/.test(d.commitment)) fail(`commitment: ${JSON.stringify(d.commitment)} is not 64 lowercase hex digits`);
  for (const f of ['client_seed', 'game', 'deck']) if (typeof d[f] !== 'string') fail(`${f}: a string was expected`);
  const n = d.nonce;
  if (!((typeof n === 'number' && Number.isInteger(n) && n >= 0) || (typeof n === 'bigint' && n >= 0n && n < (1n << 64n)))) fail('nonce: an integer from 0 to 2^64-1 was expected');
  for (const f of OPTIONAL) if (f in d && typeof d[f] !== 'number' && !(d[f] && d[f].isFraction)) fail(`${f}: a number was expected`);
  cardList(d.cards, 'cards');
  if (!Array.isArray(d.hands)) fail('hands: an array was expected');
  d.hands.forEach((h, i) => {
    if (!h || typeof h !== 'object' || Array.isArray(h)) fail(`hands[${i}]: an object was expected`);
    for (const k of Object.keys(h)) if (k !== 'name' && k !== 'cards') fail(`hands[${i}]: unknown field ${JSON.stringify(k)}`);
    if (typeof h.name !== 'string') fail(`hands[${i}].name: a string was expected`);
    cardList(h.cards, `hands[${i}].cards`);
  });
  cardList(d.stock, 'stock');
}

/** What differs between two card lists (as multisets when `asSet`, else card by card), or null. */
function cardsDiffer(want, have, asSet) {
  const sorted = (c) => [...c].sort().join(' ');
  if (sorted(want) !== sorted(have)) return `has ${have.join(' ') || 'none'}, the derivation gives ${want.join(' ') || 'none'}`;
  if (!asSet && want.join(' ') !== have.join(' ')) {
    const i = want.findIndex((c, k) => c !== have[k]);
    return `the right cards in another order: place ${i + 1} holds ${have[i]} where the derivation gives ${want[i]}`;
  }
  return null;
}

const ROLE = { Board: 'board', Table: 'board', Burn: 'burn', Skat: 'kitty' };
const KIND = { player: 'hand', kitty: 'kitty', burn: 'burn', board: 'community' };

/** The game's plan whose piles are as many as the document's hands (as the CLI finds it). */
function planFor(game, count) {
  for (let p = 1; p <= 22; p++) {
    let plan;
    try { plan = dealPlan(game, p); } catch { continue; }
    if (plan.piles.length === count) return plan;
  }
  throw new Error(`${count} hands is no ${game} deal`);
}

/**
 * Checks a version 1 deal document (JSON text). `published` is the commitment typed by the
 * player (never the document's own), `serverSecret` the revealed secret, both hex.
 * Returns { verdict: 'valid' | 'self-consistent-only' | 'invalid', version: 1, commitment,
 * checked, differences: [{ kind, message }] }. Throws an Error for a malformed secret or
 * published commitment (the CLI's usage errors).
 */
export async function verifyDealDocument(text, { published, serverSecret }) {
  const pub = published && String(published).trim() ? toHex(parseHex32(published, 'commitment')) : null;
  parseHex32(serverSecret, 'server secret');
  let d;
  try {
    d = parseStrict(text);
    checkDealForm(d);
  } catch (e) {
    if (!(e instanceof DocumentError)) throw e;
    return { verdict: 'invalid', version: 1, commitment: null, checked: ['the document\'s form (refused: nothing else was checked)'], differences: [{ kind: 'document', message: `the document breaks the reading rules (section 10.1): ${e.message}` }] };
  }
  const game = parseGame(d.game);
  const kind = parseDeckKind(d.deck);
  const plan = planFor(game, d.hands.length);
  const deck = await shuffledDeck(serverSecret, d.client_seed, BigInt(d.nonce), kind);
  const dealt = dealHands(plan, deck);
  const computed = await commitment(serverSecret);
  const out = [];
  if (d.commitment !== computed) out.push({ kind: 'commitment', message: `SHA-256 of the secret is ${computed}, the deal states ${JSON.stringify(d.commitment)}` });
  if (pub && pub !== computed) out.push({ kind: 'published-commitment', message: `SHA-256 of the secret is ${computed}, the one published before play is ${pub}` });
  const n = d.nonce;
  const names = (hs) => hs.map((h) => h.name).join('\u0000');
  if (names(dealt.hands) !== names(d.hands)) out.push({ kind: 'piles', message: `deal ${n}: the piles ${d.hands.map((h) => h.name).join(', ')} are not the layout's ${dealt.hands.map((h) => h.name).join(', ')}` });
  else {
    dealt.hands.forEach((want, i) => {
      const role = ROLE[want.name] ?? 'player';
      const why = cardsDiffer(want.cards, d.hands[i].cards, role === 'player' || role === 'kitty');
      if (why) out.push({ kind: KIND[role], message: `deal ${n}, ${want.name}: ${why}` });
    });
  }
  const stockWhy = cardsDiffer(dealt.stock, d.stock, false);
  if (stockWhy) out.push({ kind: 'stock', message: `deal ${n}: ${stockWhy}` });
  const deckWhy = cardsDiffer(deck, d.cards, false);
  if (deckWhy) out.push({ kind: 'deck', message: `deal ${n}: ${deckWhy}` });
  const checked = ['the secret against the commitment (version 1: SHA-256 of the secret)',
    `deal ${n} of client seed ${JSON.stringify(d.client_seed)} (${d.game}, ${d.deck} deck): every hand, the community cards and burns, the stock and the deck line`];
  const verdict = out.length ? 'invalid' : (pub ? 'valid' : 'self-consistent-only');
  return { verdict, version: 1, commitment: computed, checked, differences: out };
}
