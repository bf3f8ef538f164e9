// End-to-end tests of `fairdeck serve` in a real browser: Debian's chromium, driven by
// playwright-core, against the server on 127.0.0.1 (no network beyond loopback; set-up in
// harness.mjs). Each test saves a screenshot of its page into target/screenshots/. The
// interactions at phone size are in phone.test.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertLayout } from './layout.mjs';
import { harness, REPO } from './harness.mjs';

const { open, openPhone, shot, blank, url } = harness();

test('deal renders 52 distinct card images and the replay link reproduces it', async () => {
  const page = await open('deal?game=bridge');
  const cards = await page.$$eval('#deal-output svg.card[data-card]', (els) => els.map((e) => e.dataset.card));
  assert.equal(cards.length, 52);
  assert.equal(new Set(cards).size, 52);
  assert.equal(await page.locator('.hand').count(), 4);
  assert.match(await page.textContent('#deal-entropy'), /a bridge deal needs 95\.4 bits \(52!\/\(13!\)\^4 deals\), the key holds 256/);
  await shot(page, 'deal');
  const href = await page.getAttribute('#replay', 'href');
  assert.match(href, /seed=[0-9a-f]{64}/);
  const again = await open(href.replace(/^#\//, ''));
  const replayed = await again.$$eval('#deal-output svg.card[data-card]', (els) => els.map((e) => e.dataset.card));
  assert.deepEqual(replayed, cards);
  await again.close();
  await page.close();
});

test('an algorithm steps forward and back', async () => {
  const page = await open('algorithms?alg=fisher-yates&n=4&seed=e2e');
  const deck = () => page.$$eval('#deck .tile', (els) => els.map((e) => e.dataset.card).join(' '));
  assert.equal(await page.textContent('#step-counter'), 'step 0 / 3');
  assert.equal(await deck(), '1 2 3 4');
  await page.click('#step-forward');
  assert.equal(await page.textContent('#step-counter'), 'step 1 / 3');
  const after1 = await deck();
  assert.match(await page.textContent('#step-action'), /^swap 4 and \d$/);
  await page.click('#step-forward');
  await page.click('#step-back');
  assert.equal(await deck(), after1);
  assert.match(page.url(), /step=1/);
  await page.click('#step-back');
  assert.equal(await deck(), '1 2 3 4');
  await page.waitForSelector('#tree svg');
  assert.equal(await page.locator('#tree .leaf').count(), 24);
  assert.equal(await page.locator('#tree .leaf.taken').count(), 1);
  await page.click('#step-forward');
  await shot(page, 'algorithms');
  await page.close();
});

test('the fairness page shows naive-swap biased and Fisher–Yates uniform', async () => {
  const page = await open('fairness?a=naive-swap&b=fisher-yates&n=5');
  assert.equal(await page.getAttribute('.verdict[data-alg="naive-swap"]', 'data-uniform'), 'false');
  assert.equal(await page.getAttribute('.verdict[data-alg="fisher-yates"]', 'data-uniform'), 'true');
  // Every Fisher–Yates cell is exactly 1/5; naive-swap's are not.
  const fy = await page.$$eval('.matrix-card[data-alg="fisher-yates"] td', (els) => els.map((e) => e.dataset.p));
  assert.equal(fy.length, 25);
  assert.ok(fy.every((p) => p === '1/5'));
  const naive = await page.$$eval('.matrix-card[data-alg="naive-swap"] td', (els) => els.map((e) => e.dataset.p));
  assert.ok(naive.some((p) => p !== '1/5'));
  await shot(page, 'fairness');
  await page.close();
});

test('an audit card draws its rising-sequence and valley histograms against the uniform law', async () => {
  const page = await open('fairness?a=naive-swap&b=fisher-yates&n=52&trials=2000&seed=e2e');
  for (const alg of ['naive-swap', 'fisher-yates']) {
    for (const count of ['rising-sequences', 'valleys']) {
      const svg = `.matrix-card[data-alg="${alg}"] svg.histogram[data-count="${count}"]`;
      // Every deck is in one bar, and the uniform law's markers run along the bars.
      const decks = await page.$$eval(`${svg} rect.observed`, (els) => els.reduce((a, e) => a + Number(e.dataset.decks), 0));
      assert.equal(decks, 2000, `${alg}, ${count}`);
      assert.equal(await page.locator(`${svg} polyline.uniform`).count(), 1);
      assert.equal(await page.locator(`${svg} circle.uniform-point`).count(), await page.locator(`${svg} rect.observed`).count());
    }
  }
  // Beside each audit, the bench's power table: decks this audit needs per named machine.
  const power = '.matrix-card[data-alg="naive-swap"] .power-table';
  const machines = await page.$$eval(`${power} tr[data-machine]`, (els) => els.map((e) => e.dataset.machine));
  assert.ok(machines.includes('12 GSR riffles') && machines.includes('2 passes, 10 shelves'), machines.join(', '));
  assert.match(await page.textContent(`${power} tr[data-machine="12 GSR riffles"]`), /^12 GSR riffles[\d,]+[\d,]+[\d,]+$/);
  await assertLayout(page, 'the audit cards with their histograms on a desktop', { targets: false });
  await shot(page, 'fairness-histograms');
  await page.close();
  // At phone size the panels stack, within the screen, their text at least 12 px.
  const phone = await openPhone('fairness?a=naive-swap&b=fisher-yates&n=52&trials=2000&seed=e2e');
  assert.equal(await phone.locator('svg.histogram').count(), 4);
  assert.equal(await phone.locator('.power-table').count(), 2);
  await assertLayout(phone, 'the audit cards with their histograms at phone size');
  await phone.close();
});

test('the hand-shuffle page draws the seven-shuffles curve', async () => {
  const page = await open('mix?n=52&models=riffle');
  await page.waitForSelector('#mix-chart polyline[data-model="riffle"]');
  assert.match(await page.textContent('.matrix-card[data-model="riffle"]'), /below ½ after 7 shuffles/);
  await shot(page, 'mix');
  await page.close();
});

test('the chaos page measures an order and lists the sorting swaps', async () => {
  const page = await open('chaos?values=1 4 2 3 5');
  assert.equal(await page.textContent('#chaos-value'), '2');
  assert.equal(await page.locator('#swaps-ascending li').count(), 3); // start + 2 swaps
  await shot(page, 'chaos');
  await page.close();
});

test('the verify page says valid for an honest deal and names the difference for a tampered one', async () => {
  const page = await open('verify');
  await page.click('#verify-demo');
  await page.waitForSelector('#verify-result[data-valid="true"]', { timeout: 30_000 });
  await shot(page, 'verify');
  await page.click('#verify-tamper');
  await page.waitForSelector('#verify-result[data-valid="false"]');
  const differences = await page.$$eval('#verify-result li', (els) => els.map((e) => e.textContent));
  assert.ok(differences.length > 0);
  assert.match(differences.join(' '), /2|5/);
  await page.close();
});

test("the verify page passes the spec's vectors", async () => {
  const text = readFileSync(join(REPO, 'docs/fair-dealing.md'), 'utf8');
  const vectors = text.split(/^### Vector /m).slice(1).map((section) => {
    const block = /```\n([\s\S]*?)```/.exec(section)[1];
    const v = {};
    for (const line of block.split('\n').filter(Boolean)) {
      const m = /^(client seed|\w+)\s+(.*)$/.exec(line);
      v[m[1]] = m[2];
    }
    return v;
  });
  assert.ok(vectors.length >= 3);
  for (const v of vectors) {
    const q = new URLSearchParams({ commitment: v.commitment, secret: v.secret, seed: JSON.parse(v['client seed']), nonce: v.nonce, deck: v.deck, deal: v.cards });
    const page = await open(`verify?${q}`);
    await page.waitForSelector('#verify-result');
    assert.equal(await page.getAttribute('#verify-result', 'data-valid'), 'true', `vector ${v.nonce}`);
    await page.close();
  }
});

test('the verify page checks a version 2 transcript against a commitment typed separately', async () => {
  const text = readFileSync(join(REPO, 'docs/fair-dealing.md'), 'utf8');
  const vectors = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));
  const t = vectors.find((v) => v.transcript && !v.transcript.lock).transcript;
  const t21 = vectors.find((v) => v.transcript && v.transcript.lock && !v.transcript.void).transcript;
  const page = await open('verify');
  const check = async (doc, commitment, lock = '') => {
    await page.fill('#transcript-doc', JSON.stringify(doc));
    await page.fill('#transcript-commitment', commitment);
    await page.fill('#transcript-lock', lock);
    await page.click('#transcript-button');
    await page.waitForSelector('#transcript-result');
    return page.getAttribute('#transcript-result', 'data-verdict');
  };
  // The commitment inside the document is never used: without a typed one, no "valid".
  assert.equal(await check(t, ''), 'self-consistent-only');
  // Version 2 has no seat lock to compare: the commitment alone is a partial check.
  assert.equal(await check(t, t.commitment), 'partial');
  // Version 2.1 with the commitment and the lock the seat recorded: valid.
  assert.equal(await check(t21, t21.commitment), 'partial');
  assert.equal(await check(t21, t21.commitment, t21.lock), 'valid');
  await shot(page, 'verify-transcript');
  const tampered = structuredClone(t21);
  const piles = tampered.deals[0].piles;
  [piles[0].cards[0], piles[1].cards[0]] = [piles[1].cards[0], piles[0].cards[0]];
  assert.equal(await check(tampered, t21.commitment, t21.lock), 'invalid');
  const kinds = await page.$$eval('#transcript-result li[data-kind]', (els) => els.map((e) => e.dataset.kind));
  assert.ok(kinds.includes('hand'), kinds.join());
  await page.close();
});

