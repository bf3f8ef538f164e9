// Benchmark (not a test): a six-seat hold'em hand played by six browser seats in one page of
// headless Chromium — six module instances of the seat (js/hidden/seat.js over the wasm build
// of fairdeck-hidden), each verifying the transcript before every step as a real seat does:
// six keys, six shuffles with proofs, the deal's shares (12 private cards), the flop, turn and
// river (5 community cards), each seat reading its own two cards, then one full verification
// of the finished transcript by a seventh, fresh instance. Plays version 3 (unsigned) and
// version 3.1 (every message signed and logged, as `fairdeck hidden new` writes it) hands in
// turn, and prints for each the median and min–max of the wall time of RUNS hands (default 5),
// and the median of each phase.
//
//   cargo build -p fairdeck-pages          # with FAIRDECK_WASM=required: builds the seat module
//   node crates/fairdeck-web/web/bench/hidden-hand.mjs [RUNS]
//
// FAIRDECK_SEAT_WASM names another module; CHROMIUM another browser (default /usr/bin/chromium).
// The page is served from this source tree by a small static server on 127.0.0.1; compiling the
// module is done once, before the timed hands.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '../e2e/node_modules/playwright-core/index.mjs';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const WASM = process.env.FAIRDECK_SEAT_WASM
  ?? `${ROOT}target/wasm-seat/wasm32-unknown-unknown/release/fairdeck_hidden_wasm.wasm`;
const SEAT_JS = `${ROOT}crates/fairdeck-web/web/js/hidden/seat.js`;
const RUNS = Number(process.argv[2] ?? 5);

/** Serves the page's seat module and its wrapper, nothing else. */
function serve() {
  const files = {
    '/seat.js': [readFileSync(SEAT_JS), 'text/javascript'],
    '/seat.wasm': [readFileSync(WASM), 'application/wasm'],
    '/': ['<!doctype html><title>bench</title>', 'text/html'],
  };
  const server = createServer((req, res) => {
    const file = files[req.url];
    res.writeHead(file ? 200 : 404, { 'content-type': file?.[1] ?? 'text/plain' });
    res.end(file?.[0] ?? 'not found');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** One hand in the page: returns the wall time of each phase in milliseconds. */
async function hand(revision) {
  const { loadSeat } = await import('/seat.js');
  const module = await WebAssembly.compile(await (await fetch('/seat.wasm')).arrayBuffer());
  const manifest = {
    version: 3, table: `bench-${Math.random()}`, game: 'holdem', deck: 'standard',
    seats: ['s0', 's1', 's2', 's3', 's4', 's5'], first: 1, last: 1,
  };
  const seats = [];
  for (let j = 0; j < 6; j++) seats.push(await loadSeat({ source: module }));
  const keys = [];
  for (const s of seats) keys.push(await s.keyNew());
  let transcript = JSON.stringify({ version: 3, ...(revision ? { revision } : {}), manifest, keys: [], hands: [] });
  const times = {};
  const start = performance.now();
  let mark = start;
  const phase = (name) => {
    const now = performance.now();
    times[name] = now - mark;
    mark = now;
  };
  for (let j = 0; j < 6; j++) ({ transcript } = await seats[j].keyMessage(keys[j], transcript, j));
  phase('keys');
  for (let j = 0; j < 6; j++) ({ transcript } = await seats[j].shuffle(keys[j], transcript));
  phase('shuffles');
  for (const street of ['deal', 'flop', 'turn', 'river']) {
    for (let j = 0; j < 6; j++) ({ transcript } = await seats[j].share(keys[j], transcript, street));
  }
  phase('shares');
  for (let j = 0; j < 6; j++) {
    const view = await seats[j].cards(keys[j], transcript);
    if (view.hand.own.length !== 2 || view.hand.community.length !== 5) throw new Error('cards missing');
  }
  phase('cards');
  const verdict = await (await loadSeat({ source: module })).verify(transcript);
  if (!verdict.valid) throw new Error(verdict.summary);
  if (verdict.verdict.signed !== (revision === 1)) throw new Error(`revision ${revision}: signed ${verdict.verdict.signed}`);
  phase('verify');
  times.total = performance.now() - start;
  return times;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const server = await serve();
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage();
  await page.goto(base);
  const runs = { 0: [], 1: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const revision of [0, 1]) runs[revision].push(await page.evaluate(hand, revision));
  }
  const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
  for (const revision of [0, 1]) {
    const name = revision ? 'version 3.1 (signed)' : 'version 3';
    const totals = runs[revision].map((r) => r.total);
    console.log(`six-seat hold'em hand, ${name}, in ${await browser.version()} (headless), ${RUNS} runs: `
      + `median ${fmt(median(totals))}, min–max ${fmt(Math.min(...totals))}–${fmt(Math.max(...totals))}`);
    const phases = Object.keys(runs[revision][0]).filter((k) => k !== 'total');
    console.log(`  median per phase: ${phases.map((k) => `${k} ${median(runs[revision].map((r) => r[k])).toFixed(0)} ms`).join(', ')}`);
  }
} finally {
  await browser.close();
  server.close();
}
