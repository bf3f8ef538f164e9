// The Algorithms page: any catalogue algorithm on a small deck, step by step (play,
// pause, step forward and back through the states it really went through), the touched
// cards highlighted; for n ≤ 4 the permutation tree of its choices with the seed's path.
// State in the query: alg, n, seed, step.

import { el, pageMessage, field, select, input, errorBox, showError, compact, sideways } from '../ui.js';

const RANKS = 'A23456789TJQ';
const MAX_N = 12;

/** Card k (1-based) of the small deck: the spades A, 2, …, Q. */
const codeOf = (k) => `${RANKS[k - 1]}S`;

/** Positions (0-based) an action names, as the CLI words it (1-based). */
function named(action) {
  const nums = (re) => (action.match(re) ?? []).slice(1).map((x) => Number(x) - 1);
  return [...nums(/^swap (\d+) and (\d+)/), ...nums(/^move (\d+) to (\d+)/), ...nums(/^key\[(\d+)\]/)];
}

function tiles(cards, touched, ctx, id) {
  return el('div', { class: 'tiles', id },
    ...cards.map((c, i) => {
      const t = el('div', { class: touched.has(i) ? 'tile touched' : 'tile', 'data-card': c });
      t.innerHTML = ctx.cards.cardSvg(codeOf(c), { width: 48 });
      t.append(el('small', { text: `#${i + 1}` }));
      return t;
    }));
}

/** The cards whose place changed between two states, and the places the action names. */
function touchedOf(prev, step) {
  const deck = new Set(named(step.action).filter((i) => i >= 0 && i < step.deck.length));
  step.deck.forEach((c, i) => { if (prev && prev.deck[i] !== c) deck.add(i); });
  const pile = new Set();
  step.pile.forEach((c, i) => { if (!prev || prev.pile[i] !== c) pile.add(i); });
  return { deck, pile };
}