test('a bad parameter shows an error message', async () => {
  const page = await open('deal?players=99');
  const error = page.locator('.error');
  assert.ok(await error.isVisible());
  // The page's own field names ("Players", "Shuffles (audit)"), not the API's or the CLI's.
  assert.match(await error.textContent(), /Players must be an integer from 1 to 10/);
  assert.equal(await page.getAttribute('#f-players', 'aria-invalid'), 'true');
  await shot(page, 'error');
  await page.close();
  const fair = await open('fairness?a=naive-swap&b=fisher-yates&n=52&trials=999999');
  assert.match(await fair.textContent('p.error'), /^⚠ Shuffles \(audit\) must be/);
  assert.doesNotMatch(await fair.textContent('main'), /--trials|--allow-long/);
  await fair.close();
});

// A page left before its answer came must not write its state into the next page's URL
// (seen while checking issue 36: a late deal turned #/mix?n=52&models= into #/mix?game=bridge…).
test("a page left while loading leaves the next page's link alone", async () => {
  const page = await blank();
  let answered;
  const late = new Promise((resolve) => { answered = resolve; });
  await page.route('**/api/deal**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
    answered();
  });
  await page.goto(url('deal?game=bridge'));
  await page.evaluate(() => { window.location.hash = '#/mix?n=52&models='; });
  await page.waitForSelector('#mix-empty');
  await late;
  await page.waitForSelector('main#page:not([aria-busy])'); // the deal's answer read and handled
  assert.match(page.url(), /#\/mix\?n=52&models=none$/);
  await page.close();
});

