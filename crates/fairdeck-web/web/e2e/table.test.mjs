// The table service's pages in a real browser (Debian's chromium, playwright-core): an
// operator opens a hold'em table on the page, six players each in their own browser
// context (own storage, phone-sized) commit and reveal seeds drawn by WebCrypto, the
// operator deals and releases the board street by street, each player sees only their own
// hole cards until the close, and every player's page verifies the transcript itself.
// After every step each page passes issue 36's layout scan (layout.mjs) on a phone
// (390 × 844, with 44 px tap targets) and on a desktop (without the tap targets).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { assertLayout } from './layout.mjs';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = process.env.FAIRDECK_BIN ?? join(REPO, 'target/debug/fairdeck');
const SHOTS = join(REPO, 'target/screenshots');
mkdirSync(SHOTS, { recursive: true });
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1200, height: 900 };
const PLAYERS = ['ann', 'bob', 'cy', 'dee', 'eve', 'fay'];

let server;
let base;
let browser;
let dir;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fairdeck-table-e2e-'));
  server = spawn(BIN, ['table', 'serve', '--bind', '127.0.0.1:0', '--db', join(dir, 'tables.sqlite'),
    '--admin-token-file', join(dir, 'admin')], { stdio: ['ignore', 'pipe', 'ignore'] });
  base = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`fairdeck table serve exited with ${code}`)));
  });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const shot = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
/**
 * The layout scan at phone size (nothing wider than the screen, no text under 12 px, no
 * word split, 44 px targets) and at desktop size (the same without the targets); the page
 * is left at the size it had.
 */
async function fits(page, what) {
  const size = page.viewportSize();
  await page.setViewportSize(PHONE);
  await assertLayout(page, `${what}, phone`);
  await page.setViewportSize(DESKTOP);
  await assertLayout(page, `${what}, desktop`, { targets: false });
  await page.setViewportSize(size);
}
/** `fits` for every player's page. */
async function allFit(players, what) {
  for (const [i, { page }] of players.entries()) await fits(page, `${PLAYERS[i]}: ${what}`);
}
const cardsIn = (page, selector) => page.$$eval(`${selector} [data-card]`, (els) => els.map((e) => e.dataset.card));

/** Waits until the page's body says the table is in `phase`. */
const phase = (page, name) => page.waitForSelector(`body[data-phase="${name}"]`, { timeout: 30_000 });

