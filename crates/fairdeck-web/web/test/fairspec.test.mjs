// The JavaScript fair-dealing verifier against docs/fair-dealing.md: every test vector of the
// specification (read from the markdown, so the test follows the document), the RFC 8439
// ChaCha20 block vectors, the bounded draw's rejection rule, tampered deals and bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as spec from '../js/fairspec.js';

const SPEC = fileURLToPath(new URL('../../../../docs/fair-dealing.md', import.meta.url));
const bytes = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));

/** The "### Vector N" sections of the spec: their fenced `name value` lines. */
function specVectors() {
  const text = readFileSync(SPEC, 'utf8');
  const sections = text.split(/^### Vector /m).slice(1);
  return sections.map((section) => {
    const block = /```\n([\s\S]*?)```/.exec(section)[1];
    const v = { title: section.split('\n')[0] };
    for (const line of block.split('\n').filter(Boolean)) {
      const m = /^(client seed|\w+)\s+(.*)$/.exec(line);
      v[m[1].replace(' ', '_')] = m[2];
    }
    v.client_seed = JSON.parse(v.client_seed);
    return v;
  });
}

const VECTORS = specVectors();

test('the specification holds at least three complete test vectors', () => {
  assert.ok(VECTORS.length >= 3, `found ${VECTORS.length}`);
  for (const v of VECTORS) {
    for (const field of ['secret', 'client_seed', 'nonce', 'deck', 'commitment', 'message', 'key', 'word0', 'cards']) {
      assert.ok(v[field] !== undefined, `vector ${v.title} lacks ${field}`);
    }
  }
});

for (const v of VECTORS) {
  test(`spec vector ${v.title}: every intermediate value and the deck`, async () => {
    assert.equal(await spec.commitment(v.secret), v.commitment);
    assert.equal(spec.toHex(spec.derivationMessage(v.client_seed, v.nonce)), v.message);
    const key = await spec.dealKey(v.secret, v.client_seed, v.nonce);
    assert.equal(spec.toHex(key), v.key);
    assert.equal(new spec.WordStream(key).next().toString(16).padStart(16, '0'), v.word0);
    const deck = await spec.shuffledDeck(v.secret, v.client_seed, v.nonce, v.deck);
    assert.equal(deck.join(' '), v.cards);
    const result = await spec.verify({
      commitment: v.commitment, serverSecret: v.secret, clientSeed: v.client_seed, nonce: v.nonce, deck: v.deck, deal: v.cards,
    });
    assert.deepEqual([result.valid, result.message, result.differences], [true, spec.VALID_DECK_LINE, []]);
  });
}

test("the spec's ChaCha20 check: all-zero key gives the stated w0", () => {
  const text = readFileSync(SPEC, 'utf8');
  const w0 = /all-zero key, `w0 = 0x([0-9a-f]{16})`/.exec(text)[1];
  assert.equal(new spec.WordStream(new Uint8Array(32)).next().toString(16).padStart(16, '0'), w0);
});

// RFC 8439 section 2.3.2 and appendix A.1 test vectors 1-5: [key, counter, nonce, block].
const RFC_8439 = [
  ['000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 1, '000000090000004a00000000',
    '10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e'],
  ['00'.repeat(32), 0, '00'.repeat(12),
    '76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586'],
  ['00'.repeat(32), 1, '00'.repeat(12),
    '9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f'],
  [`${'00'.repeat(31)}01`, 1, '00'.repeat(12),
    '3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0'],
  [`00ff${'00'.repeat(30)}`, 2, '00'.repeat(12),
    '72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096'],
  ['00'.repeat(32), 0, `${'00'.repeat(11)}02`,
    'c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c78a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d'],
];

test('ChaCha20 block function: RFC 8439 section 2.3.2 and appendix A.1 vectors', () => {
  for (const [key, counter, nonce, block] of RFC_8439) {
    assert.equal(spec.toHex(spec.chacha20Block(bytes(key), counter, bytes(nonce))), block, `key ${key} counter ${counter}`);
  }
});

test('the word stream crosses block boundaries in order (w8 is the first word of block 1)', () => {
  const stream = new spec.WordStream(new Uint8Array(32));
  const words = Array.from({ length: 9 }, () => stream.next());
  const block1 = spec.chacha20Block(new Uint8Array(32), 1);
  assert.equal(words[8], new DataView(block1.buffer).getBigUint64(0, true));
  assert.equal(stream.used, 9);
});

const fixed = (words) => ({ next: () => words.shift() ?? assert.fail('the draw used more words than given') });

test('bounded draw: the exact rejection rule of section 2.4', () => {
  // s = 3: threshold = 2^64 mod 3 = 1, so the word 0 (m mod 2^64 = 0) is rejected.
  const words = [0n, 1n << 63n];
  assert.equal(spec.boundedDraw(fixed(words), 3), 1); // 3 * 2^63 = 2^64 + 2^63 -> j = 1
  assert.equal(words.length, 0, 'the rejected word and the accepted one were both used');
  // s = 2^63 + 1: threshold = 2^63 - 1; x = 1 gives m = s >= threshold: accepted, j = 0.
  assert.equal(spec.boundedDraw(fixed([1n]), 2n ** 63n + 1n), 0);
  // The largest word gives the largest answer.
  assert.equal(spec.boundedDraw(fixed([2n ** 64n - 1n]), 52), 51);
  assert.equal(spec.boundedDraw(fixed([123n]), 1), 0);
  assert.throws(() => spec.boundedDraw(fixed([]), 0), /1 <= s < 2\^64/);
});

test('Durstenfeld draws j from [0, i] for i = n-1 down to 1', () => {
  // Every word is 2^63, so each draw from [0, s) answers floor(s / 2) and nothing is rejected:
  // i = 3 swaps with 2, i = 2 with 1, i = 1 with 1.
  let used = 0;
  const deck = spec.durstenfeld(['a', 'b', 'c', 'd'], { next: () => { used++; return 1n << 63n; } });
  assert.deepEqual(deck, ['a', 'd', 'b', 'c']);
  assert.equal(used, 3);
});

test('the unshuffled decks of section 2.6', () => {
  assert.equal(spec.deckCards('standard').slice(0, 3).join(' '), 'AH 2H 3H');
  assert.equal(spec.deckCards('standard').slice(-2).join(' '), 'QS KS');
  assert.deepEqual(spec.deckCards('jokers').slice(-2), ['RJ', 'BJ']);
  assert.equal(spec.deckCards('piquet').slice(0, 8).join(' '), 'AH 7H 8H 9H TH JH QH KH');
  assert.equal(spec.deckCards('italian').slice(0, 10).join(' '), 'AH 2H 3H 4H 5H 6H 7H JH QH KH');
  assert.equal(spec.deckCards('shoe:3').length, 156);
  assert.equal(spec.parseDeckKind('SHOE6'), 'shoe:6');
  assert.equal(spec.parseDeckKind('skat'), 'piquet');
  assert.ok(Math.abs(spec.entropyBits('standard') - 225.58) < 0.01);
});

const SECRET = VECTORS[0].secret;
const honest = () => spec.deal({ serverSecret: SECRET, clientSeed: 'alice', nonce: 0 });
const check = (claimed, extra = {}) => spec.verify({
  commitment: VECTORS[0].commitment, serverSecret: SECRET, clientSeed: 'alice', nonce: 0, deal: claimed, ...extra,
});

test('deal() has the shape of `fairdeck fair deal --format json`', async () => {
  const d = await honest();
  assert.deepEqual(Object.keys(d), ['commitment', 'client_seed', 'nonce', 'game', 'deck', 'cards', 'hands', 'stock', 'entropy_needed_bits', 'entropy_key_bits']);
  assert.deepEqual(d.hands.map((h) => h.name), ['North', 'East', 'South', 'West']);
  assert.deepEqual(d.hands[0].cards.slice(0, 2), [d.cards[0], d.cards[4]]);
  const holdem = await spec.deal({ serverSecret: SECRET, clientSeed: 'alice', nonce: 0, game: 'holdem', players: 3 });
  assert.deepEqual(holdem.hands.map((h) => h.cards.length), [2, 2, 2, 5, 3]);
  assert.equal(holdem.stock.length, 52 - 14);
  const skat = await spec.deal({ serverSecret: SECRET, clientSeed: 'alice', nonce: 0, game: 'skat' });
  assert.deepEqual(skat.hands.map((h) => h.cards.length), [10, 10, 10, 2]);
  assert.deepEqual(skat.hands[3].cards, skat.cards.slice(9, 11));
});

test('tampered deals: the first difference named as fairdeck fair verify names it', async () => {
  const cards = (await honest()).cards;
  const swapped = [...cards];
  [swapped[3], swapped[7]] = [swapped[7], swapped[3]];
  let r = await check(swapped);
  assert.equal(r.valid, false);
  assert.equal(r.mismatch, 'order');
  assert.match(r.message, /at 2 of 52 places, first at card 4: 9S where the derivation gives AC \(cards were moved after the deal\)/);
  assert.deepEqual(r.differences.slice(1), ['card 4: 9S where the derivation gives AC', 'card 8: AC where the derivation gives 9S']);

  r = await check([...cards.slice(0, 51), cards[0]]);
  assert.equal(r.mismatch, 'not-the-deck');
  assert.match(r.message, /shows 5D 2 times, the deck holds it 1 times/);

  r = await check(cards.slice(0, 51));
  assert.deepEqual([r.mismatch, r.message], ['card-count', 'invalid: the deal has 51 cards but a standard deck has 52']);

  r = await check(cards, { nonce: 1 });
  assert.equal(r.mismatch, 'order');
  assert.match(r.message, /wrong client seed, nonce or deck/);

  r = await check(cards, { serverSecret: 'ff'.repeat(32) });
  assert.equal(r.mismatch, 'commitment');
  assert.match(r.differences[0], /the server secret does not match the commitment: its SHA-256 is af9613760f72/);
});

test('a long list of differing places is capped at 60 lines and counts the rest', async () => {
  const shoe = await spec.shuffledDeck(SECRET, 'alice', 1, 'shoe:2');
  const r = await check(shoe, { deck: 'shoe:2', game: 'draw' });
  const places = Number(/at (\d+) of 104 places/.exec(r.message)[1]);
  assert.ok(places > 60, `${places}`);
  assert.equal(r.differences.length, 1 + 60 + 1);
  assert.equal(r.differences.at(-1), `… and ${places - 60} more places`);
});

test('a pasted JSON deal: a hand edited without its deck is named by hand and place', async () => {
  const d = await honest();
  d.hands[2].cards[5] = d.hands[1].cards[5];
  const pasted = JSON.stringify(d);
  const r = await check(spec.parseDealJson(pasted));
  assert.equal(r.valid, false);
  assert.equal(r.mismatch, 'hands');
  assert.deepEqual(r.differences, [`hand South, card 6: ${d.hands[1].cards[5]} where the derivation gives ${(await honest()).hands[2].cards[5]}`]);
  assert.equal((await check(JSON.parse(JSON.stringify(await honest())))).valid, true);
});

test('parseDealJson keeps a nonce above 2^53 exact and normalises cards', () => {
  const p = spec.parseDealJson('{"client_seed":"","nonce":18446744073709551615,"deck":"piquet","cards":["as","10h"]}');
  assert.equal(p.nonce, '18446744073709551615');
  assert.deepEqual(p.cards, ['AS', 'TH']);
});

test('parseDealText reads the deck, commitment, client seed and nonce lines of the text output', async () => {
  const text = `North  5♦ 7♣\ndeck: 5D QS 3C\ncommitment: ${VECTORS[0].commitment}\nclient seed: "a \\"quoted\\" seed", nonce: 18446744073709551615\nentropy: …`;
  const p = spec.parseDealText(text);
  assert.deepEqual([p.cards, p.commitment, p.clientSeed, p.nonce], [['5D', 'QS', '3C'], VECTORS[0].commitment, 'a "quoted" seed', '18446744073709551615']);
  assert.equal(spec.parseDealText('5D QS'), null);
  const r = await check(spec.parseDealText(`deck: ${(await honest()).cards.join(' ')}`));
  assert.equal(r.valid, true);
});

test('bad input: one clear error naming the field', async () => {
  const cases = [
    [() => spec.commitment('00'.repeat(31)), /server secret must be 64 hex digits, got 62 digits/],
    [() => spec.commitment(`${'0'.repeat(63)}g`), /server secret must be 64 hex digits, got a character that is not a hex digit/],
    [() => check([], { commitment: 'xyz' }), /commitment must be 64 hex digits/],
    [() => spec.dealKey(SECRET, 'a', -1), /nonce must be a whole number/],
    [() => spec.dealKey(SECRET, 'a', '18446744073709551616'), /nonce must be a whole number/],
    [() => spec.dealKey(SECRET, 'a', 2 ** 60), /pass large nonces as text/],
    [() => check('AS KS 1S'), /unknown card "1S"/],
    [() => check('AS', { deck: 'tarot' }), /unknown deck "tarot"/],
    [() => check('AS', { deck: 'shoe:0' }), /a shoe holds 1 to 1000 decks/],
    [() => check('AS', { game: 'go' }), /unknown game "go"/],
    [() => spec.deal({ serverSecret: SECRET, clientSeed: 'a', nonce: 0, game: 'holdem', players: 23 }), /holdem is played by 2 to 22 players, not 23/],
    [() => spec.deal({ serverSecret: SECRET, clientSeed: 'a', nonce: 0, deck: 'piquet' }), /the deal needs 52 cards but the deck holds only 32/],
    [() => spec.parseDealJson('{"cards": [}'), /the deal is not valid JSON/],
    [() => spec.parseDealJson('{"hands": []}'), /has no "cards" list/],
    [() => spec.parseDealJson('[1]'), /must be an object/],
  ];
  for (const [call, message] of cases) {
    await assert.rejects(async () => call(), message);
  }
});
