// @ts-check
// Puzzles (/puzzles, /puzzles/daily, /puzzles/{id}): a position from a real game where
// the side to move wins by force, proved by the solver. The person plays the winner's
// moves; the server judges each (another move that also wins is played on from) and
// answers with the loser's reply. The first try at a puzzle rates the person and it.

import { api, describe, errorMessage } from './api.js';
import { Board } from './board.js';
import { app, h } from './dom.js';
import { capitalized, changeText, shortDate, variantOf } from './format.js';
import { navigate } from './navigate.js';
import { signedIn } from './session.js';

/**
 * @typedef {import('./types.js').Meta} Meta
 * @typedef {import('./types.js').MoveView} MoveView
 * @typedef {import('./types.js').PositionAnswer} PositionAnswer
 * @typedef {import('./types.js').PuzzleStep} PuzzleStep
 * @typedef {import('./types.js').PuzzleView} PuzzleView
 * @typedef {import('./types.js').PuzzlesSummary} PuzzlesSummary
 */

/** How long the loser's reply waits, so that the person sees their move first. */
const REPLY_DELAY_MS = 450;

/** @type {Record<string, string>} */
const THEME_TEXT = {
  capture: 'The first move captures.',
  block: 'The opponent threatens to connect at once.',
  connection: 'The first move joins two groups.',
};

export class PuzzlePage {
  /**
   * @param {Meta} meta
   * @param {'next' | 'daily' | string} which a puzzle's id, the day's, or the next for the person
   * @param {string | null} theme for the next: only puzzles of this theme
   * @param {string | null} after for the next: not this one (the puzzle just shown)
   */
  constructor(meta, which, theme, after) {
    this.meta = meta;
    this.which = which;
    this.theme = theme;
    this.after = after;
    this.board = new Board((text) => this.move(text));
    /** @type {PuzzleView | null} */
    this.puzzle = null;
    /** The moves from the puzzle's position, both sides'. @type {string[]} */
    this.played = [];
    /** The line to show once the try is over: the moves played, or the solution. @type {string[]} */
    this.line = [];
    /** The move of `line` shown, once the try is over. */
    this.ply = 0;
    /** 'playing', 'waiting' (for the server or the reply), 'solved' or 'failed'. */
    this.state = 'playing';
    this.disposed = false;
    this.title = h('h1', {}, 'Puzzle');
    this.status = h('div', { class: 'status', 'data-testid': 'status', 'aria-live': 'polite' });
    this.about = h('div', { class: 'muted small', 'data-testid': 'puzzle-about' });
    this.feedback = h('div', { class: 'puzzle-feedback', 'data-testid': 'puzzle-feedback', 'aria-live': 'polite' });
    this.rated = h('div', { 'data-testid': 'puzzle-rated' });
    this.movesEl = h('div', { class: 'moves', 'data-testid': 'moves', 'aria-label': 'moves' });
    this.solutionButton = h('button', { 'data-testid': 'puzzle-solution', onclick: () => this.giveUp() }, 'Show the solution');
    this.nextButton = h('button', { class: 'primary', 'data-testid': 'puzzle-next', onclick: () => this.next() }, 'Next puzzle');
    this.analysisLink = h('a', { class: 'hidden', 'data-testid': 'puzzle-analysis' }, 'Open on the analysis board');
    this.themes = h('div', { class: 'row puzzle-themes', 'data-testid': 'puzzle-themes' });
    this.yourRating = h('p', { class: 'muted small', 'data-testid': 'puzzle-rating' });
  }

  dispose() {
    this.disposed = true;
  }

