// The version 2 part of the Verify page: a whole transcript (docs/fair-dealing.md, sections
// 8–11) checked in the browser with fairspec-v2.js. The commitment is asked for separately —
// the one the player saw published before play — and never taken from the pasted document.

import * as v2 from '../fairspec-v2.js';
import { parseStrict } from '../fairspec-json.js';

const WHY = 'Version 2: before play the room published a table manifest (game, deck, seats, the '
  + 'deals to be played) and its commitment; every seat committed to a seed of its own before any '
  + 'seed was revealed. Paste the transcript the room published after play, and type the commitment '
  + 'you saw before play: this page recomputes every seat\'s commitment, the room\'s commitment and '
  + 'every deal of the manifest here in your browser, compares every hand, community card, burn and '
  + 'the stock, and names each difference by its kind. The server is not asked.';

/** A DOM element with attributes and children (text children are set as text, never as markup). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === undefined || v === null) continue;
    if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const HEADINGS = {
  valid: ['verify-valid', '✔ Valid as far as this page checks: everything listed below matches, the commitment is the one you saw published and the seat lock the one you recorded. Your own seed and the deal numbers you were shown are compared by fairdeck fair verify --seat --seed --played'],
  partial: ['verify-warn', '⚠ Partial: everything listed below matches the commitment you saw, but the seat lock you recorded before the reveals was not given, so not compared: a seat colluding with the room may have chosen its seed after the others\' reveals. Your own seed and the deal numbers you were shown are compared by fairdeck fair verify --seat --seed --played'],
  void: ['verify-warn', '⚠ Void table: the record names the seat(s) that failed, and nothing was dealt'],
  'self-consistent-only': ['verify-warn', '⚠ Self-consistent only: the transcript agrees with itself, but no published commitment was compared — type the one you saw before play'],
  invalid: ['verify-invalid', '✘ Not valid'],
};

function resultView(result, transcript, ctx) {
  const [cls, text] = HEADINGS[result.verdict];
  const box = el('section', { id: 'transcript-result', 'data-verdict': result.verdict, 'aria-live': 'polite' });
  box.append(el('h3', { class: cls, text }));
  if (result.differences.length) {
    box.append(el('ul', { class: 'verify-differences' },
      ...result.differences.map((d) => el('li', { 'data-kind': d.kind }, el('strong', { text: `${d.kind}: ` }), d.message))));
  }
  box.append(el('h4', { text: 'Checked in your browser' }),
    el('ul', { class: 'verify-checked' }, ...result.checked.map((c) => el('li', { text: c }))));
  if (result.commitment) {
    box.append(el('dl', { class: 'verify-values' },
      el('dt', { text: 'commitment recomputed from the secret and the manifest' }), el('dd', { text: result.commitment })));
  }
  const deals = Array.isArray(transcript?.deals) ? transcript.deals.slice(0, 4) : [];
  for (const d of deals) {
    box.append(el('h4', { text: `Deal ${d.nonce}${d.dealer ? ` · dealer ${d.dealer} · vulnerable ${d.vulnerable}` : ''} (as the transcript shows it)` }));
    const piles = (d.piles ?? []).map((p) => el('div', { class: 'verify-hand' }, el('h4', { text: `${p.name} (${p.role})` }), row(p.cards, ctx)));
    box.append(el('div', { class: 'verify-hands' }, ...piles));
  }
  if (transcript?.deals?.length > deals.length) box.append(el('p', { text: `… and ${transcript.deals.length - deals.length} more deal(s), all checked.` }));
  return box;
}

function row(codes, ctx) {
  const r = el('div', { class: 'verify-cards' });
  for (const code of Array.isArray(codes) ? codes : []) {
    const cell = el('span', { class: 'verify-card', title: String(code) });
    try {
      cell.innerHTML = ctx.cards.cardSvg(code, { width: 40 }); // markup built by cards.js from a validated code
    } catch {
      cell.textContent = String(code);
    }
    r.append(cell);
  }
  return r;
}

/** Appends the transcript form to `root`. */
export function renderTranscript(root, ctx) {
  const doc = el('textarea', {
    id: 'transcript-doc', rows: 8, spellcheck: 'false',
    placeholder: 'The transcript: the JSON document fairdeck fair deal --table … --format json wrote',
  });
  const published = el('input', {
    id: 'transcript-commitment', placeholder: '64 hex digits: the commitment published before play', spellcheck: 'false', autocomplete: 'off',
  });
  const lock = el('input', {
    id: 'transcript-lock', placeholder: '64 hex digits: the seat lock L published before any seed was revealed (version 2.1)', spellcheck: 'false', autocomplete: 'off',
  });
  const form = el('form', { class: 'verify-form', novalidate: true },
    el('label', { class: 'verify-field verify-wide' }, el('span', { text: 'Transcript (version 2)' }), doc),
    el('label', { class: 'verify-field verify-wide' }, el('span', { text: 'Commitment you saw published before play (never read from the transcript)' }), published),
    el('label', { class: 'verify-field verify-wide' }, el('span', { text: 'Seat lock L you recorded before revealing your seed (never read from the transcript)' }), lock),
    el('div', { class: 'verify-buttons' }, el('button', { id: 'transcript-button', type: 'submit', text: 'Verify transcript' })));
  const error = el('p', { id: 'transcript-error', class: 'verify-error', role: 'alert' });
  const out = el('div', { class: 'verify-output' });
  root.append(el('h2', { text: 'Verify a transcript' }), el('p', { class: 'verify-why', text: WHY }), form, error, out);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    out.replaceChildren();
    try {
      const commitment = published.value.trim();
      const recorded = lock.value.trim();
      if (commitment && !/^[0-9a-fA-F]{64}$/.test(commitment)) throw new Error('the published commitment must be 64 hex digits');
      if (recorded && !/^[0-9a-fA-F]{64}$/.test(recorded)) throw new Error('the seat lock must be 64 hex digits');
      // The text goes to the verifier as it is: it reads it strictly (duplicate keys refused,
      // every digit of a deal number kept); the deals shown below come from the same reader.
      const result = await v2.verifyTranscript(doc.value, commitment || undefined, recorded || undefined);
      let transcript = null;
      try { transcript = parseStrict(doc.value); } catch { /* the verdict already says why */ }
      out.append(resultView(result, transcript, ctx));
    } catch (e) {
      error.textContent = e.message;
    }
  });
}
