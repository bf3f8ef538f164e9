// The pages that open and operate a hidden (version-3) table, in a real browser: the open
// page (/, a "hidden hands (v3)" table) opens a three-seat hold'em table and lists the seat
// links and the operator's link; the operator's page (/table/hidden-operate.html) shows each
// seat and what it owes, the stage's deadline counting down, and one button per step, enabled
// only when the status allows it; three `fairdeck hidden seat` processes play the seats; the
// operator moves the hand on with the buttons; at the end the page verifies the transcript
// itself, and `fairdeck fair verify` on the file it offers gives the same verdict. A bad
// operator token stops the page with one line and no buttons. Every state passes the layout
// scan at phone and desktop size. The wall time is printed, never asserted.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, DESKTOP, base, browser, dir, fits, setup, shot } from './table-harness.mjs';
import { LONG, cliSeat, openHidden, sleep, status, summaryOf } from './hidden-harness.mjs';

setup();
const SEATS = ['ann', 'bob', 'cy'];
const STEPS = ['flop', 'turn', 'river', 'showdown', 'end'];

/** The buttons of the operator's page: step → disabled. */
const buttons = (page) => page.$$eval('#actions button', (bs) => Object.fromEntries(bs.map((b) => [b.dataset.step, b.disabled])));

/** Waits until the page shows the table's status with nothing owed, and checks every button against `next`. */
async function ready(page, id, step) {
  await page.waitForSelector(`#actions button[data-step="${step}"]:not([disabled])`, LONG);
  const s = await status(id);
  assert.equal(s.stage, null, JSON.stringify(s));
  assert.deepEqual(await buttons(page), Object.fromEntries(STEPS.map((n) => [n, !s.next.includes(n)])));
  assert.ok(await page.isHidden('#deadline'));
  assert.match(await page.textContent('#status'), new RegExp(`^hand 1(, showdown)?: waiting for you \\(next: ${s.next.join(', ')}\\)$`));
}

