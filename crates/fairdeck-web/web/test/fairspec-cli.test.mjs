// Cross-check: the JavaScript verifier against the Rust CLI on random cases drawn at test
// time (fresh each run; a failure message prints the inputs to replay it). Runs when a built
// `fairdeck` binary exists ($FAIRDECK_BIN, or target/debug or target/release, the newer one);
// otherwise each test is skipped and counted as skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as spec from '../js/fairspec.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

function findBinary() {
  if (process.env.FAIRDECK_BIN) return process.env.FAIRDECK_BIN;
  const built = ['target/debug/fairdeck', 'target/release/fairdeck'].map((p) => ROOT + p).filter((p) => existsSync(p));
  return built.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

const BIN = findBinary();
const skip = BIN ? false : 'no fairdeck binary (build it with cargo build, or set FAIRDECK_BIN)';
const CASES = 24;

/** Runs the CLI; returns [exit status, parsed JSON stdout]. */
function cli(args) {
  try {
    return [0, JSON.parse(execFileSync(BIN, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }))];
  } catch (e) {
    if (typeof e.status !== 'number') throw e;
    return [e.status, e.stdout ? JSON.parse(e.stdout) : null];
  }
}

const randomBytes = (n) => crypto.getRandomValues(new Uint8Array(n));
const randomInt = (n) => crypto.getRandomValues(new Uint32Array(1))[0] % n; // small n: bias irrelevant for test inputs
const SEEDS = ['', 'alice', 'Bob 2026-11-23', 'ünïcödé ♠♥', '🂡🃏 emoji', 'a,b c', '-starts-with-dash'];
const GAMES = [['bridge', null, null], ['holdem', null, 9], ['draw', null, 3], ['skat', null, null], ['scopa', null, 4],
  ['bridge', 'jokers', null], ['draw', 'shoe:2', 6], ['skat', 'jokers', null]];

/** One random case: inputs for both implementations. */
function randomCase() {
  const [game, deck, players] = GAMES[randomInt(GAMES.length)];
  const nonce = randomInt(4) === 0 ? (2n ** 64n - 1n - BigInt(randomInt(1000))).toString() : String(randomInt(1000000));
  const seed = randomInt(3) === 0 ? spec.toHex(randomBytes(randomInt(20))) : SEEDS[randomInt(SEEDS.length)];
  return { secret: spec.toHex(randomBytes(32)), seed, nonce, game, deck, players };
}

function inputsArgs(c) {
  const args = ['--server-secret', c.secret, `--client-seed=${c.seed}`, '--nonce', c.nonce, '--game', c.game];
  if (c.deck) args.push('--deck', c.deck);
  return args;
}

test(`fair deal: JS and the CLI give the same JSON on ${CASES} random cases`, { skip }, async () => {
  for (let i = 0; i < CASES; i++) {
    const c = randomCase();
    const args = [...inputsArgs(c), ...(c.players ? ['--players', String(c.players)] : [])];
    const [status, rust] = cli(['fair', 'deal', '--format', 'json', ...args]);
    assert.equal(status, 0, JSON.stringify(c));
    const js = await spec.deal({ serverSecret: c.secret, clientSeed: c.seed, nonce: c.nonce, game: c.game, deck: c.deck, players: c.players });
    const { entropy_needed_bits: a, ...jsRest } = js;
    const { entropy_needed_bits: b, ...rustRest } = rust;
    // JSON.parse rounds nonces above 2^53; compare the nonce as the exact text we passed.
    assert.equal(String(js.nonce), c.nonce);
    assert.deepEqual({ ...jsRest, nonce: 0 }, { ...rustRest, nonce: 0 }, `case ${JSON.stringify(c)}`);
    assert.ok(Math.abs(a - b) < 1e-9, `entropy ${a} vs ${b}`);
  }
});

