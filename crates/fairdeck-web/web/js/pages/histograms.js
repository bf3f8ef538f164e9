// The audit card's histograms: decks by rising sequences and by valleys (the marks a
// riffle and a shelf machine leave), bars observed, black markers the decks a uniform
// shuffle expects, a red curve the estimated machine's — what `fairdeck audit --plot`
// draws, from the report's `histograms` field.

import { el } from '../ui.js';

// One panel in SVG units; it scales to its box (260–420 px wide), so text of 14 units
// stays at least 12 px on a phone.
const [W, H] = [300, 200];
const [LEFT, TOP, BOTTOM, RIGHT] = [44, 30, 26, 8];
const FONT = 14;

/** One panel: `h` is a report histogram ({ first, observed, uniform, fitted? }). */
function panel(title, h, name) {
  const slots = h.observed.length;
  const top = Math.max(1, ...h.observed, ...h.uniform, ...(h.fitted ?? [])) * 1.05;
  const [w, ht] = [W - LEFT - RIGHT, H - TOP - BOTTOM];
  const x = (i, frac) => LEFT + ((i + frac) / slots) * w;
  const y = (c) => TOP + ht - (c / top) * ht;
  const svg = el('svg:svg', { class: 'histogram', 'data-count': name, viewBox: `0 0 ${W} ${H}`, role: 'img',
    'aria-label': `${title}: ${h.observed.reduce((a, b) => a + b, 0)} decks from ${h.first} to ${h.first + slots - 1}` });
  svg.append(el('svg:text', { x: LEFT, y: 16, 'font-size': FONT, text: title }));
  h.observed.forEach((c, i) => svg.append(el('svg:rect', { class: 'observed', 'data-value': h.first + i, 'data-decks': c,
    x: x(i, 0.1), y: y(c), width: Math.max(1, x(i, 0.9) - x(i, 0.1)), height: TOP + ht - y(c), fill: '#7896c8' })));
  svg.append(el('svg:line', { x1: LEFT, y1: TOP + ht, x2: LEFT + w, y2: TOP + ht, stroke: '#1f2328' }));
  const curve = (counts, cls, colour) => {
    const points = counts.map((c, i) => `${x(i, 0.5).toFixed(1)},${y(c).toFixed(1)}`).join(' ');
    svg.append(el('svg:polyline', { class: cls, points, fill: 'none', stroke: colour, 'stroke-width': 1.5 }));
    counts.forEach((c, i) => svg.append(el('svg:circle', { class: `${cls}-point`, cx: x(i, 0.5), cy: y(c), r: 2, fill: colour })));
  };
  curve(h.uniform, 'uniform', '#1f2328');
  if (h.fitted) curve(h.fitted, 'fitted', '#c81e1e');
  for (const i of new Set([0, slots - 1])) {
    svg.append(el('svg:text', { x: x(i, 0.5), y: H - 6, 'font-size': FONT, 'text-anchor': 'middle', text: h.first + i }));
  }
  svg.append(el('svg:text', { x: LEFT - 4, y: y(top / 1.05) + 5, 'font-size': FONT, 'text-anchor': 'end', text: Math.round(top / 1.05) }));
  return svg;
}

/** The two panels and their legend, or null when the report has none. */
export function histograms(report) {
  const h = report.histograms;
  if (!h) return null;
  return el('div', { class: 'histograms' },
    el('p', { class: 'note', text: `Decks by rising sequences and by valleys: bars observed, black the decks a uniform shuffle expects${h.fitted ? `, red ${h.fitted}` : ''}.` }),
    el('div', { class: 'histogram-panels', style: 'display:flex;flex-wrap:wrap;gap:8px' },
      el('div', { style: 'flex:1 1 260px;max-width:420px' }, panel('Rising sequences per deck', h.rising_sequences, 'rising-sequences')),
      el('div', { style: 'flex:1 1 260px;max-width:420px' }, panel('Valleys per deck', h.valleys, 'valleys'))));
}
