// cards.js: every card code of every deck kind gives a distinct, well-formed SVG with the
// right name, colour and number of pips; bad codes and widths throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cardSvg, cardBack, cardName, isRed, CARD_CODES } from '../js/cards.js';
import { deckCards } from '../js/fairspec.js';

/**
 * A small XML well-formedness check (no DOMParser in Node): tags nest and close, attribute
 * values are quoted and unique per element, text holds no raw "<" or stray "&".
 * Returns the root element as { name, attrs, children }.
 */
function parseXml(xml) {
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
  const root = { name: '#document', attrs: {}, children: [] };
  const stack = [root];
  let at = 0;
  while (at < xml.length) {
    token.lastIndex = at;
    const m = token.exec(xml);
    if (!m) throw new Error(`malformed markup at ${at}: ${xml.slice(at, at + 40)}`);
    at = token.lastIndex;
    const [, closing, name, attrText, selfClosing, text] = m;
    if (text !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(text)) throw new Error(`stray & in ${text}`);
      continue;
    }
    if (closing) {
      const open = stack.pop();
      if (open.name !== name) throw new Error(`</${name}> closes <${open.name}>`);
      continue;
    }
    const attrs = {};
    for (const [, k, v] of attrText.matchAll(/([\w:-]+)="([^"]*)"/g)) {
      if (k in attrs) throw new Error(`duplicate attribute ${k} on <${name}>`);
      attrs[k] = v;
    }
    const el = { name, attrs, children: [] };
    stack.at(-1).children.push(el);
    if (!selfClosing) stack.push(el);
  }
  if (stack.length !== 1) throw new Error(`<${stack.at(-1).name}> is never closed`);
  if (root.children.length !== 1) throw new Error('more than one root element');
  return root.children[0];
}

const walk = (el, f) => { f(el); el.children.forEach((c) => walk(c, f)); };
const KINDS = ['standard', 'jokers', 'piquet', 'italian', 'shoe:2'];

test('the XML check itself rejects malformed markup', () => {
  for (const bad of ['<svg><g></svg>', '<svg a="1" a="2"/>', '<svg>a & b</svg>', '<svg a=1/>', '<svg/><svg/>', '<svg>']) {
    assert.throws(() => parseXml(bad), Error, bad);
  }
  assert.equal(parseXml('<svg a="1"><g/>x &amp; y</svg>').children.length, 1);
});

test('every code of every deck kind gives a well-formed, labelled SVG', () => {
  const codes = new Set(KINDS.flatMap(deckCards));
  assert.equal(codes.size, 54);
  for (const code of codes) {
    const root = parseXml(cardSvg(code));
    assert.equal(root.name, 'svg', code);
    assert.equal(root.attrs.xmlns, 'http://www.w3.org/2000/svg');
    assert.equal(root.attrs.role, 'img');
    assert.equal(root.attrs['data-card'], code);
    assert.equal(root.attrs['aria-label'], cardName(code));
    assert.equal(root.attrs.viewBox, '0 0 200 280');
  }
});

test('names are distinct and read as a person would say them', () => {
  assert.equal(cardName('AS'), 'ace of spades');
  assert.equal(cardName('TD'), 'ten of diamonds');
  assert.equal(cardName('2C'), 'two of clubs');
  assert.equal(cardName('QH'), 'queen of hearts');
  assert.equal(cardName('RJ'), 'red joker');
  assert.equal(cardName('BJ'), 'black joker');
  assert.equal(new Set(CARD_CODES.map(cardName)).size, 54);
  assert.equal(new Set(CARD_CODES.map((c) => cardSvg(c))).size, 54, 'two cards draw the same SVG');
});

/** The fill colours used by a card's drawing (outside its white background). */
function fills(code) {
  const found = new Set();
  walk(parseXml(cardSvg(code)), (el) => {
    if (el.attrs.fill && !['#fff', 'none', '#fdf4de', '#e9b824'].includes(el.attrs.fill)) found.add(el.attrs.fill);
  });
  return [...found];
}

test('hearts, diamonds and the red joker are red; clubs, spades and the black joker black', () => {
  for (const code of CARD_CODES) {
    const red = /[HD]$/.test(code) || code === 'RJ';
    assert.equal(isRed(code), red, code);
    assert.deepEqual(fills(code), [red ? '#c0162c' : '#161616'], code);
    assert.match(cardSvg(code), new RegExp(`class="card card-${red ? 'red' : 'black'}"`));
  }
});

test('number cards carry as many pips as their rank; aces one', () => {
  const pipCount = (code) => (cardSvg(code).match(/scale\(0\.36\)/g) ?? []).length;
  for (const suit of 'HDCS') {
    for (let n = 2; n <= 10; n++) assert.equal(pipCount(`${n === 10 ? 'T' : n}${suit}`), n, `${n}${suit}`);
    assert.equal(pipCount(`A${suit}`), 0);
    assert.equal((cardSvg(`A${suit}`).match(/scale\(0\.(8|96)\)/g) ?? []).length, 1, `A${suit}`);
  }
});

test('corner indices show the rank on both corners, "10" for tens', () => {
  const texts = (code) => [...cardSvg(code).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  assert.deepEqual(texts('TS'), ['10', '10']);
  assert.deepEqual(texts('7H'), ['7', '7']);
  assert.deepEqual(texts('KD'), ['K', 'K', 'K', 'K']); // corners and the two heads of the court frame
  assert.ok(texts('BJ').includes('JOKER'));
});

test('width sets the pixel size at the 5:7 card ratio; the back is well-formed', () => {
  const root = parseXml(cardSvg('AS', { width: 40 }));
  assert.deepEqual([root.attrs.width, root.attrs.height], ['40', '56']);
  const back = parseXml(cardBack({ width: 90 }));
  assert.deepEqual([back.attrs.width, back.attrs.height, back.attrs['data-card'], back.attrs['aria-label']], ['90', '126', 'back', 'card back']);
  assert.ok(!cardSvg('AS').includes(' id='), 'no ids: many cards share one page');
});

test('invalid codes and widths throw a clear error', () => {
  for (const bad of ['10H', 'as', 'XX', '', 'AH ', '1S', 'JK', null, undefined, 52]) {
    assert.throws(() => cardSvg(bad), /unknown card code .*expected rank A 2-9 T J Q K then suit H D C S/, String(bad));
  }
  for (const width of [0, -5, NaN, Infinity, '90']) {
    assert.throws(() => cardSvg('AS', { width }), /card width must be a positive number/, String(width));
  }
  assert.throws(() => cardName('ZZ'), /unknown card code "ZZ"/);
});