// Phone size (issue 26, item 7): every page at 390 × 844 fits the screen. An element
// may leave the viewport only inside a box that scrolls or clips it sideways.
/** Where the page opened: the header's height, the vertical scroll and the page's height. */
function opened(page) {
  return page.evaluate(() => ({
    header: document.querySelector('header.top').getBoundingClientRect().height,
    scrollY: window.scrollY,
    height: document.documentElement.scrollHeight,
  }));
}

const PHONE_PAGES = [
  ['deal-bridge', 'deal?game=bridge&seed=phone'],
  ['deal-shoe', 'deal?game=holdem&deck=shoe:6&players=10&seed=phone'],
  ['algorithms', 'algorithms'],
  ['algorithms-tree', 'algorithms?alg=fisher-yates&n=4&seed=phone'],
  ['fairness', 'fairness'],
  ['fairness-52', 'fairness?a=naive-swap&b=fisher-yates&n=52&trials=20000&seed=phone'],
  ['mix', 'mix?n=52&models=riffle,top-to-random&seed=phone'],
  ['chaos', 'chaos'],
  ['chaos-40', `chaos?values=${Array.from({ length: 40 }, (_, i) => (i * 17) % 40 + 1).join(' ')}`],
  ['verify', 'verify'],
];

// Issue 36: on every page, at phone size, nothing sticks out, no text is under 12 px, no word
// is broken and every control is a 44 × 44 px target; on a desktop the same but the targets.
for (const [name, route] of PHONE_PAGES) {
  test(`at phone size ${name} fits the screen, reads and taps`, async () => {
    const page = await openPhone(route);
    await shot(page, `phone-${name}`);
    await assertLayout(page, route);
    const o = await opened(page);
    assert.ok(o.header < 120, `${route}: the header takes ${o.header} px`);
    assert.equal(o.scrollY, 0, `${route}: the page opened scrolled down`);
    if (name === 'chaos-40') assert.ok(o.height < 2800, `${route}: ${o.height} px tall`);
    await page.close();
    const desktop = await open(route);
    await assertLayout(desktop, `${route} on a desktop`, { targets: false });
    await desktop.close();
  });
}

