// @ts-check
// The tournaments (/tournaments): those running, open to join and finished, and a form to
// make one.

import { api, errorMessage } from './api.js';
import { app, h, modal } from './dom.js';
import { clockLabel, dateAndTime, gameTitle, shortDate } from './format.js';
import { navigate } from './navigate.js';
import { signedIn } from './session.js';
import { termsForm } from './terms-form.js';

/**
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').Tournament} Tournament
 */

/**
 * A tournament's format and length in words: `Swiss, 7 rounds`.
 * @param {Tournament} t
 */
export function formatLabel(t) {
  if (t.format === 'swiss') return `Swiss, ${t.rounds} ${t.rounds === 1 ? 'round' : 'rounds'}`;
  if (t.format === 'round-robin') return t.rounds === 2 ? 'Double round robin' : 'Round robin';
  if (t.format === 'arena') return `Arena, ${t.minutes} minutes`;
  return `League, ${t.rounds} ${t.rounds === 1 ? 'season' : 'seasons'}`;
}

export class TournamentsPage {
  /** @param {Meta} meta */
  constructor(meta) {
    this.meta = meta;
  }

  dispose() {}

  async start() {
    /** @type {Tournament[]} */
    const all = await api('GET', '/api/tournaments');
    const me = signedIn();
    const sections = /** @type {const} */ ([['running', 'Playing now'], ['open', 'Open to join'], ['finished', 'Finished']]);
    app.replaceChildren(
      h('div', { class: 'row spread' }, h('h1', {}, 'Tournaments'),
        me ? h('button', { class: 'primary', 'data-testid': 'new-tournament', onclick: () => this.create() }, 'New tournament')
          : h('span', { class: 'muted' }, 'Sign in to make a tournament')),
      ...sections.map(([status, title]) => {
        const list = all.filter((t) => t.status === status);
        return [h('h2', {}, title), list.length === 0 ? h('p', { class: 'muted' }, 'None.') : this.table(list)];
      }).flat());
  }

  /** @param {Tournament[]} list */
  table(list) {
    return h('table', { class: 'tournaments' },
      h('thead', {}, h('tr', {}, ['Name', 'Format', 'Clock', 'Players', 'When'].map((t) => h('th', { class: t === 'When' ? 'wide' : null }, t)))),
      h('tbody', {}, list.map((t) => h('tr', { 'data-testid': 'tournament-row' },
        h('td', { class: 'typed' }, h('a', { href: `/tournament/${t.id}` }, t.name)),
        h('td', {}, formatLabel(t), ' · ', gameTitle(this.meta, t.variant)),
        h('td', {}, clockLabel(t.clock), t.rated ? ' · rated' : ''),
        h('td', {}, t.players),
        h('td', { class: 'wide' }, when(t))))));
  }

  create() {
    const form = termsForm(this.meta, { color: false });
    const name = h('input', { maxlength: 60, required: true, value: 'Club Swiss', 'data-testid': 'tournament-name' });
    const format = h('select', { 'data-testid': 'tournament-format' },
      h('option', { value: 'swiss' }, 'Swiss'),
      h('option', { value: 'round-robin' }, 'Round robin'),
      h('option', { value: 'arena' }, 'Arena: paired again as soon as one finishes'),
      h('option', { value: 'league' }, 'League: divisions, promotion and relegation'));
    const rounds = h('input', { type: 'number', min: 1, max: 30, value: 5, size: 3, 'data-testid': 'tournament-rounds' });
    const double = h('input', { type: 'checkbox', 'data-testid': 'tournament-double' });
    const minutes = h('input', { type: 'number', min: 1, max: 1440, value: 60, size: 4, 'data-testid': 'tournament-minutes' });
    const seasons = h('input', { type: 'number', min: 1, max: 100, value: 1, size: 3, 'data-testid': 'tournament-seasons' });
    /** @type {Record<string, HTMLElement>} */
    const rows = {
      swiss: h('label', {}, 'Rounds ', rounds),
      'round-robin': h('label', { class: 'hidden' }, double, 'Double (each pair plays twice)'),
      arena: h('label', { class: 'hidden' }, 'Minutes ', minutes),
      league: h('label', { class: 'hidden' }, 'Seasons ', seasons),
    };
    format.addEventListener('change', () => {
      for (const [name, row] of Object.entries(rows)) row.classList.toggle('hidden', format.value !== name);
    });
    const startsAt = h('input', { type: 'datetime-local', 'data-testid': 'tournament-starts-at' });
    const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'tournament-error' });
    const dialog = modal('New tournament', 'tournament-dialog', h('form', {
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        const terms = form.read();
        if (typeof terms === 'string') {
          error.textContent = terms;
          return;
        }
        const { color: _color, ...game } = terms;
        const at = startsAt.value ? new Date(startsAt.value).getTime() : null;
        // The server would take it and start the tournament at once: likely not what was meant.
        if (at !== null && at < Date.now()) {
          error.textContent = 'That start is in the past: pick a later time, or leave it empty and start it yourself.';
          return;
        }
        try {
          /** @type {Record<string, object>} */
          const length = {
            swiss: { rounds: Number(rounds.value) },
            'round-robin': { rounds: double.checked ? 2 : 1 },
            arena: { minutes: Number(minutes.value) },
            league: { rounds: Number(seasons.value) },
          };
          /** @type {Tournament} */
          const made = await api('POST', '/api/tournaments', {
            name: name.value, format: format.value, ...length[format.value],
            ...game, ...(at ? { starts_at: at } : {}),
          });
          dialog.close();
          navigate(`/tournament/${made.id}`);
        } catch (err) {
          error.textContent = errorMessage(err);
        }
      },
    },
    h('div', { class: 'row' }, h('label', {}, 'Name ', name)),
    h('div', { class: 'row' }, h('label', {}, 'Format ', format), ...Object.values(rows)),
    form.el,
    h('div', { class: 'row' }, h('label', {}, 'Starts by itself at ', startsAt),
      h('span', { class: 'muted small' }, 'or leave it empty and start it yourself')),
    error,
    h('div', { class: 'row' },
      h('button', { type: 'submit', class: 'primary', 'data-testid': 'make-tournament' }, 'Make it'),
      h('button', { type: 'button', onclick: () => dialog.close() }, 'Cancel'))));
  }
}

/**
 * When a tournament starts, started or ended, in words.
 * @param {Tournament} t
 */
export function when(t) {
  if (t.status === 'finished' && t.finished_at) return `Ended ${shortDate(t.finished_at)}`;
  if (t.status === 'running' && t.format === 'arena') return t.ends_at ? `Until ${new Date(t.ends_at).toLocaleTimeString()}` : 'Playing';
  if (t.status === 'running' && t.format === 'league') return `Season ${t.round}`;
  if (t.status === 'running') return `Round ${t.round}`;
  return t.starts_at ? `Starts ${dateAndTime(t.starts_at)}` : `Starts when ${t.creator} starts it`;
}
