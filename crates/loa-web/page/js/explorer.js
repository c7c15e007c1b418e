// @ts-check
// The opening explorer beside the analysis board: the moves played from the position
// shown in the site's rated games and in imported archives, with their results, by
// rating band; the engine's move and the solver's proof, when it has one, beside them.

import { api, errorMessage } from './api.js';
import { h } from './dom.js';

/**
 * @typedef {import('./types.js').ExplorerAnswer} ExplorerAnswer
 */

/** How long a position stays shown before the engine and the solver are asked of it. */
const VERDICT_DELAY_MS = 600;

/** The rating bands, as the API names them by their lower bounds. */
const BANDS = [1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

export class ExplorerPanel {
  /** @param {(move: string) => void} onPlay plays a move of the table on the board */
  constructor(onPlay) {
    this.onPlay = onPlay;
    /** The request shown: an answer overtaken by a later one is dropped. */
    this.asked = 0;
    /** @type {{ variant: string, rules: string, position: string, moves: string[] } | null} */
    this.at = null;
    this.band = h('select', { 'aria-label': 'rating band', 'data-testid': 'explorer-band' },
      h('option', { value: '' }, 'All ratings'),
      h('option', { value: '0' }, 'Unrated, under 1000'),
      BANDS.map((b, i) => h('option', { value: String(b) }, BANDS[i + 1] ? `${b}-${BANDS[i + 1] - 1}` : `${b}+`)));
    this.source = h('select', { 'aria-label': 'games counted', 'data-testid': 'explorer-source' },
      h('option', { value: '' }, 'All games'),
      h('option', { value: 'rated' }, "This site's rated games"),
      h('option', { value: 'archive' }, 'Archives'));
    for (const select of [this.band, this.source]) select.addEventListener('change', () => { if (this.at) this.show(this.at); });
    this.table = h('div', { 'data-testid': 'explorer-moves' });
    this.verdicts = h('div', { class: 'muted small', 'data-testid': 'explorer-verdicts', 'aria-live': 'polite' });
    this.el = h('section', { class: 'explorer', 'data-testid': 'explorer' },
      h('h2', {}, 'Opening explorer'),
      h('div', { class: 'row' }, this.band, this.source),
      this.table, this.verdicts);
  }

  /**
   * Explores the position after `at.moves`: the counts at once, the verdicts after.
   * @param {{ variant: string, rules: string, position: string, moves: string[] }} at
   */
  async show(at) {
    this.at = at;
    const asked = ++this.asked;
    const body = {
      ...at,
      bands: this.band.value === '' ? [] : [Number(this.band.value)],
      source: this.source.value || undefined,
    };
    try {
      /** @type {ExplorerAnswer} */
      const counts = await api('POST', '/api/explorer', { ...body, verdicts: false });
      if (asked !== this.asked) return;
      this.drawCounts(counts);
      this.verdicts.textContent = 'The engine and the solver are looking…';
      // Only for a position that stays shown: stepping through a game asks for none.
      await new Promise((resolve) => setTimeout(resolve, VERDICT_DELAY_MS));
      if (asked !== this.asked) return;
      /** @type {ExplorerAnswer} */
      const judged = await api('POST', '/api/explorer', { ...body, verdicts: true });
      if (asked !== this.asked) return;
      this.drawVerdicts(judged);
    } catch (err) {
      if (asked === this.asked) this.verdicts.textContent = errorMessage(err);
    }
  }

  /** @param {ExplorerAnswer} answer */
  drawCounts(answer) {
    if (answer.moves.length === 0) {
      this.table.replaceChildren(h('p', { class: 'muted small' },
        'No game counted reached this position (the first 30 plies of each game are counted).'));
      return;
    }
    const percent = (/** @type {number} */ n, /** @type {number} */ of) => `${Math.round((n / of) * 100)}%`;
    const rows = answer.moves.map((m) => {
      const bar = h('div', { class: 'result-bar', title: `Black won ${m.black_wins}, drawn ${m.draws}, White won ${m.white_wins}` },
        h('span', { class: 'black', style: `width:${percent(m.black_wins, m.games)}` }, m.black_wins / m.games >= 0.15 ? percent(m.black_wins, m.games) : ''),
        h('span', { class: 'draw', style: `width:${percent(m.draws, m.games)}` }),
        h('span', { class: 'white', style: `width:${percent(m.white_wins, m.games)}` }, m.white_wins / m.games >= 0.15 ? percent(m.white_wins, m.games) : ''));
      return h('tr', { 'data-move': m.move },
        h('td', {}, h('button', { class: 'link', onclick: () => this.onPlay(m.move) }, m.move)),
        h('td', { class: 'num' }, String(m.games)),
        h('td', { class: 'bar' }, bar));
    });
    this.table.replaceChildren(h('table', { class: 'explorer-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Move'), h('th', {}, 'Games'), h('th', {}, 'Black · draw · White'))),
      h('tbody', {}, rows),
      h('tfoot', {}, h('tr', {}, h('td', {}, 'Σ'), h('td', { class: 'num' }, String(answer.games)), h('td', {})))));
  }

  /** @param {ExplorerAnswer} answer */
  drawVerdicts(answer) {
    const words = [];
    if (answer.engine) words.push(`Engine: ${answer.engine.move ?? '-'} (${answer.engine.eval}).`);
    if (answer.proved_win) {
      const winner = answer.proved_win === 'black' ? 'Black' : 'White';
      words.push(`Solver: ${winner} wins by force${answer.winning_move ? ` with ${answer.winning_move}` : ''}, proved.`);
    } else if (answer.engine) {
      words.push('Solver: no forced win proved within its budget.');
    }
    this.verdicts.textContent = words.join(' ');
    for (const row of this.table.querySelectorAll('tr[data-move]')) {
      const move = row.getAttribute('data-move');
      const marks = `${move === answer.engine?.move ? '★' : ''}${move === answer.winning_move ? '✔' : ''}`;
      const cell = row.querySelector('td');
      if (cell && marks) cell.setAttribute('data-marks', marks);
    }
  }
}
