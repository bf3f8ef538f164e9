// The browser's version 2 verifier (js/fairspec-v2.js) against every version 2 vector of
// docs/fair-dealing.md (section 12), and each tamper class named by its kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as v2 from '../js/fairspec-v2.js';
import { parseStrict, textProblem } from '../js/fairspec-json.js';
import { WordStream, toHex } from '../js/fairspec.js';

const SPEC = fileURLToPath(new URL('../../../../docs/fair-dealing.md', import.meta.url));
const VECTORS = [...readFileSync(SPEC, 'utf8').matchAll(/```json\n([\s\S]*?)```/g)]
  .map((m) => JSON.parse(m[1]))
  .filter((v) => v.transcript);
const bytes = (hex) => Uint8Array.from(hex.match(/../g), (b) => parseInt(b, 16));

test('the specification holds 8 version 2, 2 version 2.1 and 2 void vectors', () => {
  assert.equal(VECTORS.filter((v) => v.transcript.version === 2).length, 8);
  assert.equal(VECTORS.filter((v) => v.transcript.version === '2.1' && !v.transcript.void).length, 2);
  assert.equal(VECTORS.filter((v) => v.transcript.void).length, 2);
});

for (const v of VECTORS) {
  test(`v2 vector ${v.vector}: intermediate values, every deal, the verdicts`, async () => {
    const t = v.transcript;
    const m = t.manifest;
    assert.equal(toHex(v2.manifestBytes(m)), v.manifest_bytes);
    if (v.first_message) {
      const seeds = t.seats.map((s) => s.seed);
      assert.equal(toHex(v2.dealMessage(m, seeds, m.first)), v.first_message);
      const key = await v2.dealKeyV2(m, bytes(t.server_secret), seeds, m.first);
      assert.equal(toHex(key), v.first_key);
      assert.equal(new WordStream(key).next().toString(16).padStart(16, '0'), v.first_word0);
    }
    const commitments = t.seats.map((s) => s.commitment);
    const lock = await v2.seatLock(m, t.commitment, commitments);
    if (v.lock) {
      assert.equal(toHex(v2.lockMessage(m, t.commitment, commitments)), v.lock_message);
      assert.equal(lock, v.lock);
    }
    const expect = t.void ? 'void' : 'valid';
    const checked = await v2.verifyTranscript(t, t.commitment, lock ?? undefined);
    assert.deepEqual([checked.verdict, checked.differences], [t.void && !lock ? 'void' : expect, []]);
    // Never "valid" without the lock recorded before the reveals, nor without the commitment.
    if (!t.void) assert.equal((await v2.verifyTranscript(t, t.commitment)).verdict, 'partial');
    if (!t.void) assert.equal((await v2.verifyTranscript(JSON.stringify(t))).verdict, 'self-consistent-only');
  });
}

test('a commitment replaced after the lock (F1), a bad lock, a wrong void record', async () => {
  const locked = VECTORS.find((v) => v.vector === "hold'em, 2 seats, version 2.1");
  const t = locked.transcript;
  // bo's seed and commitment replaced after the lock: everything else agrees.
  const m = t.manifest;
  const ground = structuredClone(t);
  ground.seats[1].seed = 'another seed for bo';
  ground.seats[1].commitment = await v2.seatCommitment(m, 1, 'another seed for bo');
  ground.lock = await v2.seatLock(m, t.commitment, ground.seats.map((s) => s.commitment));
  const r = await v2.verifyTranscript(ground, t.commitment, locked.lock);
  assert.ok(r.differences.map((d) => d.kind).includes('published-lock'));
  assert.equal((await v2.verifyTranscript(t, t.commitment, locked.lock)).verdict, 'valid');
  assert.ok((await kinds(t, (x) => { x.lock = '0'.repeat(64); })).includes('lock'));
  assert.ok((await kinds(t, (x) => { x.played = 5; })).includes('played'));
  // A 2.1 transcript without `played` breaks the reading rules (section 10.1).
  assert.ok((await kinds(t, (x) => { delete x.played; })).includes('document'));
  const voidCommit = VECTORS.find((v) => v.vector === 'void at the commit phase').transcript;
  assert.ok((await kinds(voidCommit, (x) => { x.void.seats = ['ann']; })).includes('void'));
  assert.ok((await kinds(voidCommit, (x) => { x.void.phase = 'reveal'; })).includes('void'));
});

/** The kinds found after `edit`, checked against the published commitment. */
async function kinds(t, edit) {
  const x = structuredClone(t);
  edit(x);
  const r = await v2.verifyTranscript(x, t.commitment);
  assert.equal(r.verdict, 'invalid');
  return r.differences.map((d) => d.kind);
}

test('each tamper class is caught with its kind', async () => {
  const holdem = VECTORS.find((v) => v.vector === "hold'em, 9 seats").transcript;
  const session = VECTORS.find((v) => v.vector.includes('32-board')).transcript;
  const swapHands = (x) => {
    const p = x.deals[0].piles;
    [p[0].cards[0], p[1].cards[0]] = [p[1].cards[0], p[0].cards[0]];
  };
  assert.ok((await kinds(holdem, swapHands)).includes('hand'));
  assert.ok((await kinds(holdem, (x) => { x.deals[0].piles[9].cards.reverse(); })).includes('community'));
  assert.ok((await kinds(holdem, (x) => { x.manifest.table += '!'; })).includes('published-commitment'));
  assert.ok((await kinds(holdem, (x) => { x.seats[4].seed += '!'; })).includes('seat-commitment'));
  assert.ok((await kinds(holdem, (x) => { x.seats[4].seed = null; })).includes('missing-reveal'));
  assert.ok((await kinds(session, (x) => { x.deals.splice(5, 1); })).includes('missing-deal'));
  assert.ok((await kinds(session, (x) => { x.deals.push(x.deals[3]); })).includes('duplicate-deal'));
  assert.ok((await kinds(session, (x) => { [x.deals[2], x.deals[3]] = [x.deals[3], x.deals[2]]; })).includes('deal-order'));
  assert.ok((await kinds(session, (x) => { x.deals[7].dealer = 'N'; })).includes('dealer'));
  // A transcript whose own commitment was rewritten is caught against the published one.
  const forged = await v2.verifyTranscript({ ...holdem, commitment: '0'.repeat(64) }, holdem.commitment);
  assert.deepEqual(forged.differences.map((d) => d.kind), ['commitment']);
});

