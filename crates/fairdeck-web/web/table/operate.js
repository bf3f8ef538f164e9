// The operator's page: the table's phase and seats, and the one action the
// phase allows — deal, release the next street (hold'em) or the dummy
// (bridge), close.

import { api, communityCards, linkParams, poll, showCards, showError, showSeats } from '/table/table.js';

const { table, token } = linkParams();
const base = `/api/tables/${encodeURIComponent(table)}`;
const actions = document.getElementById('actions');

function button(label, run) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.dataset.action = label;
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      await run();
      showError(null);
    } catch (e) {
      showError(e.message);
    }
    await tick().catch((e) => showError(e.message));
  });
  return b;
}

/** What the operator may do next, as buttons. */
function nextActions(view) {
  const m = view.manifest;
  const post = (path, body = {}) => api('POST', `${base}/${path}`, token, body);
  if (view.phase === 'ready') return [button('Deal', () => post('deal'))];
  if (view.phase !== 'dealt') return [];
  const out = [];
  if (m.game === 'holdem') {
    const shown = (view.community?.[0]?.shown ?? []).reduce((n, p) => n + p.cards.length, 0);
    const street = { 0: 'flop', 3: 'turn', 4: 'river' }[shown];
    if (street) out.push(button(`Release the ${street}`, () => post('release', { deal: m.first, street })));
  }
  if (m.game === 'bridge') {
    for (const [seat, name] of m.seats.entries()) {
      out.push(button(`Show ${name} as dummy`, () => post('release', { deal: m.first, street: 'dummy', seat })));
    }
  }
  out.push(button('Close and reveal the secret', () => post('close')));
  return out;
}

async function tick() {
  const view = await api('GET', `${base}/operator`, token);
  document.getElementById('title').textContent = `Operator of ${view.manifest.table} (${view.manifest.game})`;
  document.body.dataset.phase = view.phase;
  const waiting = view.waiting_for?.length ? ` — waiting for ${view.waiting_for.join(', ')}` : '';
  document.getElementById('status').textContent = `phase: ${view.phase}${waiting}`;
  showSeats(document.getElementById('seats'), view);
  showCards(document.getElementById('community'), communityCards(view), 'nothing released yet');
  actions.replaceChildren(...nextActions(view));
  return view.phase === 'closed' || view.phase === 'void';
}

if (!table || !token) showError('this link has no table or token: open the operator link the table was opened with');
else poll(tick);
