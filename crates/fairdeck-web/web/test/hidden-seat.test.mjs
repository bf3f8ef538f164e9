// The browser seat (js/hidden/seat.js over the wasm build of fairdeck-hidden) in node: the key
// vectors of docs/hidden-dealing.md §13 reproduced byte for byte, a 52-card shuffle proved and
// verified (timed: a benchmark print, not an assertion), key files round-tripped, and bad
// input to every operation and to the raw ABI answered with one line, never a trap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { newSeat, skipWasm, specBlock, WASM } from './support/seat.mjs';

const SEVEN = new Uint8Array(32).fill(7);
const emptyTable = (manifest) => JSON.stringify({ version: 3, manifest, keys: [], hands: [] });
const manifestOf = (table, seats) => ({ version: 3, table, game: 'holdem', deck: 'standard', seats, first: 1, last: 1 });

test('the key vectors of §13 come out of the wasm seat byte for byte', { skip: skipWasm }, async () => {
  // §13: one ChaCha20 generator keyed with 32 bytes 0x07 draws sk_0, sk_1, then the two key proofs.
  const run = async (seed) => {
    const seat = await newSeat(seed);
    const k = [await seat.keyNew(), await seat.keyNew()];
    const first = await seat.keyMessage(k[0], emptyTable(JSON.parse(specBlock('Manifest'))), 0);
    const second = await seat.keyMessage(k[1], first.transcript, 1);
    const sk = [(await seat.keyExport(k[0])).secret_key, (await seat.keyExport(k[1])).secret_key];
    return { messages: [first.message, second.message], sk };
  };
  const got = await run(SEVEN);
  assert.equal(JSON.stringify(got.messages[0], null, 2), specBlock('Key message of seat 0'));
  assert.equal(JSON.stringify(got.messages[1], null, 2), specBlock('Key message of seat 1'));
  const keys = specBlock('Seat keys (sk drawn first, then the two key proofs)');
  assert.match(keys, new RegExp(`^sk_0 +${got.sk[0]}$`, 'm'));
  assert.match(keys, new RegExp(`^sk_1 +${got.sk[1]}$`, 'm'));
  // Negative control: another seed gives other keys, so the comparison above can fail.
  const other = await run(new Uint8Array(32).fill(8));
  assert.notEqual(JSON.stringify(other.messages[0], null, 2), specBlock('Key message of seat 0'));
});

/** Median of `runs` timings of `work`: wall and CPU milliseconds (the module is one thread). */
async function timed(runs, work) {
  const wall = [];
  const cpu = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = await work();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return { wall: median(wall), cpu: median(cpu), last };
}

test('a 52-card shuffle proved and verified in wasm (benchmark print)', { skip: skipWasm }, async () => {
  const seats = [await newSeat(), await newSeat()];
  const keys = [await seats[0].keyNew(), await seats[1].keyNew()];
  let transcript = emptyTable(manifestOf('bench', ['ann', 'bob']));
  for (const j of [0, 1]) ({ transcript } = await seats[j].keyMessage(keys[j], transcript, j));
  // The shuffle step also reads the transcript and checks the two key proofs (small next to
  // the shuffle); the verification checks the key proofs and the shuffle proof.
  const prove = await timed(5, () => seats[0].shuffle(keys[0], transcript));
  assert.equal(prove.last.message.deck.length, 52);
  const verify = await timed(5, () => seats[1].verify(prove.last.transcript, { inProgress: true }));
  assert.equal(verify.last.valid, true, verify.last.summary);
  assert.equal(verify.last.verdict.hands[0].shuffles_verified, 1);
  const ms = (t) => `${t.wall.toFixed(1)} ms wall / ${t.cpu.toFixed(1)} ms CPU`;
  console.log(`bench: node ${process.version} wasm, 52 cards, median of 5: shuffle+prove ${ms(prove)}, verify ${ms(verify)}`);
});

