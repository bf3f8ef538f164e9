// The set-up of the browser tests of `fairdeck serve`: the server on 127.0.0.1:0, Debian's
// chromium driven by playwright-core, and the helpers that open a page at desktop or phone
// size. FAIRDECK_BIN names the binary (default: target/debug/fairdeck); screenshots go into
// target/screenshots/. Not a test file: each *.test.mjs calls `harness()` once.

import { before, after } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = process.env.FAIRDECK_BIN ?? join(REPO, 'target/debug/fairdeck');
const SHOTS = join(REPO, 'target/screenshots');
/** A phone's screen (an iPhone 12–15 in CSS px). */
export const PHONE = { width: 390, height: 844 };

/** Registers the server and browser for this test file; returns its page helpers. */
export function harness() {
  let server;
  let base;
  let browser;
  let profile;
  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = spawn(BIN, ['serve', '--bind', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    base = await new Promise((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (d) => {
        out += d;
        const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) resolve(m[1]);
      });
      server.on('exit', (code) => reject(new Error(`fairdeck serve exited with ${code}`)));
    });
    profile = mkdtempSync(join(tmpdir(), 'fairdeck-e2e-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      viewport: { width: 1300, height: 1000 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
  });
  after(async () => {
    await browser?.close();
    server?.kill();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** Opens a page route (at `viewport`, default the desktop's) and waits until it has rendered. */
  const open = async (route, viewport = null) => {
    const page = await browser.newPage();
    if (viewport) await page.setViewportSize(viewport);
    await page.goto(`${base}#/${route}`);
    await page.waitForSelector('main[data-ready="true"]', { timeout: 120_000 });
    return page;
  };
  return {
    open,
    /** A blank tab and the URL of a route, for tests that drive the loading themselves. */
    blank: () => browser.newPage(),
    url: (route) => `${base}#/${route}`,
    openPhone: (route) => open(route, PHONE),
    shot: (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true }),
    /** One screenful (what a phone shows), `selector` scrolled to its top: the book's pictures. */
    screen: async (page, name, selector) => {
      await page.$eval(selector, (e) => e.scrollIntoView());
      await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    },
  };
}

/** Does `action` and waits until every API call it started has been answered and drawn. */
export async function act(page, action) {
  await action();
  await page.waitForSelector('main#page:not([aria-busy])', { timeout: 120_000 });
}
