// A seat's page at a hidden (version-3) table of the table service: the browser's twin of
// `fairdeck hidden seat` (crates/fairdeck-cli/src/cmd/hidden/seat.rs). It first checks the
// link (a read that needs the seat's token), so a bad link stops it with nothing made or
// kept. The seat's secret key is made inside the seat module (/js/hidden/seat.js: the
// protocol crate compiled to WebAssembly); its key file is kept in this browser's storage
// under the table and seat (/table/hidden-key.js), written before the key message is sent, so
// a reload carries on, and it can be imported in another browser to go on there. The page
// polls the table's status and, whenever the table changed, fetches the transcript; the
// module verifies every proof in it before each step (and before showing a card). When the
// table waits for this seat it sends what it owes: its key, its shuffle, its shares of the
// stage that waits, and at the showdown the shares of its own cards. At the end it verifies
// the whole transcript, and a void table names the seat that stalled and what it owed.

import { loadSeat } from '/js/hidden/seat.js';
import { FINAL, api, linkParams, showCards, showError, stopPage } from '/table/table.js';
import { KeyStore, importKey } from '/table/hidden-key.js';
import { showVerdict, stallOf, transcriptText as fetchTranscript, voidWords } from '/table/hidden-record.js';
import { servedBy } from '/table/served-by.js';

const POLL_MS = 1000;
const MAX_POLL_MS = 15_000;
/** Stages before which no hole card is complete. */
const BEFORE_DEAL = ['keys', 'shuffle', 'deal'];

const link = linkParams();
const table = link.table;
const seat = /^\d{1,6}$/.test(link.seat ?? '') ? Number(link.seat) : null;
const keys = new KeyStore(table, seat);
const base = `/api/hidden/${encodeURIComponent(table)}`;
const mine = `${base}/seats/${seat}`;
const line = document.getElementById('status');

/** An error after which asking again cannot help: the page stops and says why. */
function final(message) {
  const e = new Error(message);
  e.final = true;
  return e;
}

/** The link's token (then dropped from the address bar), else the one kept for this seat. */
function takeToken() {
  if (!link.token) return keys.token() ?? '';
  history.replaceState(null, '', `${location.pathname}#table=${encodeURIComponent(table)}&seat=${seat}`);
  return link.token;
}

/** A transcript as the text the seat module reads. */
const transcriptText = (hand) => fetchTranscript(base, hand);

/** One line of progress: the hand, the stage, who the table waits for. */
function progress(s) {
  const who = (n) => (n === seat ? 'you' : `seat ${n} (${s.manifest.seats[n]})`);
  const owing = s.owed.filter((o) => o.missing.length).map((o) => who(o.seat));
  if (s.state === 'keys') return `waiting for the seats' keys: ${owing.join(', ')}`;
  if (s.stage) return `hand ${s.hand}, ${s.stage}: waiting for ${owing.join(', ')}`;
  const next = s.next.length ? ` (next: ${s.next.join(', ')})` : '';
  return `hand ${s.hand}${s.showdown ? ', showdown' : ''}: waiting for the operator${next}`;
}

/** The seat: its module, its key's handle, what it has done. */
class SeatPage {
  constructor(module, token) {
    this.module = module;
    this.token = token;
    this.key = null;
    this.seen = null;
    this.opened = new Set();
    this.done = false;
  }

  /** One poll; answers true when the table is over (verified) and polling stops. */
  async tick() {
    const s = await api('GET', base);
    const seats = s.manifest.seats.length;
    if (seat >= seats) throw final(`this table has ${seats} seats: there is no seat ${seat} (check the link)`);
    document.getElementById('title').textContent = `${s.manifest.seats[seat]}, seat ${seat} at ${s.table} (${s.manifest.game})`;
    document.body.dataset.state = s.state;
    if (s.state === 'finished' || s.state === 'void') {
      await this.finish(s);
      return true;
    }
    line.textContent = progress(s);
    if (s.entries === this.seen) return false;
    const step = await this.act(s);
    if (step !== 'sent') this.seen = s.entries;
    return false;
  }

