// @ts-check
// The analysis board: any line of any variant, moves played freely into a tree of
// variations, the engine on, a link to the position and "Play from here".

import { api, errorMessage } from './api.js';
import { app, h } from './dom.js';
import { ExplorerPanel } from './explorer.js';
import { navigate } from './navigate.js';
import { GameScreen } from './screen.js';
import { keepTokens } from './seats.js';
import { addChild, depthOf, lineThrough, onMainLine, promote, remove, treeOf } from './tree.js';

/**
 * @typedef {import('./types.js').Created} Created
 * @typedef {import('./types.js').PositionAnswer} PositionAnswer
 * @typedef {import('./tree.js').MoveNode} MoveNode
 */

/**
 * A line to open: its positions, when known, spare asking the server for them.
 * @typedef {{ variant: string, rules: string, start: string, moves: string[], positions?: string[] }} LineSpec
 */

export class AnalysisPage extends GameScreen {
  /**
   * @param {LineSpec} spec
   * @param {string} title
   * @param {number} [ply] the move to show (the last by default)
   */
  constructor(spec, title, ply) {
    super();
    this.spec = spec;
    this.title = title;
    this.viewPly = ply === undefined ? spec.moves.length : ply;
    /** The start; the moves played grow it into a tree. @type {MoveNode | null} */
    this.root = null;
    /** The nodes of the line shown, the root first. @type {MoveNode[]} */
    this.nodes = [];
    this.linkInput = h('input', { readonly: true, 'data-testid': 'share-link', style: 'width:100%' });
    this.linkInput.addEventListener('click', () => this.linkInput.select());
    this.promoteButton = h('button', {
      class: 'hidden', 'data-testid': 'promote', title: 'Move this variation up where it branches off',
      onclick: () => this.promoteHere(),
    }, 'Promote variation');
    this.explorer = new ExplorerPanel((move) => this.tryMove(move));
    this.deleteButton = h('button', {
      class: 'hidden', 'data-testid': 'delete-move', title: 'Delete this move and every move after it',
      onclick: () => this.deleteHere(),
    }, 'Delete from here');
  }

  canMove() {
    return Boolean(this.shown && this.shown.moves.length > 0);
  }

  async start() {
    this.layout();
    const spec = this.spec;
    let { start, positions } = spec;
    if (!positions) {
      /** @type {PositionAnswer} */
      const answer = await api('POST', '/api/position', { variant: spec.variant, rules: spec.rules, position: start, moves: spec.moves });
      positions = answer.line;
      start = answer.line[0];
    }
    this.line = { variant: spec.variant, rules: spec.rules, start, moves: spec.moves, positions, current: null };
    this.root = treeOf(positions, spec.moves);
    this.follow(lineThrough(this.root)[Math.min(this.viewPly, spec.moves.length)]);
    this.setAnalysis(true);
  }

  /**
   * Shows `node`: the line through it (its moves from the start, then its main line on).
   * @param {MoveNode} node
   */
  follow(node) {
    this.errorText = null;
    const l = this.line;
    if (!l) return;
    this.nodes = lineThrough(node);
    this.line = {
      ...l,
      moves: this.nodes.flatMap((n) => (n.move === null ? [] : [n.move])),
      positions: this.nodes.map((n) => n.position),
      current: null,
    };
    this.viewPly = depthOf(node);
  }

  /** The variation of the move shown moves up where it branches off. */
  promoteHere() {
    const here = this.currentNode();
    if (!here) return;
    promote(here);
    this.follow(here);
    this.refresh();
  }

  /** The move shown goes, and every move after it. */
  deleteHere() {
    const here = this.currentNode();
    if (!here || !this.root) return;
    this.follow(remove(here) || this.root);
    this.refresh();
  }

  currentNode() {
    return this.nodes[this.viewPly];
  }

