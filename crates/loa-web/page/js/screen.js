// @ts-check
// What the game page and the analysis board share: the board, the move list, stepping
// through it, the evaluation bar, the best line and the graph.

import { Analysis } from './analysis.js';
import { api, describe, errorMessage } from './api.js';
import { Board } from './board.js';
import { h, s } from './dom.js';
import { SLIP_MARKS, blackShare, scoreText, shortScore } from './format.js';

/**
 * @typedef {import('./types.js').AnalysisMessage} AnalysisMessage
 * @typedef {import('./types.js').AnalysisInfo} AnalysisInfo
 * @typedef {import('./types.js').AnalysisProved} AnalysisProved
 * @typedef {import('./types.js').BlackScore} BlackScore
 * @typedef {import('./types.js').Line} Line
 * @typedef {import('./types.js').MoveView} MoveView
 * @typedef {import('./types.js').PositionView} PositionView
 * @typedef {import('./types.js').Slip} Slip
 */

export class GameScreen {
  constructor() {
    this.board = new Board((text) => this.tryMove(text));
    this.viewPly = 0;
    /** @type {Line | null} */
    this.line = null;
    /** The position on the board. @type {PositionView | null} */
    this.shown = null;
    /** What went wrong with the last thing the person did. @type {string | null} */
    this.errorText = null;
    this.analysisOn = false;
    /** @type {AnalysisInfo | null} */
    this.lastInfo = null;
    /** The solver's proof for a position analysed. @type {AnalysisProved | null} */
    this.proved = null;
    /** The evaluation of each position of the line. @type {BlackScore[] | null} */
    this.graph = null;
    /** The positions `graph` is for. @type {string | null} */
    this.graphKey = null;
    /** A report's judgements of moves, by the move's index: written after them as `?!`, `?`, `??`. @type {Map<number, Slip>} */
    this.marks = new Map();
    this.analysis = new Analysis((msg) => this.onAnalysis(msg));
    // Black's share of the bar sits on Black's side of the board, and the score is
    // written on it with its sign (+ good for Black).
    this.evalFill = h('div', { class: 'black', style: 'height:50%' });
    this.evalLabel = h('span', { class: 'evallabel', 'data-testid': 'eval-label' }, '');
    this.evalBar = h('div', { class: 'evalbar hidden', title: 'evaluation: + is good for Black', 'data-testid': 'evalbar' }, this.evalFill, this.evalLabel);
    this.board.onFlip = () => this.orientEvalBar();
    this.movesEl = h('div', { class: 'moves', 'data-testid': 'moves', 'aria-label': 'moves' });
    this.analysisEl = h('div', { class: 'analysis hidden', 'data-testid': 'analysis', 'aria-live': 'polite' });
    this.graphEl = s('svg', { class: 'graph hidden', viewBox: '0 0 200 60', preserveAspectRatio: 'none', 'data-testid': 'graph' });
    this.graphEl.addEventListener('click', (e) => this.clickGraph(e));
    this.status = h('div', { class: 'status', 'data-testid': 'status', 'aria-live': 'polite' });
    this.moveInput = h('input', {
      'aria-label': 'type a move', placeholder: 'move, e.g. b1-d3', size: 14, 'data-testid': 'move-input',
      onkeydown: (/** @type {KeyboardEvent} */ e) => {
        if (e.key === 'Enter' && this.moveInput.value.trim()) {
          this.tryMove(this.moveInput.value.trim());
          this.moveInput.value = '';
        }
        e.stopPropagation();
      },
    });
    this.keyHandler = (/** @type {KeyboardEvent} */ e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
  }

  dispose() {
    document.removeEventListener('keydown', this.keyHandler);
    this.analysis.stop();
  }

  /**
   * A move to make: each page says what it does.
   * @param {string} text
   * @returns {Promise<void>}
   */
  async tryMove(text) {
    throw new Error(`no move here (${text})`);
  }

  /** Whether the person may move on the board shown: each page says. */
  canMove() {
    return false;
  }

  /** The status line: each page writes its own. */
  updateStatus() {}

  /** @param {KeyboardEvent} e */
  onKey(e) {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement
      || e.target instanceof HTMLSelectElement) return;
    if (!this.line) return;
    const last = this.line.moves.length;
    /** @type {Record<string, number>} */
    const steps = { ArrowLeft: this.viewPly - 1, ArrowRight: this.viewPly + 1, Home: 0, End: last, ArrowUp: 0, ArrowDown: last };
    if (e.key in steps) {
      e.preventDefault();
      this.goTo(Math.max(0, Math.min(last, steps[e.key])));
    } else if (e.key === 'f') {
      this.board.flip();
    }
  }

