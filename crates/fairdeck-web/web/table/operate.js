// The operator's page: the table's phase, deadline (local time, counting down),
// C and L, the seats (claimed or not; a new link for a seat before the commitments
// close), and the one action the phase allows — deal, release the next street
// (hold'em) or the dummy (bridge), close, or void once a deadline passed. It
// polls a light status (no hole card; an unchanged table answers 304) and
// fetches every hand only when asked. After the close (or a void) it offers the
// record as a file for `fair verify`.

import { api, communityCards, deadlineWords, linkParams, poll, showCards, showError } from '/table/table.js';

const { table, token } = linkParams();
const base = `/api/tables/${encodeURIComponent(table)}`;
const actions = document.getElementById('actions');
const post = (path, body = {}) => api('POST', `${base}/${path}`, token, body);
/** The last status answered, and its entity tag. */
let current = null;
let etag = null;

function button(label, run, { confirmText, secondary } = {}) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.dataset.action = label;
  if (secondary) b.className = 'secondary';
  b.addEventListener('click', async () => {
    if (confirmText && !window.confirm(confirmText)) return;
    b.disabled = true;
    try {
      await run();
      showError(null);
    } catch (e) {
      showError(e.message);
    }
    b.disabled = false;
    await tick().catch((e) => showError(e.message));
  });
  return b;
}

const VOID_TEXT = 'Void this table? Nothing is dealt, and the record names the seats that missed the deadline. This cannot be undone.';

/** What the operator may do next, as buttons. */
function nextActions(view) {
  const m = view.manifest;
  if (view.phase === 'committing' || view.phase === 'revealing') {
    const v = button('Void the table', () => post('void'), { confirmText: VOID_TEXT });
    v.id = 'void';
    return [v];
  }
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

/** A seat link as the table's opening page makes it. */
const seatLink = (seat, seatToken) => `${location.origin}/table/play.html#${new URLSearchParams({ table, seat, token: seatToken })}`;

/** Re-issues `seat`'s link and lists the new one (the old link is refused from now on). */
async function reissue(seat, name) {
  const answer = await post(`seats/${seat}/reissue`);
  const li = document.createElement('li');
  const a = document.createElement('a');
  a.href = seatLink(seat, answer.token);
  a.textContent = `New link for ${name}`;
  a.dataset.seat = String(seat);
  li.append(a);
  document.getElementById('new-links').append(li);
}

/** The seats: committed, revealed, claimed; before the commitments close, a new link for each. */
function showSeats(view) {
  const list = document.getElementById('seats');
  list.replaceChildren(...view.seats.map((s, i) => {
    const li = document.createElement('li');
    const state = s.revealed ? 'revealed' : s.commitment ? 'committed' : 'waiting';
    li.dataset.state = state;
    li.dataset.claimed = String(s.claimed);
    const words = document.createElement('span');
    words.textContent = `${s.name}: ${state}${s.claimed ? ', claimed on a device' : ', not claimed'} `;
    li.append(words);
    if (view.phase === 'committing') {
      const confirmText = `Issue a new link for ${s.name}? The old link stops working, the seat's claim is reset and its commitment (if any) withdrawn.`;
      li.append(button(`New link for ${s.name}`, () => reissue(i, s.name), { confirmText, secondary: true }));
    }
    return li;
  }));
}

/** The deadline in local time, counting down; the Void button waits for it to pass. */
function showDeadline() {
  const line = document.getElementById('deadline');
  const deadline = current?.deadline;
  line.hidden = deadline === null || deadline === undefined;
  if (line.hidden) return;
  const words = deadlineWords(deadline);
  const what = current.phase === 'committing' ? 'Commitments close' : 'Reveals close';
  line.textContent = `${what}: ${words.text}`;
  line.dataset.left = String(words.left);
  const voidButton = document.getElementById('void');
  if (voidButton) {
    voidButton.disabled = words.left > 0;
    voidButton.title = words.left > 0 ? 'A table can be voided only once its deadline has passed' : '';
  }
}

/** Every hand, fetched on demand (never polled). */
async function showHands() {
  const view = await api('GET', `${base}/operator`, token);
  const rows = view.deals.flatMap((d) => d.piles.filter((p) => p.cards.length).map((p) => {
    const row = document.createElement('div');
    row.className = 'showdown-hand';
    const name = document.createElement('p');
    name.textContent = `Deal ${d.nonce}: ${p.name}`;
    const cards = document.createElement('div');
    cards.className = 'cards';
    showCards(cards, p.cards, '');
    row.append(name, cards);
    return row;
  }));
  document.getElementById('hands').replaceChildren(...rows);
}
document.getElementById('show-hands').addEventListener('click', () => showHands().catch((e) => showError(e.message)));

/** The record as a file `fair verify` reads, once the table is closed or void. */
function showRecord(view) {
  const section = document.getElementById('record');
  if (!view.transcript || !section.hidden) return;
  const file = new Blob([`${JSON.stringify(view.transcript, null, 1)}\n`], { type: 'application/json' });
  const link = document.getElementById('download');
  link.href = URL.createObjectURL(file);
  link.download = `${view.manifest.table}.json`;
  section.hidden = false;
}

function render(view) {
  document.getElementById('title').textContent = `Operator of ${view.manifest.table} (${view.manifest.game})`;
  document.body.dataset.phase = view.phase;
  const who = view.waiting_for?.join(', ');
  const waiting = who ? (view.phase === 'void' ? ` — late: ${who}` : ` — waiting for ${who}`) : '';
  document.getElementById('status').textContent = `phase: ${view.phase}${waiting}`;
  document.getElementById('op-c').textContent = view.commitment;
  document.getElementById('op-l').textContent = view.lock ?? 'not published yet (every seat must commit first)';
  showSeats(view);
  showCards(document.getElementById('community'), communityCards(view), 'nothing released yet');
  actions.replaceChildren(...nextActions(view));
  document.getElementById('hands-section').hidden = !['dealt', 'closed'].includes(view.phase);
  showRecord(view);
  showDeadline();
}

/** One poll of the status: 304 (unchanged) keeps what is shown. */
async function tick() {
  const headers = { Authorization: `Bearer ${token}` };
  if (etag) headers['If-None-Match'] = etag;
  const res = await fetch(`${base}/operator/status`, { headers });
  if (res.status !== 304) {
    const json = await res.json().catch(() => ({}));
    if (!res.ok) {
      const err = new Error(json.error || `${res.status} ${res.statusText}`);
      err.status = res.status;
      throw err;
    }
    etag = res.headers.get('ETag');
    current = json;
    render(current);
  }
  document.body.dataset.polls = String(Number(document.body.dataset.polls ?? 0) + 1);
  return current.phase === 'closed' || current.phase === 'void';
}

if (!table || !token) showError('this link has no table or token: open the operator link the table was opened with');
else {
  poll(tick);
  setInterval(showDeadline, 1000);
}