test('six players and an operator play a hold\'em hand; each sees only their own cards; every page verifies', async () => {
  const admin = readFileSync(join(dir, 'admin'), 'utf8').trim();
  const operatorContext = await browser.newContext({ viewport: DESKTOP });
  const opener = await operatorContext.newPage();
  await opener.goto(`${base}/`);
  await fits(opener, 'the table index');
  await opener.fill('input[name=admin]', admin);
  await opener.fill('input[name=table]', 'e2e-holdem');
  await opener.selectOption('select[name=game]', 'holdem');
  await opener.fill('textarea[name=seats]', PLAYERS.join('\n'));
  await opener.click('button[type=submit]');
  await opener.waitForSelector('#links:not([hidden])');
  const links = await opener.$$eval('#link-list a', (as) => as.map((a) => a.href));
  assert.equal(links.length, 1 + PLAYERS.length);
  await shot(opener, 'table-open');
  await fits(opener, 'the table index with its links');
  await opener.setViewportSize(PHONE);
  await shot(opener, 'table-open-phone');

  // Each player in a context of their own: their own storage, a phone's screen.
  const players = [];
  for (const link of links.slice(1)) {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(link);
    players.push({ context, page });
  }
  const operator = await operatorContext.newPage();
  await operator.goto(links[0]);
  // The pages commit, then reveal, on their own; the operator can deal once all revealed.
  await phase(operator, 'ready');
  await fits(operator, 'the operator, ready to deal');
  await allFit(players, 'committed and revealed');
  await operator.click('button[data-action="Deal"]');
  await phase(operator, 'dealt');
  await fits(operator, 'the operator, dealt');

  // Every page recorded C before committing and L before revealing, and shows both.
  const published = await (await operator.request.get(`${base}/api/tables/e2e-holdem`)).json();
  assert.match(published.lock, /^[0-9a-f]{64}$/);
  for (const [i, { page }] of players.entries()) {
    const r = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), `fairdeck-record/e2e-holdem/${i}`);
    assert.deepEqual([r.c.value, r.c.phase], [published.commitment, 'committing'], PLAYERS[i]);
    assert.deepEqual([r.lock.value, r.lock.phase, r.lock.mine], [published.lock, 'revealing', true], PLAYERS[i]);
    assert.match(await page.textContent('#recorded-l'), new RegExp(published.lock));
    assert.match(await page.textContent('#recorded-c'), new RegExp(published.commitment));
  }

  const holes = [];
  for (const [i, { page }] of players.entries()) {
    await page.waitForFunction(() => document.querySelectorAll('#hand [data-card]').length === 2, null, { timeout: 30_000 });
    holes.push(await cardsIn(page, '#hand'));
    assert.match(await page.textContent('#title'), new RegExp(PLAYERS[i]));
  }
  assert.equal(new Set(holes.flat()).size, 2 * PLAYERS.length, 'hole cards are distinct');
  // Until the close, no page holds another player's hole cards anywhere in its document.
  for (const [i, { page }] of players.entries()) {
    const html = await page.content();
    for (const [j, cards] of holes.entries()) {
      if (j === i) continue;
      for (const c of cards) assert.ok(!html.includes(`data-card="${c}"`), `${PLAYERS[i]} sees ${c} of ${PLAYERS[j]}`);
    }
  }
  await allFit(players, 'hand shown');
  await shot(players[0].page, 'table-player-phone');

  for (const [street, shown] of [['flop', 3], ['turn', 4], ['river', 5]]) {
    await operator.click(`button[data-action="Release the ${street}"]`);
    for (const { page } of players) {
      await page.waitForFunction((n) => document.querySelectorAll('#community [data-card]').length === n, shown, { timeout: 30_000 });
    }
    await fits(operator, `the operator after the ${street}`);
    await allFit(players, `after the ${street}`);
  }
  const board = await cardsIn(players[0].page, '#community');
  assert.equal(board.filter((c) => holes.flat().includes(c)).length, 0, 'the board shares no card with a hand');
  await shot(operator, 'table-operator');
  await operator.setViewportSize(PHONE);
  await shot(operator, 'table-operator-phone');

  await operator.click('button[data-action="Close and reveal the secret"]');
  await phase(operator, 'closed');
  await fits(operator, 'the operator, closed');
  for (const [i, { page }] of players.entries()) {
    await page.waitForSelector('#verified[data-verdict]', { timeout: 60_000 });
    assert.equal(await page.getAttribute('#verified', 'data-verdict'), 'valid', `${PLAYERS[i]}: ${await page.textContent('#verdict')}`);
    assert.deepEqual(await cardsIn(page, '#hand'), holes[i]);
  }
  // At the close every page shows every hand (the transcript is public now): the showdown.
  await players[0].page.waitForSelector('#showdown:not([hidden])');
  const shown = await cardsIn(players[0].page, '#showdown');
  assert.deepEqual(new Set(shown), new Set(holes.flat()));
  assert.match(await players[0].page.textContent('#verdict'), /as committed before play/);
  await allFit(players, 'verified, every hand shown');
  await shot(players[5].page, 'table-verified-phone');
  // A fresh tab (own storage, never saw C before play, no seed) cannot confirm C or L.
  const fresh = await browser.newContext({ viewport: PHONE });
  const late = await fresh.newPage();
  await late.goto(links[1]);
  await late.waitForSelector('#verified[data-verdict]', { timeout: 60_000 });
  assert.equal(await late.getAttribute('#verified', 'data-verdict'), 'partial');
  const words = await late.textContent('#verdict');
  assert.match(words, /cannot confirm that C is the one published before play/);
  assert.doesNotMatch(words, /as committed before play/);
  await fits(late, 'a fresh tab, partly verified');
  await shot(late, 'table-fresh-tab-phone');
  await fresh.close();
  for (const { context } of players) await context.close();
  await operatorContext.close();
});

test('a link without its token says so, and the service answers unknown paths with JSON', async () => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await page.goto(`${base}/table/play.html#table=nope&seat=0`);
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error'), /no table, seat or token/);
  await fits(page, 'a seat link without a token');
  const res = await page.request.get(`${base}/table/../Cargo.toml`);
  assert.equal(res.status(), 404);
  assert.match(res.headers()['content-type'], /application\/json/);
  await context.close();
});

