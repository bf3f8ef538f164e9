// A dishonest room against a browser seat (spec §11, §19): between the service and the page
// stands a proxy the room controls (it hands out the links), which rewrites every transcript it
// serves so that seat 1's key message is no longer the one seat 1 signed. The browser seat, a
// real Chromium page at phone size, verifies before it shuffles, refuses that transcript, stops
// for good with one line that names the room, sends nothing more, and offers its receipts; the
// receipts and the page's refusal agree with `fair verify`. The control: the same proxy passing
// transcripts unchanged lets the same page shuffle.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, PHONE, base, browser, dir, fits, setup, shot } from './table-harness.mjs';
import { LONG, cliSeat, openHidden, sleep, status } from './hidden-harness.mjs';

setup();

/** A proxy in front of the service; `rewrite(json)` may change each served transcript. */
function proxy(rewrite) {
  const room = new URL(base);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const headers = { ...req.headers, host: room.host };
      const out = request({ host: room.hostname, port: room.port, path: req.url, method: req.method, headers }, (answer) => {
        const body = [];
        answer.on('data', (c) => body.push(c));
        answer.on('end', () => {
          let bytes = Buffer.concat(body);
          if (req.method === 'GET' && /\/transcript(\?|$)/.test(req.url) && answer.statusCode === 200) {
            bytes = Buffer.from(JSON.stringify(rewrite(JSON.parse(bytes.toString('utf8')))));
          }
          const h = { ...answer.headers, 'content-length': String(bytes.length) };
          res.writeHead(answer.statusCode, h);
          res.end(bytes);
        });
      });
      out.end(Buffer.concat(chunks));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Seat 1's key signature with one hex digit changed: not a signature of seat 1's. */
function forgeSeat1(doc) {
  const key = doc.keys?.[1];
  if (key?.signature) key.signature.s = (key.signature.s[0] === '0' ? '1' : '0') + key.signature.s.slice(1);
  return doc;
}

async function seatThrough(server, link) {
  const via = link.replace(new URL(base).origin, `http://127.0.0.1:${server.address().port}`);
  const context = await browser.newContext({ viewport: PHONE, acceptDownloads: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  const posts = [];
  page.on('request', (r) => { if (r.method() === 'POST') posts.push(new URL(r.url()).pathname); });
  await page.goto(via);
  return { page, posts };
}

test('a browser seat refuses a transcript whose seat-1 key the room changed, stops for good and names the room', LONG, async () => {
  const id = 'e2e-room-forges';
  const inv = await openHidden(id, ['ann', 'bob']);
  const server = await proxy(forgeSeat1);
  try {
    const { page, posts } = await seatThrough(server, inv.links[0]);
    const cli = cliSeat(inv.links[1], 'forged-cli.key');
    await page.waitForSelector('body[data-stopped="room"]', LONG);
    const words = await page.textContent('#error');
    assert.match(words, /^the room served a transcript this seat refuses: .*not signed by seat 1.*\[at fault: the room\].*sends nothing more/);
    assert.doesNotMatch(words, /\n/);
    assert.equal(await page.textContent('#status'), 'stopped');
    // It sent its key and nothing after it; a while later, still nothing.
    await sleep(2500);
    assert.deepEqual(posts, [`/api/hidden/${id}/seats/0/key`]);
    const s = await status(id);
    assert.deepEqual(s.owed.find((o) => o.seat === 0)?.missing, [{ message: 'shuffle' }]);
    await fits(page, 'a hidden seat stopped by the room');
    await shot(page, 'hidden-seat-room-refused-phone');
    // Its receipts (the key's) agree with what the service itself publishes.
    const [saved] = await Promise.all([page.waitForEvent('download'), page.click('#download-evidence')]);
    const evFile = join(dir, 'forged-seat0.evidence.json');
    await saved.saveAs(evFile);
    assert.ok(JSON.parse(readFileSync(evFile, 'utf8')).some((e) => e.index === 0));
    const file = join(dir, 'forged.json');
    writeFileSync(file, await (await fetch(`${base}/api/hidden/${id}/transcript`)).text());
    const held = spawnSync(BIN, ['fair', 'verify', file, '--evidence', evFile, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(JSON.parse(held.stdout).differences.filter((d) => d.kind === 'room').length, 0, held.stdout);
    // What the proxy served: `fair verify` names the room, as the page did.
    writeFileSync(file, JSON.stringify(forgeSeat1(JSON.parse(readFileSync(file, 'utf8')))));
    const forged = spawnSync(BIN, ['fair', 'verify', file, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(forged.status, 1);
    assert.ok(JSON.parse(forged.stdout).differences.some((d) => d.kind === 'signature' && d.at_fault === 'the room'), forged.stdout);
    cli.child.kill();
  } finally {
    server.close();
  }
});

test('the control: the same proxy passing transcripts unchanged lets the browser seat shuffle', LONG, async () => {
  const id = 'e2e-room-honest-proxy';
  const inv = await openHidden(id, ['ann', 'bob']);
  const server = await proxy((doc) => doc);
  try {
    const { page, posts } = await seatThrough(server, inv.links[0]);
    const cli = cliSeat(inv.links[1], 'honest-proxy-cli.key');
    const until = Date.now() + LONG.timeout;
    while (!posts.includes(`/api/hidden/${id}/seats/0/shuffle`)) {
      assert.ok(Date.now() < until, 'the page never shuffled');
      assert.equal(await page.getAttribute('body', 'data-stopped'), null, await page.textContent('#error'));
      await sleep(200);
    }
    cli.child.kill();
  } finally {
    server.close();
  }
});
