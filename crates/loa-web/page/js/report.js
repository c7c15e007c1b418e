// @ts-check
// A finished game's report: each side's accuracy and slips, the evaluation graph with
// the slips marked, and the list of slips with the better move; the moves it names lead
// the board there. Asked for while it is made, until it is ready.

import { api, errorMessage } from './api.js';
import { h, s } from './dom.js';
import { SLIP_MARKS } from './format.js';
import { signedIn } from './session.js';

/**
 * @typedef {import('./types.js').ReportAnswer} ReportAnswer
 * @typedef {import('./types.js').GameReportView} GameReportView
 * @typedef {import('./types.js').ReportMove} ReportMove
 */

/** How often a report being made is asked after, in ms. */
const POLL_MS = 2000;


/**
 * @param {number} n
 * @param {string} one
 * @param {string} many
 */
function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The move's number as a record writes it: `12.` for Black, `12...` for White.
 * @param {ReportMove} move
 */
function moveNumber(move) {
  const n = Math.floor(move.ply / 2) + 1;
  return move.side === 'black' ? `${n}.` : `${n}...`;
}

export class GameReportPanel {
  /**
   * @param {string} id the game's
   * @param {(ply: number) => void} goTo shows the position after `ply` moves
   * @param {(report: GameReportView) => void} onReady
   */
  constructor(id, goTo, onReady) {
    this.id = id;
    this.goTo = goTo;
    this.onReady = onReady;
    this.el = h('section', { class: 'report hidden', 'data-testid': 'report', 'aria-label': 'game report' });
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.closed = false;
    /** @type {GameReportView | null} */
    this.report = null;
    this.shownPly = 0;
  }

  dispose() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Shows the report of a game that has ended; asks again while it is being made. */
  async load() {
    if (this.closed || this.report) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.el.classList.remove('hidden');
    try {
      /** @type {ReportAnswer} */
      const answer = await api('GET', `/api/games/${this.id}/report`);
      this.show(answer);
    } catch (err) {
      this.el.replaceChildren(h('p', { class: 'error' }, errorMessage(err)));
    }
  }

  /** @param {ReportAnswer} answer */
  show(answer) {
    if (this.closed) return;
    const title = h('h2', {}, 'Game report');
    if (answer.state === 'ready') {
      this.report = answer.report;
      this.draw();
      this.onReady(answer.report);
      return;
    }
    if (answer.state === 'failed') {
      this.el.replaceChildren(title, h('p', { class: 'muted' }, `No report: ${answer.error}`));
      return;
    }
    if (answer.state === 'none') {
      const ask = h('button', { 'data-testid': 'report-ask', onclick: () => this.ask() }, 'Ask for a report');
      this.el.replaceChildren(title, signedIn()
        ? h('p', {}, 'This game has no report. ', ask)
        : h('p', { class: 'muted' }, 'This game has no report; sign in to ask for one.'));
      return;
    }
    const where = answer.state === 'queued'
      ? (answer.ahead === 0 ? 'next in line' : `${count(answer.ahead, 'game', 'games')} ahead of it`)
      : `${answer.searched} of ${answer.positions} positions searched`;
    this.el.replaceChildren(title, h('p', { class: 'muted', 'data-testid': 'report-progress' }, `Being made: ${where}…`));
    this.timer = setTimeout(() => this.load(), POLL_MS);
  }

  async ask() {
    try {
      this.show(await api('POST', `/api/games/${this.id}/report`));
    } catch (err) {
      this.el.replaceChildren(h('p', { class: 'error' }, errorMessage(err)));
    }
  }

  /** @param {number} ply the position shown, after `ply` moves */
  setPly(ply) {
    this.shownPly = ply;
    if (this.report) this.drawGraph(this.report);
  }

  draw() {
    const report = this.report;
    if (!report) return;
    const sides = /** @type {const} */ (['black', 'white']).map((side) => {
      const accuracy = report.accuracy[side];
      return h('div', { class: 'report-side', 'data-testid': `report-${side}` },
        h('span', { class: `dot ${side}` }),
        h('strong', {}, side === 'black' ? 'Black' : 'White'),
        h('span', { class: 'accuracy' }, accuracy === null ? 'no moves' : `${accuracy.toFixed(1)}% accuracy`),
        h('span', { class: 'muted' }, [
          count(report.inaccuracies[side], 'inaccuracy', 'inaccuracies'),
          count(report.mistakes[side], 'mistake', 'mistakes'),
          count(report.blunders[side], 'blunder', 'blunders'),
        ].join(' · ')));
    });
    this.graphEl = s('svg', { class: 'graph report-graph', viewBox: '0 0 200 60', preserveAspectRatio: 'none', role: 'img', 'aria-label': "Black's expected score over the game", 'data-testid': 'report-graph' });
    this.graphEl.addEventListener('click', (e) => {
      const rect = /** @type {SVGSVGElement} */ (this.graphEl).getBoundingClientRect();
      const n = report.positions.length - 1;
      this.goTo(Math.max(0, Math.min(n, Math.round(((e.clientX - rect.left) / rect.width) * n))));
    });
    this.drawGraph(report);
    const slips = report.moves.filter((m) => m.judgement);
    const list = slips.length === 0
      ? h('p', { class: 'muted' }, 'No inaccuracy, mistake or blunder.')
      : h('ul', { class: 'slips', 'data-testid': 'report-slips' }, ...slips.map((m) => h('li', {},
        h('button', { class: `slip ${m.judgement}`, onclick: () => this.goTo(m.ply + 1) },
          `${moveNumber(m)} ${m.played}${m.judgement ? SLIP_MARKS[m.judgement] : ''}`),
        ` ${m.judgement}${m.lost_win ? ', a forced win let go' : ''}`,
        m.better ? h('span', { class: 'muted' }, ` · `, h('button', { class: 'better', onclick: () => this.goTo(m.ply), title: 'The position before it' }, `${m.better} was better`)) : '')));
    this.el.replaceChildren(
      h('h2', {}, 'Game report'),
      ...sides, this.graphEl, list,
      h('p', { class: 'muted small' }, `Each position searched to ${Math.round(report.nodes / 1000)}k nodes; a move's loss is the share of the expected score it gave away.`));
  }

  /** @param {GameReportView} report */
  drawGraph(report) {
    const el = this.graphEl;
    if (!el) return;
    const n = Math.max(1, report.positions.length - 1);
    const y = (/** @type {number} */ black) => 60 - black * 60;
    const points = report.positions.map((p, i) => `${(i / n) * 200},${y(p.black)}`);
    el.replaceChildren(
      s('line', { x1: 0, y1: 30, x2: 200, y2: 30, class: 'zero' }),
      s('polyline', { points: points.join(' '), class: 'line' }),
      // A line of no length with a round cap: a dot the stretched drawing leaves round.
      ...report.moves.filter((m) => m.judgement).map((m) => {
        const [cx, cy] = [((m.ply + 1) / n) * 200, y(report.positions[m.ply + 1].black)];
        return s('line', { x1: cx, y1: cy, x2: cx, y2: cy, class: `mark ${m.judgement}` });
      }),
      s('line', { x1: (this.shownPly / n) * 200, y1: 0, x2: (this.shownPly / n) * 200, y2: 60, class: 'here' }),
    );
  }
}