  /** Does what the seat owes now: 'sent' a message, or 'wait' for the table to change. */
  async act(s) {
    const owed = s.owed.find((o) => o.seat === seat)?.missing ?? [];
    const text = await transcriptText(s.hand);
    if (owed.some((m) => m.message === 'key')) return this.publishKey(text);
    // The table holds this seat's key: without it here, wait for the player to import it.
    if (!(await this.loadKey()) || s.state === 'keys') return 'wait';
    const hand = s.hand;
    // Before the first shuffle the hand is not in the transcript yet: nothing to show.
    if (JSON.parse(text).hands.some((h) => h.hand === hand)) await this.view(s, text, hand);
    if (owed.some((m) => m.message === 'shuffle')) {
      line.textContent = `hand ${hand}: shuffling and proving the shuffle…`;
      return this.post('shuffle', (await this.module.shuffle(this.key, text, { hand })).message);
    }
    if (owed.length && s.stage) {
      const { messages } = await this.module.share(this.key, text, s.stage, { hand });
      return messages.length ? this.post('shares', messages) : 'wait';
    }
    if (s.showdown && !this.opened.has(hand)) {
      const { messages } = await this.module.open(this.key, text, { hand });
      if (messages.length) return this.post('shares', messages);
      this.opened.add(hand);
    }
    return 'wait';
  }

  /** Makes the key (in the module), keeps its file, then sends the key message. */
  async publishKey(text) {
    // Keys go in seat order: the seats before this one first (the service would answer 409).
    if (JSON.parse(text).keys.length !== seat) return 'wait';
    // A kept key whose message the table never took is replaced: nothing was published with it.
    if (this.key !== null) await this.module.keyForget(this.key);
    this.key = await this.module.keyNew();
    const { message } = await this.module.keyMessage(this.key, text, seat);
    const file = JSON.stringify(await this.module.keyExport(this.key));
    keys.keep(file);
    keys.show(file);
    return this.post('key', message);
  }

  /**
   * The seat's published key, from this browser's storage after a reload; answers false (and
   * says so) when it is not in this browser: the player imports the key file to go on.
   */
  async loadKey() {
    if (this.key !== null) return true;
    const file = keys.file();
    if (!file) {
      keys.showMissing();
      return false;
    }
    this.key = await this.module.keyImport(file);
    // Version 3.1: the receipts kept before a reload, checked again at every later step.
    for (const r of keys.receipts()) await this.module.receipt(this.key, r);
    keys.show(file);
    return true;
  }

  /** Takes an imported key file (checked against the key the seat published) and keeps it. */
  async importFile(text) {
    const key = await importKey(this.module, text, await transcriptText(null), { table, seat });
    if (this.key !== null && this.key !== key) await this.module.keyForget(this.key);
    this.key = key;
    const file = JSON.stringify(await this.module.keyExport(key));
    keys.keep(file);
    keys.show(file);
    // Act on the table as it stands now, with the key.
    this.seen = null;
  }

  /** Sends a message with the seat's token; a 409 ("not now") waits for the table to change. */
  async post(route, body) {
    try {
      const answer = await api('POST', `${mine}/${route}`, this.token, body);
      // Version 3.1: the room's receipts, kept in the seat and checked at every later step.
      for (const r of answer.receipts ?? []) await this.module.receipt(this.key, r);
      keys.keepReceipts(answer.receipts ?? []);
      return 'sent';
    } catch (e) {
      if (e.status === 409) return 'wait';
      if (e.status === 422) throw final(`the table refused this seat's ${route}: ${e.message} (422; polling stopped)`);
      throw e;
    }
  }

  /** Shows the cards this seat may see in `hand` (the module verifies the transcript first). */
  async view(s, text, hand) {
    const { hand: report } = await this.module.cards(this.key, text, { hand });
    const dealt = !BEFORE_DEAL.includes(s.stage ?? '');
    if (dealt && report.own.length) showCards(document.getElementById('hand'), report.own.map((c) => c.card), '');
    showCards(document.getElementById('community'), report.community.map((c) => c.card), 'nothing shown yet');
    showOpened(s.manifest.seats, report.opened);
  }

