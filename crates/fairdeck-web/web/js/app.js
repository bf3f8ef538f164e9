// The app shell: nav bar, router and the URL-state helper. Each page is a module
// js/pages/NAME.js exporting render(root, query, ctx); its state lives in the query
// string after "#/NAME?", so a link replays exactly what was on screen.

import * as cards from './cards.js';

const PAGES = [
  ['deal', 'Deal'],
  ['algorithms', 'Algorithms'],
  ['fairness', 'Fairness'],
  ['mix', 'Hand shuffles'],
  ['chaos', 'Chaos'],
  ['verify', 'Verify a deal'],
];

let pending = 0;

/** Counts the API calls in flight; while there are any, the page says it is busy (aria-busy). */
function busy(change) {
  pending += change;
  const main = document.getElementById('page');
  if (pending > 0) main.setAttribute('aria-busy', 'true');
  else main.removeAttribute('aria-busy');
}

/** Calls the JSON API; rejects with the server's error text. */
async function api(path, params = {}, options = {}) {
  busy(+1);
  try {
    return await call(path, params, options);
  } finally {
    busy(-1);
  }
}

async function call(path, params, { method = 'GET' } = {}) {
  const clean = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '' && v !== undefined && v !== null));
  let response;
  if (method === 'GET') {
    const q = new URLSearchParams(clean).toString();
    response = await fetch(q ? `${path}?${q}` : path);
  } else {
    response = await fetch(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(clean) });
  }
  let body;
  try {
    body = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    const error = new Error(body.error ?? `the server answered ${response.status}`);
    error.parameter = body.parameter ?? null; // the field at fault, when the server names one
    throw error;
  }
  return body;
}

/** The page name and query of the current location (#/NAME?QUERY). */
function location() {
  const hash = window.location.hash.replace(/^#\/?/, '');
  const [name, q = ''] = hash.split('?', 2);
  const known = PAGES.some(([p]) => p === name);
  return { name: known ? name : 'deal', query: new URLSearchParams(q) };
}

/** Replaces the query of the current page in the URL, without reloading or re-rendering. */
function setQuery(obj) {
  const { name } = location();
  const q = new URLSearchParams(Object.entries(obj).filter(([, v]) => v !== '' && v !== undefined && v !== null)).toString();
  history.replaceState(null, '', `#/${name}${q ? `?${q}` : ''}`);
}

function drawNav(current) {
  const nav = document.getElementById('nav');
  nav.replaceChildren(...PAGES.map(([name, label]) => {
    const a = document.createElement('a');
    a.href = `#/${name}`;
    a.textContent = label;
    a.dataset.page = name;
    if (name === current) a.setAttribute('aria-current', 'page');
    return a;
  }));
}

let rendering = 0;

async function route() {
  const { name, query } = location();
  const ticket = ++rendering;
  drawNav(name);
  document.title = `fairdeck — ${PAGES.find(([p]) => p === name)[1]}`;
  const main = document.getElementById('page');
  const root = document.createElement('div');
  root.className = `page page-${name}`;
  main.replaceChildren(root);
  main.dataset.page = name;
  main.removeAttribute('data-ready');
  try {
    const page = await import(`./pages/${name}.js`);
    // A page still answering after the user left it must not write its state into the next
    // page's URL: only the current render may set the query.
    const own = (obj) => { if (ticket === rendering) setQuery(obj); };
    await page.render(root, query, { api, setQuery: own, cards });
  } catch (e) {
    const p = document.createElement('p');
    p.className = 'error';
    p.setAttribute('role', 'alert');
    p.textContent = `⚠ ${e.message}`;
    root.append(p);
  }
  if (ticket === rendering) main.dataset.ready = 'true';
}

window.addEventListener('hashchange', route);
route();
