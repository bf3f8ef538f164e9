// The Chaos page: type an order or drag its chips; the server computes its degree of
// chaos (the least swaps that sort it ascending or descending, after the Chinese article
// on judging shuffles), and the page shows the swaps that do it, one row per swap.
// State in the query: values.

import { el, pageMessage, field, input, errorBox, showError } from '../ui.js';

const MAX_CHIPS = 40;

const parse = (text) => text.split(/[\s,]+/).filter(Boolean);

/** The swaps that sort `values` (numbers) into `order` (a sorted copy), by selection sort. */
function sortingSwaps(values, order) {
  const a = [...values];
  const swaps = [];
  for (let i = 0; i < a.length; i += 1) {
    if (a[i] === order[i]) continue;
    const j = a.indexOf(order[i], i + 1);
    [a[i], a[j]] = [a[j], a[i]];
    swaps.push({ i, j, after: [...a] });
  }
  return swaps;
}

function chips(values, { touched = [], home = null, draggable = false } = {}) {
  return values.map((v, i) => el('span', {
    class: `chip${touched.includes(i) ? ' touched' : ''}${home && home[i] === v && !touched.includes(i) ? ' home' : ''}`,
    draggable: draggable ? 'true' : false, 'data-index': i, text: v,
  }));
}

function swapList(values, swaps, target, label) {
  return el('div', { class: 'matrix-card', id: `swaps-${label}` },
    el('h3', { text: `${swaps.length} swap${swaps.length === 1 ? '' : 's'} to sort ${label}` }),
    el('ol', { class: 'swaps' },
      el('li', {}, el('span', { class: 'what', text: 'start' }), el('span', { class: 'order' }, ...chips(values, { home: target }))),
      ...swaps.map((s, k) => el('li', {}, el('span', { class: 'what', text: `${k + 1}. swap places ${s.i + 1} and ${s.j + 1}` }),
        el('span', { class: 'order' }, ...chips(s.after, { touched: [s.i, s.j], home: target }))))));
}

export async function render(root, query, ctx) {
  const state = query.get('values') ?? '5 2 9 1 7 3 8 4 6';
  const form = el('form', { class: 'controls', id: 'chaos-form' },
    field('Order', input('values', state, { placeholder: 'distinct integers, e.g. 3 1 4 5 2' }), 'type it, or drag the chips below'),
    el('button', { type: 'submit', text: 'Measure' }),
    el('button', { type: 'button', class: 'secondary', id: 'chaos-shuffle', text: 'Shuffle 1…n' }),
    el('button', { type: 'button', class: 'secondary', id: 'chaos-sorted', text: 'Sorted' }));
  const error = errorBox();
  const board = el('div', { class: 'order', id: 'chaos-order', 'aria-label': 'the order: drag to rearrange' });
  const out = el('div', { id: 'chaos-output' });
  root.append(el('h2', { text: 'Degree of chaos' }),
    el('p', { class: 'lead', text: 'How disordered is an order? Its degree of chaos is the least number of swaps of two items that sorts it — ascending or descending, whichever is fewer (from the Chinese article on judging how well a deck is shuffled, which counts them with selection sort). The least swaps to sort ascending are n minus the number of cycles of the order.' }),
    form, error, board, out);

  let dragFrom = null;
  board.addEventListener('dragstart', (ev) => { dragFrom = Number(ev.target.dataset.index); ev.target.classList.add('dragging'); });
  board.addEventListener('dragover', (ev) => ev.preventDefault());
  board.addEventListener('drop', (ev) => {
    ev.preventDefault();
    const to = ev.target.closest('.chip')?.dataset.index;
    if (dragFrom === null || to === undefined) return;
    const v = parse(form.elements.values.value);
    const [moved] = v.splice(dragFrom, 1);
    v.splice(Number(to), 0, moved);
    form.elements.values.value = v.join(' ');
    dragFrom = null;
    measure();
  });

  async function measure() {
    showError(error, '');
    const text = form.elements.values.value.trim();
    const values = parse(text);
    board.replaceChildren(...chips(values, { draggable: values.length <= MAX_CHIPS }));
    out.replaceChildren();
    try {
      const r = await ctx.api('/api/chaos', { values: values.join(' ') });
      ctx.setQuery({ values: values.join(' ') });
      const nums = values.map(Number);
      const up = [...nums].sort((a, b) => a - b);
      const down = [...up].reverse();
      const asc = sortingSwaps(nums, up);
      const desc = sortingSwaps(nums, down);
      out.append(el('div', { class: 'chaos-summary' },
        el('div', {}, el('div', { class: 'field-label', text: 'degree of chaos' }), el('div', { class: 'big-number', id: 'chaos-value', text: r.chaos })),
        el('div', {}, `${r.ascending} swap${r.ascending === 1 ? '' : 's'} to sort ascending, ${r.descending} descending`)),
      el('div', { class: 'matrices' },
        swapList(nums, r.ascending <= r.descending ? asc : desc, r.ascending <= r.descending ? up : down, r.ascending <= r.descending ? 'ascending' : 'descending'),
        values.length <= 16 ? swapList(nums, r.ascending <= r.descending ? desc : asc, r.ascending <= r.descending ? down : up, r.ascending <= r.descending ? 'descending' : 'ascending') : ''));
      // A swap row too long for the screen scrolls sideways: bring its swapped chips into view.
      for (const row of out.querySelectorAll('.swaps .order')) {
        const touched = row.querySelector('.touched');
        if (touched && row.scrollWidth > row.clientWidth) row.scrollLeft = touched.offsetLeft - 8;
      }
    } catch (e) {
      showError(error, pageMessage(form, e));
    }
  }
  form.addEventListener('submit', (ev) => { ev.preventDefault(); measure(); });
  form.elements['chaos-sorted'].addEventListener('click', () => {
    form.elements.values.value = parse(form.elements.values.value).map(Number).sort((a, b) => a - b).join(' ');
    measure();
  });
  form.elements['chaos-shuffle'].addEventListener('click', async () => {
    const n = Math.min(12, Math.max(2, parse(form.elements.values.value).length || 9));
    try {
      const r = await ctx.api('/api/shuffle-steps', { alg: 'fisher-yates', n });
      form.elements.values.value = r.result.join(' ');
      measure();
    } catch (e) {
      showError(error, pageMessage(form, e));
    }
  });
  await measure();
}
