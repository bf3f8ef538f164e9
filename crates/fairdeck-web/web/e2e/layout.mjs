// Layout checks every page must pass, each one scan of the whole document in the browser
// (issue 36): nothing sticks out of the screen, no text under 12 px, no word broken into
// pieces, and (on a phone) every control at least 44 × 44 CSS px (WCAG 2.5.5).
// Not a test file: serve.test.mjs imports it.

import assert from 'node:assert/strict';

export const MIN_TEXT_PX = 12;
export const MIN_TARGET_PX = 44;

/**
 * Runs in the page (self-contained: Playwright sends its source). Returns the problems found,
 * at most 8 of each kind, each named by tag, id and classes.
 */
function scan({ minText, minTarget, targets }) {
  const vw = document.documentElement.clientWidth;
  const name = (e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${typeof e.className === 'string' && e.className ? `.${e.className.trim().split(/\s+/).join('.')}` : ''}`;
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  };
  const inScroller = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  const all = [...document.querySelectorAll('body *')].filter(shown);

  const overflow = [];
  const scroll = document.documentElement.scrollWidth - vw;
  if (scroll > 0) overflow.push(`the page scrolls sideways by ${scroll} px`);
  for (const e of all) {
    const r = e.getBoundingClientRect();
    if ((r.left < -1 || r.right > vw + 1) && !inScroller(e)) overflow.push(`${name(e)} at x = ${Math.round(r.left)}…${Math.round(r.right)}`);
  }

  // Text: any element with text of its own. A card picture (svg.card) is an image named by
  // its title, not text to read; its corner index is drawn at the card's scale.
  const small = [];
  const broken = [];
  for (const e of all) {
    if (e.closest('svg.card')) continue;
    const texts = [...e.childNodes].filter((c) => c.nodeType === Node.TEXT_NODE && c.data.trim());
    if (!texts.length) continue;
    let px = parseFloat(getComputedStyle(e).fontSize);
    if (e instanceof SVGElement) {
      const m = e.getScreenCTM();
      if (m) px *= Math.hypot(m.a, m.b);
    }
    if (px < minText - 0.01) small.push(`${name(e)} "${texts[0].data.trim().slice(0, 24)}" at ${px.toFixed(1)} px`);
    if (e instanceof SVGElement) continue; // SVG text never wraps
    // A word may wrap over lines only in long runs of at least 10 characters a line
    // (64 hex digits in two lines of 32), never "rif/fle" or one digit a line.
    for (const t of texts) {
      for (const m of t.data.matchAll(/[^\s\-‐–—]+/g)) {
        if (m[0].length < 2) continue;
        const range = document.createRange();
        range.setStart(t, m.index);
        range.setEnd(t, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
        if (lines > 1 && m[0].length / lines < 10) broken.push(`${name(e)} "${m[0].slice(0, 24)}" over ${lines} lines`);
      }
    }
  }

  // Controls: anything one can click, tap, type in or drag. A checkbox's target is its label.
  const tiny = [];
  if (targets) {
    const controls = new Set(document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea, summary, '
      + '[role="button"], [role="link"], [role="checkbox"], [role="tab"], [tabindex]:not([tabindex="-1"]), [draggable="true"]'));
    for (const e of all) {
      const cursor = getComputedStyle(e).cursor;
      if (cursor === 'pointer' && getComputedStyle(e.parentElement).cursor !== 'pointer') controls.add(e);
    }
    for (const e of controls) {
      if (!shown(e)) continue;
      const target = ['checkbox', 'radio'].includes(e.type) ? (e.closest('label') ?? e) : e;
      const r = target.getBoundingClientRect();
      if (r.width < minTarget - 0.5 || r.height < minTarget - 0.5) tiny.push(`${name(e)} ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
    }
  }
  const cap = (list) => list.slice(0, 8);
  return { overflow: cap(overflow), small: cap(small), broken: cap(broken), tiny: cap(tiny) };
}

/** The problems on `page` now; `targets: false` skips the tap-target check (desktop). */
export function problems(page, { targets = true } = {}) {
  return page.evaluate(scan, { minText: MIN_TEXT_PX, minTarget: MIN_TARGET_PX, targets });
}

/** Fails, naming every problem, unless the page passes every check. */
export async function assertLayout(page, what, options) {
  const found = await problems(page, options);
  assert.deepEqual(found, { overflow: [], small: [], broken: [], tiny: [] }, `${what}: layout problems`);
}
