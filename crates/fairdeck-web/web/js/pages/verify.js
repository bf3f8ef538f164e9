// The "Verify a deal" page: recomputes a fair deal in the browser with fairspec.js (an
// independent implementation of docs/fair-dealing.md) and shows whether the revealed
// secret and the claimed deal are what the commitment promised. The server is never
// asked to verify; it is used only by the optional demo, which fetches an honest deal.
//
// Contract: render(root, query, ctx) fills the empty element `root`; `query` holds the
// page state (commitment, secret, seed, nonce, game, deck, players, deal); ctx is
// { api(path, params), setQuery(obj), cards } with cards the cards.js module.

import * as spec from '../fairspec.js';
import { verifyDealDocument } from '../fairspec-deal.js';
import { renderTranscript } from './transcript.js';

const FIELDS = [
  ['commitment', 'Commitment (published before play)', '64 hex digits'],
  ['secret', 'Server secret (revealed after play)', '64 hex digits'],
  ['seed', 'Client seed (your text)', 'any text, may be empty'],
  ['nonce', 'Nonce (deal number)', '0, 1, 2, …'],
];
const GAMES = ['bridge', 'holdem', 'draw', 'skat', 'scopa'];
const DECKS = ['standard', 'jokers', 'piquet', 'italian', 'shoe:6'];

const WHY = 'Before play the card room published the commitment, the SHA-256 hash of a 256-bit secret '
  + 'that it can no longer change without the hash giving it away. You chose the client seed after seeing '
  + 'the commitment, so the room could not fit its secret to your seed, and you did not know the secret, '
  + 'so neither side alone decided the order of the cards. Once the secret is revealed, this page '
  + 'recomputes the commitment and the whole shuffle here in your browser, with its own JavaScript '
  + 'implementation of the published fair-dealing specification (SHA-256 and HMAC through WebCrypto, '
  + 'ChaCha20 and the draw rule written out in the page) and sends nothing to the server. If the secret '
  + 'does not match the commitment, or a single card is out of place, the page says exactly where.';

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

function field(name, label, hint, value) {
  return el('label', { class: 'verify-field' }, el('span', { text: label }),
    el('input', { id: `verify-${name}`, name, value: value ?? '', placeholder: hint, spellcheck: 'false', autocomplete: 'off' }));
}

function select(name, label, options, value, blank) {
  const s = el('select', { id: `verify-${name}`, name }, el('option', { value: '', text: blank }),
    ...options.map((o) => el('option', { value: o, text: o })));
  if (value && !options.includes(value)) s.append(el('option', { value, text: value }));
  s.value = value ?? '';
  return el('label', { class: 'verify-field' }, el('span', { text: label }), s);
}

function buildForm(query) {
  const deckInput = el('input', { id: 'verify-deck', name: 'deck', value: query.get('deck') ?? '', list: 'verify-decks', placeholder: "the game's deck", spellcheck: 'false' });
  const deal = el('textarea', {
    id: 'verify-deal', name: 'deal', rows: 6, spellcheck: 'false',
    placeholder: 'The claimed deck, top card first (5D QS 3C …), or paste all that fairdeck fair deal printed\n(its --format json document, or its text with the deck: line)',
  });
  deal.value = query.get('deal') ?? '';
  return el('form', { class: 'verify-form', novalidate: true },
    ...FIELDS.map(([name, label, hint]) => field(name, label, hint, query.get(name))),
    select('game', 'Game', GAMES, query.get('game'), 'bridge (default)'),
    el('label', { class: 'verify-field' }, el('span', { text: 'Deck' }), deckInput,
      el('datalist', { id: 'verify-decks' }, ...DECKS.map((d) => el('option', { value: d })))),
    field('players', 'Players', "the game's default", query.get('players')),
    el('label', { class: 'verify-field verify-wide' }, el('span', { text: 'Claimed deal' }), deal),
    el('div', { class: 'verify-buttons' },
      el('button', { id: 'verify-button', type: 'submit', text: 'Verify' }),
      el('button', { id: 'verify-demo', type: 'button', text: 'Demo: get an honest deal from this server' }),
      el('button', { id: 'verify-tamper', type: 'button', text: 'Tamper: swap two cards', disabled: true })));
}

