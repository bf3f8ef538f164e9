// The Hand shuffles page: how far from uniform a deck is after k riffles,
// top-to-random moves or overhand shuffles — the "seven shuffles" picture. Exact where
// the audit crate is exact (riffle for any n, every model for n ≤ 7); otherwise a
// simulated lower bound with its 95 % band and noise floor and, for top-to-random, an
// exact upper bound.
// State in the query: n, models, seed.

import { el, pageMessage, field, input, errorBox, showError, compact, fmt, sideways } from '../ui.js';

const MODELS = [
  ['riffle', 'riffle (Gilbert–Shannon–Reeds)', '#0f5132'],
  ['top-to-random', 'top card to a random place', '#1e5aa8'],
  ['overhand', 'overhand (packets of mean 6)', '#c62828'],
];
const WORK = 40_000_000; // the server's bound on simulated work

/** The k values asked for: all k up to `max`, every `step`-th one (and k = 1). */
function plan(model, n) {
  const h = Array.from({ length: n }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0);
  const max = model === 'riffle' ? 12 : model === 'top-to-random' ? Math.ceil(3 * n * h) : 4 * n;
  const step = model === 'riffle' ? 1 : Math.max(1, Math.ceil(max / 20));
  let sum = 0;
  for (let k = 1; k <= max; k += 1) if (k % step === 0 || k === 1) sum += k;
  const cost = model === 'overhand' ? n : 1;
  const trials = Math.max(1, Math.min(4000, Math.floor(WORK / (sum * cost))));
  return { max_shuffles: max, step, trials };
}

