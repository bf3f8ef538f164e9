// What the table pages share: the link's parameters, API calls with the
// link's token, and the seats, community cards and hands as card faces.

import { cardSvg } from '/js/cards.js';

/** The parameters of the link after `#`: table, seat, token (never sent to the server in the URL). */
export function linkParams() {
  const p = new URLSearchParams(location.hash.slice(1));
  return { table: p.get('table') ?? '', seat: p.get('seat'), token: p.get('token') ?? '' };
}

/** One API call; resolves to the JSON answer, or throws an Error with the service's message. */
export async function api(method, path, token, body) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(json.error || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return json;
}

/** Replaces the children of `node` with the faces of `cards` (labelled by name for screen readers). */
export function showCards(node, cards, label) {
  node.replaceChildren();
  for (const code of cards) {
    const face = document.createElement('span');
    face.className = 'card-face';
    face.innerHTML = cardSvg(code, { width: 64 });
    node.append(face);
  }
  if (!cards.length) node.textContent = label;
}

/** The released community cards of every deal, flattened. */
export function communityCards(view) {
  return (view.community ?? []).flatMap((c) => c.shown.flatMap((p) => p.cards));
}

/** The seats as list items: name, committed, revealed. */
export function showSeats(list, view) {
  list.replaceChildren(...view.seats.map((s) => {
    const li = document.createElement('li');
    const state = s.revealed ? 'revealed' : s.commitment ? 'committed' : 'waiting';
    li.textContent = `${s.name}: ${state}`;
    li.dataset.state = state;
    return li;
  }));
}

/** Shows `message` in the page's error line (or hides it). */
export function showError(message) {
  const box = document.getElementById('error');
  box.hidden = !message;
  box.textContent = message ?? '';
}

/** Answers after which asking again cannot help: the page stops and says why. */
const FINAL = {
  401: 'this link carries no token: open the whole link the room sent you',
  403: 'the table refused this link\'s token: the link may be cut short, or the room issued a new one. Open the whole link the room sent you, or ask the room for a new one',
  404: 'there is no such table: check the link',
  429: 'too many refused tokens from this address: check the link, then reload the page in a minute',
};

/** Runs `tick` now and every `ms` until it returns true, or until an answer says asking again cannot help. */
export function poll(tick, ms = 1000) {
  const run = async () => {
    let done = false;
    try {
      done = await tick();
      showError(null);
    } catch (e) {
      const final = FINAL[e.status];
      if (final) {
        document.body.dataset.stopped = String(e.status);
        showError(`${final} (${e.status}; polling stopped)`);
        return;
      }
      showError(e.message);
    }
    if (!done) setTimeout(run, ms);
  };
  run();
}