/** The form's values; a pasted JSON deal fills the fields left empty. */
function readForm(form) {
  const v = Object.fromEntries(['commitment', 'secret', 'seed', 'nonce', 'game', 'deck', 'players', 'deal']
    .map((k) => [k, form.elements[k].value]));
  const json = v.deal.trim().startsWith('{') ? spec.parseDealJson(v.deal) : spec.parseDealText(v.deal);
  const pick = (typed, fromJson) => (typed.trim() === '' && fromJson !== undefined ? String(fromJson) : typed);
  return {
    raw: v,
    // The commitment is only ever the one typed: a pasted deal cannot vouch for itself.
    commitment: v.commitment,
    serverSecret: v.secret,
    // Any text is a client seed, even spaces: only an empty box takes the JSON's seed.
    clientSeed: v.seed === '' && json?.clientSeed !== undefined ? json.clientSeed : v.seed,
    nonce: pick(v.nonce, json?.nonce),
    game: pick(v.game, json?.game) || undefined,
    deck: pick(v.deck, json?.deck) || undefined,
    players: v.players.trim() || undefined,
    deal: json ?? v.deal,
  };
}

function handView(hand, cards) {
  return el('div', { class: 'verify-hand' }, el('h4', { text: `${hand.name} (${hand.cards.length})` }),
    cardRow(hand.cards, cards, 48));
}

/** Cards in a row; `claimedAt` maps a place to the claimed card where it differs (marked). */
function cardRow(codes, cards, width, claimedAt = new Map()) {
  const row = el('div', { class: 'verify-cards' });
  codes.forEach((code, i) => {
    const claimed = claimedAt.get(i);
    const title = claimed === undefined ? `card ${i + 1}: ${code}` : `card ${i + 1}: claimed ${claimed}, derived ${code}`;
    const cell = el('span', { class: claimed === undefined ? 'verify-card' : 'verify-card verify-diff', title });
    cell.innerHTML = cards.cardSvg(code, { width }); // markup built by cards.js from a validated code
    if (claimed !== undefined) cell.append(el('small', { text: `#${i + 1}` }), el('small', { text: `≠ ${claimed}` }));
    row.append(cell);
  });
  return row;
}

/** Places where the claimed deck differs from the derived one: index → claimed card. */
function differingPlaces(claimed, expected) {
  const marks = new Map();
  expected.forEach((c, i) => {
    if (claimed[i] !== c) marks.set(i, claimed[i] ?? 'nothing');
  });
  return marks;
}

function resultView(result, inputs, claimed, ctx) {
  const { expected } = result;
  const box = el('section', { id: 'verify-result', 'data-valid': String(result.valid), 'aria-live': 'polite' });
  // A deck line alone is a partial check, as `fair verify --deal` says: never a ✔.
  const heading = '⚠ The deck line is the one the commitment promised — the deck line only: the hands were not '
    + 'checked. Paste the JSON document fair deal --format json printed to check every hand, as fairdeck fair verify does';
  box.append(el('h3', { class: result.valid ? 'verify-warn' : 'verify-invalid', text: result.valid ? heading : '✘ Not valid' }));
  box.append(el('ul', { class: 'verify-differences' }, ...result.differences.map((d) => el('li', { text: d }))));
  box.append(el('dl', { class: 'verify-values' },
    el('dt', { text: 'SHA-256 of the secret' }), el('dd', { text: result.computedCommitment }),
    el('dt', { text: 'published commitment' }), el('dd', { text: inputs.commitment.trim().toLowerCase() }),
    el('dt', { text: 'deal key (HMAC-SHA256)' }), el('dd', { text: inputs.keyHex }),
    el('dt', { text: 'game, deck' }), el('dd', { text: `${expected.game}, ${expected.deck} (${expected.cards.length} cards)` })));
  box.append(el('h3', { text: 'The deal recomputed in your browser' }));
  if (expected.hands.length) box.append(el('div', { class: 'verify-hands' }, ...expected.hands.map((h) => handView(h, ctx.cards))));
  if (expected.stock.length) box.append(handView({ name: 'Stock', cards: expected.stock }, ctx.cards));
  box.append(el('h4', { text: 'The whole deck, top card first (places that differ from the claim are marked)' }),
    cardRow(expected.cards, ctx.cards, 40, differingPlaces(claimed, expected.cards)));
  return box;
}

