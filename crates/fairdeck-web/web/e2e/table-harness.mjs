// The set-up of the table service's browser tests: `fairdeck table serve` on 127.0.0.1:0
// over a SQLite file in a temporary directory, Debian's chromium driven by playwright-core,
// and the helpers they share (the layout scan at phone and desktop size, screenshots,
// opening a table through the API). Not a test file: each table*.test.mjs calls `setup()`.

import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { assertLayout } from './layout.mjs';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
export const BIN = process.env.FAIRDECK_BIN ?? join(REPO, 'target/debug/fairdeck');
const SHOTS = join(REPO, 'target/screenshots');
mkdirSync(SHOTS, { recursive: true });
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1200, height: 900 };

/** The service's origin, the browser and the temporary directory, once `setup()` ran. */
export let base;
export let browser;
export let dir;
let server;

/** Registers the server and browser for this test file. */
export function setup() {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fairdeck-table-e2e-'));
    server = spawn(BIN, ['table', 'serve', '--bind', '127.0.0.1:0', '--db', join(dir, 'tables.sqlite'),
      '--admin-token-file', join(dir, 'admin')], { stdio: ['ignore', 'pipe', 'ignore'] });
    base = await new Promise((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (d) => {
        out += d;
        const m = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
        if (m) resolve(m[1]);
      });
      server.on('exit', (code) => reject(new Error(`fairdeck table serve exited with ${code}`)));
    });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
  });
  after(async () => {
    await browser?.close();
    server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}

export const shot = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
/**
 * The layout scan at phone size (nothing wider than the screen, no text under 12 px, no
 * word split, 44 px targets) and at desktop size (the same without the targets); the page
 * is left at the size it had.
 */
export async function fits(page, what) {
  const size = page.viewportSize();
  await page.setViewportSize(PHONE);
  await assertLayout(page, `${what}, phone`);
  await page.setViewportSize(DESKTOP);
  await assertLayout(page, `${what}, desktop`, { targets: false });
  await page.setViewportSize(size);
}
export const cardsIn = (page, selector) => page.$$eval(`${selector} [data-card]`, (els) => els.map((e) => e.dataset.card));

/** Waits until the page's body says the table is in `phase`. */
export const phase = (page, name) => page.waitForSelector(`body[data-phase="${name}"]`, { timeout: 30_000 });

/** Opens a table through the API with the admin token; returns the invitation. */
export async function openTable(request, id, seats, commitSeconds = 600) {
  const admin = readFileSync(join(dir, 'admin'), 'utf8').trim();
  const manifest = { version: 2, table: id, game: 'holdem', deck: 'standard', seats, first: 0, last: 0 };
  const res = await request.post(`${base}/api/tables`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { manifest, commit_seconds: commitSeconds, reveal_seconds: 600 },
  });
  assert.equal(res.status(), 201, await res.text());
  return res.json();
}

