// @ts-check
// The games being played, as small boards to watch from the lobby: the latest games
// begun and without a result (online ones, and any other moved in the last hour), drawn
// again every little while.

import { api } from './api.js';
import { h, s } from './dom.js';
import { clockLabel, gameTitle, sideName } from './format.js';

/**
 * @typedef {import('./types.js').GameSummary} GameSummary
 * @typedef {import('./types.js').GameView} GameView
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').PositionView} PositionView
 */

/** The most boards shown. */
const BOARDS = 6;
/** How often the boards are drawn again. */
const REFRESH_MS = 20000;
/** A game without a result not moved for this long is left out, unless it is online. */
const STALE_MS = 3600 * 1000;

/**
 * A position as a small picture, not to play on.
 * @param {PositionView} view
 */
export function miniBoard(view) {
  const n = view.size;
  const svg = s('svg', { class: 'mini-board', viewBox: `0 0 ${n * 10} ${n * 10}`, 'aria-hidden': 'true', 'data-testid': 'mini-board' });
  for (let rank = 0; rank < n; rank++) {
    for (let file = 0; file < n; file++) {
      svg.append(s('rect', { x: file * 10, y: (n - 1 - rank) * 10, width: 10, height: 10, class: (file + rank) % 2 === 1 ? 'sq-light' : 'sq-dark' }));
    }
  }
  for (const piece of view.pieces) {
    const file = piece.square.charCodeAt(0) - 97;
    const rank = Number(piece.square.slice(1)) - 1;
    svg.append(s('circle', { cx: file * 10 + 5, cy: (n - 1 - rank) * 10 + 5, r: 3.9, class: `piece-${piece.color}` }));
  }
  return svg;
}

export class Playing {
  /** @param {Meta} meta */
  constructor(meta) {
    this.meta = meta;
    this.list = h('div', { class: 'playing', 'data-testid': 'playing' });
    this.el = h('section', { class: 'hidden' }, h('h2', {}, 'Games being played'), this.list);
    /** @type {ReturnType<typeof setInterval> | null} */
    this.timer = null;
  }

  /** Draws the boards, and again every little while; the first drawing's promise. */
  start() {
    this.timer = setInterval(() => { if (!document.hidden) this.load(); }, REFRESH_MS);
    return this.load();
  }

  dispose() {
    if (this.timer) clearInterval(this.timer);
  }

  async load() {
    /** @type {GameSummary[]} */
    let games;
    try {
      games = await api('GET', '/api/games?limit=100');
    } catch {
      return;
    }
    const now = Date.now();
    const going = games.filter((g) => !g.result && (g.online || now - g.updated_at < STALE_MS));
    /** @type {(GameView | null)[]} */
    // A game nobody joined yet (an invitation not opened, a rematch not taken) is not being
    // played: read twice the boards' number, to show those that are.
    const views = await Promise.all(going.slice(0, 2 * BOARDS).map((g) => api('GET', `/api/games/${g.id}`).catch(() => null)));
    const shown = views.filter(/** @returns {g is GameView} */ (g) => g !== null && g.started).slice(0, BOARDS);
    this.el.classList.toggle('hidden', shown.length === 0);
    this.list.replaceChildren(...shown.map((g) => h('a', { class: 'game-card', href: `/game/${g.id}`, 'data-testid': 'playing-game' },
      miniBoard(g.position),
      h('span', { class: 'names' }, `● ${sideName(g, 'black')}`, h('br'), `○ ${sideName(g, 'white')}`),
      h('span', { class: 'muted small' },
        [gameTitle(this.meta, g.variant, g.position.size), g.clock ? clockLabel(g.clock.control) : null, g.rated ? 'rated' : null]
          .filter(Boolean).join(' · ')))),
    going.length > shown.length ? h('a', { class: 'more', href: '/#games' }, 'More in the saved games') : '');
  }
}