const STYLE = `
.verify-page .verify-why{max-width:60em}
.verify-form{display:grid;grid-template-columns:repeat(auto-fill,minmax(17em,1fr));gap:.6em 1em;margin:1em 0}
.verify-field{display:flex;flex-direction:column;gap:.2em;font-size:.9em}
.verify-field input,.verify-field select,.verify-field textarea{font:inherit;font-family:ui-monospace,monospace;padding:.3em}
.verify-wide{grid-column:1/-1}
.verify-buttons{grid-column:1/-1;display:flex;gap:.6em;flex-wrap:wrap}
.verify-valid{color:#17692f}.verify-invalid{color:#b3141e}.verify-warn{color:#8a5a00}
.verify-checked li{font-size:.9em}
.verify-output + h2{margin-top:2em;padding-top:1em;border-top:1px solid #ccd}
.verify-differences li{font-family:ui-monospace,monospace;font-size:.9em}
.verify-values{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em;font-size:.85em}
.verify-values dd{margin:0;font-family:ui-monospace,monospace;word-break:break-all}
.verify-hands{display:flex;flex-wrap:wrap;gap:.5em 2em}
.verify-hand h4{margin:.4em 0 .2em}
.verify-cards{display:flex;flex-wrap:wrap;gap:3px}
.verify-card{display:inline-flex;flex-direction:column;align-items:center}
.verify-card small{color:#b3141e;font-weight:700}
.verify-diff svg{outline:3px solid #b3141e;border-radius:5px}
.verify-error{color:#b3141e;font-weight:600}
`;

/** Swaps the 2nd and 5th cards of the deal box (a card list or the JSON's "cards"). */
function tamper(form) {
  const box = form.elements.deal;
  const text = box.value.trim();
  const swap = (cards) => { [cards[1], cards[4]] = [cards[4], cards[1]]; return cards; };
  if (text.startsWith('{')) {
    const obj = JSON.parse(text.replace(/("nonce"\s*:\s*)(\d+)/, '$1"$2"'));
    obj.cards = swap(obj.cards);
    box.value = JSON.stringify(obj, null, 2).replace(/("nonce": )"(\d+)"/, '$1$2');
  } else {
    box.value = swap(spec.parseCards(text)).join(' ');
  }
}

async function demo(form, ctx, note) {
  note.textContent = 'Asking the server for a commitment…';
  let committed;
  let dealt;
  const seed = form.elements.seed.value || `player-${Math.random().toString(36).slice(2, 8)}`;
  const nonce = form.elements.nonce.value.trim() || '0';
  try {
    committed = await ctx.api('/api/fair/commit', {}, { method: 'POST' });
    dealt = await ctx.api('/api/fair/deal', { server_secret: committed.server_secret, client_seed: seed, nonce, game: form.elements.game.value || 'bridge' });
  } catch (e) {
    note.textContent = `The demo needs the server's /api/fair endpoints (fairdeck serve), which did not answer: ${e.message}. Verification itself needs no server: paste a deal and press Verify.`;
    return false;
  }
  const set = (name, value) => { form.elements[name].value = value; };
  set('commitment', committed.commitment);
  set('secret', committed.server_secret);
  set('seed', seed);
  set('nonce', nonce);
  set('deck', '');
  set('players', '');
  set('deal', JSON.stringify(dealt, null, 2));
  note.textContent = 'The server committed to a fresh secret, dealt with your client seed, and revealed the secret. Now check it:';
  return true;
}

