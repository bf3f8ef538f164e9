// The Deal page: game, deck, players and seed → the hands as card pictures (bridge as
// the usual compass diagram, each hand sorted by suit), with the seed, the entropy line
// and a replay link. State in the query: game, deck, players, seed.

import { el, pageMessage, field, select, input, errorBox, showError, compact } from '../ui.js';

const GAMES = [['bridge', 'Bridge (4 × 13)'], ['holdem', "Texas hold'em"], ['draw', 'Five-card draw'], ['skat', 'Skat'], ['scopa', 'Scopa']];
const DECKS = [['', "the game's deck"], ['standard', 'standard 52'], ['jokers', '52 + 2 jokers'], ['piquet', 'piquet 32'], ['italian', 'Italian 40'], ['shoe:2', 'shoe of 2 decks'], ['shoe:6', 'shoe of 6 decks']];
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
const RANK_ORDER = 'AKQJT98765432';

/** Bridge order: spades, hearts, clubs, diamonds (alternating colours), high to low; jokers last. */
function sortHand(cards) {
  const key = (c) => (c.length === 2 && c[1] in SUIT_ORDER ? SUIT_ORDER[c[1]] * 20 + RANK_ORDER.indexOf(c[0]) : 100 + c.charCodeAt(0));
  return [...cards].sort((a, b) => key(a) - key(b));
}

function fan(cards, cardsModule, width, sorted) {
  // Each card shows its left 40% (its index); rows wrap, so a 300-card stock is a block of cards, not one.
  const row = el('div', { class: sorted ? 'fan suit-gap' : 'fan', style: `--card-w:${width}px` });
  let suit = null;
  for (const code of cards) {
    const slot = el('span', { class: 'card-slot', title: cardsModule.cardName ? cardsModule.cardName(code) : code });
    if (sorted && suit !== null && code[1] !== suit) slot.classList.add('suit-first');
    suit = code[1];
    slot.innerHTML = cardsModule.cardSvg(code, { width }); // markup from cards.js for a code the server dealt
    row.append(slot);
  }
  return row;
}

function handBox(hand, cards, width, sorted) {
  const shown = sorted ? sortHand(hand.cards) : hand.cards;
  return el('div', { class: `hand seat-${hand.name.replace(/\s+/g, '-')}`, 'data-hand': hand.name },
    el('div', { class: 'hand-name' }, hand.name, el('small', { text: `${hand.cards.length} cards` })),
    fan(shown, cards, width, sorted));
}

function table(report, cards) {
  const seats = report.hands.map((h) => h.name);
  const isCompass = report.hands.length === 4 && ['North', 'East', 'South', 'West'].every((s) => seats.includes(s));
  if (isCompass) {
    return el('div', { class: 'table compass' },
      ...report.hands.map((h) => handBox(h, cards, 52, true)),
      el('div', { class: 'compass-rose', 'aria-hidden': 'true' }, ...['N', 'E', 'S', 'W'].map((c) => el('span', { text: c }))));
  }
  const width = report.deck_size > 60 ? 44 : 62;
  const piles = report.hands.map((h) => handBox(h, cards, width, false));
  if (report.stock.length) piles.push(handBox({ name: 'Stock', cards: report.stock }, cards, report.stock.length > 60 ? 34 : 44, false));
  return el('div', { class: 'table hands-list' }, ...piles);
}

function entropyLine(r) {
  const needed = r.entropy_needed_bits.toFixed(1);
  const bits = Number.isInteger(r.entropy_key_bits) ? r.entropy_key_bits : r.entropy_key_bits.toFixed(1);
  const bound = r.entropy_source === 'seed-text' ? 'at most ' : '';
  // As the CLI's entropy line: what a game can tell apart (its distinct
  // deals), not the deck order, where the report says so.
  const what = r.entropy_deals
    ? `a ${r.game ?? 'custom'} deal needs ${needed} bits (${r.entropy_deals} deals)`
    : `the deck needs ${needed} bits`;
  return `${what}, the key holds ${bound}${bits}`;
}

