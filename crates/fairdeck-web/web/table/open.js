// Opens a table with the room's admin token and lists the links: one per
// seat (each with its own token) and the operator's.

import { api, showError } from '/table/table.js';

const form = document.getElementById('open');
form.table.value ||= `table-${Date.now().toString(36)}`;

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const seats = form.seats.value.split('\n').map((s) => s.trim()).filter(Boolean);
  const game = form.game.value;
  const decks = { skat: 'piquet', scopa: 'italian' };
  const first = game === 'bridge' ? 1 : 0;
  const seconds = Number(form.minutes.value) * 60;
  const manifest = { version: 2, table: form.table.value, game, deck: decks[game] ?? 'standard', seats, first, last: first };
  try {
    const inv = await api('POST', '/api/tables', form.admin.value, { manifest, commit_seconds: seconds, reveal_seconds: seconds });
    showError(null);
    const link = (page, params) => `${location.origin}/table/${page}.html#${new URLSearchParams(params)}`;
    const item = (label, href) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = href;
      a.textContent = label;
      li.append(a);
      return li;
    };
    document.getElementById('commitment').textContent = inv.commitment;
    document.getElementById('link-list').replaceChildren(
      item('Operator', link('operate', { table: manifest.table, token: inv.operator })),
      ...inv.seats.map((token, seat) => item(`Seat ${seat}: ${seats[seat]}`, link('play', { table: manifest.table, seat, token }))),
    );
    document.getElementById('links').hidden = false;
  } catch (e) {
    showError(e.message);
  }
});