  async start() {
    app.replaceChildren(
      this.title,
      h('div', { class: 'play' },
        h('div', {}, h('div', { class: 'board-area' }, this.board.el), this.board.hintEl),
        h('div', { class: 'side' },
          this.status, this.about, this.feedback, this.rated, this.movesEl,
          h('div', { class: 'row' }, this.nextButton, this.solutionButton,
            h('button', { onclick: () => this.board.flip() }, 'Flip')),
          this.analysisLink,
          h('h2', {}, 'Themes'), this.themes, this.yourRating,
          h('p', { class: 'muted small' }, 'Every puzzle comes from a real game, and its win is proved by the solver: '
            + 'whatever the opponent does, the winner connects. Another move that also wins is accepted and played on from.'))));
    this.loadSummary();
    const next = new URLSearchParams();
    if (this.theme) next.set('theme', this.theme);
    if (this.after) next.set('after', this.after);
    const path = this.which === 'next'
      ? `/api/puzzles/next?${next}`
      : `/api/puzzles/${encodeURIComponent(this.which)}`;
    /** @type {PuzzleView} */
    const puzzle = await api('GET', path);
    if (this.disposed) return;
    this.puzzle = puzzle;
    if (this.which === 'next') {
      const theme = this.theme ? `?${new URLSearchParams({ theme: this.theme })}` : '';
      history.replaceState(null, '', `/puzzles/${puzzle.id}${theme}`);
    }
    const winner = puzzle.to_move === 'black' ? 'Black' : 'White';
    this.title.textContent = puzzle.day
      ? `Puzzle of the day, ${shortDate(Date.parse(`${puzzle.day}T12:00:00Z`))}` : `Puzzle ${puzzle.id}`;
    this.describe(puzzle);
    this.status.textContent = `${winner} to move and win in ${puzzle.moves}.`;
    // The winner plays up the board.
    if ((puzzle.to_move === 'white') !== this.board.flipped) this.board.flip();
    if (puzzle.tried) {
      this.rated.textContent = `You tried it before (${puzzle.tried.solved ? 'solved' : 'missed'}): this try is not rated.`;
    } else if (!signedIn()) {
      this.rated.replaceChildren(h('span', { class: 'muted small' }, 'Sign in to have your tries rated.'));
    }
    await this.show(this.played, true);
  }

  /**
   * The puzzle's variant, rating, first tries and themes.
   * @param {PuzzleView} puzzle
   */
  describe(puzzle) {
    const variant = variantOf(this.meta, puzzle.variant);
    this.about.replaceChildren(
      `${variant ? variant.title : puzzle.variant} · rating ${puzzle.rating} · `,
      puzzle.plays === 0 ? 'not tried yet' : `solved ${puzzle.wins} of ${puzzle.plays} first tries`,
      puzzle.themes.length ? ` · ${puzzle.themes.join(', ')}` : '');
  }

  /** The puzzle's facts read again: a try just counted moved them. */
  async describeAgain() {
    const p = this.puzzle;
    if (!p) return;
    try {
      /** @type {PuzzleView} */
      const fresh = await api('GET', `/api/puzzles/${encodeURIComponent(p.id)}`);
      if (!this.disposed && this.puzzle === p) this.describe(fresh);
    } catch {
      // The facts shown stay: they are only out of date.
    }
  }

  async loadSummary() {
    try {
      /** @type {PuzzlesSummary} */
      const summary = await api('GET', '/api/puzzles');
      if (this.disposed) return;
      const link = (/** @type {string | null} */ theme, /** @type {string} */ text) => {
        const current = this.which !== 'daily' && (theme || null) === (this.theme || null);
        return h('a', {
          href: theme ? `/puzzles?theme=${theme}` : '/puzzles', class: current ? 'current' : '',
          'data-theme': theme || 'all', title: theme ? THEME_TEXT[theme] ?? '' : '',
        }, text);
      };
      this.themes.replaceChildren(
        link(null, `All (${summary.count})`),
        ...Object.entries(summary.themes).map(([t, n]) => link(t, `${capitalized(t)} (${n})`)),
        h('a', { href: '/puzzles/daily', 'data-theme': 'daily', class: this.which === 'daily' ? 'current' : '' }, 'Puzzle of the day'));
      const r = summary.rating;
      this.yourRating.textContent = r
        // In words, not the `?` of ratingText: beside it the last try's line gives the number bare.
        ? `Your puzzle rating: ${r.rating}${r.provisional ? ' (provisional while it settles)' : ''}, ${r.wins} solved of ${r.plays}.`
        : signedIn() ? 'Your puzzle rating starts at 1500 with your first try.' : '';
    } catch {
      // The themes are a convenience: the puzzle is shown without them.
    }
  }

  /**
   * Shows the position after `moves`; the board takes a move when `interactive`.
   * @param {string[]} moves
   * @param {boolean} interactive
   */
  async show(moves, interactive) {
    const p = this.puzzle;
    if (!p) return;
    /** @type {PositionAnswer} */
    const answer = await api('POST', '/api/position', { variant: p.variant, rules: p.rules, position: p.position, moves });
    if (this.disposed) return;
    /** @type {MoveView | null} */
    let lastMove = null;
    if (moves.length > 0) {
      const before = await describe(p.variant, p.rules, answer.line[answer.line.length - 2]);
      lastMove = before.moves.find((m) => m.text === answer.played[answer.played.length - 1]) ?? null;
    }
    this.board.set(answer, { lastMove, interactive });
    this.drawMoves(moves);
  }

