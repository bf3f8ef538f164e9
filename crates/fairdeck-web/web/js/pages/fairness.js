// The Fairness page: "Will It Shuffle?" with exact numbers. For n ≤ 7 the card ×
// position probability matrix of each algorithm comes from the exact walk (every path
// of its choice tree), each cell an exact fraction (hover), coloured by its deviation
// from 1/n; for larger n a bounded audit gives the heatmap, the p-values and a verdict
// with its false-alarm rate. State in the query: a, b, n, seed, trials.

import { histograms } from './histograms.js';
import { powerTable } from './power.js';
import { el, pageMessage, field, select, input, errorBox, showError, compact, fmt, deviationColor, sideways } from '../ui.js';

const EXACT_MAX_N = 7;
const [MIN_N, MAX_N] = [2, 200]; // the audit's range; the page keeps to it for exact walks too
const GROUP = 10; // a big matrix numbers every 10th card and position
const AUDIT_WORK = 10_000_000; // the server's bound on n × trials

// Exact fractions as [numerator, denominator] BigInt pairs.
const gcd = (a, b) => { a = a < 0n ? -a : a; while (b) [a, b] = [b, a % b]; return a; };
function frac(text) {
  const [p, q = '1'] = String(text).split('/');
  return [BigInt(p), BigInt(q)];
}
function add([a, b], [c, d]) {
  const p = a * d + c * b;
  const q = b * d;
  const g = gcd(p, q) || 1n;
  return [p / g, q / g];
}
const show = ([p, q]) => (q === 1n ? `${p}` : `${p}/${q}`);
const toNumber = ([p, q]) => Number(p) / Number(q);

/** matrix[card][pos] = P(card ends at pos), exact, from the walk's outcomes. */
function exactMatrix(report) {
  const n = report.n;
  const m = Array.from({ length: n }, () => Array.from({ length: n }, () => [0n, 1n]));
  for (const o of report.outcomes) {
    const p = frac(o.probability);
    o.permutation.forEach((card, pos) => { m[card][pos] = add(m[card][pos], p); });
  }
  return m;
}

function matrixTable(n, cell, big) {
  if (big) return bigMatrix(n, cell);
  const head = el('tr', {}, el('th', { text: 'card ↓ pos →' }), ...Array.from({ length: n }, (_, j) => el('th', { text: j + 1 })));
  const rows = Array.from({ length: n }, (_, i) => el('tr', {}, el('th', { text: i + 1 }), ...Array.from({ length: n }, (_, j) => cell(i, j))));
  return el('table', { class: 'matrix' }, el('tbody', {}, head, ...rows));
}

/**
 * A matrix too big to number every row and column: one header per group of GROUP cards or
 * positions, numbered by its last (10, 20, …), so labels keep a readable size above cells a
 * few pixels wide. A last group shorter than GROUP is left unnumbered.
 */
function bigMatrix(n, cell) {
  const groups = Math.ceil(n / GROUP);
  const span = (g) => Math.min(GROUP, n - g * GROUP);
  const label = (g) => (span(g) === GROUP ? (g + 1) * GROUP : '');
  const head = el('tr', {}, el('th', {}), ...Array.from({ length: groups }, (_, g) => el('th', { colspan: span(g), scope: 'colgroup', text: label(g) })));
  const rows = Array.from({ length: n }, (_, i) => el('tr', {},
    i % GROUP === 0 ? el('th', { rowspan: span(i / GROUP), scope: 'rowgroup', text: label(i / GROUP) }) : null,
    ...Array.from({ length: n }, (_, j) => cell(i, j))));
  return el('table', { class: 'matrix big' },
    el('caption', { text: 'rows: card ↓ · columns: position →' }), el('tbody', {}, head, ...rows));
}

function legend(full) {
  const stops = [-1, -0.5, 0, 0.5, 1];
  return el('div', { class: 'legend' }, 'below 1/n',
    ...stops.map((x) => el('span', { class: 'swatch', style: `background:${deviationColor(x)}` })),
    `above 1/n (full colour: ${full})`);
}

/** The exact verdict's words and colour: "uniform" only for a complete walk. */
function exactVerdict(report) {
  const tv = frac(report.total_variation);
  if (report.uniform) {
    return [`exactly uniform: all ${report.orders} orders have probability 1/${report.orders}`, 'uniform'];
  }
  if (report.unresolved === '0') {
    return [`biased: total variation from uniform ${show(tv)} ≈ ${fmt(toNumber(tv))}, ${report.support} of ${report.orders} orders reachable`, 'biased'];
  }
  const least = toNumber(frac(report.total_variation_at_least));
  const most = fmt(toNumber(frac(report.total_variation_at_most)));
  const resolved = `${report.resolved} of the probability resolved`;
  if (least > 0) {
    return [`biased: total variation from uniform at least ${fmt(least)} whatever the unresolved paths do (${resolved})`, 'biased'];
  }
  const part = report.uniform_on_resolved ? 'uniform on the resolved paths only' : 'undetermined';
  return [`not proven: ${part}; ${resolved}, so the whole law is within ${most} of uniform`, 'open'];
}

