// A seat's page: claims the seat on this device when its holder says so (a
// device secret drawn here, kept in this browser and shown with every seat
// request: the same link in another browser is then refused), draws the
// seat's seed in the browser (WebCrypto), commits to it and reveals it when
// the table asks, shows the seat's own cards and
// the community cards as they are released, and after the close verifies
// the whole record here, with the independent verifier.
//
// What the page records (localStorage, per table and seat), each when it
// first sees it: the room's commitment C (before it commits, or later in a
// fresh tab — then it says it cannot confirm C was the one before play), the
// seat lock L (before it reveals: no reveal without a recorded L that is the
// lock of the published commitments, its own among them), and the deal
// numbers shown to it. At the close it verifies with those, never with the
// server's current C and L.

import { seatCommitment, seatLock, verifyTranscript } from '/js/fairspec-v2.js';
import { api, communityCards, linkParams, poll, randomHex, showCards, showError, showSeats } from '/table/table.js';
import { evidenceWords, showEvidence } from '/table/record.js';

const { table, seat, token } = linkParams();
const base = `/api/tables/${encodeURIComponent(table)}`;
const mine = `${base}/seats/${encodeURIComponent(seat ?? '')}`;
const seedKey = `fairdeck-seed/${table}/${seat}`;
const recordKey = `fairdeck-record/${table}/${seat}`;
const deviceKey = `fairdeck-device/${table}/${seat}`;
const status = document.getElementById('status');

/** The seat's seed: drawn once (32 random bytes as hex) and kept in this browser. */
function seed() {
  let s = localStorage.getItem(seedKey);
  if (!s) {
    s = randomHex();
    localStorage.setItem(seedKey, s);
  }
  return s;
}

/** One call for this seat: its token, and this device's secret once it has one (it never leaves in a URL). */
function seatApi(method, path, body) {
  const device = localStorage.getItem(deviceKey);
  return api(method, path, token, body, device ? { 'Fairdeck-Device': device } : {});
}

/** Claims the seat for this browser: draws the device secret (once) and binds the seat to it. */
async function claim() {
  let device = localStorage.getItem(deviceKey);
  if (!device) {
    device = randomHex();
    localStorage.setItem(deviceKey, device);
  }
  await seatApi('POST', `${mine}/claim`, { device });
}

const claimSection = document.getElementById('claim');
document.getElementById('claim-button').addEventListener('click', async (event) => {
  event.target.disabled = true;
  try {
    await claim();
    claimSection.hidden = true;
    showError(null);
  } catch (e) {
    showError(e.message);
    event.target.disabled = false;
  }
});

/** Phases in which an unclaimed seat is asked to claim (none once closed or void). */
const OPEN = ['committing', 'revealing', 'ready', 'dealt'];

/** What this page recorded: { c: {value, phase}, lock: {value, phase}, deals: [n, …] }. */
function recorded() {
  try {
    return JSON.parse(localStorage.getItem(recordKey)) ?? {};
  } catch {
    return {};
  }
}

function record(r) {
  localStorage.setItem(recordKey, JSON.stringify(r));
  showEvidence(r);
}

/** Records C, L and the deal numbers shown, each the first time it is seen. */
function note(view) {
  const r = recorded();
  if (!r.c) r.c = { value: view.commitment, phase: view.phase };
  if (!r.lock && view.lock) r.lock = { value: view.lock, phase: view.phase, mine: false };
  if (!r.deals && view.hands.length) r.deals = view.hands.map((h) => h.deal);
  record(r);
  return r;
}

/**
 * Before revealing: the recorded L must be the lock of the recorded C and the
 * published commitments, this seat's own among them; returns why not, or null.
 */
async function lockProblem(view, r, own) {
  if (!r.lock) return 'the seat lock is not published yet';
  if (r.lock.value !== view.lock) return `the room's seat lock changed from ${r.lock.value} to ${view.lock}: not revealing`;
  if (view.seats[view.seat].commitment !== own) return 'the published commitment of this seat is not the one this page made: not revealing';
  const computed = await seatLock(view.manifest, r.c.value, view.seats.map((s) => s.commitment));
  if (computed !== r.lock.value) return `the seat lock ${r.lock.value} is not the lock of the published commitments (${computed}): not revealing`;
  return null;
}

let verified = false;

async function tick() {
  const view = await seatApi('GET', mine);
  const me = view.seats[view.seat];
  document.getElementById('title').textContent = `${view.name} at ${view.manifest.table} (${view.manifest.game})`;
  document.body.dataset.phase = view.phase;
  const r = note(view);
  const unclaimed = !me.claimed && OPEN.includes(view.phase);
  claimSection.hidden = !unclaimed;
  document.body.dataset.claimed = String(me.claimed);
  if (unclaimed) {
    showSeats(document.getElementById('seats'), view);
    status.textContent = `phase: ${view.phase} — this seat is not claimed yet: claim it on the device you will play on`;
    return false;
  }
  if (view.phase === 'committing' && !me.commitment) {
    const commitment = await seatCommitment(view.manifest, view.seat, seed());
    await seatApi('POST', `${mine}/commit`, { commitment });
    return false;
  }
  if (view.phase === 'revealing' && !me.revealed && localStorage.getItem(seedKey)) {
    const problem = await lockProblem(view, r, await seatCommitment(view.manifest, view.seat, seed()));
    if (problem) {
      showError(problem);
      return true;
    }
    r.lock.mine = true;
    record(r);
    await seatApi('POST', `${mine}/reveal`, { seed: seed() });
    return false;
  }
  const hand = view.hands.flatMap((h) => h.cards);
  showCards(document.getElementById('hand'), hand, 'not dealt yet');
  showCards(document.getElementById('community'), communityCards(view), 'nothing released yet');
  showSeats(document.getElementById('seats'), view);
  const waiting = view.waiting_for?.length ? ` — waiting for ${view.waiting_for.join(', ')}` : '';
  status.textContent = `phase: ${view.phase}${waiting}`;
  if ((view.phase === 'closed' || view.phase === 'void') && view.transcript && !verified) {
    verified = true;
    await verify(view, r);
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

/** Verifies the record against what this page recorded: C, L, its own seed, the deals shown. */
async function verify(view, r) {
  // L counts only when recorded before this seat revealed (else the verifier says it is unchecked).
  const result = await verifyTranscript(view.transcript, r.c.value, r.lock?.mine ? r.lock.value : undefined);
  const own = localStorage.getItem(seedKey);
  const words = evidenceWords(view, r, result, own);
  const section = document.getElementById('verified');
  section.hidden = false;
  section.dataset.verdict = words.verdict;
  document.getElementById('verdict').textContent = words.text;
  document.getElementById('checked').replaceChildren(...words.checked.map((c) => {
    const li = document.createElement('li');
    li.textContent = c;
    return li;
  }));
}

if (!table || seat === null || !token) {
  showError('this link has no table, seat or token: open the link the room sent you');
} else {
  showEvidence(recorded());
  poll(tick);
}