test('fair deal text output: parseDealText reads back what the CLI printed', { skip }, async () => {
  for (let i = 0; i < 6; i++) {
    const c = randomCase();
    const text = execFileSync(BIN, ['fair', 'deal', ...inputsArgs(c)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const p = spec.parseDealText(text);
    const js = await spec.deal({ serverSecret: c.secret, clientSeed: c.seed, nonce: c.nonce, game: c.game, deck: c.deck });
    assert.deepEqual([p.cards, p.commitment, p.clientSeed, p.nonce, p.game, p.deck], [js.cards, js.commitment, c.seed, c.nonce, js.game, js.deck], JSON.stringify(c));
  }
});

/** Ways to tamper with an honest deck, each with the mismatch the CLI reports. */
const TAMPERS = [
  ['swap two cards', (d) => { const t = [...d]; const [i, j] = [randomInt(d.length), (randomInt(d.length - 1) + 1)]; const k = (i + j) % d.length; [t[i], t[k]] = [t[k], t[i]]; return t; }],
  ['duplicate a card', (d) => { const t = [...d]; t[randomInt(d.length)] = d[(randomInt(d.length))]; return t; }],
  ['drop the last card', (d) => d.slice(0, -1)],
  ['rotate the deck', (d) => [...d.slice(1), d[0]]],
  ['unchanged', (d) => d],
];

test(`fair verify: JS names the same first mismatch as the CLI on ${CASES} tampered deals`, { skip }, async () => {
  for (let i = 0; i < CASES; i++) {
    const c = randomCase();
    const honest = await spec.shuffledDeck(c.secret, c.seed, c.nonce, c.deck ?? spec.gameDeck(c.game));
    const [name, tamper] = TAMPERS[i % TAMPERS.length];
    const claimed = tamper(honest);
    // Every third case quotes a wrong commitment.
    const published = i % 3 === 2 ? spec.toHex(randomBytes(32)) : await spec.commitment(c.secret);
    const [status, rust] = cli(['fair', 'verify', '--format', 'json', '--commitment', published, ...inputsArgs(c), '--deal', claimed.join(' ')]);
    const js = await spec.verify({ commitment: published, serverSecret: c.secret, clientSeed: c.seed, nonce: c.nonce, game: c.game, deck: c.deck, deal: claimed });
    const what = `${name}, case ${JSON.stringify(c)}`;
    assert.equal(status, js.valid ? 0 : 1, what);
    assert.equal(rust.checked, 'deck-line', what);
    delete rust.checked;
    assert.deepEqual({ valid: js.valid, mismatch: js.mismatch, message: js.message }, rust, what);
  }
});

test('fair verify: JS rejects the same malformed input the CLI rejects with exit 2', { skip }, async () => {
  const good = { secret: 'ab'.repeat(32), commitment: 'cd'.repeat(32) };
  const bad = [
    ['--commitment', 'abc', '--server-secret', good.secret, '--deal', 'AS'],
    ['--commitment', good.commitment, '--server-secret', `${good.secret}0`, '--deal', 'AS'],
    ['--commitment', good.commitment, '--server-secret', good.secret, '--deal', 'AS 1S'],
    ['--commitment', good.commitment, '--server-secret', good.secret, '--deal', 'AS', '--deck', 'tarot'],
  ];
  for (const args of bad) {
    const [status] = cli(['fair', 'verify', '--client-seed', 'x', '--nonce', '0', ...args]);
    assert.equal(status, 2, args.join(' '));
    const get = (flag) => args[args.indexOf(flag) + 1];
    await assert.rejects(spec.verify({
      commitment: get('--commitment'), serverSecret: get('--server-secret'), clientSeed: 'x', nonce: 0,
      deck: args.includes('--deck') ? get('--deck') : undefined, deal: get('--deal'),
    }), Error, args.join(' '));
  }
});

test('fair deal text: the Verify page reads back every client seed the CLI prints', { skip }, () => {
  // Issue 26: the CLI quoted seeds Rust's way ("x\u{1}y"), which JSON.parse refuses, so such
  // a seed could not be pasted into Verify. Control characters, quotes, backslashes, a
  // newline, a tab and non-ASCII text must all come back exactly.
  const secret = '11'.repeat(32);
  for (const seed of ['x\u0001y', 'say "hi"', 'back\\slash', 'two\nlines', 'tab\there', '\u007f', 'ünï ♠', 'alice']) {
    const text = execFileSync(BIN, ['fair', 'deal', '--server-secret', secret, `--client-seed=${seed}`, '--nonce', '7'],
      { encoding: 'utf8' });
    const parsed = spec.parseDealText(text);
    assert.equal(parsed.clientSeed, seed, text);
    assert.equal(parsed.nonce, '7');
  }
});