  /** @param {string[]} moves */
  drawMoves(moves) {
    const over = this.state === 'solved' || this.state === 'failed';
    const shown = over ? this.line : moves;
    /** @type {HTMLElement[]} */
    const buttons = [];
    shown.forEach((text, i) => {
      if (i % 2 === 0) buttons.push(h('span', { class: 'num' }, `${i / 2 + 1}.`));
      buttons.push(h('button', {
        class: over && this.ply === i + 1 ? 'current' : '', 'data-ply': i + 1, disabled: !over,
        onclick: () => this.step(i + 1),
      }, text));
    });
    this.movesEl.replaceChildren(...buttons);
  }

  /**
   * Steps through the line once the try is over.
   * @param {number} ply
   */
  async step(ply) {
    this.ply = ply;
    await this.show(this.line.slice(0, ply), false);
  }

  /** @param {string} text */
  async move(text) {
    const p = this.puzzle;
    if (!p || this.state !== 'playing') return;
    this.state = 'waiting';
    const moves = [...this.played, text];
    this.feedback.textContent = '';
    this.feedback.className = 'puzzle-feedback';
    /** @type {PuzzleStep} */
    let step;
    try {
      await this.show(moves, false);
      step = await api('POST', `/api/puzzles/${p.id}/moves`, { moves });
    } catch (err) {
      this.state = 'playing';
      this.feedback.textContent = errorMessage(err);
      await this.show(this.played, true);
      return;
    }
    if (this.disposed) return;
    if (step.rated) this.showRated(step.rated);
    if (step.result === 'right' && step.reply) {
      // Another winning move is taken too, though it may win later than the puzzle says:
      // the try goes on past the moves announced, and says so.
      const winnerMoves = Math.ceil(moves.length / 2);
      this.say('good', winnerMoves >= p.moves
        ? `Right: this way wins too, in more than ${p.moves} ${p.moves === 1 ? 'move' : 'moves'}. Keep going.`
        : 'Right. Keep going.');
      const reply = step.reply;
      await new Promise((resolve) => setTimeout(resolve, REPLY_DELAY_MS));
      if (this.disposed) return;
      this.played = [...moves, reply];
      this.state = 'playing';
      await this.show(this.played, true);
    } else if (step.result === 'solved') {
      this.played = moves;
      this.finish('solved', moves);
      this.say('good', 'Solved!');
    } else if (step.result === 'wrong') {
      this.played = moves;
      this.finish('failed', step.solution || moves);
      this.say('bad', `${text} lets the win go. The winning line is shown: step through it.`);
      await this.step(this.played.length);
    } else {
      this.state = 'playing';
      this.say('', `${text} may win too, but it could not be proved in time. Try another move.`);
      await this.show(this.played, true);
    }
  }

  /**
   * @param {string} tone 'good', 'bad' or ''
   * @param {string} text
   */
  say(tone, text) {
    this.feedback.className = `puzzle-feedback ${tone}`;
    this.feedback.textContent = text;
  }

  /**
   * @param {'solved' | 'failed'} state
   * @param {string[]} line
   */
  finish(state, line) {
    this.state = state;
    this.line = line;
    this.ply = Math.min(this.played.length, line.length);
    this.solutionButton.classList.add('hidden');
    const p = this.puzzle;
    if (p) {
      const params = new URLSearchParams({ variant: p.variant, rules: p.rules, position: p.position, moves: line.join(' '), title: `Puzzle ${p.id}` });
      this.analysisLink.setAttribute('href', `/analysis?${params}`);
      this.analysisLink.classList.remove('hidden');
    }
    this.drawMoves(this.played);
    this.loadSummary();
    this.describeAgain();
  }

  /** @param {import('./types.js').PuzzleTried} t */
  showRated(t) {
    this.rated.replaceChildren(
      'Your puzzle rating: ', h('strong', {}, `${t.rating_after}`),
      h('span', { class: t.change >= 0 ? 'change up' : 'change down', 'data-testid': 'puzzle-rating-change' }, ` (${changeText(t.change)})`));
  }

  /** The solution, given up on: the rest of the line from the position shown. */
  async giveUp() {
    const p = this.puzzle;
    if (!p || this.state !== 'playing') return;
    this.state = 'waiting';
    try {
      /** @type {PuzzleStep} */
      const step = await api('POST', `/api/puzzles/${p.id}/solution`, { moves: this.played });
      if (step.rated) this.showRated(step.rated);
      this.finish('failed', step.solution || this.played);
      this.say('bad', 'The winning line is shown: step through it.');
      await this.step(this.played.length);
    } catch (err) {
      this.state = 'playing';
      this.feedback.textContent = errorMessage(err);
    }
  }

  next() {
    const params = new URLSearchParams();
    if (this.theme) params.set('theme', this.theme);
    if (this.puzzle) params.set('after', this.puzzle.id);
    navigate(`/puzzles?${params}`);
  }
}
