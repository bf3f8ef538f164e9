// Beside an audit: how many decks of 52 cards this audit needs to catch each named machine
// with probability 0.8 at α = 10⁻⁶, against the most powerful test for that machine alone
// (Neyman–Pearson), from the project's bench (`power-table.js`, generated; the book's power
// table is the same run).

import { el, sideways } from '../ui.js';
import { POWER_TABLE } from './power-table.js';

const decks = (d) => (d == null ? '–' : d.toLocaleString('en'));

/** The power table as a small card section. */
export function powerTable() {
  const rows = POWER_TABLE.map((r) => el('tr', { 'data-machine': r.machine },
    el('td', { text: r.machine }), el('td', { text: decks(r.audit) }),
    el('td', { text: decks(r.neymanPearson) }), el('td', { text: decks(r.neymanPearsonShare) })));
  return el('div', { class: 'power-table' },
    el('p', { class: 'note', text: 'Decks of 52 cards this audit needs to catch each named machine in 4 runs of 5 (α = 10⁻⁶), and what the most powerful test for that one machine needs alone (Neyman–Pearson, at the whole α and at the audit’s share α/17). Measured by the project’s bench: `cargo run --release -p fairdeck-audit --example power_table`.' }),
    sideways(el('table', { class: 'tests' }, el('tbody', {},
      el('tr', {}, ...['machine', 'this audit', 'best test, α', 'best test, α/17'].map((t) => el('th', { text: t }))),
      ...rows))));
}
