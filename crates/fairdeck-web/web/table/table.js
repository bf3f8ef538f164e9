// What the table pages share: the link's parameters, API calls with the
// link's token, and the seats, community cards and hands as card faces.

import { cardSvg } from '/js/cards.js';

/** The parameters of the link after `#`: table, seat, token (never sent to the server in the URL). */
export function linkParams() {
  const p = new URLSearchParams(location.hash.slice(1));
  return { table: p.get('table') ?? '', seat: p.get('seat'), token: p.get('token') ?? '' };
}

/**
 * One API call; resolves to the JSON answer, or throws an Error with the service's message
 * (and its `status` and `parameter`). `extra` holds more request headers.
 */
export async function api(method, path, token, body, extra = {}) {
  const headers = { ...extra };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(json.error || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.parameter = json.parameter;
    throw err;
  }
  return json;
}

/** A list item holding one link, `label` → `href`. */
export function linkItem(label, href) {
  const li = document.createElement('li');
  const a = document.createElement('a');
  a.href = href;
  a.textContent = label;
  li.append(a);
  return li;
}

/** The address of one of this service's table pages, its parameters after `#`. */
export const pageLink = (page, params) => `${location.origin}/table/${page}.html#${new URLSearchParams(params)}`;

/** A secret of 32 random bytes as 64 hex digits (WebCrypto). */
export function randomHex() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A deadline (seconds since the epoch) in this browser's local time, and what is left of it. */
export function deadlineWords(deadline, now = Date.now()) {
  const at = new Date(deadline * 1000);
  const left = Math.max(0, Math.ceil(deadline - now / 1000));
  const when = at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  if (left === 0) return { when, left, text: `${when} — passed` };
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = left % 60;
  const parts = h ? `${h} h ${m} min ${s} s` : m ? `${m} min ${s} s` : `${s} s`;
  return { when, left, text: `${when} — in ${parts}` };
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

/**
 * Stops a seat page that cannot go on: only the error stays — no "Loading…" above it and no
 * empty headings of cards it will never show. `reason` goes to `body[data-stopped]`.
 */
export function stopPage(reason, message) {
  document.body.dataset.stopped = reason;
  showError(message);
  for (const part of document.querySelectorAll('#status, main section')) part.hidden = true;
}

/** Answers after which asking again cannot help: the page stops and says why. */
export const FINAL = {
  401: 'this link carries no token: open the whole link the room sent you',
  403: 'the table refused this link\'s token: the link may be cut short, or the room issued a new one. Open the whole link the room sent you, or ask the room for a new one',
  404: 'there is no such table: check the link',
  429: 'too many refused tokens from this address: check the link, then reload the page in a minute',
};

/** A seat claimed on another device: only that device, or a link the room re-issues, can go on. */
const CLAIMED_ELSEWHERE = 'this seat is already claimed on another device. Only that device can play it; if it is lost, ask the room to re-issue your link';

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
      if (e.status === 409 && e.parameter === 'device' && /another device/.test(e.message)) {
        stopPage('claimed', CLAIMED_ELSEWHERE);
        return;
      }
      showError(e.message);
    }
    if (!done) setTimeout(run, ms);
  };
  run();
}