  /**
   * A new state of the line: shown at its end if `toEnd`, if its end was shown, or if
   * the move shown is gone.
   * @param {Line} line
   * @param {boolean} toEnd
   */
  setLine(line, toEnd) {
    const followingEnd = !this.line || this.viewPly === this.line.moves.length;
    this.line = line;
    if (toEnd || followingEnd || this.viewPly > line.moves.length) this.viewPly = line.moves.length;
  }

  /** @param {number} ply */
  async goTo(ply) {
    this.viewPly = ply;
    // A refused move's words belong to the position it was tried in.
    this.errorText = null;
    await this.refresh();
  }

  atEnd() {
    return this.line !== null && this.viewPly === this.line.moves.length;
  }

  /**
   * The position after `ply` moves of the line.
   * @param {Line} l
   * @param {number} ply
   * @returns {Promise<PositionView>}
   */
  async viewAt(l, ply) {
    if (ply === l.moves.length && l.current) return l.current;
    return describe(l.variant, l.rules, l.positions[ply]);
  }

  /**
   * The move that led to the position after `ply` moves, as the server describes it: one
   * of the legal moves of the position it was played in.
   * @param {Line} l
   * @param {number} ply
   * @returns {Promise<MoveView | null>}
   */
  async moveTo(l, ply) {
    if (ply === 0) return null;
    if (ply === l.moves.length && l.current) return l.lastMove ?? null;
    const before = await describe(l.variant, l.rules, l.positions[ply - 1]);
    return before.moves.find((m) => m.text === l.moves[ply - 1]) ?? null;
  }

  async refresh() {
    const l = this.line;
    if (!l) return;
    const ply = this.viewPly;
    let view;
    let lastMove;
    try {
      [view, lastMove] = await Promise.all([this.viewAt(l, ply), this.moveTo(l, ply)]);
    } catch (err) {
      this.status.textContent = errorMessage(err);
      return;
    }
    if (ply !== this.viewPly || l !== this.line) return;
    this.shown = view;
    this.board.set(view, {
      lastMove,
      interactive: this.canMove(),
      arrow: this.analysisOn && this.lastInfo && this.lastInfo.position === view.position
        ? this.lastInfo.best : null,
    });
    this.drawMoves();
    this.drawGraph();
    this.onShown(ply);
    this.updateStatus();
    if (this.analysisOn) this.analyse();
  }

  drawMoves() {
    const l = this.line;
    if (!l) return;
    const buttons = [];
    const start = h('button', { class: this.viewPly === 0 ? 'current' : '', onclick: () => this.goTo(0) }, 'start');
    buttons.push(start);
    l.moves.forEach((text, i) => {
      if (i % 2 === 0) buttons.push(h('span', { class: 'num' }, `${i / 2 + 1}.`));
      const mark = this.marks.get(i);
      buttons.push(h('button', {
        class: this.viewPly === i + 1 ? 'current' : '', 'data-ply': i + 1,
        onclick: () => this.goTo(i + 1),
      }, text, mark ? h('span', { class: `mark ${mark}`, title: mark }, SLIP_MARKS[mark]) : ''));
    });
    this.movesEl.replaceChildren(...buttons);
    this.movesEl.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  }

  /**
   * Told of each position shown, after `ply` moves.
   * @param {number} ply
   */
  onShown(ply) {
    void ply;
  }

  orientEvalBar() {
    // Black plays up the board unless it is flipped: its share grows from the bottom.
    this.evalBar.classList.toggle('black-top', this.board.flipped);
  }

  /** @param {boolean} on */
  setAnalysis(on) {
    this.analysisOn = on;
    this.analysisEl.classList.toggle('hidden', !on);
    this.evalBar.classList.toggle('hidden', !on);
    // Shown, it waits for a second position (loadGraph).
    this.graphEl.classList.toggle('hidden', !on);
    if (on) {
      this.loadGraph();
      this.analyse();
    } else {
      this.analysis.stop();
      this.lastInfo = null;
    }
    this.refresh();
  }

