// Moving a hidden seat to another browser mid-hand: seat 0 is dealt its cards in browser
// context A, downloads its key file there ("Download my key file", the format of `fairdeck
// hidden key`), and A is closed. Context B opens the same link: the page says the seat's key is
// not in this browser and sends nothing. Key files that are not this seat's — no key file at
// all, another table's (made by `fairdeck hidden key`), another seat's (the CLI seat's own),
// and one that names this seat but holds another secret — are each refused with one line and
// nothing kept. The downloaded file is then imported in B, which shows the same two cards,
// plays the rest of the hand and verifies it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cardsIn, dir, fits, setup, shot } from './table-harness.mjs';
import { LONG, advance, allowed, cliSeat, openHidden, seatPage } from './hidden-harness.mjs';

setup();
const SEATS = ['ann', 'bob', 'cy'];

/** Chooses `file` through the page's "Import key file" button. */
async function importFile(page, file) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('#import-key')]);
  await chooser.setFiles(file);
}

/** A key file of `fairdeck hidden key` for seat 0 of another table. */
function otherTableKey() {
  const transcript = join(dir, 'other.json');
  const manifest = { version: 3, table: 'other', game: 'holdem', deck: 'standard', seats: ['a', 'b'], first: 1, last: 1 };
  writeFileSync(transcript, JSON.stringify({ version: 3, manifest, keys: [], hands: [] }));
  const out = join(dir, 'other.key');
  const made = spawnSync(BIN, ['hidden', 'key', '--transcript', transcript, '--seat', '0', '--secret-out', out], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  return out;
}

/** Imports `file` in `page` and checks it is refused with `pattern`, in one line, nothing kept. */
async function refused(page, file, pattern, keyItem) {
  await importFile(page, file);
  await page.waitForSelector('#import-error:not([hidden])');
  const said = await page.textContent('#import-error');
  assert.match(said, pattern);
  assert.doesNotMatch(said, /\n/);
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), keyItem), null);
  assert.equal(await page.getAttribute('body', 'data-key'), 'missing');
}

test('a seat moves to another browser mid-hand with its key file; other key files are refused', LONG, async () => {
  const id = 'e2e-hidden-move';
  const inv = await openHidden(id, SEATS);
  const a = await seatPage(inv.links[0]);
  const bob = await seatPage(inv.links[1]);
  const cli = cliSeat(inv.links[2], 'move-cli.key');
  await allowed(id, 'flop');
  await a.waitForFunction(() => document.querySelectorAll('#hand [data-card]').length === 2, null, LONG);
  const cards = await cardsIn(a, '#hand');

  // Export in A: the downloaded file is the seat's key file, in the CLI's format.
  const [download] = await Promise.all([a.waitForEvent('download'), a.click('#download-key')]);
  assert.equal(download.suggestedFilename(), `${id}-seat0.key`);
  const keyFile = join(dir, 'moved.key');
  await download.saveAs(keyFile);
  const exported = JSON.parse(readFileSync(keyFile, 'utf8'));
  const cliKey = JSON.parse(readFileSync(join(dir, 'move-cli.key'), 'utf8'));
  assert.deepEqual(Object.keys(exported).sort(), Object.keys(cliKey).sort());
  assert.deepEqual([exported.table, exported.seat], [id, 0]);
  assert.match(exported.secret_key, /^[0-9a-f]{64}$/);
  await a.context().close();

  // B: the same link, another browser. It knows the seat's key is elsewhere and waits.
  const b = await seatPage(inv.links[0]);
  await b.waitForSelector('body[data-key="missing"]', LONG);
  assert.equal(await b.isVisible('#key-missing'), true);
  assert.equal(await b.isHidden('#download-key'), true);
  await fits(b, 'a hidden seat whose key is in another browser');
  await shot(b, 'hidden-seat-key-missing-phone');
  const keyItem = `fairdeck-hidden-key/${id}/0`;
  const junk = join(dir, 'junk.key');
  writeFileSync(junk, 'not a key file\n');
  await refused(b, junk, /^this is not a key file of a hidden seat/, keyItem);
  await refused(b, otherTableKey(), new RegExp(`^this key file is seat 0's at table other, not seat 0's at table ${id}: `), keyItem);
  await refused(b, join(dir, 'move-cli.key'), new RegExp(`^this key file is seat 2's at table ${id}, not seat 0's at table ${id}: `), keyItem);
  const forged = join(dir, 'forged.key');
  writeFileSync(forged, JSON.stringify({ ...cliKey, seat: 0 }));
  await refused(b, forged, new RegExp(`^this key file is not the key seat 0 published at table ${id}: `), keyItem);
  await fits(b, 'a hidden seat, a key file refused');

  // The seat's own file: B shows the same cards and plays on.
  await importFile(b, keyFile);
  await b.waitForFunction(() => document.querySelectorAll('#hand [data-card]').length === 2, null, LONG);
  assert.deepEqual(await cardsIn(b, '#hand'), cards);
  assert.equal(await b.isHidden('#import-error'), true);
  assert.equal(await b.isHidden('#key-missing'), true);
  assert.match(await b.textContent('#import-state'), /^imported moved\.key: this browser now plays the seat$/);
  assert.deepEqual(JSON.parse(await b.evaluate((k) => localStorage.getItem(k), keyItem)), exported);
  for (const step of ['flop', 'turn', 'river', 'showdown']) await advance(id, inv.operator, step);
  // Every seat opens its cards at the showdown (seat 0 from B) before the operator ends the hand.
  await bob.waitForFunction(() => document.querySelectorAll('#opened .showdown-hand').length === 3, null, LONG);
  await advance(id, inv.operator, 'end');
  for (const page of [b, bob]) {
    await page.waitForSelector('#verified:not([hidden])', LONG);
    assert.equal(await page.getAttribute('#verified', 'data-verdict'), 'valid', await page.textContent('#verdict'));
    assert.deepEqual(await cardsIn(page, '#opened [data-seat="0"]'), cards);
  }
  const seat = await cli.done;
  assert.equal(seat.code, 0, seat.err);
  await fits(b, 'a moved hidden seat, finished');
  for (const page of [b, bob]) await page.context().close();
});
