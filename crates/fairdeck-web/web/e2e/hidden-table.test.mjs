// The seat page of hidden (version-3) tables, /table/hidden.html, in a real browser: a
// hold'em hand at `fairdeck table serve` with three browser seats, each in its own Chromium
// context (own storage, phone-sized), and one `fairdeck hidden seat` on the command line; the
// operator moves the hand on over the API. Each page makes its key in the seat module,
// verifies the transcript before every step, shows its own two cards, the board and the
// showdown, and at the end the verdict on the whole transcript; `fairdeck fair verify`
// checks the served transcript too. One page is reloaded mid-hand and carries on with its
// kept key. A bad token stops the page with one line before it makes or keeps anything (the
// link is checked with a read first); so does a table that does not exist.
// The wall time of the hand is printed, never asserted.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, PHONE, base, browser, cardsIn, dir, fits, setup, shot } from './table-harness.mjs';
import { LONG, advance, cliSeat, openHidden, sleep, status } from './hidden-harness.mjs';

setup();
const SEATS = ['ann', 'bob', 'cy', 'dee'];

/** What a page keeps in this origin's storage: localStorage's keys and IndexedDB's databases. */
const stored = (page) => page.evaluate(async () => ({
  local: Object.keys(localStorage),
  indexed: (await indexedDB.databases()).map((d) => d.name),
}));

test('three browser seats and a CLI seat play a hold\'em hand at a hidden table; every seat verifies', LONG, async () => {
  const id = 'e2e-hidden';
  const inv = await openHidden(id, SEATS);
  assert.equal(inv.links.length, SEATS.length);
  const t0 = performance.now();
  const pages = [];
  for (const link of inv.links.slice(0, 3)) {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
    await page.goto(link);
    pages.push(page);
  }
  // The token leaves the address bar at once; the table and seat stay.
  for (const [i, page] of pages.entries()) {
    await page.waitForFunction(() => !location.hash.includes('token='));
    assert.match(page.url(), new RegExp(`#table=${id}&seat=${i}$`));
  }
  const cli = cliSeat(inv.links[3]).done;
  await pages[0].waitForSelector('#download-key:not([hidden])');
  await fits(pages[0], 'a hidden seat, its key made');

  // The deal is complete once the operator may open the flop.
  await advance(id, inv.operator, 'flop');
  for (const page of pages) await page.waitForFunction(() => document.querySelectorAll('#hand [data-card]').length === 2, null, LONG);
  // Before the showdown a page shows its own two cards and no other seat's.
  const dealt = [];
  for (const page of pages) {
    assert.equal((await cardsIn(page, '#opened')).length, 0);
    dealt.push(...await cardsIn(page, '#hand'));
  }
  assert.equal(new Set(dealt).size, 6);
  // The kept key file is the seat's own, in the format of `fairdeck hidden key`.
  const kept = JSON.parse(await pages[1].evaluate((k) => localStorage.getItem(k), `fairdeck-hidden-key/${id}/1`));
  assert.deepEqual(Object.keys(kept).sort(), ['seat', 'secret_key', 'table']);
  assert.deepEqual([kept.table, kept.seat], [id, 1]);
  await fits(pages[1], 'a hidden seat, dealt');
  await shot(pages[1], 'hidden-seat-dealt-phone');
  // A reload carries on: the key, the token and the room's receipts come from this browser's storage.
  const receiptsItem = `fairdeck-hidden-receipts/${id}/1`;
  const before = JSON.parse(await pages[1].evaluate((k) => localStorage.getItem(k), receiptsItem));
  assert.ok(before.length >= 3, JSON.stringify(before)); // its key, its shuffle, its deal shares
  await pages[1].reload();
  await pages[1].waitForSelector('#download-key:not([hidden])');
  await advance(id, inv.operator, 'turn');
  await advance(id, inv.operator, 'river');
  for (const page of pages) await page.waitForFunction(() => document.querySelectorAll('#community [data-card]').length === 5, null, LONG);
  await advance(id, inv.operator, 'showdown');
  for (const page of pages) {
    await page.waitForFunction((n) => document.querySelectorAll('#opened .showdown-hand').length === n, SEATS.length, LONG);
  }
  await fits(pages[2], 'a hidden seat at the showdown');
  await advance(id, inv.operator, 'end');
  for (const page of pages) await page.waitForSelector('#verified:not([hidden])', LONG);
  const seat = await cli;
  const wall = performance.now() - t0;

  const own = [];
  const boards = [];
  for (const [i, page] of pages.entries()) {
    assert.equal(await page.getAttribute('#verified', 'data-verdict'), 'valid', await page.textContent('#verdict'));
    const hand = await cardsIn(page, '#hand');
    // The same two cards as before the showdown (page 1: before its reload).
    assert.deepEqual(hand, dealt.slice(2 * i, 2 * i + 2));
    // What the page showed as its own cards is what it opened at the showdown.
    assert.deepEqual(await cardsIn(page, `#opened [data-seat="${i}"]`), hand);
    own.push(...hand);
    boards.push(await cardsIn(page, '#community'));
    assert.equal(await page.textContent('#status'), 'the table is finished');
    assert.equal(await page.isHidden('#error'), true, await page.textContent('#error'));
  }
  assert.equal(new Set(own).size, 6);
  for (const board of boards) assert.deepEqual(board, boards[0]);
  assert.equal(boards[0].length, 5);
  assert.ok(boards[0].every((c) => !own.includes(c)));
  await fits(pages[0], 'a hidden seat, finished and verified');
  await shot(pages[0], 'hidden-seat-finished-phone');

  // The CLI seat played along: its two cards are the ones the pages saw it open.
  assert.equal(seat.code, 0, seat.err);
  const cliCards = /hand 1: seat 3's cards: (\S+) (\S+)/.exec(seat.out);
  assert.ok(cliCards, seat.out);
  assert.deepEqual(await cardsIn(pages[0], '#opened [data-seat="3"]'), cliCards.slice(1));

  // `fair verify` on the transcript the service serves (the page's download link).
  const href = await pages[0].getAttribute('#download-transcript', 'href');
  const file = join(dir, 'hidden.json');
  writeFileSync(file, await (await fetch(`${base}${href}`)).text());
  const verify = spawnSync(BIN, ['fair', 'verify', file], { encoding: 'utf8' });
  assert.equal(verify.status, 0, verify.stdout + verify.stderr);
  assert.match(verify.stdout, /valid/);
  // Version 3.1: the page kept the room's receipts; they agree with the published log.
  assert.equal(await pages[0].isVisible('#download-evidence'), true);
  const [saved] = await Promise.all([pages[0].waitForEvent('download'), pages[0].click('#download-evidence')]);
  const evFile = join(dir, 'seat0.evidence.json');
  await saved.saveAs(evFile);
  const evidence = readFileSync(evFile, 'utf8');
  assert.ok(JSON.parse(evidence).some((e) => 'index' in e), evidence);
  const held = spawnSync(BIN, ['fair', 'verify', file, '--evidence', evFile], { encoding: 'utf8' });
  assert.equal(held.status, 0, held.stdout + held.stderr);
  // The receipts kept before page 1's reload are in its evidence after it.
  const [saved1] = await Promise.all([pages[1].waitForEvent('download'), pages[1].click('#download-evidence')]);
  const ev1File = join(dir, 'seat1.evidence.json');
  await saved1.saveAs(ev1File);
  const ev1 = JSON.parse(readFileSync(ev1File, 'utf8'));
  for (const r of before) assert.ok(ev1.some((e) => e.index === r.index && e.digest === r.digest), JSON.stringify(r));
  console.log(`hidden hold'em hand, 3 Chromium seats + 1 CLI seat (debug build), keys to verdict: ${(wall / 1000).toFixed(1)} s wall`);
});