const DOC_HEADINGS = {
  valid: ['verify-valid', '✔ Valid: the secret gives the commitment you typed and the deal\'s own, and every hand, the community cards, burns, the stock and the deck line are the derived deal'],
  'self-consistent-only': ['verify-warn', '⚠ Self-consistent only: the document agrees with its secret, but no published commitment was compared — type the one you saw before play'],
  invalid: ['verify-invalid', '✘ Not valid'],
};

/** The verdict on a pasted JSON deal, as `fairdeck fair verify DEAL.json` prints it. */
function documentView(result) {
  const [cls, text] = DOC_HEADINGS[result.verdict];
  const box = el('section', { id: 'verify-result', 'data-valid': String(result.verdict === 'valid'), 'data-verdict': result.verdict, 'aria-live': 'polite' });
  box.append(el('h3', { class: cls, text }));
  box.append(el('ul', { class: 'verify-differences' },
    ...result.differences.map((d) => el('li', { 'data-kind': d.kind }, el('strong', { text: `${d.kind}: ` }), d.message))));
  box.append(el('h4', { text: 'Checked in your browser' }), el('ul', { class: 'verify-checked' }, ...result.checked.map((c) => el('li', { text: c }))));
  if (result.commitment) box.append(el('dl', { class: 'verify-values' }, el('dt', { text: 'SHA-256 of the secret' }), el('dd', { text: result.commitment })));
  return box;
}

/** Verifies what the form holds and shows the result (or the input error) in `out`/`error`. */
async function verifyForm(form, ctx, out, error, updateUrl) {
  error.textContent = '';
  out.replaceChildren();
  try {
    const pasted = form.elements.deal.value;
    if (pasted.trim().startsWith('{')) {
      // The JSON document is checked as the CLI checks it: its own fields, strictly read.
      const result = await verifyDealDocument(pasted, { published: form.elements.commitment.value, serverSecret: form.elements.secret.value });
      out.append(documentView(result));
      form.elements['verify-tamper'].disabled = false;
      if (updateUrl) ctx.setQuery(Object.fromEntries(['commitment', 'secret', 'deal'].map((k) => [k, form.elements[k].value]).filter(([, v]) => v !== '')));
      return;
    }
    const inputs = readForm(form);
    const result = await spec.verify(inputs);
    inputs.keyHex = spec.toHex(await spec.dealKey(inputs.serverSecret, inputs.clientSeed, inputs.nonce));
    const claimed = Array.isArray(inputs.deal.cards) ? inputs.deal.cards : spec.parseCards(inputs.deal);
    out.append(resultView(result, inputs, claimed, ctx));
    form.elements['verify-tamper'].disabled = false;
    if (updateUrl) ctx.setQuery(Object.fromEntries(Object.entries(inputs.raw).filter(([, v]) => v !== '')));
  } catch (e) {
    error.textContent = e.message;
  }
}

/** Fills `root` with the Verify page; verifies at once when the query holds a complete case. */
export async function render(root, query, ctx) {
  root.replaceChildren();
  root.classList.add('verify-page');
  const form = buildForm(query);
  const note = el('p', { class: 'verify-note', 'aria-live': 'polite' });
  const error = el('p', { id: 'verify-error', class: 'verify-error', role: 'alert' });
  const out = el('div', { class: 'verify-output' });
  root.append(el('style', { text: STYLE }));
  renderTranscript(root, ctx);
  root.append(el('h2', { text: 'Verify a single deal (version 1)' }),
    el('p', { class: 'verify-why', text: WHY }), form, note, error, out);

  const run = (updateUrl) => verifyForm(form, ctx, out, error, updateUrl);
  form.addEventListener('submit', (ev) => { ev.preventDefault(); run(true); });
  form.elements['verify-demo'].addEventListener('click', async () => { if (await demo(form, ctx, note)) await run(true); });
  form.elements['verify-tamper'].addEventListener('click', async () => {
    try {
      tamper(form);
      note.textContent = 'Swapped the 2nd and 5th cards of the claimed deal:';
      await run(true);
    } catch (e) {
      error.textContent = `cannot tamper with this deal: ${e.message}`;
    }
  });
  if (query.has('secret') && query.has('deal')) await run(false);
}
