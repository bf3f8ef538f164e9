// The browser's version 2 verifier (js/fairspec-v2.js) against every version 2 vector of
// docs/fair-dealing.md (section 12), and each tamper class named by its kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as v2 from '../js/fairspec-v2.js';
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
  assert.ok((await kinds(t, (x) => { delete x.played; })).includes('played'));
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
