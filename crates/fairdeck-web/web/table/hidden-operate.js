// The operator's page of a hidden (version-3) table: the seats and what each owes now, the
// stage's deadline in local time counting down, one button per step of the hand (enabled only
// when the status lists it in `next`), and once the table is over the void record (if any),
// the transcript as a file and this page's own verdict on it (the seat module's `verify`, the
// code of `fairdeck fair verify`). The token is kept in this tab's storage and leaves the
// address bar. The page checks the token first with the operator-only read of the table's
// status (`GET /api/hidden/ID/operator`), which changes nothing.

import { loadSeat } from '/js/hidden/seat.js';
import { FINAL, api, deadlineWords, linkParams, poll, showError } from '/table/table.js';
import { showVerdict, stallOf, transcriptText, voidWords } from '/table/hidden-record.js';

const link = linkParams();
const table = link.table;
const base = `/api/hidden/${encodeURIComponent(table)}`;
const tokenItem = `fairdeck-hidden-operator/${table}`;
/** The streets of each game a hidden table deals, before the showdown. */
const STREETS = { holdem: ['flop', 'turn', 'river'], scopa: ['table'] };
const LABELS = { showdown: 'Open the showdown', end: 'End the hand' };
const $ = (id) => document.getElementById(id);

/** The status last read, whether the token passed its check, the end being shown. */
let current = null;
let checked = false;
let ending = null;

/** The link's token (then dropped from the address bar), else the one kept in this tab. */
function takeToken() {
  if (!link.token) return sessionStorage.getItem(tokenItem) ?? '';
  sessionStorage.setItem(tokenItem, link.token);
  history.replaceState(null, '', `${location.pathname}#table=${encodeURIComponent(table)}`);
  return link.token;
}
const token = takeToken();

/** Checks the token with the operator-only read: a refused token (401/403) is not kept. */
async function checkToken() {
  try {
    await api('GET', `${base}/operator`, token);
  } catch (e) {
    if (e.status === 401 || e.status === 403) sessionStorage.removeItem(tokenItem);
    throw e;
  }
  checked = true;
}

/** What `missing` asks of a seat, shares grouped: "its key", "its shares of positions 9, 10". */
function owedWords(missing) {
  const positions = missing.filter((m) => m.message === 'share').map((m) => m.position);
  const words = missing.filter((m) => m.message !== 'share').map((m) => `its ${m.message}`);
  if (positions.length === 1) words.push(`its share of position ${positions[0]}`);
  if (positions.length > 1) words.push(`its shares of positions ${positions.join(', ')}`);
  return words.join(', ');
}

/** The seats, each with what it owes now. */
function showSeats(s) {
  $('seats').replaceChildren(...s.manifest.seats.map((name, seat) => {
    const missing = s.owed.find((o) => o.seat === seat)?.missing ?? [];
    const li = document.createElement('li');
    li.dataset.seat = String(seat);
    li.dataset.owes = String(missing.length);
    const over = s.state === 'finished' || s.state === 'void';
    const owes = missing.length ? `owes ${owedWords(missing)}` : 'owes nothing now';
    li.textContent = over ? `Seat ${seat} (${name})` : `Seat ${seat} (${name}): ${owes}`;
    return li;
  }));
  $('seats-section').hidden = false;
}

/** One line: where the table stands and who it waits for. */
function statusWords(s) {
  if (s.state === 'finished') return 'the table is finished';
  if (s.state === 'void') return 'the table is void: a seat did not send what it owed in time';
  const owing = s.owed.filter((o) => o.missing.length).map((o) => `seat ${o.seat} (${s.manifest.seats[o.seat]})`);
  if (s.state === 'keys') return `waiting for the seats' keys: ${owing.join(', ')}`;
  if (s.stage) return `hand ${s.hand}, ${s.stage}: waiting for ${owing.join(', ')}`;
  return `hand ${s.hand}${s.showdown ? ', showdown' : ''}: waiting for you (next: ${s.next.join(', ')})`;
}

/** The stage's deadline in local time, counting down. */
function showDeadline() {
  const line = $('deadline');
  line.hidden = current?.deadline == null;
  if (line.hidden) return;
  const words = deadlineWords(current.deadline);
  line.textContent = `The ${current.stage} stage closes: ${words.text}`;
  line.dataset.left = String(words.left);
}

/** Every step of the game's hand, plus any step the status allows that the page does not know. */
function steps(s) {
  const known = [...(STREETS[s.manifest.game] ?? []), 'showdown', 'end'];
  return [...known.slice(0, -2), ...s.next.filter((n) => !known.includes(n)), ...known.slice(-2)];
}

/** Takes one step; the buttons wait until the answer is in. */
async function take(step) {
  for (const b of $('actions').querySelectorAll('button')) b.disabled = true;
  try {
    await api('POST', `${base}/advance`, token, { hand: current.hand, to: step });
    showError(null);
  } catch (e) {
    showError(e.message);
  }
  await tick().catch((e) => showError(e.message));
}

/** One button per step, enabled when the status lists it in `next`. */
function showSteps(s) {
  const box = $('actions');
  if (!box.children.length) {
    box.replaceChildren(...steps(s).map((step) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.step = step;
      b.textContent = LABELS[step] ?? `Open the ${step}`;
      b.addEventListener('click', () => take(step));
      return b;
    }));
  }
  for (const b of box.querySelectorAll('button')) b.disabled = !s.next.includes(b.dataset.step);
  $('steps').hidden = s.state === 'finished' || s.state === 'void';
}

/** The table is over: the void record (if any), the transcript as a file and its verdict here. */
async function showEnd(s) {
  const text = await transcriptText(base);
  const stall = stallOf(JSON.parse(text));
  if (s.state === 'void' && stall) {
    $('void').dataset.seat = String(stall.seat);
    $('void').dataset.stage = stall.stage;
    $('void-record').textContent = voidWords(stall, s.manifest.seats);
    $('void').hidden = false;
  }
  const download = $('download');
  download.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  download.download = `${table}.json`;
  $('record').hidden = false;
  await showVerdict(await loadSeat(), text, $('record'), $('verdict'));
}

function render(s) {
  current = s;
  $('title').textContent = `Operator of ${s.table} (${s.manifest.game}, hidden hands)`;
  document.body.dataset.state = s.state;
  $('status').textContent = statusWords(s);
  showSeats(s);
  showSteps(s);
  showDeadline();
}

/** One poll: the status (and the token's check, once); true once the table is over and shown. */
async function read() {
  if (!checked) await checkToken();
  const s = await api('GET', base);
  render(s);
  document.body.dataset.entries = String(s.entries);
  if (s.state !== 'finished' && s.state !== 'void') return false;
  ending ??= showEnd(s).catch((e) => {
    ending = null;
    throw e;
  });
  await ending;
  return true;
}

/** `read`, and a status line that says so when polling stops (table.js's `poll` says why). */
async function tick() {
  try {
    return await read();
  } catch (e) {
    if (FINAL[e.status]) $('status').textContent = 'stopped';
    throw e;
  }
}

if (!table || !token) {
  document.body.dataset.stopped = 'link';
  showError('this link has no table or token: open the operator link the table was opened with');
  $('status').textContent = 'stopped';
} else {
  poll(tick);
  setInterval(showDeadline, 1000);
}
