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
        'Ranked by established ratings. A new rating is provisional (shown with ?) while its deviation '
        + 'is above 110, that is until enough rated games have been played: those players are listed apart, below.'),
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
      // Provisional ratings are not ranked, but listed below: on a young site they are
      // everybody, and a player looks for opponents there too.
      const provisional = ranked.filter((r) => r.provisional).sort((a, b) => b.rating - a.rating);
      if (ranked.length === 0) {
        this.table.replaceChildren(h('p', { class: 'muted' }, 'No rated player yet.'));
        return;
      }
      /**
       * @param {Ranked[]} rows
       * @param {boolean} ranks
       */
      const table = (rows, ranks) => h('table', { class: 'leaderboard', 'data-testid': ranks ? 'ranked-table' : 'provisional-table' },
        h('thead', {}, h('tr', {}, ranks ? h('th', {}, '#') : null, h('th', {}, 'Player'), h('th', {}, 'Rating'),
          h('th', { class: 'wide' }, 'Games'), h('th', {}, 'Speed'))),
        h('tbody', {}, rows.map((r, i) => h('tr', { 'data-testid': ranks ? 'ranked' : 'provisional' },
          ranks ? h('td', {}, i + 1) : null,
          h('td', {}, h('a', { href: `/@/${r.name}` }, r.name), r.bot ? h('span', { class: 'bot' }, 'BOT') : null),
          h('td', {}, h('strong', {}, ranks ? r.rating : `${r.rating}?`), h('span', { class: 'muted small' }, ` ±${r.deviation}`)),
          h('td', { class: 'wide' }, r.games),
          h('td', {}, capitalized(r.speed))))));
      this.table.replaceChildren(
        established.length > 0 ? table(established, true) : h('p', { class: 'muted' }, 'No established player yet.'),
        ...(provisional.length > 0 ? [
          h('h2', {}, 'Provisional'),
          h('p', { class: 'muted small' }, 'Not ranked until enough rated games settle their ratings.'),
          table(provisional, false)] : []));
    } catch (err) {
      if (asked === this.asked) this.table.replaceChildren(h('p', { class: 'error' }, errorMessage(err)));
    }
  }
}
