// End-to-end tests of `fairdeck serve` in a real browser: Debian's chromium, driven by
// playwright-core, against the server on 127.0.0.1 (no network beyond loopback).
// FAIRDECK_BIN names the binary (default: target/debug/fairdeck). Each test saves a
// screenshot of its page into target/screenshots/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = process.env.FAIRDECK_BIN ?? join(REPO, 'target/debug/fairdeck');
const SHOTS = join(REPO, 'target/screenshots');
mkdirSync(SHOTS, { recursive: true });

let server;
let base;
let browser;
let profile;

before(async () => {
  server = spawn(BIN, ['serve', '--bind', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`fairdeck serve exited with ${code}`)));
  });
  profile = mkdtempSync(join(tmpdir(), 'fairdeck-e2e-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1300, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Opens a page route and waits until the page says it has rendered. */
async function open(route) {
  const page = await browser.newPage();
  await page.goto(`${base}#/${route}`);
  await page.waitForSelector('main[data-ready="true"]', { timeout: 60_000 });
  return page;
}

const shot = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

test('deal renders 52 distinct card images and the replay link reproduces it', async () => {
  const page = await open('deal?game=bridge');
  const cards = await page.$$eval('#deal-output svg.card[data-card]', (els) => els.map((e) => e.dataset.card));
  assert.equal(cards.length, 52);
  assert.equal(new Set(cards).size, 52);
  assert.equal(await page.locator('.hand').count(), 4);
  assert.match(await page.textContent('#deal-entropy'), /a bridge deal needs 95\.4 bits \(52!\/\(13!\)\^4 deals\), the key holds 256/);
  await shot(page, 'deal');
  const href = await page.getAttribute('#replay', 'href');
  assert.match(href, /seed=[0-9a-f]{64}/);
  const again = await open(href.replace(/^#\//, ''));
  const replayed = await again.$$eval('#deal-output svg.card[data-card]', (els) => els.map((e) => e.dataset.card));
  assert.deepEqual(replayed, cards);
  await again.close();
  await page.close();
});

test('an algorithm steps forward and back', async () => {
  const page = await open('algorithms?alg=fisher-yates&n=4&seed=e2e');
  const deck = () => page.$$eval('#deck .tile', (els) => els.map((e) => e.dataset.card).join(' '));
  assert.equal(await page.textContent('#step-counter'), 'step 0 / 3');
  assert.equal(await deck(), '1 2 3 4');
  await page.click('#step-forward');
  assert.equal(await page.textContent('#step-counter'), 'step 1 / 3');
  const after1 = await deck();
  assert.match(await page.textContent('#step-action'), /^swap 4 and \d$/);
  await page.click('#step-forward');
  await page.click('#step-back');
  assert.equal(await deck(), after1);
  assert.match(page.url(), /step=1/);
  await page.click('#step-back');
  assert.equal(await deck(), '1 2 3 4');
  await page.waitForSelector('#tree svg');
  assert.equal(await page.locator('#tree .leaf').count(), 24);
  assert.equal(await page.locator('#tree .leaf.taken').count(), 1);
  await page.click('#step-forward');
  await shot(page, 'algorithms');
  await page.close();
});

test('the fairness page shows naive-swap biased and Fisher–Yates uniform', async () => {
  const page = await open('fairness?a=naive-swap&b=fisher-yates&n=5');
  assert.equal(await page.getAttribute('.verdict[data-alg="naive-swap"]', 'data-uniform'), 'false');
  assert.equal(await page.getAttribute('.verdict[data-alg="fisher-yates"]', 'data-uniform'), 'true');
  // Every Fisher–Yates cell is exactly 1/5; naive-swap's are not.
  const fy = await page.$$eval('.matrix-card[data-alg="fisher-yates"] td', (els) => els.map((e) => e.dataset.p));
  assert.equal(fy.length, 25);
  assert.ok(fy.every((p) => p === '1/5'));
  const naive = await page.$$eval('.matrix-card[data-alg="naive-swap"] td', (els) => els.map((e) => e.dataset.p));
  assert.ok(naive.some((p) => p !== '1/5'));
  await shot(page, 'fairness');
  await page.close();
});

test('the hand-shuffle page draws the seven-shuffles curve', async () => {
  const page = await open('mix?n=52&models=riffle');
  await page.waitForSelector('#mix-chart polyline[data-model="riffle"]');
  assert.match(await page.textContent('.matrix-card[data-model="riffle"]'), /below ½ after 7 shuffles/);
  await shot(page, 'mix');
  await page.close();
});

test('the chaos page measures an order and lists the sorting swaps', async () => {
  const page = await open('chaos?values=1 4 2 3 5');
  assert.equal(await page.textContent('#chaos-value'), '2');
  assert.equal(await page.locator('#swaps-ascending li').count(), 3); // start + 2 swaps
  await shot(page, 'chaos');
  await page.close();
});

test('the verify page says valid for an honest deal and names the difference for a tampered one', async () => {
  const page = await open('verify');
  await page.click('#verify-demo');
  await page.waitForSelector('#verify-result[data-valid="true"]', { timeout: 30_000 });
  await shot(page, 'verify');
  await page.click('#verify-tamper');
  await page.waitForSelector('#verify-result[data-valid="false"]');
  const differences = await page.$$eval('#verify-result li', (els) => els.map((e) => e.textContent));
  assert.ok(differences.length > 0);
  assert.match(differences.join(' '), /2|5/);
  await page.close();
});

test("the verify page passes the spec's vectors", async () => {
  const text = readFileSync(join(REPO, 'docs/fair-dealing.md'), 'utf8');
  const vectors = text.split(/^### Vector /m).slice(1).map((section) => {
    const block = /```\n([\s\S]*?)```/.exec(section)[1];
    const v = {};
    for (const line of block.split('\n').filter(Boolean)) {
      const m = /^(client seed|\w+)\s+(.*)$/.exec(line);
      v[m[1]] = m[2];
    }
    return v;
  });
  assert.ok(vectors.length >= 3);
  for (const v of vectors) {
    const q = new URLSearchParams({ commitment: v.commitment, secret: v.secret, seed: JSON.parse(v['client seed']), nonce: v.nonce, deck: v.deck, deal: v.cards });
    const page = await open(`verify?${q}`);
    await page.waitForSelector('#verify-result');
    assert.equal(await page.getAttribute('#verify-result', 'data-valid'), 'true', `vector ${v.nonce}`);
    await page.close();
  }
});

test('the verify page checks a version 2 transcript against a commitment typed separately', async () => {
  const text = readFileSync(join(REPO, 'docs/fair-dealing.md'), 'utf8');
  const vector = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1])).find((v) => v.transcript);
  const t = vector.transcript;
  const page = await open('verify');
  const check = async (doc, commitment) => {
    await page.fill('#transcript-doc', JSON.stringify(doc));
    await page.fill('#transcript-commitment', commitment);
    await page.click('#transcript-button');
    await page.waitForSelector('#transcript-result');
    return page.getAttribute('#transcript-result', 'data-verdict');
  };
  // The commitment inside the document is never used: without a typed one, no "valid".
  assert.equal(await check(t, ''), 'self-consistent-only');
  assert.equal(await check(t, t.commitment), 'valid');
  await shot(page, 'verify-transcript');
  const tampered = structuredClone(t);
  const piles = tampered.deals[0].piles;
  [piles[0].cards[0], piles[1].cards[0]] = [piles[1].cards[0], piles[0].cards[0]];
  assert.equal(await check(tampered, t.commitment), 'invalid');
  const kinds = await page.$$eval('#transcript-result li[data-kind]', (els) => els.map((e) => e.dataset.kind));
  assert.ok(kinds.includes('hand'), kinds.join());
  await page.close();
});

test('a bad parameter shows an error message', async () => {
  const page = await open('deal?players=99');
  const error = page.locator('.error');
  assert.ok(await error.isVisible());
  assert.match(await error.textContent(), /players must be an integer from 1 to 10/);
  await shot(page, 'error');
  await page.close();
});
