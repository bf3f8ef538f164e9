// Opens a table with the room's admin token and lists the links: one per
// seat (each with its own token) and the operator's. An open-cards table
// (version 2, commit–reveal) gets the play and operate pages; a hidden-hands
// table (version 3, hold'em) gets the hidden seat page (the service's own
// seat links) and the hidden operator's page.

import { api, linkItem, pageLink, showError } from '/table/table.js';

const form = document.getElementById('open');
form.table.value ||= `table-${Date.now().toString(36)}`;
const hidden = () => form.kind.value === 'hidden';

/** Shows the fields of the chosen kind of table only. */
function showKind() {
  form.game.disabled = hidden();
  if (hidden()) form.game.value = 'holdem';
  document.getElementById('minutes-field').hidden = hidden();
  document.getElementById('step-field').hidden = !hidden();
}
form.kind.addEventListener('change', showKind);
showKind();

/** Opens a version-2 table; answers its links and room commitment. */
async function openOpen(seats) {
  const game = form.game.value;
  const decks = { skat: 'piquet', scopa: 'italian' };
  const first = game === 'bridge' ? 1 : 0;
  const seconds = Number(form.minutes.value) * 60;
  const manifest = { version: 2, table: form.table.value, game, deck: decks[game] ?? 'standard', seats, first, last: first };
  const inv = await api('POST', '/api/tables', form.admin.value, { manifest, commit_seconds: seconds, reveal_seconds: seconds });
  const table = manifest.table;
  return {
    commitment: inv.commitment,
    items: [
      linkItem('Operator', pageLink('operate', { table, token: inv.operator })),
      ...inv.seats.map((token, seat) => linkItem(`Seat ${seat}: ${seats[seat]}`, pageLink('play', { table, seat, token }))),
    ],
  };
}

/** Opens a version-3 (hidden hands) hold'em table of one hand; answers its links. */
async function openHidden(seats) {
  const table = form.table.value;
  const manifest = { version: 3, table, game: 'holdem', deck: 'standard', seats, first: 1, last: 1 };
  const inv = await api('POST', '/api/hidden', form.admin.value, { manifest, step_seconds: Number(form.step.value) });
  return {
    commitment: null,
    items: [
      linkItem('Operator', pageLink('hidden-operate', { table, token: inv.operator })),
      ...inv.links.map((href, seat) => linkItem(`Seat ${seat}: ${seats[seat]}`, href)),
    ],
  };
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const seats = form.seats.value.split('\n').map((s) => s.trim()).filter(Boolean);
  try {
    const { commitment, items } = await (hidden() ? openHidden(seats) : openOpen(seats));
    showError(null);
    document.getElementById('commitment-line').hidden = commitment === null;
    document.getElementById('commitment').textContent = commitment ?? '';
    document.getElementById('link-list').replaceChildren(...items);
    document.getElementById('links').hidden = false;
  } catch (e) {
    showError(e.message);
  }
});
