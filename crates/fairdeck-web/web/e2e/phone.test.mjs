// Issue 36 at phone size (390 × 844): every page of `fairdeck serve`, used as a thumb would
// use it. After every interaction the whole page is checked (layout.mjs): nothing sticks
// out of the screen, no text under 12 px, no word broken into pieces, every control at
// least 44 × 44 px. Screenshots: target/screenshots/phone-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertLayout } from './layout.mjs';
import { harness, act, REPO } from './harness.mjs';

const { openPhone, shot, screen } = harness();

/** The distinct rows (tops, in px) the cards of each bridge hand lie on. */
const handRows = (page) => page.$$eval('.compass .hand', (hands) => hands.map((h) => new Set(
  [...h.querySelectorAll('.card-slot')].map((c) => Math.round(c.getBoundingClientRect().top)),
).size));

test('deal: bridge hands in one row each, and every button keeps the page within the screen', async () => {
  const page = await openPhone('deal?game=bridge&seed=phone');
  assert.deepEqual(await handRows(page), [1, 1, 1, 1], 'each hand of 13 cards in one row');
  await screen(page, 'screen-phone-deal', '#deal-output');
  await act(page, () => page.click('#deal-fresh'));
  assert.deepEqual(await handRows(page), [1, 1, 1, 1]);
  await assertLayout(page, 'after Fresh deal');
  await page.selectOption('#f-game', 'holdem');
  await page.fill('#f-players', '10');
  await act(page, () => page.click('#deal-button'));
  assert.equal(await page.locator('.hand[data-hand^="Player"]').count(), 10);
  await assertLayout(page, "after a hold'em deal for 10");
  await page.close();
  const refused = await openPhone('deal?players=99');
  assert.match(await refused.textContent('.error'), /Players must be/);
  await assertLayout(refused, 'a refused deal');
  await refused.close();
});

test('algorithms: the tree opens at its root, says it scrolls, and the player keeps the page within the screen', async () => {
  const page = await openPhone('algorithms?alg=fisher-yates&n=4&seed=phone');
  await page.waitForSelector('#tree svg');
  const tree = await page.evaluate(() => {
    const box = document.querySelector('#tree .scroll-x');
    const root = box.querySelector('circle.root').getBoundingClientRect();
    const seen = box.getBoundingClientRect();
    return { wide: box.scrollWidth > box.clientWidth, root: root.left >= seen.left && root.right <= seen.right,
      hint: !document.querySelector('#tree .scroll-hint').hidden };
  });
  assert.deepEqual(tree, { wide: true, root: true, hint: true });
  await shot(page, 'phone-algorithms-tree-root');
  await screen(page, 'screen-phone-tree', '#tree');
  for (const id of ['#step-forward', '#step-forward', '#step-back']) {
    await page.click(id);
    await assertLayout(page, `after ${id}`);
  }
  await page.click('.steps-list li[data-step="3"]');
  assert.equal(await page.textContent('#step-counter'), 'step 3 / 3');
  await page.fill('#f-n', '12');
  await act(page, () => page.click('#alg-form button[type="submit"]'));
  assert.equal(await page.locator('#deck .tile').count(), 12);
  await assertLayout(page, 'after running 12 cards');
  await page.close();
});

test('fairness: a tapped cell, 52 cards with readable headers, and n = 1 refused as the hint says', async () => {
  const page = await openPhone('fairness?a=naive-swap&b=fisher-yates&n=5');
  await page.click('.matrix-card[data-alg="naive-swap"] td >> nth=3');
  assert.match(await page.textContent('.matrix-card[data-alg="naive-swap"] .cell-detail'), /card 1 at position 4/);
  await assertLayout(page, 'after tapping a cell');
  await page.fill('#f-n', '52');
  await page.fill('#f-trials', '20000');
  await act(page, () => page.click('#fair-form button[type="submit"]'));
  const heads = await page.$$eval('table.matrix.big th', (els) => els.map((e) => e.textContent).filter(Boolean));
  assert.deepEqual(heads.slice(0, 5), ['10', '20', '30', '40', '50']);
  await assertLayout(page, 'after an audit of 52 cards');
  await screen(page, 'screen-phone-fairness-52', '#fair-output');
  await page.close();
  // Typed, the browser refuses n = 1 itself (min 2); from a link, the page says so.
  const one = await openPhone('fairness?n=1');
  assert.equal(await one.textContent('p.error'), '⚠ Cards n must be an integer from 2 to 200');
  assert.equal(await one.getAttribute('#f-n', 'aria-invalid'), 'true');
  assert.equal(await one.locator('.matrix-card').count(), 0);
  await assertLayout(one, 'n = 1');
  await one.close();
});

