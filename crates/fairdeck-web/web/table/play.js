// A seat's page: draws the seat's seed in the browser (WebCrypto), commits
// to it and reveals it when the table asks, shows the seat's own cards and
// the community cards as they are released, and after the close verifies
// the whole transcript here, with the independent verifier.

import { seatCommitment, verifyTranscript } from '/js/fairspec-v2.js';
import { api, communityCards, linkParams, poll, showCards, showError, showSeats } from '/table/table.js';

const { table, seat, token } = linkParams();
const base = `/api/tables/${encodeURIComponent(table)}`;
const mine = `${base}/seats/${encodeURIComponent(seat ?? '')}`;
const storeKey = `fairdeck-seed/${table}/${seat}`;
const status = document.getElementById('status');

/** The seat's seed: drawn once (32 random bytes as hex) and kept in this browser until revealed. */
function seed() {
  let s = localStorage.getItem(storeKey);
  if (!s) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    s = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem(storeKey, s);
  }
  return s;
}

let verified = false;

async function tick() {
  const view = await api('GET', mine, token);
  const me = view.seats[view.seat];
  document.getElementById('title').textContent = `${view.name} at ${view.manifest.table} (${view.manifest.game})`;
  document.body.dataset.phase = view.phase;
  if (view.phase === 'committing' && !me.commitment) {
    const commitment = await seatCommitment(view.manifest, view.seat, seed());
    await api('POST', `${mine}/commit`, token, { commitment });
    return false;
  }
  if (view.phase === 'revealing' && !me.revealed) {
    await api('POST', `${mine}/reveal`, token, { seed: seed() });
    return false;
  }
  const hand = view.hands.flatMap((h) => h.cards);
  showCards(document.getElementById('hand'), hand, 'not dealt yet');
  showCards(document.getElementById('community'), communityCards(view), 'nothing released yet');
  showSeats(document.getElementById('seats'), view);
  const waiting = view.waiting_for?.length ? ` — waiting for ${view.waiting_for.join(', ')}` : '';
  status.textContent = `phase: ${view.phase}${waiting}`;
  if (view.phase === 'closed' && view.transcript && !verified) {
    verified = true;
    localStorage.removeItem(storeKey);
    await verify(view);
    showdown(view.transcript);
  }
  return view.phase === 'closed' || view.phase === 'void';
}

/** Every player's hand from the closed table's transcript (public once the table closes). */
function showdown(transcript) {
  const piles = (transcript.deals ?? []).flatMap((d) => d.piles ?? []).filter((p) => p.role === 'player');
  const rows = piles.map((p) => {
    const row = document.createElement('div');
    row.className = 'showdown-hand';
    const name = document.createElement('p');
    name.textContent = p.name;
    const cards = document.createElement('div');
    cards.className = 'cards';
    showCards(cards, p.cards, '');
    row.append(name, cards);
    return row;
  });
  document.getElementById('showdown-hands').replaceChildren(...rows);
  document.getElementById('showdown').hidden = rows.length === 0;
}

/** Verifies the transcript against the commitment this page saw before the deal. */
async function verify(view) {
  const published = sessionStorage.getItem(`fairdeck-commitment/${table}`) ?? view.commitment;
  const result = await verifyTranscript(view.transcript, published);
  const section = document.getElementById('verified');
  section.hidden = false;
  section.dataset.verdict = result.verdict;
  const words = {
    valid: 'valid: the deal follows from every seat\'s seed and the room\'s secret, as committed before play',
    'self-consistent-only': 'self-consistent only: no commitment was seen before play',
    invalid: 'INVALID: ' + result.differences.map((d) => d.message).join('; '),
  };
  document.getElementById('verdict').textContent = words[result.verdict];
  document.getElementById('checked').replaceChildren(...result.checked.map((c) => {
    const li = document.createElement('li');
    li.textContent = c;
    return li;
  }));
}

if (!table || seat === null || !token) {
  showError('this link has no table, seat or token: open the link the room sent you');
} else {
  // Keep the room's commitment as first seen, to check the transcript against it later.
  api('GET', base).then((v) => {
    const key = `fairdeck-commitment/${table}`;
    if (!sessionStorage.getItem(key)) sessionStorage.setItem(key, v.commitment);
  }).catch(() => {});
  poll(tick);
}