/** The chart, drawn `W` px wide (the space it has) so its text stays at its own size on a phone. */
function chart(series, W) {
  const H = Math.round(Math.min(380, W * 0.75)); const L = 60; const R = 20; const T = 20; const B = 50;
  const xmax = Math.max(...series.flatMap((s) => s.report.rows.map((r) => r.shuffles)));
  const x = (k) => L + (Math.log10(k) / Math.log10(Math.max(xmax, 10))) * (W - L - R);
  const y = (v) => T + (1 - v) * (H - T - B);
  const svg = el('svg:svg', { viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img', 'aria-label': 'distance from uniform against number of shuffles' });
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(el('svg:line', { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: v === 0.5 ? '#c9a227' : '#e3e8ee', 'stroke-dasharray': v === 0.5 ? '4 3' : '' }),
      el('svg:text', { x: L - 8, y: y(v) + 4, 'text-anchor': 'end', text: v }));
  }
  for (let e = 0; 10 ** e <= xmax; e += 1) {
    for (const m of W < 600 ? [1, 5] : [1, 2, 5]) {
      const k = m * 10 ** e;
      if (k > xmax) break;
      svg.append(el('svg:line', { x1: x(k), x2: x(k), y1: T, y2: H - B, stroke: '#eef1f4' }), el('svg:text', { x: x(k), y: H - B + 16, 'text-anchor': 'middle', text: k }));
    }
  }
  svg.append(el('svg:text', { x: (L + W - R) / 2, y: H - 10, 'text-anchor': 'middle', text: 'number of shuffles k (log scale)' }),
    el('svg:text', { x: 14, y: (T + H - B) / 2, transform: `rotate(-90 14 ${(T + H - B) / 2})`, 'text-anchor': 'middle', text: 'total variation from uniform' }));
  for (const { model, color, report } of series) {
    const pts = (key) => report.rows.filter((r) => r[key] !== undefined).map((r) => [x(r.shuffles), y(Math.min(1, r[key]))]);
    const line = (key, dash) => {
      const p = pts(key);
      if (p.length) svg.append(el('svg:polyline', { points: p.map((q) => q.join(',')).join(' '), fill: 'none', stroke: color, 'stroke-width': 2.5, 'stroke-dasharray': dash, 'data-model': model, 'data-series': key }));
      p.forEach(([cx, cy]) => svg.append(el('svg:circle', { cx, cy, r: 2.5, fill: color })));
    };
    band(svg, report, model, color, x, y);
    line('total_variation', '');
    line('lower_bound', '6 3');
    line('upper_bound', '2 3');
  }
  return el('div', { class: 'chart', id: 'mix-chart' }, svg);
}

/**
 * A simulated curve's 95 % band (shaded) and its noise floor (dashed grey): the value a
 * perfectly shuffled deck shows at the same number of simulated decks. A point whose band
 * reaches 0 cannot tell the deck from a shuffled one; it is drawn hollow.
 */
function band(svg, report, model, color, x, y) {
  const rows = report.rows.filter((r) => r.band_low !== undefined);
  if (!rows.length) return;
  const upper = rows.map((r) => `${x(r.shuffles)},${y(r.band_high)}`);
  const lower = rows.slice().reverse().map((r) => `${x(r.shuffles)},${y(r.band_low)}`);
  svg.append(el('svg:polygon', { points: [...upper, ...lower].join(' '), fill: color, 'fill-opacity': 0.15, stroke: 'none', 'data-model': model, 'data-series': 'band' }));
  const floor = rows[0].noise_floor;
  svg.append(el('svg:line', { x1: x(rows[0].shuffles), x2: x(rows[rows.length - 1].shuffles), y1: y(floor), y2: y(floor), stroke: '#6b7280', 'stroke-dasharray': '3 3', 'data-model': model, 'data-series': 'noise-floor' }));
  rows.filter((r) => !r.resolved).forEach((r) => svg.append(el('svg:circle', { cx: x(r.shuffles), cy: y(r.lower_bound), r: 4, fill: '#fff', stroke: color, 'data-noise': 'true' })));
}

/** "after 1 shuffle", "after 7 shuffles". */
export function shuffles(k) {
  return `${k} shuffle${k === 1 ? '' : 's'}`;
}

function firstBelow(report, limit) {
  const row = report.rows.find((r) => (r.total_variation ?? r.upper_bound ?? Infinity) < limit);
  return row ? row.shuffles : null;
}

function table(report) {
  const c = (v) => (v === undefined ? '–' : fmt(v));
  const half = firstBelow(report, 0.5);
  return el('div', { class: 'matrix-card', 'data-model': report.model },
    el('h3', { text: `${report.model}, ${report.n} cards` }),
    el('p', { class: 'note', text: report.method + (half ? ` — below ½ after ${shuffles(half)}${report.rows[0].total_variation === undefined ? ' (upper bound)' : ''}` : '') }),
    sideways(el('table', { class: 'tests' }, el('tbody', {},
      el('tr', {}, ...['k', 'distance', 'lower bound [95 % band]', 'upper bound'].map((t) => el('th', { text: t }))),
      ...report.rows.map((r) => el('tr', {}, el('td', { text: r.shuffles }), el('td', { text: c(r.total_variation) }),
        el('td', { text: lowerCell(r), 'data-noise': String(r.resolved === false) }), el('td', { text: c(r.upper_bound) })))))),
    ...noiseNote(report));
}

/** A simulated point with its band; "noise" when the band reaches 0. */
function lowerCell(r) {
  if (r.lower_bound === undefined) return '–';
  const text = `${fmt(r.lower_bound)} [${fmt(r.band_low)}, ${fmt(r.band_high)}]`;
  return r.resolved ? text : `${text} noise`;
}

/** The noise floor, and what a point inside the noise does and does not say. */
function noiseNote(report) {
  const simulated = report.rows.filter((r) => r.band_low !== undefined);
  if (!simulated.length) return [];
  const noisy = simulated.filter((r) => !r.resolved).map((r) => r.shuffles);
  const floor = `Noise floor ${fmt(simulated[0].noise_floor)}: what a perfectly shuffled deck shows with these simulated decks.`;
  const which = noisy.length
    ? ` From ${shuffles(noisy[0])} on, points marked noise cannot be told from a shuffled deck at this sample size — that does not mean the deck is mixed.`
    : '';
  return [el('p', { class: 'note', 'data-role': 'noise-floor', text: floor + which })];
}

export async function render(root, query, ctx) {
  const chosen = (query.get('models') ?? 'riffle,top-to-random,overhand').split(',').filter((m) => MODELS.some(([known]) => known === m));
  const state = { n: query.get('n') ?? '52', seed: query.get('seed') ?? '' };
  const boxes = MODELS.map(([m, label]) => el('label', { class: 'field' }, el('span', { class: 'field-label', text: m }),
    el('span', {}, el('input', { type: 'checkbox', name: m, checked: chosen.includes(m) }), ` ${label}`)));
  const form = el('form', { class: 'controls', id: 'mix-form' },
    field('Cards n', input('n', state.n, { type: 'number', min: 2, max: 52 })), ...boxes,
    field('Seed (simulation)', input('seed', state.seed, { placeholder: 'empty: fresh' })),
    el('button', { type: 'submit', text: 'Draw' }));
  const error = errorBox();
  const out = el('div', { id: 'mix-output' });
  root.append(el('h2', { text: 'Hand shuffles: how many are enough?' }),
    el('p', { class: 'lead', text: 'Distance from a perfectly shuffled deck (total variation: 1 = some order is certain, 0 = every order equally likely) after k shuffles by hand. Solid lines are exact; dashed lines are simulated lower bounds (the deck is at least this far from uniform, within the shaded 95 % band), dotted lines exact upper bounds. A simulated point whose band reaches 0 is noise: the simulation cannot tell that deck from a shuffled one. The riffle curve is Bayer and Diaconis’ “seven shuffles”: it drops below ½ at k = 7 for 52 cards.' }),
    form, error, out);

  const draw = async (params) => {
    showError(error, '');
    if (!params.models.length) {
      out.replaceChildren(el('p', { class: 'note', id: 'mix-empty', text: 'Tick at least one kind of shuffle above to draw its curve.' }));
      ctx.setQuery(compact({ n: params.n, models: 'none', seed: params.seed }));
      return;
    }
    out.replaceChildren(el('p', { class: 'loading', text: 'Computing…' }));
    const n = Number(params.n);
    try {
      const series = [];
      let seed = params.seed;
      for (const [model, , color] of MODELS.filter(([m]) => params.models.includes(m))) {
        const report = await ctx.api('/api/mix', { model, n: params.n, ...plan(model, n), seed });
        seed = seed || report.seed;
        series.push({ model, color, report });
      }
      ctx.setQuery(compact({ n: params.n, models: params.models.join(','), seed }));
      out.replaceChildren(
        el('div', { class: 'legend', id: 'mix-legend' }, ...series.map((s) => el('span', { style: `color:${s.color};font-weight:700`, text: `━ ${s.model}` })),
          ...(series.some((s) => s.report.rows.some((r) => r.band_low !== undefined))
            ? [el('span', { 'data-legend': 'band', text: '▒ 95 % band of a simulated curve' }), el('span', { 'data-legend': 'noise-floor', style: 'color:#6b7280', text: '┄ noise floor (a shuffled deck) · ○ inside the noise' })]
            : [])),
        // The chart box's padding and border (18 px) off: drawn at the size it shows, 12 px text stays 12 px.
        chart(series, Math.max(300, Math.min(900, (out.clientWidth || 918) - 18))), el('div', { class: 'mix-tables' }, ...series.map((s) => table(s.report))));
    } catch (e) {
      out.replaceChildren();
      showError(error, pageMessage(form, e));
    }
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    draw({ n: form.elements.n.value.trim(), seed: form.elements.seed.value.trim(), models: MODELS.map(([m]) => m).filter((m) => form.elements[m].checked) });
  });
  await draw({ n: state.n, seed: state.seed, models: chosen });
}