test('a bad token stops the page with one line before it makes or keeps anything; so does a missing table', LONG, async () => {
  const id = 'e2e-hidden-bad';
  const inv = await openHidden(id, ['ann', 'bob']);
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  let calls = 0;
  const asked = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    asked.push(`${r.method()} ${path}`);
    if (path.startsWith('/api/')) calls += 1;
  });
  const bad = inv.links[0].replace(/token=[^&]+/, 'token=not-the-token');
  await page.goto(bad);
  await page.waitForSelector('body[data-stopped="403"]', LONG);
  const words = await page.textContent('#error');
  assert.match(words, /^the table refused this link's token: .+ \(403; polling stopped\)$/);
  assert.doesNotMatch(words, /\n/);
  assert.equal(await page.textContent('#status'), 'stopped');
  await fits(page, 'a hidden seat, its token refused');
  await shot(page, 'hidden-seat-refused-phone');
  // Nothing more is asked once the page stopped.
  const before = calls;
  await sleep(3000);
  assert.equal(calls, before);
  // The link was checked with a read; no key was made (the seat module never even loaded),
  // nothing was posted, and nothing is kept in this browser.
  assert.deepEqual(asked.filter((r) => r.includes('/api/') || r.includes('seat.wasm')), [`GET /api/hidden/${id}/seats/0`]);
  assert.deepEqual(await stored(page), { local: [], indexed: [] });
  assert.equal(await page.isHidden('#download-key'), true);
  assert.equal(await page.textContent('#key-state'), 'no key made yet');
  // Before any key is made, the page says whose code it runs (spec §11, §16).
  assert.equal(await page.isVisible('#trust'), true);
  assert.match(await page.textContent('#trust'), /trusts the room's code[\s\S]*fairdeck hidden seat --link/);
  // The table took nothing from the refused seat.
  assert.deepEqual((await status(id)).owed.find((o) => o.seat === 0).missing, [{ message: 'key' }]);
  // A good link after the bad one: checked, then the key is made and kept.
  const good = await context.newPage();
  await good.goto(inv.links[0]);
  await good.waitForSelector('#download-key:not([hidden])', LONG);
  // The key file and the token; once the key message is taken, the room's receipt for it too.
  const kept = (await stored(good)).local.filter((k) => k !== `fairdeck-hidden-receipts/${id}/0`);
  assert.deepEqual(kept.sort(), [`fairdeck-hidden-key/${id}/0`, `fairdeck-hidden-token/${id}/0`]);

  const gone = await context.newPage();
  await gone.goto(`${base}/table/hidden.html#table=no-such-table&seat=0&token=x`);
  await gone.waitForSelector('body[data-stopped="404"]', LONG);
  assert.match(await gone.textContent('#error'), /^there is no such table: check the link \(404; polling stopped\)$/);
  await fits(gone, 'a hidden seat of no table');
  await context.close();
});
