// @ts-check
// Elements made in one call: h() for HTML, s() for SVG.

const SVG = 'http://www.w3.org/2000/svg';

/**
 * An attribute's value; `on...` attributes take a listener. Absent, null and false
 * leave the attribute out; true sets it empty.
 * @typedef {string | number | boolean | null | undefined | ((event: any) => unknown)} AttrValue
 * @typedef {Record<string, AttrValue>} Attrs
 * @typedef {Node | string | number | null | undefined | false} Child
 */

/** The page's main element, where each page draws itself. */
export const app = /** @type {HTMLElement} */ (document.getElementById('app'));

/**
 * @param {Element} el
 * @param {(Child | Child[])[]} children a list among them stands for its items
 */
function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = String(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/**
 * An SVG element.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | null | undefined>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/**
 * A modal dialog over the page, opened at once and removed when closed (its × button,
 * Escape, or `close()`).
 * @param {string} title
 * @param {string} testid
 * @param {...(Child | Child[])} children
 * @returns {HTMLDialogElement}
 */
export function modal(title, testid, ...children) {
  const dialog = h('dialog', { class: 'modal', 'data-testid': testid, 'aria-label': title });
  const box = h('div', { class: 'modal-box' },
    h('div', { class: 'modal-head' },
      h('h2', {}, title),
      h('button', { type: 'button', class: 'close', 'aria-label': 'close', onclick: () => dialog.close() }, '×')));
  append(box, children);
  dialog.append(box);
  dialog.addEventListener('close', () => dialog.remove());
  // A click on the backdrop (the dialog itself, around its box) closes it too.
  // (pressed there too: a selection dragged out of the box does not close it).
  let pressedOutside = false;
  dialog.addEventListener('mousedown', (e) => { pressedOutside = e.target === dialog; });
  dialog.addEventListener('click', (e) => { if (e.target === dialog && pressedOutside) dialog.close(); });
  document.body.append(dialog);
  dialog.showModal();
  // The first field, rather than the × button the browser would focus.
  const first = box.querySelector('.modal-head ~ * :is(input, select, textarea, button)');
  if (first instanceof HTMLElement) first.focus();
  return dialog;
}

/**
 * A link to a player's profile in a table: the name cut short on a phone, whole in its
 * title.
 * @param {string} name
 */
export function nameLink(name) {
  return h('a', { href: `/@/${name}`, class: 'name-cut', title: name }, name);
}
