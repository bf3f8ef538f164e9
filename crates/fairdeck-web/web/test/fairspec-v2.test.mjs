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

test('the specification holds the eight version 2 vectors', () => {
  assert.equal(VECTORS.length, 8);
});

for (const v of VECTORS) {
  test(`v2 vector ${v.vector}: intermediate values, every deal, the verdicts`, async () => {
    const t = v.transcript;
    const m = t.manifest;
    assert.equal(toHex(v2.manifestBytes(m)), v.manifest_bytes);
    const seeds = t.seats.map((s) => s.seed);
    assert.equal(toHex(v2.dealMessage(m, seeds, m.first)), v.first_message);
    const key = await v2.dealKeyV2(m, bytes(t.server_secret), seeds, m.first);
    assert.equal(toHex(key), v.first_key);
    assert.equal(new WordStream(key).next().toString(16).padStart(16, '0'), v.first_word0);
    const checked = await v2.verifyTranscript(t, t.commitment);
    assert.deepEqual([checked.verdict, checked.differences], ['valid', []]);
    // Never "valid" without the commitment published before play.
    assert.equal((await v2.verifyTranscript(JSON.stringify(t))).verdict, 'self-consistent-only');
  });
}

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
