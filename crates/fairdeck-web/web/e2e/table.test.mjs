// The table service's pages in a real browser (Debian's chromium, playwright-core): an
// operator opens a hold'em table on the page, six players each in their own browser
// context (own storage, phone-sized) commit and reveal seeds drawn by WebCrypto, the
// operator deals and releases the board street by street, each player sees only their own
// hole cards until the close, and every player's page verifies the transcript itself.
// After every step each page passes issue 36's layout scan (layout.mjs) on a phone
// (390 × 844, with 44 px tap targets) and on a desktop (without the tap targets).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, DESKTOP, PHONE, base, browser, cardsIn, dir, fits, openTable, phase, setup, shot } from './table-harness.mjs';

setup();
const PLAYERS = ['ann', 'bob', 'cy', 'dee', 'eve', 'fay'];

/** `fits` for every player's page. */
async function allFit(players, what) {
  for (const [i, { page }] of players.entries()) await fits(page, `${PLAYERS[i]}: ${what}`);
}

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

  // The operator's page polls a light status and never fetches the hands unasked.
  const operator = await operatorContext.newPage();
  const opAnswers = [];
  operator.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/tables/e2e-holdem/operator')) opAnswers.push({ path, status: r.status() });
  });
  await operator.goto(links[0]);
  await phase(operator, 'committing');
  const opened = await (await operator.request.get(`${base}/api/tables/e2e-holdem`)).json();
  await operator.waitForFunction((c) => document.querySelector('#op-c').textContent === c, opened.commitment);
  assert.match(await operator.textContent('#op-l'), /not published yet/);
  assert.match(await operator.textContent('#deadline'), /^Commitments close: .+ — in \d+ min \d+ s$/);
  await fits(operator, 'the operator, committing');

  // Each player in a context of their own: their own storage, a phone's screen. Each
  // claims the seat on their device first: nothing is committed before that.
  const players = [];
  for (const link of links.slice(1)) {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(link);
    await page.waitForSelector('#claim:not([hidden])');
    if (!players.length) {
      await fits(page, 'a seat not claimed yet');
      await shot(page, 'table-claim-phone');
    }
    await page.click('#claim-button');
    players.push({ context, page });
  }
  // The pages commit, then reveal, on their own; the operator can deal once all revealed.
  await phase(operator, 'ready');
  await fits(operator, 'the operator, ready to deal');
  // C and L are on the operator's page before play.
  const ready = await (await operator.request.get(`${base}/api/tables/e2e-holdem`)).json();
  assert.equal(await operator.textContent('#op-l'), ready.lock);
  assert.equal(await operator.textContent('#op-c'), ready.commitment);
  assert.equal(await operator.$$eval('#seats li[data-claimed="true"]', (l) => l.length), PLAYERS.length);
  // Idle, the status is not modified (304, no body), and no hand was fetched.
  await operator.waitForTimeout(2500);
  const statuses = opAnswers.filter((a) => a.path.endsWith('/operator/status')).map((a) => a.status);
  assert.ok(statuses.filter((s) => s === 304).length >= 1, `an unchanged table answers 304: ${statuses}`);
  assert.deepEqual(opAnswers.filter((a) => !a.path.endsWith('/status')), [], 'no hand fetched unasked');
  await allFit(players, 'committed and revealed');
  await operator.click('button[data-action="Deal"]');
  await phase(operator, 'dealt');
  await fits(operator, 'the operator, dealt');
  assert.deepEqual(opAnswers.filter((a) => !a.path.endsWith('/status')), [], 'no hand fetched unasked');

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
  // Every hand on the operator's page when asked for, and only then.
  await operator.click('#show-hands');
  await operator.waitForFunction((n) => document.querySelectorAll('#hands [data-card]').length >= n, 2 * PLAYERS.length);
  const opCards = await cardsIn(operator, '#hands');
  for (const c of holes.flat()) assert.ok(opCards.includes(c), `the operator's hands show ${c}`);
  assert.equal(opAnswers.filter((a) => a.path === '/api/tables/e2e-holdem/operator').length, 1);
  await fits(operator, 'the operator with every hand');

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
  // The record downloads as a file `fair verify` accepts: valid with C, L and ann's seed.
  await operator.waitForSelector('#record:not([hidden])');
  const [download] = await Promise.all([operator.waitForEvent('download'), operator.click('#download')]);
  assert.equal(download.suggestedFilename(), 'e2e-holdem.json');
  const file = join(dir, 'e2e-holdem.json');
  await download.saveAs(file);
  const annSeed = await players[0].page.evaluate(() => localStorage.getItem('fairdeck-seed/e2e-holdem/0'));
  const verified = spawnSync(BIN, ['fair', 'verify', '--format', 'json', file, '--commitment', ready.commitment,
    '--lock', ready.lock, '--seat', 'ann', '--seed', annSeed, '--played', '0'], { encoding: 'utf8' });
  assert.equal(verified.status, 0, verified.stdout + verified.stderr);
  assert.equal(JSON.parse(verified.stdout).verdict, 'valid');
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
  await good.click('#claim-button');
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
  await page.click('#claim-button');
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