test('a key file exported from one seat is read by another; foreign keys are refused', { skip: skipWasm }, async () => {
  const a = await newSeat();
  const key = await a.keyNew();
  await assert.rejects(a.keyExport(key), /^Error: key: a key is exported once it is published/);
  const { transcript } = await a.keyMessage(key, emptyTable(manifestOf('export', ['ann', 'bob'])), 0);
  const file = await a.keyExport(key);
  assert.deepEqual(Object.keys(file), ['table', 'seat', 'secret_key']);
  const b = await newSeat();
  const again = await b.keyImport(file);
  assert.deepEqual(await b.keyExport(again), file);
  // The imported key is seat 0's of this table: it may not publish again, nor act at another table.
  await assert.rejects(b.keyMessage(again, transcript, 1), /already seat 0's key of table "export"/);
  const other = emptyTable(manifestOf('elsewhere', ['ann', 'bob']));
  await assert.rejects(b.shuffle(again, other), /^Error: key: the key of table "export", not "elsewhere"$/);
  await a.keyForget(key);
  await assert.rejects(a.keyExport(key), /^Error: key: no key 0 in this seat$/);
});

/** Each operation with bad input, and the start of the one-line error it must give. */
function badCalls(transcript, published, unpublished) {
  const noKeys = emptyTable(manifestOf('bad', ['ann', 'bob']));
  return [
    [{ op: 'nonsense' }, /^request: unknown variant `nonsense`/],
    [{}, /^request: missing field `op`/],
    [{ op: 'key_new', extra: 1 }, /^request: unknown field `extra`/],
    [{ op: 'key_message', key: 0, seat: 0 }, /^request: missing field `transcript`/],
    [{ op: 'key_message', key: -1, seat: 0, transcript: noKeys }, /^request: invalid value: integer `-1`/],
    [{ op: 'key_message', key: 99, seat: 0, transcript: noKeys }, /^key: no key 99 in this seat$/],
    [{ op: 'key_message', key: unpublished, seat: 5, transcript: noKeys }, /^seat: 5 is not a seat of the manifest$/],
    [{ op: 'key_message', key: unpublished, seat: 1, transcript: noKeys }, /^key: keys are published in seat order: seat 0 is next$/],
    [{ op: 'key_message', key: unpublished, seat: 0, transcript: '{"version":3' }, /^transcript: document: not exactly one JSON document .*EOF while parsing/],
    [{ op: 'key_message', key: unpublished, seat: 0, transcript: noKeys.replace('"version":3,"manifest":{"version":3', '"version":3,"manifest":{"version":2') }, /^transcript: manifest: version 2 is not 3$/],
    [{ op: 'key_export', key: 'zero' }, /^request: invalid type: string "zero", expected u32/],
    [{ op: 'key_import', file: 'not json' }, /^key file: not a secret key file of `fairdeck hidden key`/],
    [{ op: 'key_import', file: JSON.stringify({ table: 't', seat: 0, secret_key: '00'.repeat(32) }) }, /^key file: scalar-encoding/],
    [{ op: 'key_import', file: JSON.stringify({ table: 't', seat: 0, secret_key: 'ff'.repeat(32) }) }, /^key file: scalar-encoding/],
    [{ op: 'key_import', file: JSON.stringify({ table: 't', seat: 0, secret_key: 'AB'.repeat(32) }) }, /^key file: not a secret key file.*hex/],
    [{ op: 'key_forget', key: 4294967295 }, /^key: no key 4294967295 in this seat$/],
    [{ op: 'shuffle', key: unpublished, transcript }, /^key: this key is not published yet/],
    [{ op: 'shuffle', key: published, transcript: noKeys }, /^key: the key of table "seat-bad", not "bad"$/],
    [{ op: 'shuffle', key: published, transcript, hand: 7 }, /^hand: 7 is outside the manifest's range$/],
    [{ op: 'shuffle', key: published, transcript: transcript.replace(/"public_key": "[0-9a-f]+"/, `"public_key": "${'e2'.repeat(32)}"`) }, /^wrong-key: the secret key is not seat 0's$/],
    [{ op: 'share', key: published, transcript, street: 'deal' }, /^unexpected-message: hand 1 is not dealt yet/],
    [{ op: 'share', key: published, transcript, street: 'preflop' }, /^street: "preflop": this game's stages are deal, flop, turn, river$/],
    [{ op: 'share', key: published, transcript, street: 7 }, /^request: invalid type: integer `7`, expected a string/],
    [{ op: 'open', key: published, transcript, hand: 1 }, /^unexpected-message: hand 1 is not dealt yet/],
    [{ op: 'cards', key: published, transcript, hand: 2 }, /^hand: 2 is not in the transcript$/],
    [{ op: 'cards', key: published, transcript: 'x'.repeat(100) }, /^transcript: document: not exactly one JSON document .*expected value/],
    [{ op: 'attest', key: unpublished, transcript }, /^key: this key is not published yet/],
    [{ op: 'verify' }, /^request: missing field `transcript`/],
    [{ op: 'verify', transcript: '{}', in_progress: 'yes' }, /^request: invalid type: string "yes", expected a boolean/],
  ];
}

test('bad input to every operation is one line of error, and the seat goes on', { skip: skipWasm }, async () => {
  const seat = await newSeat();
  const published = await seat.keyNew();
  const unpublished = await seat.keyNew();
  const start = emptyTable(manifestOf('seat-bad', ['ann', 'bob']));
  let { transcript } = await seat.keyMessage(published, start, 0);
  const other = await newSeat();
  ({ transcript } = await other.keyMessage(await other.keyNew(), transcript, 1));
  const ops = new Set();
  for (const [request, expected] of badCalls(transcript, published, unpublished)) {
    ops.add(request.op);
    let error = null;
    try {
      seat.call(request);
    } catch (e) {
      error = e;
    }
    assert.ok(error, `no error for ${JSON.stringify(request).slice(0, 200)}`);
    assert.doesNotMatch(error.message, /[\n\r]/);
    assert.match(error.message, expected, JSON.stringify(request).slice(0, 200));
  }
  for (const op of ['key_new', 'key_message', 'key_export', 'key_import', 'key_forget', 'shuffle', 'share', 'open', 'cards', 'verify', 'attest']) {
    assert.ok(ops.has(op), `no bad-input case for ${op}`);
  }
  // An unreadable transcript is a verdict, not an error: `document`, as fair verify says.
  const v = await seat.verify('[1,2');
  assert.deepEqual([v.valid, v.verdict.differences.map((d) => d.kind)], [false, ['document']]);
  // A version-3 transcript has no log to attest: the answer is null.
  assert.equal(await seat.attest(published, transcript), null);
  // Still working after all that: the next shuffle succeeds.
  const { message } = await seat.shuffle(published, transcript);
  assert.equal(message.seat, 0);
});

test('the raw ABI: bytes that are not JSON or UTF-8, and no seed, are one-line errors', { skip: skipWasm }, async () => {
  const { instance } = await WebAssembly.instantiate(readFileSync(WASM), {});
  const abi = instance.exports;
  const call = (bytes) => {
    const ptr = abi.fd_alloc(bytes.length);
    new Uint8Array(abi.memory.buffer, ptr, bytes.length).set(bytes);
    const out = abi.fd_call(ptr, bytes.length);
    abi.fd_free(ptr, bytes.length);
    const len = new DataView(abi.memory.buffer).getUint32(out, true);
    const answer = JSON.parse(new TextDecoder().decode(new Uint8Array(abi.memory.buffer, out + 4, len)));
    abi.fd_free(out, len + 4);
    return answer;
  };
  const cases = [
    [new Uint8Array([]), /^request: EOF while parsing/],
    [new Uint8Array([0xff, 0xfe, 0x00]), /^request: expected value/],
    [new TextEncoder().encode('{"op":"key_new"'), /^request: EOF while parsing/],
    [new TextEncoder().encode('{"op":"key_new","op":"key_new"}'), /^request: duplicate field `op`/],
    [new TextEncoder().encode('{"op":"key_new"}'), /^seed: the seat's generator is not keyed yet/],
  ];
  for (const [bytes, expected] of cases) {
    const answer = call(bytes);
    assert.match(answer.error, expected);
    assert.doesNotMatch(answer.error, /\n/);
  }
  for (let i = 0; i < 200; i++) {
    const answer = call(crypto.getRandomValues(new Uint8Array(1 + (i % 64))));
    assert.equal(typeof answer.error, 'string');
  }
});

test('a build without the seat module says what is missing; a seed must be 32 bytes', async () => {
  const { loadSeat } = await import('../js/hidden/seat.js');
  const gone = new Response('{"error":"no such page or file: /js/hidden/seat.wasm"}', { status: 404 });
  await assert.rejects(loadSeat({ source: gone }), /built without the browser seat.*rustup target add wasm32-unknown-unknown/);
  await assert.rejects(loadSeat({ source: new Response('', { status: 500 }) }), /cannot load the browser seat: HTTP 500/);
  await assert.rejects(loadSeat({ source: new Uint8Array([1, 2, 3]) }), WebAssembly.CompileError);
  if (skipWasm) return;
  await assert.rejects(newSeat(new Uint8Array(31)), /^Error: seed: expected 32 bytes$/);
});
