// A six-seat hidden hold'em hand at `fairdeck table serve`: five seats each in a Chromium
// context of its own (own storage, phone-sized), one `fairdeck hidden seat` on the command
// line in the middle of the seat order (so the shuffles pass browser → CLI → browser), and
// the operator in a sixth context (hidden tables have no operator page: it moves the hand on
// over the API from that context and reads the transcript there). After the deal and after
// every street each page shows exactly its own two cards and the board, never another seat's
// card; at the end every page's verdict, the CLI seat's and `fairdeck fair verify`'s on the
// transcript the operator's context downloaded are valid and the same. The hand's wall time
// is printed, never asserted.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, PHONE, base, browser, cardsIn, dir, fits, setup, shot } from './table-harness.mjs';
import { LONG, advance, allowed, cliSeat, openHidden, seatPage, sleep, summaryOf } from './hidden-harness.mjs';

setup();
const SEATS = ['ann', 'bob', 'cy', 'dee', 'eve', 'fay'];
const CLI = 2;

/** Every card a page shows anywhere, and its own and the board's. */
async function shown(page) {
  return {
    all: (await cardsIn(page, 'body')).sort(),
    own: await cardsIn(page, '#hand'),
    board: await cardsIn(page, '#community'),
  };
}

/** Waits until the CLI seat printed its two cards; answers them. */
async function cliCards(cli) {
  const until = Date.now() + LONG.timeout;
  for (;;) {
    const m = new RegExp(`hand 1: seat ${CLI}'s cards: (\\S+) (\\S+)`).exec(cli.out());
    if (m) return m.slice(1);
    assert.ok(Date.now() < until, `the CLI seat never printed its cards: ${cli.out()}`);
    await sleep(200);
  }
}

/** Before the showdown: each page shows its own two cards and `board` cards, nothing else. */
async function onlyOwn(pages, board, cli) {
  const own = [];
  for (const page of pages.values()) {
    await page.waitForFunction((n) => document.querySelectorAll('#hand [data-card]').length === 2
      && document.querySelectorAll('#community [data-card]').length === n, board, LONG);
    const s = await shown(page);
    assert.equal(s.board.length, board);
    assert.deepEqual(s.all, [...s.own, ...s.board].sort(), 'a page shows only its own cards and the board');
    assert.equal((await cardsIn(page, '#opened')).length, 0);
    own.push(...s.own);
  }
  const first = await shown(pages.values().next().value);
  assert.equal(new Set([...own, ...cli, ...first.board]).size, own.length + cli.length + board, 'every hand is its own');
  return own;
}

test('six seats, five in their own Chromium contexts and one on the command line, play a hidden hand; every verdict agrees', LONG, async () => {
  const id = 'e2e-hidden-six';
  const inv = await openHidden(id, SEATS);
  const operator = await browser.newContext({ viewport: PHONE });
  const op = operator.request;
  const t0 = performance.now();
  const pages = new Map();
  for (const [i, link] of inv.links.entries()) {
    if (i !== CLI) pages.set(i, await seatPage(link));
  }
  const cli = cliSeat(inv.links[CLI]);
  // Before each step of the operator, every page has caught up: its own cards and the board.
  await allowed(id, 'flop', op);
  const dealtAt = performance.now();
  const theirs = await cliCards(cli);
  const dealt = await onlyOwn(pages, 0, theirs);
  await fits(pages.get(0), 'a six-seat hidden hand, dealt');
  await shot(pages.get(0), 'hidden-six-dealt-phone');
  for (const [street, board] of [['flop', 0], ['turn', 3], ['river', 4], ['showdown', 5]]) {
    await allowed(id, street, op);
    assert.deepEqual(await onlyOwn(pages, board, theirs), dealt);
    await advance(id, inv.operator, street, op);
  }
  for (const page of pages.values()) {
    await page.waitForFunction((n) => document.querySelectorAll('#opened .showdown-hand').length === n, SEATS.length, LONG);
  }
  await fits(pages.get(1), 'a six-seat hidden hand at the showdown');
  await advance(id, inv.operator, 'end', op);
  for (const page of pages.values()) await page.waitForSelector('#verified:not([hidden])', LONG);
  const seat = await cli.done;
  const wall = performance.now() - t0;

  // Every page: valid, its own two cards as dealt, opened as such, the CLI seat's as it printed.
  const summaries = new Set();
  for (const [n, [i, page]] of [...pages].entries()) {
    assert.equal(await page.getAttribute('#verified', 'data-verdict'), 'valid', await page.textContent('#verdict'));
    summaries.add(await page.getAttribute('#verified', 'data-summary'));
    assert.deepEqual(await cardsIn(page, '#hand'), dealt.slice(2 * n, 2 * n + 2));
    assert.deepEqual(await cardsIn(page, `#opened [data-seat="${i}"]`), dealt.slice(2 * n, 2 * n + 2));
    assert.deepEqual(await cardsIn(page, `#opened [data-seat="${CLI}"]`), theirs);
    assert.equal(await page.textContent('#status'), 'the table is finished');
    assert.equal(await page.isHidden('#error'), true, await page.textContent('#error'));
  }
  await fits(pages.get(4), 'a six-seat hidden hand, finished and verified');
  await shot(pages.get(4), 'hidden-six-finished-phone');
  assert.equal(seat.code, 0, seat.err);
  summaries.add(summaryOf(seat.out));

  // Every seat, in the browser and on the command line, attested the transcript it verified.
  for (const page of pages.values()) await page.waitForSelector('#verified[data-attested]', LONG);
  for (const page of pages.values()) assert.equal(await page.getAttribute('#verified', 'data-attested'), 'yes');
  // The operator's context downloads the transcript; `fair verify` checks that file.
  const view = await operator.newPage();
  const res = await view.goto(`${base}/api/hidden/${id}/transcript`);
  const file = join(dir, 'six.json');
  writeFileSync(file, await res.text());
  const verify = spawnSync(BIN, ['fair', 'verify', file], { encoding: 'utf8' });
  assert.equal(verify.status, 0, verify.stdout + verify.stderr);
  summaries.add(summaryOf(verify.stdout));
  assert.deepEqual([...summaries], ['valid: every message is in its place, signed by its seat, and every proof listed holds']);
  const json = spawnSync(BIN, ['fair', 'verify', file, '--format', 'json'], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(json.stdout).attested_by, [0, 1, 2, 3, 4, 5]);
  const dealSecs = ((dealtAt - t0) / 1000).toFixed(1);
  console.log(`six-seat hidden hold'em hand, 5 Chromium contexts + 1 CLI seat (debug build): keys to the dealt hole cards ${dealSecs} s, keys to verdict ${(wall / 1000).toFixed(1)} s wall`);
  await operator.close();
});
