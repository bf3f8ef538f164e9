// What the browser tests of hidden (version-3) tables share: opening a table through the API,
// reading its status, the operator moving a hand on, seat pages in their own Chromium contexts
// and `fairdeck hidden seat` on the command line. Not a test file: the hidden-*.test.mjs files
// import it after `setup()` of table-harness.mjs.

import { after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, PHONE, base, browser, dir } from './table-harness.mjs';

export const LONG = { timeout: 180_000 };
/** The CLI seats started, stopped when the file's tests end (a failed test leaves them polling). */
const children = [];
after(() => { for (const c of children) if (c.exitCode === null) c.kill(); });

export const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** Opens a hidden hold'em table through the API with the admin token; returns the invitation. */
export async function openHidden(id, seats, stepSeconds = 600) {
  const admin = readFileSync(join(dir, 'admin'), 'utf8').trim();
  const manifest = { version: 3, table: id, game: 'holdem', deck: 'standard', seats, first: 1, last: 1 };
  const res = await fetch(`${base}/api/hidden`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ manifest, step_seconds: stepSeconds }),
  });
  const text = await res.text();
  assert.equal(res.status, 201, text);
  return JSON.parse(text);
}

export const status = async (id) => (await fetch(`${base}/api/hidden/${id}`)).json();

/** Waits until nothing is owed and the operator may move the hand on to `to`. */
export async function allowed(id, to, request = null) {
  const read = async () => (request ? (await request.get(`${base}/api/hidden/${id}`)).json() : status(id));
  const until = Date.now() + LONG.timeout;
  for (;;) {
    const s = await read();
    if (!s.stage && s.next.includes(to)) return;
    assert.ok(Date.now() < until, `the table never allowed ${to}: ${JSON.stringify(s)}`);
    await sleep(200);
  }
}

/**
 * The operator: waits until nothing is owed and `to` is allowed, then advances to it. With
 * `request` (a browser context's API client) the calls come from that context.
 */
export async function advance(id, operator, to, request = null) {
  await allowed(id, to, request);
  const url = `${base}/api/hidden/${id}/advance`;
  const headers = { Authorization: `Bearer ${operator}`, 'Content-Type': 'application/json' };
  const body = { hand: 1, to };
  if (request) {
    const res = await request.post(url, { headers, data: body });
    assert.equal(res.status(), 200, await res.text());
    return;
  }
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  assert.equal(res.status, 200, await res.text());
}

/** A seat page in a Chromium context of its own (own storage), phone-sized. */
export async function seatPage(link) {
  const context = await browser.newContext({ viewport: PHONE, acceptDownloads: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => assert.fail(`page error: ${e.message}`));
  await page.goto(link);
  return page;
}

/**
 * `fairdeck hidden seat --link -`, the link on stdin; `done` resolves to its exit code and
 * output, `out()` is what it printed so far.
 */
export function cliSeat(link, keyFile = 'cli-seat.key') {
  const child = spawn(BIN, ['hidden', 'seat', '--link', '-', '--key', join(dir, keyFile), '--poll-ms', '200'],
    { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  child.stdin.end(`${link}\n`);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  const done = new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
  return { child, done, out: () => out };
}

/** The one-line summary a verdict printout of `fairdeck` ends with. */
export const summaryOf = (text) => /^(valid: .*|invalid: .*)$/m.exec(text)?.[1] ?? null;
