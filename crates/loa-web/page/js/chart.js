// @ts-check
// A player's rating history as an inline SVG chart: a line for each category (a variant
// at a speed) from the 1500 every rating starts at, the ratings on the left, the dates
// below, a legend. Drawn at the width it is shown at, so that its text stays the page's
// size.

import { h, s } from './dom.js';
import { capitalized, gameTitle, shortDate } from './format.js';

/**
 * @typedef {import('./types.js').HistoryPoint} HistoryPoint
 * @typedef {import('./types.js').Meta} Meta
 */

const COLORS = ['#2a7ab0', '#d0611f', '#3f9a45', '#8e44ad', '#b8860b', '#c0392b', '#16a085', '#555'];
const HEIGHT = 200;
const LEFT = 44;
const RIGHT = 10;
const TOP = 10;
const BOTTOM = 22;

/**
 * The steps between the rating lines: about four lines over the range.
 * @param {number} range
 */
function step(range) {
  for (const candidate of [25, 50, 100, 200, 250, 500]) if (range / candidate <= 5) return candidate;
  return 1000;
}

/**
 * A category's name: `Standard blitz`.
 * @param {Meta} meta
 * @param {string} category `standard/blitz`
 */
export function categoryName(meta, category) {
  const [variant, speed] = category.split('/');
  return `${gameTitle(meta, variant)} ${speed}`;
}

/** Where every rating starts. */
const START = 1500;

/**
 * The chart, drawn again when its width changes; `dispose` stops that.
 * @param {Meta} meta
 * @param {HistoryPoint[]} history oldest first
 * @param {number} since when the player joined: each line starts there, at 1500
 */
export function ratingChart(meta, history, since) {
  const svg = s('svg', { class: 'rating-chart', role: 'img', 'aria-label': 'rating history', 'data-testid': 'rating-chart' });
  const legend = h('div', { class: 'legend' });
  const el = h('div', { class: 'chart' }, svg, legend);
  /** @type {Map<string, HistoryPoint[]>} */
  const lines = new Map();
  for (const point of history) {
    const line = lines.get(point.category) ?? [];
    line.push(point);
    lines.set(point.category, line);
  }
  const color = (/** @type {number} */ i) => COLORS[i % COLORS.length];
  legend.replaceChildren(...[...lines.keys()].map((category, i) => h('span', { class: 'key' },
    h('span', { class: 'swatch', style: `background:${color(i)}` }), capitalized(categoryName(meta, category)))));

  let drawnWidth = 0;
  const draw = () => {
    const width = Math.max(260, Math.round(el.clientWidth || 600));
    if (width === drawnWidth) return;
    drawnWidth = width;
    svg.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
    svg.setAttribute('height', String(HEIGHT));
    const ratings = [START, ...history.map((p) => p.rating)];
    const times = [since, ...history.map((p) => p.at)];
    const gap = step(Math.max(...ratings) - Math.min(...ratings) + 50);
    const low = Math.floor((Math.min(...ratings) - 10) / gap) * gap;
    const high = Math.ceil((Math.max(...ratings) + 10) / gap) * gap;
    const first = Math.min(...times);
    const last = Math.max(...times);
    const x = (/** @type {number} */ at) => (last === first ? (LEFT + width - RIGHT) / 2
      : LEFT + ((at - first) / (last - first)) * (width - LEFT - RIGHT));
    const y = (/** @type {number} */ rating) => TOP + ((high - rating) / (high - low)) * (HEIGHT - TOP - BOTTOM);
    const parts = [];
    for (let r = low; r <= high; r += gap) {
      parts.push(s('line', { x1: LEFT, x2: width - RIGHT, y1: y(r), y2: y(r), class: 'grid' }),
        s('text', { x: LEFT - 6, y: y(r) + 4, class: 'axis', 'text-anchor': 'end' }, String(r)));
    }
    // Within a day, the times tell the points apart.
    const when = (/** @type {number} */ at) => (shortDate(first) === shortDate(last)
      ? new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : shortDate(at));
    parts.push(s('text', { x: LEFT, y: HEIGHT - 5, class: 'axis' }, when(first)));
    if (last !== first) parts.push(s('text', { x: width - RIGHT, y: HEIGHT - 5, class: 'axis', 'text-anchor': 'end' }, when(last)));
    [...lines.entries()].forEach(([category, points], i) => {
      const d = [{ at: since, rating: START }, ...points]
        .map((p, j) => `${j === 0 ? 'M' : 'L'}${x(p.at).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
      parts.push(s('path', { d, class: 'rating-line', stroke: color(i), 'data-category': category }));
      if (points.length <= 60) {
        for (const p of points) {
          parts.push(s('circle', { cx: x(p.at), cy: y(p.rating), r: 3, fill: color(i) },
            s('title', {}, `${capitalized(categoryName(meta, category))}: ${p.rating} · ${shortDate(p.at)}`)));
        }
      }
    });
    svg.replaceChildren(...parts);
  };
  const observer = new ResizeObserver(() => draw());
  observer.observe(el);
  return { el, dispose: () => observer.disconnect() };
}