  /** Stopped by the room: the verification section shows only the seat's receipts. */
  async keepEvidence() {
    document.getElementById('verdict').textContent = 'Not verified: this seat stopped (see above).';
    document.getElementById('download-transcript').hidden = true;
    await this.offerEvidence();
    document.getElementById('verified').hidden = false;
  }

  /** Version 3.1: a link to this seat's receipts and signed heads, for `fair verify --evidence`. */
  async offerEvidence() {
    if (this.key === null) return;
    const evidence = await this.module.evidence(this.key).catch(() => []);
    const a = document.getElementById('download-evidence');
    if (!evidence.length) return;
    const blob = new Blob([JSON.stringify(evidence, null, 2)], { type: 'application/json' });
    a.href = URL.createObjectURL(blob);
    a.download = `${table}-seat${seat}.evidence.json`;
    a.hidden = false;
  }

  /**
   * Version 3.1: signs the whole transcript this seat verified and posts it (§18), so that a
   * key the room swapped in for this seat never carries this seat's attestation. A refusal
   * (this seat attested already, before a reload) is only noted.
   */
  async attest(text) {
    if (this.key === null || JSON.parse(text).revision !== 1) return;
    try {
      const attestation = await this.module.attest(this.key, text);
      await api('POST', `${mine}/attestation`, this.token, attestation);
      document.getElementById('verified').dataset.attested = 'yes';
    } catch (e) {
      document.getElementById('verified').dataset.attested = `no: ${e.message}`;
    }
  }

  /** The table is over: the whole transcript verified here, the last hand's cards shown. */
  async finish(s) {
    if (this.done) return;
    const text = await transcriptText(null);
    const last = JSON.parse(text).hands.at(-1)?.hand;
    if (last != null && (this.key !== null || keys.file())) {
      await this.loadKey();
      await this.view(s, text, last).catch((e) => showError(e.message));
    }
    const stall = stallOf(JSON.parse(text));
    if (s.state === 'void' && stall) showVoid(stall, s.manifest.seats);
    const section = document.getElementById('verified');
    document.getElementById('fingerprints').dataset.seat = String(seat);
    await showVerdict(this.module, text, section, document.getElementById('verdict'));
    if (section.dataset.verdict === 'valid') await this.attest(text);
    const a = document.getElementById('download-transcript');
    a.href = `${base}/transcript`;
    a.download = `${table}.json`;
    await this.offerEvidence();
    section.hidden = false;
    this.done = true;
    line.textContent = s.state === 'void' ? 'the table is void: a seat did not send what it owed in time' : 'the table is finished';
    document.getElementById('import').hidden = true;
    document.getElementById('key-missing').hidden = true;
  }
}

/** The void record (§14): the stage, the seat that stalled, what it owed. */
function showVoid(stall, names) {
  const section = document.getElementById('void');
  section.dataset.seat = String(stall.seat);
  section.dataset.stage = stall.stage;
  document.getElementById('void-record').textContent = voidWords(stall, names, seat);
  section.hidden = false;
}

/** The cards opened at the showdown, seat by seat. */
function showOpened(names, opened) {
  const bySeat = new Map();
  for (const c of opened) bySeat.set(c.seat, [...(bySeat.get(c.seat) ?? []), c.card]);
  const rows = [...bySeat].sort(([a], [b]) => a - b).map(([n, cards]) => {
    const row = document.createElement('div');
    row.className = 'showdown-hand';
    row.dataset.seat = String(n);
    const name = document.createElement('p');
    name.textContent = n === seat ? `${names[n]} (you)` : names[n];
    const faces = document.createElement('div');
    faces.className = 'cards';
    showCards(faces, cards, '');
    row.append(name, faces);
    return row;
  });
  document.getElementById('opened').replaceChildren(...rows);
  document.getElementById('showdown').hidden = rows.length === 0;
}

/** Why polling stops after `e`, or null to try again. */
function stopWords(e) {
  if (e.final) return e.message;
  if (roomRefusal(e)) {
    return `the room served a transcript this seat refuses: ${e.message.replace(/^transcript: /, '')}; `
      + 'this seat sends nothing more (its receipts are below, for fair verify --evidence)';
  }
  return FINAL[e.status] ? `${FINAL[e.status]} (${e.status}; polling stopped)` : null;
}

