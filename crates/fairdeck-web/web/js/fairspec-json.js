// Strict reading of fair-dealing documents (docs/fair-dealing.md section 10.1), written from
// the specification: an RFC 8259 reader that refuses a key twice in one object and keeps every
// digit of an integer (JSON.parse rounds 9007199254740993 to 9007199254740992), the form of a
// version 2 or 2.1 document (no unknown or missing field, lowercase hex, cards as the
// specification spells them) and the text rule of section 8.2 (NFC, no Cc/Cf/Zl/Zp character).
// No dependencies.

/** A document that breaks the reading rules: difference kind `document`. */
export class DocumentError extends Error {}

const fail = (why) => { throw new DocumentError(why); };

// Sticky (/y): each matches exactly at lastIndex, so reading stays linear in the text's length.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/**
 * Parses JSON text strictly. Integers come back as Numbers when they are safe (|n| < 2^53) and
 * as BigInts otherwise, digit for digit; numbers with a fraction or exponent as Numbers marked
 * by `isFraction` (the form check refuses them where an integer is due).
 */
export function parseStrict(text) {
  let at = 0;
  const ws = () => { while (at < text.length && ' \t\n\r'.includes(text[at])) at++; };
  const where = () => `at character ${at}`;
  const value = (depth) => {
    if (depth > 128) fail(`nested deeper than 128 ${where()}`);
    ws();
    const c = text[at];
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, at)) { at += word.length; return v; }
    }
    return fail(`not JSON: unexpected ${c === undefined ? 'end' : JSON.stringify(c)} ${where()}`);
  };
  const object = (depth) => {
    at++;
    const out = Object.create(null);
    ws();
    if (text[at] === '}') { at++; return out; }
    for (;;) {
      ws();
      if (text[at] !== '"') fail(`not JSON: a key was expected ${where()}`);
      const key = string();
      if (Object.prototype.hasOwnProperty.call(out, key)) fail(`the key ${JSON.stringify(key)} appears twice in one object`);
      ws();
      if (text[at++] !== ':') fail(`not JSON: ':' was expected ${where()}`);
      out[key] = value(depth + 1);
      ws();
      const c = text[at++];
      if (c === '}') return out;
      if (c !== ',') fail(`not JSON: ',' or '}' was expected ${where()}`);
    }
  };
  const array = (depth) => {
    at++;
    const out = [];
    ws();
    if (text[at] === ']') { at++; return out; }
    for (;;) {
      out.push(value(depth + 1));
      ws();
      const c = text[at++];
      if (c === ']') return out;
      if (c !== ',') fail(`not JSON: ',' or ']' was expected ${where()}`);
    }
  };
  const string = () => {
    STRING.lastIndex = at;
    const m = STRING.exec(text);
    if (!m) fail(`not JSON: a bad string ${where()}`);
    at += m[0].length;
    return JSON.parse(m[0]);
  };
  const number = () => {
    NUMBER.lastIndex = at;
    const m = NUMBER.exec(text);
    if (!m) fail(`not JSON: a bad number ${where()}`);
    at += m[0].length;
    if (m[1] || m[2]) return { isFraction: true, value: Number(m[0]), text: m[0] };
    const big = BigInt(m[0]);
    return (big <= 9007199254740991n && big >= -9007199254740991n) ? Number(big) : big;
  };
  const out = value(0);
  ws();
  if (at !== text.length) fail(`not JSON: text after the document ${where()}`);
  return out;
}

// Section 8.2: the code points of general categories Cc, Cf, Zl and Zp (Unicode 15.0), pinned
// as ranges so that every verifier refuses the same texts whatever Unicode its engine has.
export const FORBIDDEN = [[0x0000, 0x001F], [0x007F, 0x009F], [0x00AD, 0x00AD], [0x0600, 0x0605],
  [0x061C, 0x061C], [0x06DD, 0x06DD], [0x070F, 0x070F], [0x0890, 0x0891], [0x08E2, 0x08E2],
  [0x180E, 0x180E], [0x200B, 0x200F], [0x2028, 0x202E], [0x2060, 0x2064], [0x2066, 0x206F],
  [0xFEFF, 0xFEFF], [0xFFF9, 0xFFFB], [0x110BD, 0x110BD], [0x110CD, 0x110CD], [0x13430, 0x1343F],
  [0x1BCA0, 0x1BCA3], [0x1D173, 0x1D17A], [0xE0001, 0xE0001], [0xE0020, 0xE007F]];

