// Small DOM helpers shared by the pages (no framework): elements, forms, messages.

/** An element with attributes and children; `text` sets textContent, `on*` functions listen. */
export function el(tag, attrs = {}, ...children) {
  const node = tag.startsWith('svg:')
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === undefined || v === null) continue;
    if (k === 'text') node.textContent = v;
    else if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** A labelled form control. */
export function field(label, control, hint) {
  return el('label', { class: 'field' }, el('span', { class: 'field-label', text: label }), control,
    hint ? el('small', { class: 'field-hint', text: hint }) : null);
}

/** A <select> with `options` ([value, text] pairs or strings), `value` chosen. */
export function select(name, options, value) {
  const s = el('select', { name, id: `f-${name}` });
  for (const o of options) {
    const [v, t] = Array.isArray(o) ? o : [o, o];
    s.append(el('option', { value: v, text: t }));
  }
  if (value !== null && value !== undefined) s.value = value;
  return s;
}

/** A text input. */
export function input(name, value, attrs = {}) {
  return el('input', { name, id: `f-${name}`, value: value ?? '', spellcheck: 'false', autocomplete: 'off', ...attrs });
}

/** The error box every page shows a refused request in (`.error`, role alert). */
export function errorBox() {
  return el('p', { class: 'error', role: 'alert', hidden: true });
}

/** Shows `message` in `box` (or hides it when empty). */
export function showError(box, message) {
  box.textContent = message ? `⚠ ${message}` : '';
  box.hidden = !message;
}

/**
 * The server's error in the page's words: when it names a parameter that is one of `form`'s
 * fields, the field is called by its label ("Players must be …", not "players must be …")
 * and marked invalid.
 */
export function pageMessage(form, e) {
  for (const c of form?.querySelectorAll('[aria-invalid]') ?? []) c.removeAttribute('aria-invalid');
  const control = e.parameter ? form?.elements?.[e.parameter] : null;
  const label = control?.closest?.('.field')?.querySelector('.field-label')?.textContent;
  if (!label) return e.message;
  control.setAttribute('aria-invalid', 'true');
  return e.message.startsWith(`${e.parameter} `) ? `${label}${e.message.slice(e.parameter.length)}` : `${label}: ${e.message}`;
}

/** A number for people: 4 significant digits, or exponent form when tiny. */
export function fmt(x, digits = 4) {
  if (x === 0) return '0';
  if (Math.abs(x) < 1e-3) return x.toExponential(2);
  return Number(x.toPrecision(digits)).toString();
}

/** The query of a page as a plain object, dropping empty values. */
export function compact(obj) {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== '' && v !== null && v !== undefined));
}

/** Diverging colour for a deviation `d` in [-1, 1]: blue below, white at 0, red above. */
export function deviationColor(d) {
  const t = Math.max(-1, Math.min(1, d));
  const mix = (a, b) => Math.round(255 + (b - 255) * Math.abs(t));
  return t >= 0 ? `rgb(${mix(0, 214)},${mix(0, 48)},${mix(0, 39)})` : `rgb(${mix(0, 33)},${mix(0, 102)},${mix(0, 172)})`;
}

/**
 * `content` in a box of its own that scrolls sideways when it is wider than the page, with a
 * hint above it that shows only while it does ("⇆ …"). The hint follows resizes.
 */
export function sideways(content, hint = 'wider than the screen: scroll sideways for the rest') {
  const box = el('div', { class: 'scroll-x' }, content);
  const note = el('p', { class: 'scroll-hint', text: `⇆ ${hint}`, hidden: true });
  const update = () => {
    const overflows = box.scrollWidth > box.clientWidth + 1;
    note.hidden = !overflows;
    box.dataset.overflows = String(overflows);
  };
  const watch = new ResizeObserver(update);
  watch.observe(box);
  watch.observe(content);
  return el('div', { class: 'scroll-wrap' }, note, box);
}