/** JSON text of `value` with BigInts written as their digits (JSON.stringify refuses them). */
const toJson = (value) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `#big#${v}#` : v)).replace(/"#big#(\d+)#"/g, '$1');

/** A whole version 2.1 hold'em transcript of the deals first..last, built from the spec's steps. */
async function table(first, last) {
  const m = { version: 2, table: 'big numbers', game: 'holdem', deck: 'standard', seats: ['ann', 'bo'], first, last };
  const secret = bytes('07'.repeat(32));
  const seeds = ['a', 'b'];
  const commitment = await v2.roomCommitment(m, secret);
  const seats = await Promise.all(seeds.map(async (seed, i) => ({ name: m.seats[i], commitment: await v2.seatCommitment(m, i, seed), seed })));
  const lock = await v2.seatLock(m, commitment, seats.map((s) => s.commitment));
  const deals = [];
  for (let n = BigInt(first); n <= BigInt(last); n++) {
    const { durstenfeld, deckCards } = await import('../js/fairspec.js');
    const cards = durstenfeld(deckCards('standard'), new WordStream(await v2.dealKeyV2(m, secret, seeds, n)));
    deals.push({ nonce: n, ...v2.layOut(m, cards), deck: cards });
  }
  const t = { version: '2.1', manifest: m, commitment, seats, lock, server_secret: '07'.repeat(32), played: 0, deals };
  return { text: toJson(t), commitment, lock };
}

test('deal numbers at 2^53 - 1, 2^53, 2^53 + 1 and 2^64 - 1 are read and counted exactly', { timeout: 30000 }, async () => {
  // Issue 32 item 15: JSON.parse rounded these and a JS number stops counting at 2^53, which hung
  // the tab. Each range must verify valid, quickly, with every digit kept.
  for (const [first, last] of [[9007199254740991n, 9007199254740992n], [9007199254740992n, 9007199254740993n], [18446744073709551614n, 18446744073709551615n]]) {
    const { text, commitment, lock } = await table(first, last);
    assert.ok(text.includes(`"nonce":${last}`), text.slice(0, 200));
    const started = Date.now();
    const r = await v2.verifyTranscript(text, commitment, lock);
    assert.ok(Date.now() - started < 5000);
    assert.deepEqual([r.verdict, r.differences], ['valid', []], `${first}-${last}`);
    // One more digit than a u64 holds is not a deal number.
    const over = text.replace(`"last":${last}`, `"last":${last + 1n}`);
    if (last === 18446744073709551615n) assert.equal((await v2.verifyTranscript(over, commitment, lock)).differences[0].kind, 'document');
  }
  const exact = parseStrict('[9007199254740993, 18446744073709551615]');
  assert.deepEqual(exact, [9007199254740993n, 18446744073709551615n]);
});

test('strict reading: duplicate keys, unknown fields, upper-case hex and loose card spellings are kind document', async () => {
  const v = VECTORS.find((x) => x.vector === "hold'em, 2 seats");
  const text = JSON.stringify(v.transcript);
  const c = v.transcript.commitment;
  assert.equal((await v2.verifyTranscript(text, c)).verdict, 'partial');
  const edits = [
    ['"seed":"b"', '"seed":"x","seed":"b"', 'twice'],
    ['"first":0', '"first":5,"first":0', 'twice'],
    ['"deals"', '"note":1,"deals"', 'unknown field'],
    [`"${c}"`, `"${c.toUpperCase()}"`, 'lowercase'],
    ['["9D","3D"]', '[" 9D","3D"]', 'not a card'],
    ['["9D","3D"]', '["3d ","3D"]', 'not a card'],
    ['["9D","3D"]', '["9\u2666","3D"]', 'not a card'],
    ['"nonce":0', '"nonce":0.0', 'integer'],
    ['"seed":"a"', '"seed":"a\\u200b"', 'U+200B'],
  ];
  for (const [from, to, says] of edits) {
    assert.ok(text.includes(from), from);
    const r = await v2.verifyTranscript(text.replace(from, to), c);
    assert.equal(r.verdict, 'invalid', to);
    assert.equal(r.differences[0].kind, 'document', to);
    assert.ok(r.differences[0].message.includes(says), r.differences[0].message);
  }
  const dup = await v2.verifyTranscript(text.replace('["9D","3D"]', '["9D","9D"]'), c);
  assert.equal(dup.differences[0].kind, 'hand');
  for (const [from, to] of [['["ann","bo"]', '["ann","Board"]'], ['["ann","bo"]', '["ann","bo\\u202e"]'], ['["ann","bo"]', '["ann","Zoe\\u0308"]']]) {
    assert.equal((await v2.verifyTranscript(text.replace(from, to), c)).differences[0].kind, 'manifest', to);
  }
  assert.equal(textProblem('Zo\u00eb'), null);
});