function treeSvg(tree) {
  const leaves = tree.leaves;
  const depth = Math.max(...leaves.map((l) => l.rolls.length));
  const gap = leaves.length > 64 ? 14 : 34;
  const width = Math.max(300, leaves.length * gap + 40);
  const rowH = 52;
  const height = (depth + 1) * rowH + 70;
  const svg = el('svg:svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'permutation tree' });
  const nodes = new Map(); // prefix -> {x, y, leaves}
  leaves.forEach((leaf, i) => {
    for (let d = 0; d <= leaf.rolls.length; d += 1) {
      const key = leaf.rolls.slice(0, d).join(',');
      const node = nodes.get(key) ?? { d, xs: [] };
      node.xs.push(20 + i * gap + gap / 2);
      nodes.set(key, node);
    }
  });
  const pos = (key) => { const n = nodes.get(key); return [n.xs.reduce((a, b) => a + b, 0) / n.xs.length, 20 + n.d * rowH]; };
  const taken = tree.taken.join(',');
  const onPath = (key) => taken === key || taken.startsWith(`${key},`) || key === '';
  for (const [key] of nodes) {
    if (key === '') continue;
    const parts = key.split(',');
    const parent = parts.slice(0, -1).join(',');
    const [x1, y1] = pos(parent);
    const [x2, y2] = pos(key);
    const hot = onPath(key);
    svg.append(el('svg:line', { x1, y1, x2, y2, stroke: hot ? '#c9a227' : '#b8c0c8', 'stroke-width': hot ? 3 : 1 }));
    if (leaves.length <= 64) svg.append(el('svg:text', { x: (x1 + x2) / 2 + 3, y: (y1 + y2) / 2, text: Number(parts[parts.length - 1]) + 1 }));
  }
  for (const [key] of nodes) {
    const [x, y] = pos(key);
    const dot = el('svg:circle', { cx: x, cy: y, r: onPath(key) ? 4.5 : 3, fill: onPath(key) ? '#c9a227' : '#0f5132' });
    if (key === '') dot.setAttribute('class', 'root');
    svg.append(dot);
  }
  svg.dataset.rootX = pos('')[0];
  leaves.forEach((leaf) => {
    const key = leaf.rolls.join(',');
    const [x, y] = pos(key);
    const label = leaf.cut ? '…' : leaf.order.join('');
    const hot = key === taken;
    const t = el('svg:text', { x, y: y + 16, 'text-anchor': 'end', transform: `rotate(-90 ${x} ${y + 16})`, 'font-weight': hot ? 700 : 400, fill: hot ? '#b42318' : '#1f2328', text: label });
    t.setAttribute('class', hot ? 'leaf taken' : 'leaf');
    svg.append(t);
  });
  return svg;
}

/** Scrolls a tree wider than its box so that its root (the first roll) is in the middle. */
function atRoot(box) {
  const scroller = box.querySelector('.scroll-x');
  const svg = scroller?.querySelector('svg');
  if (!svg || scroller.scrollWidth <= scroller.clientWidth) return;
  scroller.scrollLeft = Number(svg.dataset.rootX) - scroller.clientWidth / 2;
}

async function treeBox(ctx, params) {
  const box = el('div', { class: 'tree-box', id: 'tree' });
  try {
    const tree = await ctx.api('/api/tree', params);
    const orders = new Map();
    tree.leaves.filter((l) => !l.cut).forEach((l) => { const k = l.order.join(' '); orders.set(k, (orders.get(k) ?? 0) + 1); });
    const counts = [...orders.values()];
    const even = counts.every((c) => c === counts[0]);
    box.append(el('h3', { text: `Permutation tree: ${tree.leaves.length} paths of dice answers, ${orders.size} orders` }),
      el('p', { class: 'about', text: `Each level is one roll of the dice, each edge one answer (1-based); each leaf shows the order that path produces. The gold path is the one this seed took. ${even && orders.size ? `Every order is reached by ${counts[0]} path${counts[0] > 1 ? 's' : ''}` : 'Some orders are reached by more paths than others'}${tree.leaves.some((l) => l.cut) ? ' (paths marked … were cut after 12 rolls)' : ''}.` }),
      sideways(treeSvg(tree), 'wider than the screen: swipe sideways for every leaf (it opens at the root)'));
  } catch (e) {
    box.append(el('p', { class: 'note', text: `No tree: ${e.message}` }));
  }
  return box;
}

export async function render(root, query, ctx) {
  const error = errorBox();
  let catalogue = [];
  try {
    catalogue = await ctx.api('/api/algorithms');
  } catch (e) {
    showError(error, e.message);
  }
  const names = catalogue.length ? catalogue.map((a) => a.name) : [query.get('alg') ?? 'fisher-yates'];
  const state = { alg: query.get('alg') ?? 'fisher-yates', n: query.get('n') ?? '8', seed: query.get('seed') ?? '', step: Number(query.get('step') ?? 0) };
  const form = el('form', { class: 'controls', id: 'alg-form' },
    field('Algorithm', select('alg', names, state.alg)),
    field('Cards', input('n', state.n, { type: 'number', min: 1, max: MAX_N })),
    field('Seed', input('seed', state.seed, { placeholder: 'empty: a fresh key' })),
    el('button', { type: 'submit', text: 'Run' }));
  const about = el('p', { class: 'about', id: 'alg-about' });
  const stage = el('div', { class: 'stage', id: 'stage' });
  const tree = el('div');
  root.append(el('h2', { text: 'Algorithms, step by step' }),
    el('p', { class: 'lead', text: 'Every shuffle of the catalogue — fair and flawed — runs here on a small deck of spades, and records every state it goes through. Step through it; the gold cards are the ones the step touched.' }),
    form, error, about, stage, tree);

  let timer = null;
  const stop = () => { if (timer) clearInterval(timer); timer = null; };

  const run = async (params, step) => {
    stop();
    showError(error, '');
    stage.replaceChildren();
    tree.replaceChildren();
    const entry = catalogue.find((a) => a.name === params.alg);
    about.textContent = entry ? `${entry.description} Time ${entry.time}, extra space ${entry.space}.` : '';
    let report;
    try {
      report = await ctx.api('/api/shuffle-steps', params);
    } catch (e) {
      showError(error, pageMessage(form, e));
      return;
    }
    const q = compact({ alg: params.alg, n: params.n, seed: params.seed || report.seed });
    form.elements.seed.value = q.seed;
    const steps = report.steps;
    let at = Math.min(Math.max(0, step), steps.length - 1);
    const counter = el('span', { class: 'counter', id: 'step-counter' });
    const slider = el('input', { type: 'range', min: 0, max: steps.length - 1, value: at, id: 'step-slider', 'aria-label': 'step' });
    const back = el('button', { type: 'button', class: 'secondary', id: 'step-back', text: '◀ Back', title: 'step back' });
    const play = el('button', { type: 'button', id: 'play', text: '▶ Play' });
    const fwd = el('button', { type: 'button', class: 'secondary', id: 'step-forward', text: 'Forward ▶', title: 'step forward' });
    const action = el('div', { class: 'action', id: 'step-action' });
    const view = el('div');
    const list = el('ol', { class: 'steps-list', start: 0 }, ...steps.map((s, i) => el('li', { text: s.action, 'data-step': i })));
    const show = () => {
      const s = steps[at];
      const t = touchedOf(at > 0 ? steps[at - 1] : null, s);
      counter.textContent = `step ${at} / ${steps.length - 1}`;
      slider.value = at;
      action.textContent = at === 0 ? 'start: cards 1…n in order' : s.action;
      const parts = [el('div', { class: 'row-label', text: s.pile.length || steps.some((x) => x.pile.length) ? 'deck (cards not yet taken)' : 'deck' }), tiles(s.deck, at === 0 ? new Set() : t.deck, ctx, 'deck')];
      if (steps.some((x) => x.pile.length)) parts.push(el('div', { class: 'row-label', text: 'pile (cards taken, in order)' }), tiles(s.pile, at === 0 ? new Set() : t.pile, ctx, 'pile'));
      view.replaceChildren(...parts);
      back.disabled = at === 0;
      fwd.disabled = at === steps.length - 1;
      [...list.children].forEach((li, i) => li.classList.toggle('current', i === at));
      // Scroll the list only, never the page (the page opens at its top, phone or desktop).
      const item = list.children[at];
      if (item && (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight)) {
        list.scrollTop = item.offsetTop - list.clientHeight / 2;
      }
      ctx.setQuery({ ...q, step: at || '' });
    };
    const go = (i) => { at = Math.min(Math.max(0, i), steps.length - 1); show(); };
    back.addEventListener('click', () => { stop(); play.textContent = '▶ Play'; go(at - 1); });
    fwd.addEventListener('click', () => { stop(); play.textContent = '▶ Play'; go(at + 1); });
    slider.addEventListener('input', () => { stop(); go(Number(slider.value)); });
    list.addEventListener('click', (ev) => { const i = ev.target.dataset?.step; if (i !== undefined) { stop(); go(Number(i)); } });
    play.addEventListener('click', () => {
      if (timer) { stop(); play.textContent = '▶ Play'; return; }
      if (at === steps.length - 1) go(0);
      play.textContent = '⏸ Pause';
      timer = setInterval(() => {
        if (!root.isConnected || at === steps.length - 1) { stop(); play.textContent = '▶ Play'; return; }
        go(at + 1);
      }, 700);
    });
    stage.append(el('div', { class: 'player' }, back, play, fwd, counter, slider), action, view,
      el('p', { class: 'note', text: `result: ${report.result.join(' ')} — seed ${report.seed}` }), list);
    show();
    if (Number(params.n) <= 4) {
      tree.append(await treeBox(ctx, { alg: params.alg, n: params.n, seed: q.seed }));
      atRoot(tree);
    }
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    run(compact({ alg: form.elements.alg.value, n: form.elements.n.value.trim(), seed: form.elements.seed.value.trim() }), 0);
  });
  await run(compact({ alg: state.alg, n: state.n, seed: state.seed }), state.step);
}
