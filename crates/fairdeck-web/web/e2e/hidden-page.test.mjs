// A browser seat whose code the room does not serve: `fairdeck hidden seat --link URL --page`
// serves the seat page on loopback from the player's own binary and passes the page's calls on
// to the room. In a real Chromium (phone-sized) the page plays a hold'em hand beside a CLI
// seat; every request the page makes goes to the player's own address, none to the room's;
// the page says whose code it is; the player's fairdeck keeps the room's receipts in the
// seat's evidence file, which `fair verify --evidence` accepts; the page attests the
// transcript, and the verdict names both seats as attesting.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, PHONE, base, browser, cardsIn, dir, fits, setup, shot } from './table-harness.mjs';
import { LONG, advance, cliSeat, openHidden } from './hidden-harness.mjs';

setup();

/** `fairdeck hidden seat --link - --page` on a free loopback port; resolves to its page's address. */
function localSeat(link) {
  const child = spawn(BIN, ['hidden', 'seat', '--link', '-', '--page', '--page-bind', '127.0.0.1:0'],
    { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(`${link}\n`);
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  const url = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /open (http:\/\/127\.0\.0\.1:\d+\/table\/hidden\.html#\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`the page server exited ${code}: ${err}`)));
  });
  return { child, url, err: () => err };
}

test('a seat page served by the player\'s own fairdeck plays a hand; the room serves it no code', LONG, async () => {
  const id = 'e2e-hidden-own-page';
  const inv = await openHidden(id, ['ann', 'bob']);
  const local = localSeat(inv.links[0]);
  try {
    const url = await local.url;
    const origin = new URL(url).origin;
    assert.notEqual(origin, new URL(base).origin);
    const context = await browser.newContext({ viewport: PHONE, acceptDownloads: true });
    const page = await context.newPage();
    page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
    const elsewhere = [];
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== origin && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
    await page.goto(url);
    await page.waitForSelector('body[data-served-by="player"]');
    assert.match(await page.textContent('#trust'), /your own fairdeck/);
    assert.doesNotMatch(await page.textContent('#trust'), /trusts the room's code/);
    const cli = cliSeat(inv.links[1], 'own-page-cli.key').done;
    await page.waitForSelector('#download-key:not([hidden])', LONG);
    await fits(page, 'a hidden seat served by the player\'s fairdeck');
    for (const to of ['flop', 'turn', 'river', 'showdown', 'end']) await advance(id, inv.operator, to);
    await page.waitForSelector('#verified:not([hidden])', LONG);
    assert.equal(await page.getAttribute('#verified', 'data-verdict'), 'valid', await page.textContent('#verdict'));
    await page.waitForSelector('#verified[data-attested]', LONG);
    assert.equal(await page.getAttribute('#verified', 'data-attested'), 'yes');
    assert.equal((await cardsIn(page, '#hand')).length, 2);
    // Each seat key's fingerprint, this seat's marked, for the players to compare (spec §17).
    assert.match(await page.textContent('#fingerprints'), /^Key fingerprints: seat 0 \(you\) [0-9a-f]{4}(-[0-9a-f]{4}){4}, seat 1 [0-9a-f]{4}(-[0-9a-f]{4}){4}\./);
    await shot(page, 'hidden-seat-own-page-phone');
    const seat = await cli;
    assert.equal(seat.code, 0, seat.err);
    assert.deepEqual(elsewhere, [], 'the page asked another origin');

    // The player's fairdeck kept the room's receipts and served heads, outside the browser.
    const evFile = join(dir, `${id}-seat0.evidence.json`);
    assert.ok(existsSync(evFile), local.err());
    const evidence = JSON.parse(readFileSync(evFile, 'utf8'));
    assert.ok(evidence.some((e) => 'index' in e), JSON.stringify(evidence));
    assert.ok(evidence.some((e) => !('index' in e)), JSON.stringify(evidence));
    const file = join(dir, 'own-page.json');
    writeFileSync(file, await (await fetch(`${base}/api/hidden/${id}/transcript`)).text());
    const verify = spawnSync(BIN, ['fair', 'verify', file, '--evidence', evFile, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(verify.status, 0, verify.stdout + verify.stderr);
    assert.deepEqual(JSON.parse(verify.stdout).attested_by, [0, 1]);

    // The page server passes on only this table's seat API, as JSON.
    const other = await fetch(`${origin}/api/hidden/another-table`);
    assert.equal(other.status, 404);
    assert.match((await other.json()).error, /only the seat API of table/);
    const admin = await fetch(`${origin}/api/tables`);
    assert.equal(admin.status, 404);
  } finally {
    local.child.kill('SIGINT');
  }
});