test('hand shuffles: whole words in the tables, a ticked box draws, and no curve is never a blank page', async () => {
  const page = await openPhone('mix?n=52&models=top-to-random&seed=phone');
  await assertLayout(page, 'top-to-random');
  const wide = await page.$$eval('.mix-tables .scroll-x', (boxes) => boxes.map((b) => ({
    wide: b.scrollWidth > b.clientWidth, hint: !b.parentElement.querySelector('.scroll-hint').hidden,
  })));
  assert.ok(wide.length > 0 && wide.every((w) => w.wide === w.hint), JSON.stringify(wide));
  await page.click('label:has(input[name="riffle"])');
  assert.equal(await page.isChecked('input[name="riffle"]'), true, 'tapping the label ticks the box');
  await act(page, () => page.click('#mix-form button[type="submit"]'));
  assert.equal(await page.locator('.mix-tables .matrix-card').count(), 2);
  await assertLayout(page, 'after ticking riffle');
  await screen(page, 'screen-phone-mix', '.mix-tables');
  await page.close();
  const none = await openPhone('mix?n=52&models=');
  assert.match(await none.textContent('#mix-empty'), /Tick at least one/);
  await assertLayout(none, 'no model');
  await none.close();
});

test('chaos: shuffle, sort and a long order keep the page within the screen', async () => {
  const page = await openPhone('chaos');
  await act(page, () => page.click('#chaos-shuffle'));
  await assertLayout(page, 'after Shuffle 1…n');
  await act(page, () => page.click('#chaos-sorted'));
  assert.equal(await page.textContent('#chaos-value'), '0');
  await page.fill('#f-values', Array.from({ length: 40 }, (_, i) => (i * 17) % 40 + 1).join(' '));
  await act(page, () => page.click('#chaos-form button[type="submit"]'));
  await assertLayout(page, 'after 40 values');
  await page.close();
});

test('verify: a demo deal, a tampered one and a version 2 transcript keep long hex readable', async () => {
  const page = await openPhone('verify');
  await page.click('#verify-demo');
  await page.waitForSelector('#verify-result[data-valid="true"]', { timeout: 30_000 });
  await assertLayout(page, 'after the demo');
  await shot(page, 'phone-verify-valid');
  await page.click('#verify-tamper');
  await page.waitForSelector('#verify-result[data-valid="false"]');
  await assertLayout(page, 'after tampering');
  const text = readFileSync(join(REPO, 'docs/fair-dealing.md'), 'utf8');
  const t = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1])).find((v) => v.transcript).transcript;
  await page.fill('#transcript-doc', JSON.stringify(t));
  await page.fill('#transcript-commitment', t.commitment);
  await page.click('#transcript-button');
  // "valid", or "partial" while the page does not ask for the seat lock: either way checked.
  await page.waitForSelector('#transcript-result:is([data-verdict="valid"], [data-verdict="partial"])');
  await assertLayout(page, 'after a version 2 check');
  // The recomputed commitment: 64 hex digits in at most 3 lines, not 64 lines of one digit.
  const lines = await page.$eval('#transcript-result .verify-values dd', (dd) => {
    const range = document.createRange();
    range.selectNodeContents(dd);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  assert.ok(lines <= 3, `the commitment takes ${lines} lines`);
  await page.locator('#transcript-result').scrollIntoViewIfNeeded();
  await shot(page, 'phone-verify-transcript');
  await page.close();
});