  /**
   * The move list as a tree: the main line, each variation in brackets after the move
   * it replaces; a click shows the line through that move.
   */
  drawMoves() {
    const root = this.root;
    const here = this.currentNode();
    if (!root || !here) return;
    const button = (/** @type {MoveNode} */ node) => h('button', {
      class: node === here ? 'current' : '', 'data-ply': node.parent ? depthOf(node) : null,
      'data-main': onMainLine(node) ? '' : null,
      onclick: () => { this.follow(node); this.refresh(); },
    }, node.move);
    /**
     * @param {MoveNode} node
     * @param {boolean} force whether a Black move needs its number
     */
    const number = (node, force) => {
      const ply = depthOf(node);
      if (ply % 2 === 1) return h('span', { class: 'num' }, `${(ply + 1) / 2}.`);
      return force ? h('span', { class: 'num' }, `${ply / 2}…`) : null;
    };
    /**
     * A line from `first` on; its first move needs its number when it opens a variation.
     * @param {MoveNode} first
     * @param {boolean} opening
     * @returns {HTMLElement[]}
     */
    const lineFrom = (first, opening) => {
      /** @type {HTMLElement[]} */
      const out = [];
      /** @type {MoveNode | undefined} */
      let node = first;
      let force = opening;
      while (node) {
        const num = number(node, force);
        if (num) out.push(num);
        out.push(button(node));
        force = false;
        /** @type {MoveNode | null} */
        const parent = node.parent;
        for (const alternative of parent ? parent.children.slice(1) : []) {
          if (parent?.children[0] !== node) break;
          out.push(h('span', { class: 'variation', 'data-testid': 'variation' }, '(', lineFrom(alternative, true), ')'));
          force = true;
        }
        node = node.children[0];
      }
      return out;
    };
    const start = h('button', { class: here === root ? 'current' : '', onclick: () => { this.follow(root); this.refresh(); } }, 'start');
    this.movesEl.replaceChildren(start, ...(root.children[0] ? lineFrom(root.children[0], false) : []));
    this.movesEl.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
    const inVariation = !onMainLine(here);
    this.promoteButton.classList.toggle('hidden', !inVariation);
    this.deleteButton.classList.toggle('hidden', here === root);
  }

  layout() {
    app.replaceChildren(
      h('h1', {}, this.title),
      h('div', { class: 'play' },
        h('div', {}, h('div', { class: 'board-area' }, this.evalBar, this.board.el), this.board.hintEl),
        h('div', { class: 'side' },
          this.status, this.movesEl,
          h('div', { class: 'row' }, this.promoteButton, this.deleteButton),
          this.analysisEl, this.graphEl,
          h('div', { class: 'row' },
            h('button', { onclick: () => this.board.flip() }, 'Flip (f)'),
            h('button', { onclick: () => this.setAnalysis(!this.analysisOn), 'data-testid': 'analysis-toggle' }, 'Engine on/off'),
            h('button', { onclick: () => this.continueAsGame(), 'data-testid': 'continue' }, 'Play from here'),
            this.moveInput),
          h('label', {}, 'Link to this position'), this.linkInput,
          this.explorer.el)));
  }

  /**
   * The explorer follows the position shown.
   * @param {number} ply
   */
  onShown(ply) {
    const l = this.line;
    if (!l) return;
    this.explorer.show({ variant: l.variant, rules: l.rules, position: l.start, moves: l.moves.slice(0, ply) });
  }

  updateStatus() {
    const v = this.shown;
    const l = this.line;
    if (!v || !l) return;
    const side = v.to_move === 'black' ? 'Black' : 'White';
    this.status.textContent = v.outcome
      ? `${v.outcome.result} by ${v.outcome.reason}`
      : `${side} to move · move ${this.viewPly} of ${l.moves.length}${this.errorText ? ` · ${this.errorText}` : ''}`;
    const params = new URLSearchParams({ variant: l.variant, rules: l.rules, position: l.start });
    if (this.viewPly > 0) params.set('moves', l.moves.slice(0, this.viewPly).join(' '));
    this.linkInput.value = `${location.origin}/analysis?${params}`;
  }

  /** @param {string} text */
  async tryMove(text) {
    const view = this.shown;
    const l = this.line;
    const node = this.currentNode();
    if (!view || !l || !node) return;
    this.errorText = null;
    // A move off the line starts a variation; the line is kept. A move typed in another
    // form the server reads (`b1b3`, `d1:a4`) is taken in the server's own text.
    const moves = l.moves.slice(0, this.viewPly);
    try {
      const found = view.moves.find((m) => m.text === text);
      const known = found && node.children.find((c) => c.move === found.text);
      let move = found ? found.text : text;
      let position = known ? known.position : null;
      if (!position) {
        /** @type {PositionAnswer} */
        const answer = await api('POST', '/api/position', { variant: l.variant, rules: l.rules, position: l.start, moves: [...moves, text] });
        move = answer.played[moves.length];
        position = answer.line[moves.length + 1];
      }
      this.follow(addChild(node, move, position));
    } catch (err) {
      this.errorText = errorMessage(err);
    }
    if (this.analysisOn) this.loadGraph();
    await this.refresh();
  }

  async continueAsGame() {
    const l = this.line;
    if (!l) return;
    try {
      /** @type {Created} */
      const created = await api('POST', '/api/games', {
        variant: l.variant, rules: l.rules, position: l.start, moves: l.moves.slice(0, this.viewPly),
        black: 'human', white: 'human',
      });
      keepTokens(created.id, created.tokens);
      navigate(`/game/${created.id}`);
    } catch (err) {
      this.errorText = errorMessage(err);
      this.updateStatus();
    }
  }
}
