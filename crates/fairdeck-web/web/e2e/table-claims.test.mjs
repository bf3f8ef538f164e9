// Issue 32, items 9 and 10 in a real browser: one seat link opened in two browsers (the
// second is told the seat is claimed elsewhere and commits nothing), the operator's page
// re-issuing that link (the first browser is refused from then on, the new link plays),
// and the operator's page counting a deadline down in local time, voiding the table after
// it (with a confirmation) and handing out the void record as a file `fair verify` reads.
// Every page state passes the layout scan at phone and desktop size.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN, PHONE, base, browser, dir, fits, openTable, phase, setup, shot } from './table-harness.mjs';

setup();

const seatUrl = (id, seat, token) => `${base}/table/play.html#table=${id}&seat=${seat}&token=${token}`;
const operatorUrl = (id, token) => `${base}/table/operate.html#table=${id}&token=${token}`;

/** Counts the POSTs a page sends to seat routes ending in `what` (commit, reveal, claim). */
function countPosts(page, what) {
  const seen = { n: 0 };
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith(`/${what}`)) seen.n += 1;
  });
  return seen;
}

test('a seat link opened in a second browser is claimed elsewhere; the operator re-issues it before the commitments close', async () => {
  const inv = await openTable(await browser.newContext().then((c) => c.request), 'e2e-claim', ['ann', 'bob']);
  // The operator clicks ann's link first, in their own browser, and claims it by mistake.
  const first = await browser.newContext({ viewport: PHONE });
  const firstPage = await first.newPage();
  await firstPage.goto(seatUrl('e2e-claim', 0, inv.seats[0]));
  await firstPage.click('#claim-button');
  await firstPage.waitForSelector('#seats li[data-state="committed"]', { timeout: 30_000 });
  // Ann opens the same link on her phone: claimed on another device; nothing is committed.
  const phone = await browser.newContext({ viewport: PHONE });
  const phonePage = await phone.newPage();
  const commits = countPosts(phonePage, 'commit');
  await phonePage.goto(seatUrl('e2e-claim', 0, inv.seats[0]));
  await phonePage.waitForSelector('body[data-stopped="claimed"]');
  assert.match(await phonePage.textContent('#error'), /already claimed on another device/);
  assert.equal(await phonePage.isVisible('#claim-button'), false);
  // Only the error: no "Loading…" above it, no empty headings of cards it will never show.
  assert.equal(await phonePage.isVisible('#status'), false);
  assert.deepEqual(await phonePage.$$eval('main section', (all) => all.filter((s) => !s.hidden).map((s) => s.id)), []);
  await phonePage.waitForTimeout(1500);
  assert.equal(commits.n, 0, 'the second browser commits nothing');
  await fits(phonePage, 'a seat claimed on another device');
  await shot(phonePage, 'table-claimed-elsewhere-phone');

  // The operator's page re-issues ann's link (after a confirmation).
  const opContext = await browser.newContext({ viewport: PHONE });
  const op = await opContext.newPage();
  await op.goto(operatorUrl('e2e-claim', inv.operator));
  await op.waitForSelector('#seats li[data-claimed="true"]');
  await fits(op, 'the operator with a claimed seat');
  op.once('dialog', (d) => d.accept());
  await op.click('button[data-action="New link for ann"]');
  await op.waitForSelector('#new-links a[data-seat="0"]');
  const fresh = await op.getAttribute('#new-links a[data-seat="0"]', 'href');
  assert.notEqual(fresh, seatUrl('e2e-claim', 0, inv.seats[0]));
  await op.waitForSelector('#seats li[data-claimed="false"][data-state="waiting"]');
  await fits(op, 'the operator with a new link');
  // The first browser is refused from now on and says why.
  await firstPage.waitForSelector('body[data-stopped="403"]', { timeout: 30_000 });
  // Ann opens the new link on her phone (a fresh page), claims and commits.
  const annPage = await phone.newPage();
  await annPage.goto(fresh);
  await annPage.click('#claim-button');
  await annPage.waitForSelector('#seats li[data-state="committed"]', { timeout: 30_000 });
  assert.equal(await annPage.getAttribute('body', 'data-stopped'), null);
  // Bob commits too: the commitments close, and no link is re-issued any more.
  const bob = await (await browser.newContext({ viewport: PHONE })).newPage();
  await bob.goto(seatUrl('e2e-claim', 1, inv.seats[1]));
  await bob.click('#claim-button');
  await op.waitForFunction(() => ['revealing', 'ready'].includes(document.body.dataset.phase), null, { timeout: 30_000 });
  assert.equal(await op.$$eval('button[data-action^="New link"]', (b) => b.length), 0);
  const refused = await op.request.post(`${base}/api/tables/e2e-claim/seats/0/reissue`, {
    headers: { Authorization: `Bearer ${inv.operator}` }, data: {},
  });
  assert.equal(refused.status(), 409);
  assert.match((await refused.json()).error, /re-issue a seat link/);
  await fits(annPage, 'a seat played from the re-issued link');
  for (const c of [first, phone, opContext]) await c.close();
});

