// A seat that stops answering at a hidden table: after the table's window (`step_seconds`)
// the service writes the void record of docs/hidden-dealing.md §14, and every other seat's
// page says the hand (or, at the keys, the table) is void, naming the seat and exactly what
// it did not send, in the words `fairdeck hidden seat` prints. Played with short windows: a
// hold'em hand whose seat 2 closes its browser after the deal (void at the flop, seat 1 on the
// command line), and a table whose seat 1 never opens its link (void at the keys).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base, fits, setup, shot } from './table-harness.mjs';
import { LONG, advance, allowed, cliSeat, openHidden, seatPage } from './hidden-harness.mjs';

setup();

/** The void record of a transcript: the table's, else its last hand's. */
async function voidOf(id) {
  const t = await (await fetch(`${base}/api/hidden/${id}/transcript`)).json();
  return t.void ?? t.hands.at(-1)?.void ?? null;
}

/** What a page says of `stall` (seat names from `seats`; `what` is "hand" or "table"). */
function words(stall, seats, what) {
  const missing = stall.missing.map((m) => (m.message === 'share' ? `its share of position ${m.position}` : `its ${m.message}`));
  return `The ${what} is void: at the ${stall.stage} stage, seat ${stall.seat} (${seats[stall.seat]}) did not send `
    + `${missing.join(', ')} before the deadline.`;
}

/** Waits for a page's void section; checks its record, verdict and status line. */
async function seesVoid(page, stall, seats, what) {
  await page.waitForSelector('#void:not([hidden])', LONG);
  await page.waitForSelector('#verified:not([hidden])', LONG);
  const said = await page.textContent('#void-record');
  assert.ok(said.startsWith(words(stall, seats, what)), said);
  assert.equal(await page.getAttribute('#void', 'data-seat'), String(stall.seat));
  assert.equal(await page.getAttribute('#void', 'data-stage'), stall.stage);
  assert.equal(await page.getAttribute('#verified', 'data-verdict'), 'valid', await page.textContent('#verdict'));
  assert.equal(await page.textContent('#status'), 'the table is void: a seat did not send what it owed in time');
  assert.equal(await page.isHidden('#error'), true, await page.textContent('#error'));
}

test('a seat that closes its browser after the deal: past the window every other page shows the void, its seat and what it owed', LONG, async () => {
  const id = 'e2e-hidden-void';
  const seats = ['ann', 'bob', 'cy', 'dee'];
  // 20 s: room for a slow machine to get every live seat through keys, shuffles and the
  // deal before any deadline, so only seat 2 can be the one that stalls.
  const inv = await openHidden(id, seats, 20);
  const pages = [await seatPage(inv.links[0]), null, await seatPage(inv.links[2]), await seatPage(inv.links[3])];
  const cli = cliSeat(inv.links[1], 'void-cli.key');
  await allowed(id, 'flop');
  await pages[2].waitForFunction(() => document.querySelectorAll('#hand [data-card]').length === 2, null, LONG);
  // Seat 2 has seen its cards and goes away before the flop: its flop shares never come.
  await pages[2].context().close();
  await advance(id, inv.operator, 'flop');
  const t0 = performance.now();
  await pages[0].waitForSelector('#void:not([hidden])', LONG);
  const stall = await voidOf(id);
  for (const i of [0, 3]) await seesVoid(pages[i], stall, seats, 'hand');
  assert.deepEqual(stall, {
    stage: 'flop',
    seat: 2,
    missing: [9, 10, 11].map((position) => ({ message: 'share', position })),
  });
  // The CLI seat says the same of the void.
  const seat = await cli.done;
  assert.equal(seat.code, 0, seat.err);
  const owed = 'its share of position 9, its share of position 10, its share of position 11';
  assert.ok(seat.out.includes(`the table is void: at the flop stage, seat 2 (cy) did not send ${owed}\n`), seat.out);
  assert.ok((await pages[3].textContent('#void-record')).includes(`seat 2 (cy) did not send ${owed} before`));
  console.log(`void at the flop: the pages showed it ${((performance.now() - t0) / 1000).toFixed(1)} s after the flop opened without seat 2 (window 20 s)`);
  await fits(pages[0], 'a hidden seat, the hand void');
  await shot(pages[0], 'hidden-seat-void-phone');
  for (const i of [0, 3]) await pages[i].context().close();
});

test('a seat that never opens its link: past the window the page shows the table void at the keys', LONG, async () => {
  const id = 'e2e-hidden-void-keys';
  const seats = ['ann', 'bob'];
  // 8 s: seat 0's page loads and sends its key well inside it even on a slow machine.
  const inv = await openHidden(id, seats, 8);
  const page = await seatPage(inv.links[0]);
  const stall = { stage: 'keys', seat: 1, missing: [{ message: 'key' }] };
  await seesVoid(page, stall, seats, 'table');
  assert.deepEqual(await voidOf(id), stall);
  await fits(page, 'a hidden seat, the table void at the keys');
  await page.context().close();
});