test('at phone size the mixing chart keeps readable text and the heatmap tells a tapped cell', async () => {
  const page = await openPhone('mix?n=52&models=riffle');
  await page.waitForSelector('#mix-chart text');
  const heights = await page.$$eval('#mix-chart text', (els) => els.map((e) => e.getBoundingClientRect().height));
  assert.ok(Math.min(...heights) >= 9, `chart text ${Math.min(...heights)} px high`);
  await page.close();
  const fair = await openPhone('fairness?a=naive-swap&b=fisher-yates&n=5');
  await fair.click('.matrix-card[data-alg="fisher-yates"] td >> nth=0');
  assert.match(await fair.textContent('.matrix-card[data-alg="fisher-yates"] .cell-detail'), /card 1 at position 1: 1\/5/);
  await fair.close();
});

test('the fairness page falls back to an audit when the walk is too big, and shows both sides', async () => {
  const page = await open('fairness?a=sort-keys&b=fisher-yates&n=6');
  assert.match(await page.textContent('.matrix-card[data-alg="sort-keys"] .fallback'), /Too many paths to walk exactly at n = 6.*audit of \d+ shuffles/);
  assert.equal(await page.locator('.matrix-card[data-alg="sort-keys"] table.matrix td').count(), 36);
  assert.equal(await page.getAttribute('.verdict[data-alg="fisher-yates"]', 'data-uniform'), 'true');
  // Issue 34: each test row says how its p-value was read and which law it compared.
  const fixed = '.matrix-card[data-alg="sort-keys"] tr[data-test="fixed-points"]';
  assert.match(await page.textContent(`${fixed} .method`), /^(exact|chi-square doubled)$/);
  assert.match(await page.textContent(`${fixed} .law`), /^fixed points in bins 0 \| 1/);
  assert.match(await page.textContent('.matrix-card[data-alg="sort-keys"] tr.skipped[data-test="birthday"]'), /skipped: /);
  await shot(page, 'fairness-fallback');
  await page.close();
  const broken = await open('fairness?a=no-such-shuffle&b=fisher-yates&n=5');
  assert.match(await broken.textContent('.matrix-card[data-alg="no-such-shuffle"] .error'), /no-such-shuffle/);
  assert.equal(await broken.locator('.matrix-card[data-alg="fisher-yates"] table.matrix td').count(), 25);
  await broken.close();
});

test('the deal page names --players on its CLI line and lays a 284-card stock out card by card', async () => {
  const page = await open('deal?game=holdem&deck=shoe:6&players=10&seed=stock');
  assert.equal(await page.textContent('#deal-cli'), 'fairdeck deal --game holdem --deck shoe:6 --players 10 --seed stock');
  const stock = page.locator('.hand[data-hand="Stock"] .card-slot');
  const count = await stock.count();
  assert.equal(count, 312 - 2 * 10 - 5 - 3);
  const corners = await stock.evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); return `${Math.round(r.left)},${Math.round(r.top)}`; }));
  assert.equal(new Set(corners).size, count, 'every stock card at a place of its own');
  await shot(page, 'deal-shoe');
  await page.close();
});

