// @ts-check
// The leaderboards (/players): a variant's established players, highest rated first, at
// one speed or each at the speed they play most.

import { api, errorMessage } from './api.js';
import { app, h } from './dom.js';
import { SPEEDS, capitalized } from './format.js';

/**
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').Ranked} Ranked
 */

export class PlayersPage {
  /**
   * @param {Meta} meta
   * @param {URLSearchParams} params `variant` and `speed`, to link to a board
   */
  constructor(meta, params) {
    this.meta = meta;
    const variant = params.get('variant') || 'standard';
    const speed = params.get('speed') || '';
    this.variant = h('select', { 'data-testid': 'board-variant', 'aria-label': 'variant' },
      meta.variants.map((v) => h('option', { value: v.id, selected: v.id === variant }, v.title)));
    this.speed = h('select', { 'data-testid': 'board-speed', 'aria-label': 'speed' },
      h('option', { value: '' }, 'All speeds'),
      SPEEDS.map((s) => h('option', { value: s, selected: s === speed }, capitalized(s))));
    this.table = h('div', { 'data-testid': 'leaderboard' }, h('p', { class: 'muted' }, 'Loading…'));
    /** The request shown: an answer overtaken by a later one is dropped. */
    this.asked = 0;
  }

  dispose() {}

  async start() {
    for (const select of [this.variant, this.speed]) select.addEventListener('change', () => this.load(true));
    app.replaceChildren(
      h('h1', {}, 'Players'),
      h('div', { class: 'row' }, h('label', {}, 'Variant ', this.variant), h('label', {}, 'Speed ', this.speed)),
      h('p', { class: 'muted small' },
        'Established ratings only. A new rating is provisional (shown with ? elsewhere) while its deviation '
        + 'is above 110, that is until enough rated games have been played, and is left out here until then.'),
      this.table);
    await this.load(false);
  }

  /** @param {boolean} chosen the person changed a choice: the address follows it */
  async load(chosen) {
    const params = new URLSearchParams({ variant: this.variant.value });
    if (this.speed.value) params.set('speed', this.speed.value);
    if (chosen) history.replaceState(null, '', `/players?${params}`);
    const asked = ++this.asked;
    try {
      /** @type {Ranked[]} */
      const ranked = await api('GET', `/api/leaderboard?${params}`);
      if (asked !== this.asked) return;
      const established = ranked.filter((r) => !r.provisional);
      if (established.length === 0) {
        const waiting = ranked.length;
        this.table.replaceChildren(h('p', { class: 'muted' }, waiting > 0
          ? `No established player yet: ${waiting} ${waiting === 1 ? 'player has' : 'players have'} a provisional rating.`
          : 'No rated player yet.'));
        return;
      }
      this.table.replaceChildren(h('table', { class: 'leaderboard' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Player'), h('th', {}, 'Rating'),
          h('th', { class: 'wide' }, 'Games'), h('th', {}, 'Speed'))),
        h('tbody', {}, established.map((r, i) => h('tr', { 'data-testid': 'ranked' },
          h('td', {}, i + 1),
          h('td', {}, h('a', { href: `/@/${r.name}` }, r.name), r.bot ? h('span', { class: 'bot' }, 'BOT') : null),
          h('td', {}, h('strong', {}, r.rating), h('span', { class: 'muted small' }, ` ±${r.deviation}`)),
          h('td', { class: 'wide' }, r.games),
          h('td', {}, capitalized(r.speed)))))));
    } catch (err) {
      if (asked === this.asked) this.table.replaceChildren(h('p', { class: 'error' }, errorMessage(err)));
    }
  }
}