test('the open page opens a hidden table; the operator page moves the hand on with its buttons and verifies the transcript', LONG, async () => {
  const id = 'e2e-hidden-op';
  const admin = readFileSync(join(dir, 'admin'), 'utf8').trim();
  const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  const opener = await context.newPage();
  opener.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  await opener.goto(`${base}/`);
  assert.ok(await opener.isHidden('#step-field'));
  await opener.selectOption('select[name=kind]', 'hidden');
  assert.ok(await opener.isDisabled('select[name=game]'));
  assert.equal(await opener.inputValue('select[name=game]'), 'holdem');
  assert.ok(await opener.isHidden('#minutes-field'));
  await fits(opener, 'the open page, hidden hands chosen');
  await opener.fill('input[name=admin]', admin);
  await opener.fill('input[name=table]', id);
  await opener.fill('textarea[name=seats]', SEATS.join('\n'));
  await opener.fill('input[name=step]', '600');
  await opener.click('button[type=submit]');
  await opener.waitForSelector('#links:not([hidden])');
  assert.ok(await opener.isHidden('#commitment-line'));
  const links = await opener.$$eval('#link-list a', (as) => as.map((a) => [a.textContent, a.href]));
  assert.equal(links.length, 1 + SEATS.length);
  assert.equal(links[0][0], 'Operator');
  assert.match(links[0][1], new RegExp(`^${base}/table/hidden-operate\\.html#table=${id}&token=[^&]+$`));
  for (const [i, [label, href]] of links.slice(1).entries()) {
    assert.equal(label, `Seat ${i}: ${SEATS[i]}`);
    assert.match(href, new RegExp(`^${base}/table/hidden\\.html#table=${id}&seat=${i}&token=[^&]+$`));
  }
  const s0 = await status(id);
  assert.equal(s0.step_seconds, 600);
  assert.deepEqual(s0.manifest.seats, SEATS);
  await fits(opener, 'the open page with a hidden table\'s links');
  await shot(opener, 'hidden-open');

  // The operator's page: the token leaves the address bar; every button waits for the keys.
  const op = await context.newPage();
  op.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  await op.goto(links[0][1]);
  await op.waitForFunction(() => document.body.dataset.state === 'keys');
  assert.equal(op.url(), `${base}/table/hidden-operate.html#table=${id}`);
  assert.deepEqual(await buttons(op), Object.fromEntries(STEPS.map((n) => [n, true])));
  assert.match(await op.textContent('#deadline'), /^The keys stage closes: .+ — in \d+ min \d+ s$/);
  assert.deepEqual(await op.$$eval('#seats li', (l) => l.map((e) => e.textContent)),
    SEATS.map((n, i) => `Seat ${i} (${n}): owes its key`));
  assert.match(await op.textContent('#status'), /^waiting for the seats' keys: seat 0 \(ann\), seat 1 \(bob\), seat 2 \(cy\)$/);
  await fits(op, 'the hidden operator, waiting for keys');
  await op.setViewportSize({ width: 390, height: 844 });
  await shot(op, 'hidden-operate-keys-phone');
  await op.setViewportSize(DESKTOP);

  const t0 = performance.now();
  const seats = links.slice(1).map(([, href], i) => cliSeat(href, `op-seat${i}.key`));
  await ready(op, id, 'flop');
  await fits(op, 'the hidden operator, dealt');
  // A reload carries on with the token kept in this tab.
  await op.reload();
  await ready(op, id, 'flop');
  assert.equal(op.url(), `${base}/table/hidden-operate.html#table=${id}`);
  for (const step of ['flop', 'turn', 'river', 'showdown']) {
    const before = Number(await op.getAttribute('body', 'data-entries'));
    await op.click(`#actions button[data-step="${step}"]`);
    // The step is taken: the button turns off (never allowed twice).
    await op.waitForFunction((n) => Number(document.body.dataset.entries) > n, before, LONG);
    const next = { flop: 'turn', turn: 'river', river: 'showdown', showdown: 'end' }[step];
    await ready(op, id, next);
    assert.equal(await op.isDisabled(`#actions button[data-step="${step}"]`), true);
    assert.ok(await op.isHidden('#error'), await op.textContent('#error'));
    await fits(op, `the hidden operator after the ${step}`);
  }
  assert.deepEqual(await buttons(op), { flop: true, turn: true, river: true, showdown: true, end: false });
  await op.click('#actions button[data-step="end"]');
  await op.waitForSelector('#record[data-verdict]', LONG);
  const wall = performance.now() - t0;
  assert.equal(await op.getAttribute('#record', 'data-verdict'), 'valid', await op.textContent('#verdict'));
  assert.match(await op.textContent('#verdict'), /^The whole transcript verifies \(checked in this browser by the code of fairdeck fair verify\): valid: /);
  assert.equal(await op.textContent('#status'), 'the table is finished');
  assert.ok(await op.isHidden('#steps'));
  assert.ok(await op.isHidden('#void'));
  assert.ok(await op.isHidden('#deadline'));
  await fits(op, 'the hidden operator, finished and verified');
  await op.setViewportSize({ width: 390, height: 844 });
  await shot(op, 'hidden-operate-finished-phone');

  // The file the page offers is what `fair verify` reads, with the same verdict.
  const [download] = await Promise.all([op.waitForEvent('download'), op.click('#download')]);
  assert.equal(download.suggestedFilename(), `${id}.json`);
  const file = join(dir, 'hidden-op.json');
  await download.saveAs(file);
  // The same transcript as the service serves, but for the room's signature on its head, which
  // is made afresh (a new nonce) at each answer, and the seats' attestations, which each seat
  // posts when it has verified the finished table: compare with both left out.
  const unsigned = (text) => {
    const doc = JSON.parse(text);
    delete doc.head.signature;
    delete doc.attestations;
    return doc;
  };
  const served = await (await fetch(`${base}/api/hidden/${id}/transcript`)).text();
  assert.deepEqual(unsigned(readFileSync(file, 'utf8')), unsigned(served));
  const verify = spawnSync(BIN, ['fair', 'verify', file], { encoding: 'utf8' });
  assert.equal(verify.status, 0, verify.stdout + verify.stderr);
  assert.equal(summaryOf(verify.stdout), await op.getAttribute('#record', 'data-summary'));
  for (const seat of seats) {
    const done = await seat.done;
    assert.equal(done.code, 0, done.err);
    assert.equal(summaryOf(done.out), summaryOf(verify.stdout));
  }
  console.log(`hidden hold'em hand, 3 CLI seats driven from the operator's page (debug build), keys to verdict: ${(wall / 1000).toFixed(1)} s wall`);
  await context.close();
});

test('a bad operator token stops the operator page with one line and no buttons', LONG, async () => {
  const id = 'e2e-hidden-op-bad';
  await openHidden(id, ['ann', 'bob']);
  const opened = await status(id);
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  const sent = [];
  page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) sent.push(`${r.method()} ${new URL(r.url()).pathname}`); });
  await page.goto(`${base}/table/hidden-operate.html#table=${id}&token=not-the-token`);
  await page.waitForSelector('body[data-stopped="403"]', LONG);
  const words = await page.textContent('#error');
  assert.match(words, /^the table refused this link's token: .+ \(403; polling stopped\)$/);
  assert.doesNotMatch(words, /\n/);
  assert.equal(await page.textContent('#status'), 'stopped');
  assert.equal(await page.$$eval('#actions button', (b) => b.length), 0);
  assert.ok(await page.isHidden('#steps'));
  assert.equal(page.url(), `${base}/table/hidden-operate.html#table=${id}`);
  // The refused token is not kept, and the table took nothing.
  assert.equal(await page.evaluate((k) => sessionStorage.getItem(k), `fairdeck-hidden-operator/${id}`), null);
  assert.deepEqual(await status(id), opened);
  // The token was checked by the operator-only read, before anything else: no step was sent.
  assert.deepEqual(sent, [`GET /api/hidden/${id}/operator`]);
  await fits(page, 'the hidden operator, its token refused');
  await shot(page, 'hidden-operate-refused');
  // Nothing more is asked once the page stopped.
  let calls = 0;
  page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) calls += 1; });
  await sleep(2500);
  assert.equal(calls, 0);

  // A link without a token says so, also in one line.
  const bare = await context.newPage();
  await bare.goto(`${base}/table/hidden-operate.html#table=${id}`);
  await bare.waitForSelector('body[data-stopped="link"]');
  assert.equal(await bare.textContent('#error'), 'this link has no table or token: open the operator link the table was opened with');
  await fits(bare, 'the hidden operator, no token');
  await context.close();
});