test('the operator page counts the deadline down in local time, voids after it, and hands out the void record', async () => {
  const context = await browser.newContext({ viewport: PHONE, timezoneId: 'Asia/Kolkata' });
  const inv = await openTable(context.request, 'e2e-op-void', ['ann', 'bob'], 4);
  const seat = await context.newPage();
  await seat.goto(seatUrl('e2e-op-void', 0, inv.seats[0]));
  await seat.click('#claim-button');
  const op = await context.newPage();
  await op.goto(operatorUrl('e2e-op-void', inv.operator));
  await op.waitForSelector('#deadline:not([hidden])');
  const view = await (await op.request.get(`${base}/api/tables/e2e-op-void`)).json();
  // Local time (UTC+05:30 here), and a countdown that moves.
  const local = await op.evaluate((d) => new Date(d * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }), view.deadline);
  const text = await op.textContent('#deadline');
  assert.ok(text.startsWith(`Commitments close: ${local} — in `), text);
  const left = Number(await op.getAttribute('#deadline', 'data-left'));
  assert.ok(left >= 1 && left <= 4, `${left} s left`);
  assert.equal(await op.isDisabled('#void'), true, 'no void before the deadline');
  await fits(op, 'the operator counting down');
  await op.waitForFunction(() => document.querySelector('#deadline').dataset.left === '0', null, { timeout: 10_000 });
  assert.match(await op.textContent('#deadline'), /— passed$/);
  // Void asks first: dismissed, nothing happens; accepted, the table is void.
  await op.waitForFunction(() => !document.querySelector('#void').disabled);
  op.once('dialog', (d) => d.dismiss());
  await op.click('#void');
  await op.waitForTimeout(1500);
  assert.equal(await op.getAttribute('body', 'data-phase'), 'committing');
  let asked = '';
  op.once('dialog', (d) => {
    asked = d.message();
    d.accept();
  });
  await op.click('#void');
  await phase(op, 'void');
  assert.match(asked, /Void this table\?/);
  assert.equal(await op.textContent('#status'), 'phase: void — late: bob');
  await op.waitForSelector('#record:not([hidden])');
  await fits(op, 'the operator, void');
  await shot(op, 'table-operator-void-phone');
  const [download] = await Promise.all([op.waitForEvent('download'), op.click('#download')]);
  const file = join(dir, 'e2e-op-void.json');
  await download.saveAs(file);
  const out = spawnSync(BIN, ['fair', 'verify', '--format', 'json', file, '--commitment', view.commitment], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stdout + out.stderr);
  const verdict = JSON.parse(out.stdout);
  assert.equal(verdict.verdict, 'void');
  assert.match(JSON.stringify(verdict), /bob/);
  await context.close();
});