/** A matrix whose cells tell their numbers on a click or tap too (touch screens cannot hover). */
function tappable(table) {
  const detail = el('p', { class: 'note cell-detail', text: 'tap or hover a cell for its numbers' });
  table.addEventListener('click', (ev) => {
    const td = ev.target.closest('td');
    if (td?.title) detail.textContent = td.title;
  });
  return [sideways(table, 'wider than the screen: scroll the matrix sideways'), detail];
}

function exactCard(report, m, scale) {
  const n = report.n;
  const cell = (i, j) => {
    const p = toNumber(m[i][j]);
    const d = p * n - 1;
    return el('td', { style: `background:${deviationColor(d / scale)}`, title: `card ${i + 1} at position ${j + 1}: ${show(m[i][j])} ≈ ${p.toFixed(4)} (1/n = 1/${n}; ${d >= 0 ? '+' : ''}${(d * 100).toFixed(2)}%)`, 'data-p': show(m[i][j]), text: n <= 5 ? show(m[i][j]) : p.toFixed(3) });
  };
  const [verdict, kind] = exactVerdict(report);
  return el('div', { class: 'matrix-card', 'data-alg': report.algorithm },
    el('h3', { text: report.algorithm }),
    el('div', { class: 'verdict', 'data-uniform': String(report.uniform), 'data-verdict': kind, 'data-alg': report.algorithm, text: verdict }),
    ...tappable(matrixTable(n, cell, false)),
    el('p', { class: 'note', text: `exact: ${report.paths} paths of the choice tree walked${report.unresolved !== '0' ? `, unresolved mass ${report.unresolved}` : ''}` }));
}

function auditCard(report, scale, fallback) {
  const n = report.n;
  const expected = report.trials / n;
  const sd = Math.sqrt(expected * (1 - 1 / n));
  const cell = (i, j) => {
    const c = report.positions[i][j];
    const z = (c - expected) / sd;
    return el('td', { style: `background:${deviationColor(z / scale)}`, title: `card ${i + 1} at position ${j + 1}: ${c} of ${report.trials} (${(c / report.trials).toFixed(4)}; expected ${fmt(expected)}, z = ${z.toFixed(1)})` });
  };
  const kind = { 'biased': 'biased', 'uniform within tolerance': 'uniform' }[report.verdict] ?? 'open';
  const positions = (report.detectable ?? []).find((d) => d.test === 'positions');
  const blunt = report.verdict === 'no bias detected' && positions
    ? (positions.too_few
      ? ': too few shuffles to be sure of catching any bias'
      : `: this run would have caught only card × position biases of at least ${fmt(positions.size)} (|P − 1/n|, with probability 0.8) — not evidence of uniformity`)
    : '';
  // Each row says how its p-value was read and which law it compared (the
  // CLI's `p-value from` and `law tested` columns); skipped tests say why. A
  // statistic that is not a finite number (a likelihood ratio of 0 has the
  // logarithm −∞) comes as JSON null and reads '–'.
  const tests = el('table', { class: 'tests' }, el('tbody', {},
    el('tr', {}, ...['test', 'statistic', 'dof', 'p-value', 'p-value from', '', 'law tested'].map((t) => el('th', { text: t }))),
    ...report.tests.map((t) => el('tr', { 'data-test': t.name }, el('td', { text: t.name }), el('td', { text: t.statistic == null ? '–' : fmt(t.statistic, 6) }), el('td', { text: t.dof ?? '–' }),
      el('td', { text: t.p_value.toExponential(2) }), el('td', { class: 'method', text: t.method }),
      el('td', { class: t.passed ? 'pass' : 'fail', text: t.passed ? 'pass' : 'FAIL' }), el('td', { class: 'law', text: t.law }))),
    ...(report.skipped ?? []).map((s) => el('tr', { class: 'skipped', 'data-test': s.name }, el('td', { text: s.name }),
      el('td', { colspan: '6', text: `skipped: ${s.reason}` })))));
  return el('div', { class: 'matrix-card', 'data-alg': report.source },
    el('h3', { text: report.source }),
    fallback ? el('p', { class: 'warn fallback', text: fallback }) : null,
    el('div', { class: 'verdict', 'data-uniform': String(kind === 'uniform'), 'data-verdict': kind, 'data-alg': report.source,
      text: `${report.verdict}${report.failed.length ? ` (failed: ${report.failed.join(', ')})` : ''}${blunt}` }),
    // The model estimate, as the CLI's `model estimate:` line says it.
    report.estimate ? el('p', { class: 'estimate', text: `model estimate: ${report.estimate.sentence}` }) : null,
    el('p', { class: 'note', text: `${report.trials} shuffles; family-wise false-alarm rate ${report.alpha} (each of ${report.tests.length} tests at ${report.per_test_alpha.toExponential(1)}, Bonferroni): a fair shuffle is called biased at most once in ${fmt(1 / report.alpha)} audits.` }),
    ...tappable(matrixTable(n, cell, n > 20)), histograms(report), sideways(tests), powerTable(),
    el('p', { class: 'note', text: `seed ${report.seed}` }));
}