  analyse() {
    const l = this.line;
    // A game ended by resignation, time or agreement still has moves to analyse: only a
    // position the rules end is past searching.
    if (!l || !this.shown || this.shown.outcome) {
      this.analysis.stop();
      this.analysisEl.textContent = this.shown && this.shown.outcome ? `Game over: ${this.shown.outcome.result}` : '';
      return;
    }
    this.analysis.request({
      variant: l.variant, rules: l.rules, position: l.start, moves: l.moves.slice(0, this.viewPly),
    });
  }

  /** @param {AnalysisMessage} msg */
  onAnalysis(msg) {
    if (msg.type === 'error') {
      this.analysisEl.textContent = msg.error;
      return;
    }
    if (!this.shown || msg.position !== this.shown.position) return;
    if (msg.type === 'proved') {
      this.proved = msg;
      this.analysisEl.querySelector('[data-testid="proved"]')?.remove();
      this.analysisEl.append(provedLine(msg, this.shown.to_move));
      return;
    }
    if (msg.type === 'info') {
      this.lastInfo = msg;
      this.evalFill.style.height = `${(blackShare(msg.score) * 100).toFixed(1)}%`;
      this.evalLabel.textContent = shortScore(msg.score);
      this.orientEvalBar();
      this.analysisEl.replaceChildren(
        h('span', { class: 'score', 'data-testid': 'score' }, scoreText(msg.score)),
        h('span', { class: 'muted' }, `depth ${msg.depth} · ${Math.round(msg.nps / 1000)} kn/s`),
        // Each move kept whole on a narrow screen: a line breaks between moves, not at a hyphen.
        h('div', { class: 'pv', 'data-testid': 'pv' }, ...msg.pv.flatMap((move, i) => [i > 0 ? ' ' : '', h('span', {}, move)])),
      );
      const proved = this.proved;
      if (proved && proved.position === msg.position) this.analysisEl.append(provedLine(proved, this.shown.to_move));
      this.board.arrow = msg.best;
      this.board.draw();
    }
  }

  async loadGraph() {
    const l = this.line;
    // A graph of one position is an empty frame: none until a move is made.
    this.graphEl.classList.toggle('hidden', !this.analysisOn || !l || l.positions.length < 2);
    if (!l || l.positions.length < 2) {
      this.graph = null;
      return;
    }
    const key = l.positions.join('|');
    if (this.graphKey === key) return;
    this.graphKey = key;
    try {
      /** @type {BlackScore[]} */
      const scores = await api('POST', '/api/evaluate', {
        variant: l.variant, rules: l.rules, positions: l.positions, depth: 2,
      });
      if (this.graphKey === key) {
        this.graph = scores;
        this.drawGraph();
      }
    } catch {
      this.graph = null;
    }
  }

  drawGraph() {
    const el = this.graphEl;
    el.replaceChildren(s('line', { x1: 0, y1: 30, x2: 200, y2: 30, class: 'zero' }));
    const graph = this.graph;
    if (!graph || graph.length < 2) return;
    const n = graph.length - 1;
    const points = graph.map((score, i) => `${(i / n) * 200},${60 - blackShare(score) * 60}`);
    el.append(s('polyline', { points: points.join(' '), class: 'line' }));
    const x = (this.viewPly / n) * 200;
    el.append(s('line', { x1: x, y1: 0, x2: x, y2: 60, class: 'here' }));
  }

  /** @param {MouseEvent} e */
  clickGraph(e) {
    if (!this.graph || !this.line) return;
    const rect = this.graphEl.getBoundingClientRect();
    const n = this.graph.length - 1;
    const ply = Math.round(((e.clientX - rect.left) / rect.width) * n);
    this.goTo(Math.max(0, Math.min(this.line.moves.length, ply)));
  }
}

/**
 * The solver's word under the engine's line: who wins by force, and how.
 * @param {AnalysisProved} proved
 * @param {string} toMove the side to move in the position proved
 */
function provedLine(proved, toMove) {
  const winner = proved.winner === 'black' ? 'Black' : 'White';
  // `moves` counts both sides' (plies); the engine's "connects in" counts the winner's.
  const own = toMove === proved.winner ? Math.ceil(proved.moves / 2) : Math.floor(proved.moves / 2);
  const within = own === 1 ? '1 move' : `${own} moves`;
  return h('div', { class: 'proved', 'data-testid': 'proved' },
    h('strong', {}, `Proved: ${winner} wins within ${within}`),
    ' ', h('span', { class: 'muted' }, proved.line.join(' ')));
}