/** The command line that deals the same hands: every choice the page made, the seed quoted when needed. */
export function cliLine(report, q) {
  const quote = (v) => (/^[\w.:-]+$/.test(v) ? v : JSON.stringify(v));
  const parts = ['fairdeck deal', `--game ${report.game ?? q.game ?? 'bridge'}`, `--deck ${report.deck}`];
  if (q.players) parts.push(`--players ${q.players}`);
  parts.push(`--seed ${quote(q.seed)}`);
  return parts.join(' ');
}

function meta(report, replayHref, q) {
  const box = el('div', { class: 'deal-meta' },
    el('div', {}, el('strong', { text: 'seed: ' }), el('code', { class: 'seed', id: 'deal-seed', text: report.seed })),
    el('div', {}, el('strong', { text: 'entropy: ' }), el('span', { id: 'deal-entropy', text: entropyLine(report) }),
      ` (${report.generator}, key from ${report.entropy_source})`),
    el('div', {}, el('a', { id: 'replay', href: replayHref, text: '↻ Replay this deal' }),
      ' — the link holds the seed: anyone who opens it sees these same hands. CLI: ',
      el('code', { id: 'deal-cli', text: cliLine(report, q) })));
  if (report.entropy_key_bits < report.entropy_needed_bits) {
    const gap = (report.entropy_needed_bits - report.entropy_key_bits).toFixed(0);
    box.append(el('p', { class: 'warn', text: report.entropy_source === 'seed-text'
      ? `This seed text holds far fewer bits than the deal needs: at most 1 in 2^${gap} of the orders can ever be dealt from such seeds, and a guesser tries likely texts first. Leave the seed empty for a fresh 256-bit key.`
      : `A 256-bit key reaches at most 2^256 of this game's deals: unpredictable, but most deals can never be dealt.` }));
  }
  return box;
}

export async function render(root, query, ctx) {
  const state = { game: query.get('game') ?? 'bridge', deck: query.get('deck') ?? '', players: query.get('players') ?? '', seed: query.get('seed') ?? '' };
  const form = el('form', { class: 'controls', id: 'deal-form' },
    field('Game', select('game', GAMES, state.game)),
    field('Deck', select('deck', DECKS, state.deck)),
    field('Players', input('players', state.players, { type: 'number', min: 1, max: 10, placeholder: 'default' })),
    field('Seed', input('seed', state.seed, { placeholder: 'empty: a fresh 256-bit key from the OS' }), 'any text or 64 hex digits; the same seed deals the same hands'),
    el('button', { type: 'submit', id: 'deal-button', text: 'Deal' }),
    el('button', { type: 'button', class: 'secondary', id: 'deal-fresh', text: 'Fresh deal' }));
  const error = errorBox();
  const out = el('div', { id: 'deal-output' });
  root.append(el('h2', { text: 'Deal' }),
    el('p', { class: 'lead', text: 'A shuffle of the whole deck, exactly uniform over all its orders (Durstenfeld’s Fisher–Yates with unbiased draws from ChaCha20), dealt as the game deals. The seed decides everything: keep it to replay the deal.' }),
    form, error, out);

  const deal = async (params) => {
    showError(error, '');
    try {
      const report = await ctx.api('/api/deal', params);
      const q = compact({ ...params, seed: params.seed || report.seed });
      ctx.setQuery(q);
      form.elements.seed.value = q.seed;
      out.replaceChildren(table(report, ctx.cards), meta(report, `#/deal?${new URLSearchParams(q)}`, q));
    } catch (e) {
      out.replaceChildren();
      showError(error, pageMessage(form, e));
    }
  };
  const params = () => compact({ game: form.elements.game.value, deck: form.elements.deck.value, players: form.elements.players.value.trim(), seed: form.elements.seed.value.trim() });
  form.addEventListener('submit', (ev) => { ev.preventDefault(); deal(params()); });
  form.elements['deal-fresh'].addEventListener('click', () => { form.elements.seed.value = ''; deal(params()); });
  await deal(compact(state));
}
