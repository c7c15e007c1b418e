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