/** Opens a table through the API with the admin token; returns the invitation. */
async function openTable(request, id, seats, commitSeconds = 600) {
  const admin = readFileSync(join(dir, 'admin'), 'utf8').trim();
  const manifest = { version: 2, table: id, game: 'holdem', deck: 'standard', seats, first: 0, last: 0 };
  const res = await request.post(`${base}/api/tables`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { manifest, commit_seconds: commitSeconds, reveal_seconds: 600 },
  });
  assert.equal(res.status(), 201, await res.text());
  return res.json();
}

test('a seat link cut short stops polling at the first 403 and says why; the whole link still works', async () => {
  const context = await browser.newContext({ viewport: PHONE });
  const inv = await openTable(context.request, 'e2e-cut', ['ann', 'bob']);
  const page = await context.newPage();
  let seatRequests = 0;
  page.on('request', (r) => { if (r.url().includes('/seats/')) seatRequests += 1; });
  await page.goto(`${base}/table/play.html#table=e2e-cut&seat=0&token=${inv.seats[0].slice(1)}`);
  await page.waitForSelector('body[data-stopped="403"]');
  assert.match(await page.textContent('#error'), /refused this link's token/);
  await page.waitForTimeout(3000);
  assert.equal(seatRequests, 1, 'no retry after a 403');
  await fits(page, 'a refused seat link');
  await shot(page, 'table-refused-phone');
  // Many wrong tokens from this address do not lock the right one out.
  for (let i = 0; i < 35; i += 1) {
    await context.request.get(`${base}/api/tables/e2e-cut/seats/1`, { headers: { Authorization: `Bearer ${'0'.repeat(64)}` } });
  }
  const good = await context.newPage();
  await good.goto(`${base}/table/play.html#table=e2e-cut&seat=1&token=${inv.seats[1]}`);
  await good.waitForFunction(() => document.querySelector('#seats li[data-state="committed"]'), null, { timeout: 30_000 });
  assert.equal(await good.getAttribute('body', 'data-stopped'), null);
  await context.close();
});

test('the page and the API take the same table ids', async () => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
  await page.goto(`${base}/`);
  for (const [id, ok] of [['..', false], ['a/b?c#d', false], ['.x', false], ['room-1.t_2', true]]) {
    await page.fill('input[name=table]', id);
    const valid = await page.$eval('input[name=table]', (el) => el.checkValidity());
    assert.equal(valid, ok, `the page on ${JSON.stringify(id)}`);
    await fits(page, `the table index with the id ${JSON.stringify(id)}`);
    const admin = readFileSync(join(dir, 'admin'), 'utf8').trim();
    const manifest = { version: 2, table: id, game: 'holdem', deck: 'standard', seats: ['a', 'b'], first: 0, last: 0 };
    const res = await context.request.post(`${base}/api/tables`, {
      headers: { Authorization: `Bearer ${admin}` }, data: { manifest, commit_seconds: 60, reveal_seconds: 60 },
    });
    assert.equal(res.status() === 201, ok, `the API on ${JSON.stringify(id)}: ${await res.text()}`);
  }
  assert.deepEqual(errors.filter((e) => /pattern/i.test(e)), [], 'the pattern attribute compiles');
  await context.close();
});


test('a seat that never commits voids the table; the page says void and names that seat', async () => {
  const context = await browser.newContext({ viewport: PHONE });
  const inv = await openTable(context.request, 'e2e-void', ['ann', 'bob'], 2);
  const page = await context.newPage();
  await page.goto(`${base}/table/play.html#table=e2e-void&seat=0&token=${inv.seats[0]}`);
  await page.waitForSelector('#seats li[data-state="committed"]', { timeout: 30_000 });
  await fits(page, 'a seat committed, waiting for the others');
  // bob never opens his link; after the deadline the operator voids the table.
  await page.waitForTimeout(3000);
  const res = await context.request.post(`${base}/api/tables/e2e-void/void`, {
    headers: { Authorization: `Bearer ${inv.operator}` }, data: {},
  });
  assert.equal(res.status(), 200, await res.text());
  await page.waitForSelector('#verified[data-verdict]', { timeout: 30_000 });
  await fits(page, 'a void table');
  assert.equal(await page.getAttribute('#verified', 'data-verdict'), 'void');
  assert.match(await page.textContent('#verdict'), /names bob at the commit phase/);
  await shot(page, 'table-void-phone');
  await context.close();
});