/**
 * Spec §19: the seat module refused the served transcript because of the room (a message not
 * signed by its seat, a rewritten history, a log the room's own signatures contradict). Asking
 * again cannot help: the seat stops for good and keeps its evidence.
 */
function roomRefusal(e) {
  const m = e.message ?? '';
  return m.startsWith('transcript: ')
    && (m.includes('[at fault: the room]') || m.includes("the room changed the table's history"));
}

/** Polls one request at a time; an error that may pass backs off, one that cannot stops. */
async function run(page) {
  let wait = POLL_MS;
  for (;;) {
    try {
      if (await page.tick()) return;
      showError(null);
      wait = POLL_MS;
    } catch (e) {
      const stop = stopWords(e);
      showError(stop ?? e.message);
      if (stop) {
        document.body.dataset.stopped = roomRefusal(e) ? 'room' : String(e.status ?? 'final');
        line.textContent = 'stopped';
        if (roomRefusal(e)) await page.keepEvidence();
        return;
      }
      wait = Math.min(wait * 2, MAX_POLL_MS);
    }
    await new Promise((resolve) => { setTimeout(resolve, wait); });
  }
}

/** The "Import key file" control: a chosen file is checked and, if it is this seat's, used. */
function offerImport(page) {
  const input = document.getElementById('key-file');
  const said = document.getElementById('import-error');
  document.getElementById('import-key').addEventListener('click', () => input.click());
  input.addEventListener('change', async () => {
    const chosen = input.files[0];
    input.value = '';
    if (!chosen) return;
    said.hidden = true;
    try {
      await page.importFile(await chosen.text());
      document.getElementById('import-state').textContent = `imported ${chosen.name}: this browser now plays the seat`;
    } catch (e) {
      said.textContent = e.message;
      said.hidden = false;
    }
  });
}

/**
 * Checks the link with its token (a read only the seat's token passes) before anything is
 * made or kept; answers false if it is refused. Other failures are tried again.
 */
async function checkLink(token) {
  for (let wait = POLL_MS; ; wait = Math.min(wait * 2, MAX_POLL_MS)) {
    try {
      await api('GET', mine, token);
      showError(null);
      return true;
    } catch (e) {
      if (FINAL[e.status]) {
        document.body.dataset.stopped = String(e.status);
        showError(`${FINAL[e.status]} (${e.status}; polling stopped)`);
        line.textContent = 'stopped';
        return false;
      }
      showError(`cannot check the link yet: ${e.message}`);
    }
    await new Promise((resolve) => { setTimeout(resolve, wait); });
  }
}

/** The sentence on whose code this page is, when the player's own fairdeck served it. */
function sayWhoServed() {
  if (servedBy !== 'player') return;
  document.body.dataset.servedBy = 'player';
  document.getElementById('trust').textContent = 'This page and its seat module come from your own fairdeck '
    + `(fairdeck hidden seat --page), which serves them on this computer at ${location.host}; the room `
    + 'only answers the seat\'s requests, which your fairdeck passes on and whose receipts it keeps.';
}

async function start() {
  sayWhoServed();
  const token = takeToken();
  if (!table || seat === null || !token) {
    document.body.dataset.stopped = 'link';
    showError('this link has no table, seat or token: open the whole link the room sent you');
    line.textContent = 'stopped';
    return;
  }
  if (!(await checkLink(token))) return;
  keys.keepToken(token);
  const file = keys.file();
  if (file) keys.show(file);
  let module;
  try {
    module = await loadSeat();
  } catch (e) {
    // Said in words, not left at "Loading…": the room's fairdeck has no browser seat, and the
    // seat can still be played from a terminal.
    stopPage('module', `${e.message}. This seat can still be played with \`fairdeck hidden seat --link\` and this page's address`);
    return;
  }
  const page = new SeatPage(module, token);
  offerImport(page);
  run(page);
}

start();