test('a seat that never sends its key: past the window the operator page shows the void, the seat and what it owed', LONG, async () => {
  const id = 'e2e-hidden-op-void';
  // 8 s: the live seats send their keys well inside it even on a slow machine.
  const inv = await openHidden(id, SEATS, 8);
  const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  const seats = inv.links.slice(0, 2).map((link, i) => cliSeat(link, `op-void${i}.key`));
  await page.goto(`${base}/table/hidden-operate.html#table=${id}&token=${inv.operator}`);
  await page.waitForFunction(() => /^Seat 2 \(cy\): owes its key$/.test(document.querySelector('#seats li[data-seat="2"]')?.textContent)
    && document.querySelectorAll('#seats li[data-owes="0"]').length === 2, null, LONG);
  assert.match(await page.textContent('#deadline'), /^The keys stage closes: .+ — (in [1-8] s|passed)$/);
  await page.waitForSelector('#record[data-verdict]', LONG);
  assert.equal(await page.getAttribute('#void', 'data-seat'), '2');
  assert.equal(await page.getAttribute('#void', 'data-stage'), 'keys');
  assert.equal(await page.textContent('#void-record'), 'The table is void: at the keys stage, seat 2 (cy) did not send its key '
    + 'before the deadline. No card of the hand is shown that was not shown already; the room counts the void against that seat.');
  assert.equal(await page.textContent('#status'), 'the table is void: a seat did not send what it owed in time');
  assert.equal(await page.getAttribute('#record', 'data-verdict'), 'valid', await page.textContent('#verdict'));
  assert.ok(await page.isHidden('#steps'));
  await fits(page, 'the hidden operator, void at the keys');
  await shot(page, 'hidden-operate-void');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const file = join(dir, 'hidden-op-void.json');
  await download.saveAs(file);
  const verify = spawnSync(BIN, ['fair', 'verify', file], { encoding: 'utf8' });
  assert.equal(verify.status, 0, verify.stdout + verify.stderr);
  assert.equal(summaryOf(verify.stdout), await page.getAttribute('#record', 'data-summary'));
  for (const seat of seats) await seat.done;
  await context.close();
});