test('small texts: one shuffle, an empty chart, no debug line on the chaos page', async () => {
  const mix = await open('mix?n=2&models=riffle');
  assert.match(await mix.textContent('.matrix-card[data-model="riffle"]'), /below ½ after 1 shuffle(?!s)/);
  await mix.close();
  const none = await open('mix?n=10&models=none');
  assert.match(await none.textContent('#mix-empty'), /Tick at least one/);
  await none.close();
  const chaos = await open('chaos?values=3 1 2');
  assert.doesNotMatch(await chaos.textContent('main'), /selection sort found/);
  await chaos.close();
});

// Issue 22: the Fairness page never shows a green verdict for an entry the catalogue
// itself calls flawed (intended_uniform: false), at the smallest trials the page takes and
// a few just above, at sizes it walks exactly (2, 6) and sizes it audits (12), on a
// desktop and on a phone. Green is `data-verdict="uniform"`; the one exception is an exact
// proof (some flawed shuffles are uniform on 2 cards), checked against /api/exact.
test('the Fairness page is never green for a flawed catalogue entry', async () => {
  const probe = await open('algorithms');
  const catalogue = await probe.evaluate(async () => (await fetch('/api/algorithms')).json());
  await probe.close();
  const flawed = catalogue.filter((a) => a.intended_uniform === false).map((a) => a.name);
  assert.ok(flawed.length >= 5, `flawed entries: ${flawed}`);
  const greens = [];
  for (const [opener, cases] of [[open, [[2, 1], [2, 10], [6, 1], [12, 1], [12, 30]]], [openPhone, [[6, 1], [12, 30]]]]) {
    for (const alg of flawed) {
      for (const [n, trials] of cases) {
        const page = await opener(`fairness?a=${alg}&n=${n}&trials=${trials}&seed=e2e`);
        const verdicts = await page.$$eval(`.verdict[data-alg="${alg}"]`, (els) => els.map((e) => [e.dataset.verdict, e.textContent]));
        const errors = await page.$$eval('.matrix-card .error', (els) => els.map((e) => e.textContent));
        assert.ok(verdicts.length || errors.length, `${alg} n=${n} trials=${trials}: no verdict and no error`);
        for (const [kind, text] of verdicts) {
          if (kind !== 'uniform') continue;
          // Green is allowed only as an exact proof: the whole law walked, no mass unresolved
          // (naive-swap on 2 cards is uniform). Never from an audit of a flawed entry.
          const exact = await page.evaluate(async ([a, k]) => {
            const r = await fetch(`/api/exact?alg=${a}&n=${k}`);
            return r.ok ? r.json() : null;
          }, [alg, n]);
          const proven = exact && exact.uniform === true && exact.unresolved === '0' && /exactly uniform/.test(text);
          if (!proven) greens.push(`${alg} n=${n} trials=${trials}: ${text}`);
        }
        await page.close();
      }
    }
  }
  assert.deepEqual(greens, []);
});

// Issue 22, item 4: the Hand shuffles page draws each simulated curve's 95 % band and its
// noise floor, says so in the legend, and marks the overhand points inside the noise (the
// tester's 33 shuffles of 52 cards) instead of reading them as mixed — at phone size.
test('at phone size the Hand shuffles page shows the band, the noise floor and the noisy points', async () => {
  const page = await openPhone('mix?n=52&models=overhand&seed=tester');
  await page.waitForSelector('#mix-chart polygon[data-series="band"]');
  assert.equal(await page.locator('#mix-chart line[data-series="noise-floor"]').count(), 1);
  assert.match(await page.textContent('#mix-legend'), /95 % band/);
  assert.match(await page.textContent('#mix-legend'), /noise floor/);
  assert.ok(await page.locator('#mix-chart circle[data-noise="true"]').count() > 0);
  const row33 = page.locator('.matrix-card[data-model="overhand"] tr', { hasText: /^33/ });
  assert.equal(await row33.locator('td[data-noise="true"]').count(), 1);
  assert.match(await page.textContent('.matrix-card[data-model="overhand"] [data-role="noise-floor"]'), /does not mean the deck is mixed/);
  await assertLayout(page, 'overhand at phone size');
  await shot(page, 'mix-band-phone');
  await page.close();
});