/** Section 8.2's text rule (table ids, seat names, seeds): null, or what is wrong. */
export function textProblem(t) {
  if (typeof t !== 'string' || t.length === 0 || new TextEncoder().encode(t).length > 256) return 'must be 1 to 256 bytes';
  for (const c of t) {
    const p = c.codePointAt(0);
    if (FORBIDDEN.some(([lo, hi]) => p >= lo && p <= hi)) return `holds U+${p.toString(16).toUpperCase().padStart(4, '0')}, a control, format or separator character`;
  }
  if (t.normalize('NFC') !== t) return 'is not in NFC';
  return null;
}

const isInteger = (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n && v < (1n << 64n));
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !v.isFraction;

function obj(v, path, required, optional = []) {
  if (!isObject(v)) fail(`${path}: an object was expected`);
  for (const k of Object.keys(v)) if (!required.includes(k) && !optional.includes(k)) fail(`${path}: unknown field ${JSON.stringify(k)}`);
  for (const k of required) if (!(k in v)) fail(`${path}: the field ${JSON.stringify(k)} is missing`);
  return v;
}
const str = (v, path) => (typeof v === 'string' ? v : fail(`${path}: a string was expected`));
const int = (v, path) => isInteger(v) || fail(`${path}: an integer from 0 to 2^64-1 was expected`);
const list = (v, path) => (Array.isArray(v) ? v : fail(`${path}: an array was expected`));
const hex = (v, path, nullable = false) => (nullable && v === null) || (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v))
  || fail(`${path}: ${JSON.stringify(v)} is not 64 lowercase hex digits`);
const cards = (v, path) => list(v, path).forEach((c, i) => (typeof c === 'string' && /^(?:[A2-9TJQK][HDCS]|RJ|BJ)$/.test(c))
  || fail(`${path}[${i}]: ${JSON.stringify(c)} is not a card as the specification writes it`));

/** Section 10.1: throws a DocumentError when a version 2 or 2.1 document breaks the reading rules. */
export function checkRecordForm(t) {
  const version = t && t.version;
  if (version !== 2 && version !== '2.1') fail(`version: ${JSON.stringify(typeof version === 'bigint' ? String(version) : version)} is not 2 or "2.1"`);
  const top = ['version', 'manifest', 'commitment', 'seats', 'server_secret', 'deals'];
  if (version === 2) obj(t, 'the transcript', top);
  else obj(t, 'the transcript', [...top, 'lock', 'played'], ['void']);
  const m = obj(t.manifest, 'manifest', ['version', 'table', 'game', 'deck', 'seats', 'first', 'last']);
  ['version', 'first', 'last'].forEach((f) => int(m[f], `manifest.${f}`));
  ['table', 'game', 'deck'].forEach((f) => str(m[f], `manifest.${f}`));
  list(m.seats, 'manifest.seats').forEach((n, i) => str(n, `manifest.seats[${i}]`));
  hex(t.commitment, 'commitment');
  list(t.seats, 'seats').forEach((s, i) => {
    const at = `seats[${i}]`;
    obj(s, at, ['name', 'commitment', 'seed']);
    str(s.name, `${at}.name`);
    hex(s.commitment, `${at}.commitment`, true);
    if (s.seed !== null && textProblem(str(s.seed, `${at}.seed`))) fail(`${at}.seed: a seed ${textProblem(s.seed)}`);
  });
  hex(t.server_secret, 'server_secret', true);
  if (version === '2.1') { hex(t.lock, 'lock', true); int(t.played, 'played'); }
  if ('void' in t) {
    const v = obj(t.void, 'void', ['phase', 'seats']);
    if (v.phase !== 'commit' && v.phase !== 'reveal') fail(`void.phase: ${JSON.stringify(v.phase)}`);
    list(v.seats, 'void.seats').forEach((n, i) => str(n, `void.seats[${i}]`));
  }
  list(t.deals, 'deals').forEach((d, i) => {
    const at = `deals[${i}]`;
    obj(d, at, ['nonce', 'piles', 'stock'], ['dealer', 'vulnerable', 'deck']);
    int(d.nonce, `${at}.nonce`);
    ['dealer', 'vulnerable'].forEach((f) => f in d && str(d[f], `${at}.${f}`));
    list(d.piles, `${at}.piles`).forEach((p, j) => {
      obj(p, `${at}.piles[${j}]`, ['name', 'role', 'cards']);
      str(p.name, `${at}.piles[${j}].name`);
      str(p.role, `${at}.piles[${j}].role`);
      cards(p.cards, `${at}.piles[${j}].cards`);
    });
    cards(d.stock, `${at}.stock`);
    if ('deck' in d) cards(d.deck, `${at}.deck`);
  });
}