export async function render(root, query, ctx) {
  const error = errorBox();
  let names = ['naive-swap', 'fisher-yates'];
  try {
    names = (await ctx.api('/api/algorithms')).map((a) => a.name);
  } catch (e) {
    showError(error, e.message);
  }
  const state = { a: query.get('a') ?? 'naive-swap', b: query.get('b') ?? 'fisher-yates', n: query.get('n') ?? '6', seed: query.get('seed') ?? '', trials: query.get('trials') ?? '' };
  const form = el('form', { class: 'controls', id: 'fair-form' },
    field('Algorithm', select('a', names, state.a)),
    field('next to', select('b', [['', '(none)'], ...names], state.b)),
    field('Cards n', input('n', state.n, { type: 'number', min: MIN_N, max: MAX_N }), `≤ ${EXACT_MAX_N}: exact; larger: audit`),
    field('Seed (audit)', input('seed', state.seed, { placeholder: 'empty: fresh' })),
    field('Shuffles (audit)', input('trials', state.trials, { type: 'number', min: 1, placeholder: 'auto' })),
    el('button', { type: 'submit', text: 'Compare' }));
  const out = el('div', { id: 'fair-output' });
  root.append(el('h2', { text: 'Fairness: where does each card land?' }),
    el('p', { class: 'lead', text: 'Row i, column j: the probability that card i ends at position j. A fair shuffle puts every card everywhere with probability exactly 1/n, so its matrix is plain white. Up to 7 cards the numbers are exact (every path of the algorithm’s choice tree is walked — tap or hover a cell for its fraction); beyond, a statistical audit estimates them and states its false-alarm rate. The classic mistake, swapping each card with any card (naive-swap), sits next to Fisher–Yates by default.' }),
    form, error, out);

  // One side at a time: exact up to 7 cards, else (or when its choice tree has too many
  // paths for the server's walk) an audit, labelled as such. A side that fails shows its
  // own error; the other side's matrix is shown all the same.
  const side = async (alg, n, audit) => {
    let fallback = null;
    if (n <= EXACT_MAX_N) {
      try {
        return { alg, exact: await ctx.api('/api/exact', { alg, n }) };
      } catch (e) {
        if (e.parameter !== 'max_paths') throw e;
        fallback = `Too many paths to walk exactly at n = ${n} (${e.message}): this matrix is estimated by an audit of ${audit.trials} shuffles instead.`;
      }
    }
    const report = await ctx.api('/api/audit', { alg, n, trials: audit.trials, seed: audit.seed });
    audit.seed = audit.seed ?? report.seed;
    return { alg, audit: report, fallback };
  };

  const compare = async (params) => {
    showError(error, '');
    const n = Number(params.n);
    // The exact walk would take n = 1, but the page says 2–200 and means it (issue 36).
    if (!/^\d+$/.test(params.n ?? '') || n < MIN_N || n > MAX_N) {
      out.replaceChildren();
      showError(error, pageMessage(form, { parameter: 'n', message: `n must be an integer from ${MIN_N} to ${MAX_N}` }));
      return;
    }
    out.replaceChildren(el('p', { class: 'loading', text: 'Computing…' }));
    const algs = [params.a, params.b].filter(Boolean);
    const audit = { trials: params.trials || String(Math.min(100000, Math.floor(AUDIT_WORK / Math.max(n, 1)))), seed: params.seed || undefined };
    const sides = [];
    for (const alg of algs) {
      try {
        sides.push(await side(alg, n, audit));
      } catch (e) {
        sides.push({ alg, error: pageMessage(form, e) });
      }
    }
    const exact = sides.filter((s) => s.exact);
    const ms = exact.map((s) => exactMatrix(s.exact));
    const dev = Math.max(0.02, ...ms.flat(2).map((p) => Math.abs(toNumber(p) * n - 1)));
    const cards = sides.map((s) => (s.exact ? exactCard(s.exact, ms[exact.indexOf(s)], dev)
      : s.audit ? auditCard(s.audit, 4, s.fallback)
        : el('div', { class: 'matrix-card', 'data-alg': s.alg }, el('h3', { text: s.alg }), el('p', { class: 'error', role: 'alert', text: `⚠ ${s.error}` }))));
    if (exact.length) cards.push(legend(`${fmt(dev * 100, 3)}% away from 1/n`));
    if (sides.some((s) => s.audit)) cards.push(legend('4 standard errors away from the expected count'));
    const audited = sides.some((s) => s.audit);
    ctx.setQuery(compact({ a: params.a, b: params.b, n, trials: audited ? audit.trials : '', seed: audited ? audit.seed : '' }));
    out.replaceChildren(el('div', { class: 'matrices' }, ...cards));
    if (sides.every((s) => s.error)) showError(error, sides[0].error);
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const f = form.elements;
    compare(compact({ a: f.a.value, b: f.b.value, n: f.n.value.trim(), seed: f.seed.value.trim(), trials: f.trials.value.trim() }));
  });
  await compare(compact(state));
}
